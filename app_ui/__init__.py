"""Helpers for the Streamlit app (`app.py`): pure functions in most modules; the page's panels
(`rules_panel`, `context_panel`, `result_panel`) and `widget_memory` call Streamlit, as `app.py`
does.

`case` turns the tile table the user edits into the scoring input and the case JSON;
`art` draws tile pictures and the annotated photo; `options` describes the option widgets.
"""
