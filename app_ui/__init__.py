"""The Streamlit app's modules (`app.py` composes the page from them), one per concept.

The page's parts call Streamlit: the sidebar (`rules_panel`), the three ways in (`photo_tab`,
`typed_tab`, `case_tab`), the hand shown (`hand_view`), the tile table (`tile_editor`), *How was it
won?* (`context_panel`) and the result (`result_panel`); so do the session behind them (`session`,
`new_hand`, `questions`, `photo_reading`, `reader_slot`, `address`, `reload`, `widget_memory`).

The rest are pure: the case's values (`case`), the table's edits (`table_edits`), the hand built from
the rows (`hand_build`), a reading as rows (`photo_rows`), tile sets (`tile_sets`), the case file
written and opened (`case_file`, `case_open`), and the words, pictures and options (`summary`, `art`,
`photo_view`, `options`, ...).
"""
