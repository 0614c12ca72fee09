"""Helpers for the Streamlit app (`app.py`): pure functions, no Streamlit calls except in `app.py`.

`case` turns the tile table the user edits into the scoring input and the case JSON;
`art` draws tile pictures and the annotated photo; `options` describes the option widgets.
"""
