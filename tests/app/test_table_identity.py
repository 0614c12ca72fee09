"""Why the tile table starts again (and the browser's focus leaves it) when a tile read from the photo
is given another face: its *Sure?* cell must then say "yours", which is the table's data, and Streamlit
gives a data editor that adds and deletes rows (`num_rows="dynamic"`, as the tile table does) an
identity made from its data, whatever its key. A new identity is a new widget in the browser (its edits
gone, its focus lost), so the app folds the edits into the rows and starts the table again under a new
key (`session.settle_corrected_tiles`); keeping the key would keep neither. Only an editor of fixed rows
keeps its identity through a changed value. Should Streamlit change that, this test says so, and the
table could keep its key where its rows stay the same (docs/app.md, the tile table)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest


def _editor() -> None:
    import pandas as pd
    import streamlit as st

    face = st.session_state.get("face", "5p")
    rows = st.session_state.get("rows", "dynamic")
    st.data_editor(
        pd.DataFrame({"tile": [face, "1m"], "check": ["⚠ 40%", "95%"]}), key="tiles_1", num_rows=rows
    )


def _identity(at: AppTest) -> str:
    return str(at.get("dataframe")[0].proto.id)


@pytest.mark.parametrize(("rows", "kept"), [("dynamic", False), ("fixed", True)])
def test_a_data_editor_s_identity_follows_its_data_unless_its_rows_are_fixed(rows: str, kept: bool) -> None:
    at = AppTest.from_function(_editor)
    at.session_state["rows"] = rows
    at.run()
    before = _identity(at)
    at.session_state["face"] = "4m"  # one face changed, the same key
    at.run()
    assert not at.exception
    assert (_identity(at) == before) is kept
