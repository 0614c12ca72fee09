"""A correction that breaks the set, and the offer to read the tiles it leaves one too many again
(`app_ui.set_offer`): which tiles move, which never do, its words, and the page's button."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from app_ui.case import Base, TileRow
from app_ui.hand_view import left_out_caption
from app_ui.set_offer import (
    LEAST_OFFERED,
    Move,
    SetOffer,
    button_label,
    held_too_often,
    offer_line,
    over_line,
    read_of,
    set_offer,
)
from app_ui.summary import correction_words
from app_ui.table_edits import take_codes
from tests.app.fakes import FakeReader, photo_bytes, scene
from tests.app.test_app import edit_tiles, image_captions
from vision.classes import CLASS_INDEX, CLASSES
from vision.tile_set import COPIES_IN_SET

Install = Callable[[FakeReader], None]
Table = tuple[list[TileRow], dict]


def odds(**faces: float) -> np.ndarray:
    """A reading's probabilities: the faces given, the rest spread evenly."""
    row = np.zeros(len(CLASSES))
    for code, p in faces.items():
        row[CLASS_INDEX[code]] = p
    rest = [k for k in range(len(CLASSES)) if row[k] == 0]
    row[rest] = (1.0 - row.sum()) / len(rest)
    return row


def box(k: int) -> tuple[float, float, float, float]:
    return (10.0 * k, 0.0, 10.0 * k + 9, 12.0)


def season_rows(first: str, second: str) -> tuple[list[TileRow], dict]:
    """Two seasons in the bonus row, as the reader read them (S2, then S1: the surer tile took the one
    S1), the table's rows with the codes given."""
    read = {box(1): ("S2", odds(S1=0.5, S2=0.2)), box(2): ("S1", odds(S1=0.6, S2=0.3))}
    rows = [TileRow(first, "bonus", box=box(1)), TileRow(second, "bonus", box=box(2))]
    return rows, read


def test_the_tile_left_holding_the_copy_the_user_took_is_offered_its_next_face() -> None:
    rows, read = season_rows("S1", "S1")  # the user corrected #1 to S1
    offer = set_offer(rows, read)
    assert offer is not None
    assert offer.over == (("S1", 2),)
    assert offer.codes == {2: "S2"}
    assert offer.moves == (Move(2, "S1", "S2", 0.6, 0.3),)  # the reader's S1 and S2 for #2
    assert button_label(offer) == "Take #2 as S2"
    assert offer_line(offer) == (
        "The tiles no longer keep to one set: 2 tiles read S1 (a set has one). Check #2 (the reader "
        "took it for S1, 0.60): read again with your tiles as you set them, the reader would take #2 as "
        "S2 (0.30)."
    )


def test_no_offer_where_the_table_keeps_to_the_set() -> None:
    rows, read = season_rows("S2", "S1")  # as read
    assert held_too_often(rows) == {}
    assert set_offer(rows, read) is None
    rows, read = season_rows("S1", "S2")  # both corrected: right and within the set
    assert set_offer(rows, read) is None


def test_the_users_own_tiles_are_never_moved() -> None:
    rows, read = season_rows("S1", "S1")
    added = TileRow("S1", "bonus")  # a third S1 the user added: theirs, and it breaks the set alone
    assert set_offer([*rows[:1], added], read) is None
    # the second tile corrected too (to S1, as it was read): both S1 are the user's
    corrected = {box(1): read[box(1)], box(2): ("S2", read[box(2)][1])}
    assert set_offer(rows, corrected) is None


def test_tiles_left_out_of_the_hand_count_for_nothing() -> None:
    rows, read = season_rows("S1", "S1")
    rows[1] = TileRow("S1", "ignore", box=box(2))
    assert set_offer(rows, read) is None


def test_a_concealed_kongs_face_down_tiles_count_as_copies_of_its_face() -> None:
    # the reader took a concealed kong for 6p (two faces, two backs) and the user set its faces to 5p:
    # with the hand's 5p that is five copies, two of them face down, so the hand's 5p is offered its 6p
    faces = ["back", "6p", "6p", "back"]
    read = {box(k): (code, odds(**{code: 0.9})) for k, code in enumerate(faces, 10)}
    read[box(1)] = ("5p", odds(**{"5p": 0.5, "6p": 0.4}))
    kong = [TileRow("5p" if code == "6p" else code, "meld 1", box=box(k)) for k, code in enumerate(faces, 10)]
    rows = [TileRow("5p", "hand", box=box(1)), *kong]
    assert held_too_often(rows) == {"5p": 5}
    offer = set_offer(rows, read)
    assert offer is not None and offer.codes == {1: "6p"} and offer.backs == (("5p", 2),)
    assert offer_line(offer).startswith(
        "The tiles no longer keep to one set: 5 tiles read 5p, 2 of them a concealed kong's face-down "
        "tiles (a set has 4). Check #1"
    )
    # a kong whose face is not yet set stands for no face: its backs count for nothing
    unset = [
        TileRow("5p", "hand", box=box(1)),
        *(TileRow("back", "meld 1", box=box(k)) for k in (10, 11, 12, 13)),
    ]
    assert held_too_often(unset) == {}


def test_a_set_broken_with_no_offer_names_the_tiles_that_break_it() -> None:
    # stage 71 (an audit): "2 copies of S1, but the set has only 1" named no tile, and nothing was offered
    rows, _ = season_rows("S1", "S1")
    added = TileRow("S1", "bonus")  # the user's third S1: no offer moves the user's own tiles
    assert over_line([*rows, added]) == (
        "The tiles do not keep to one set: #1, #2 and #3 are S1 (3 tiles; a set has one). Check them and "
        "correct the misread ones."
    )
    assert over_line(rows[:1]) is None
    left_out = [rows[0], TileRow("S1", "ignore", box=box(2))]  # another player's tile counts for nothing
    assert over_line(left_out) is None
    # a concealed kong's backs count as copies of its face, and are said so
    kong = [TileRow(code, "meld 1") for code in ("back", "5p", "5p", "back")]
    rows = [TileRow("5p", "hand", number=7), *kong]
    assert over_line(rows) == (
        "The tiles do not keep to one set: #7, #3, #4 and a concealed kong's 2 face-down tiles are 5p "
        "(5 tiles; a set has 4). Check them and correct the misread ones."
    )


def test_no_offer_of_a_face_the_reader_all_but_ruled_out() -> None:
    read = {box(1): ("S2", odds(S1=0.5, S2=0.2)), box(2): ("S1", odds(S1=0.97))}
    rows = [TileRow("S1", "bonus", box=box(1)), TileRow("S1", "bonus", box=box(2))]
    offer = set_offer(rows, read)
    assert offer is None  # every other face of #2 under LEAST_OFFERED
    assert (1 - 0.97) / (len(CLASSES) - 1) < LEAST_OFFERED


def test_a_set_without_the_face_offered_is_kept_to() -> None:
    read = {
        box(1): ("5p", odds(**{"5p": 0.5, "5s": 0.4})),
        **{box(k): ("5p", odds(**{"5p": 0.6, "5s": 0.3, "6p": 0.08})) for k in range(2, 6)},
    }
    rows = [TileRow("5p", "hand", box=box(k)) for k in range(1, 6)]
    rows[0] = TileRow("5p", "hand", box=box(1))  # #1 corrected? no: five 5p as read break the set too
    offer = set_offer(rows, read)
    assert offer is not None and list(offer.codes.values()) == ["5s"]
    malaysian = set_offer(rows, read, faces=frozenset(CLASSES) - {"5s"})
    assert malaysian is not None and list(malaysian.codes.values()) == ["6p"]


def test_read_of_finds_each_tile_by_its_box_over_the_sets_faces() -> None:
    xyxy = np.array([box(1), box(2)], np.float32)
    probabilities = np.stack([odds(S1=0.5, S2=0.2), odds(S1=0.6, S2=0.3)]).astype(np.float32)
    x1, y1, x2, y2 = (float(v) for v in xyxy[0])
    photo = [TileRow("S2", "bonus", box=(x1, y1, x2, y2)), TileRow("S1", "bonus", box=None)]
    read = read_of(photo, xyxy, probabilities, faces=frozenset({"S1", "S2", "back"}))
    assert list(read) == [photo[0].box]
    code, row = read[photo[0].box]  # type: ignore[index]
    assert code == "S2" and np.isclose(row.sum(), 1.0)  # spread over S1, S2 and back only
    assert np.isclose(row[CLASS_INDEX["S1"]] / row[CLASS_INDEX["S2"]], 0.5 / 0.2)
    assert np.count_nonzero(row) == 3


CODES = ["S1", "S2", "S3", "5p", "5s", "C", "F1"]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    n = draw(st.integers(2, 9))
    read, rows = {}, []
    for k in range(1, n + 1):
        weights = draw(st.lists(st.floats(0.01, 1.0), min_size=len(CODES), max_size=len(CODES)))
        probabilities = np.zeros(len(CLASSES))
        probabilities[[CLASS_INDEX[c] for c in CODES]] = weights
        probabilities /= probabilities.sum()
        as_read = CODES[int(np.argmax(weights))]
        read[box(k)] = (as_read, probabilities)
        code = draw(st.sampled_from([as_read, *CODES]))  # as read, or the user's correction
        rows.append(TileRow(code, draw(st.sampled_from(["hand", "bonus", "ignore"])), box=box(k)))
    return rows, read


@settings(max_examples=200, deadline=None)
@given(tables())
def test_an_offer_moves_only_tiles_as_read_and_taken_keeps_to_the_set(table: Table) -> None:
    rows, read = table
    offer = set_offer(rows, read)
    if offer is None:
        return
    for move in offer.moves:
        row = rows[move.number - 1]
        assert read[row.box][0] == row.code == move.code_now != move.code and row.group != "ignore"
        assert move.p_offered >= LEAST_OFFERED
    taken = [TileRow(offer.codes.get(n, r.code), r.group, box=r.box) for n, r in enumerate(rows, start=1)]
    assert held_too_often(taken) == {}
    counts = Counter(r.code for r in taken if r.group != "ignore")
    assert all(n <= COPIES_IN_SET[c] for c, n in counts.items())


def test_taking_the_offer_is_written_down_as_asked() -> None:
    rows = (TileRow("S2", "bonus", box=box(1)), TileRow("S1", "bonus", box=box(2)))
    base = Base(rows=rows, source="photo")
    edits = {"edited_rows": {"0": {"tile": "S1"}}, "added_rows": [], "deleted_rows": []}
    offer = SetOffer(over=(("S1", 2),), moves=(Move(2, "S1", "S2", 0.6, 0.3),))
    taken = take_codes(base, edits, offer.codes, "set offer")
    assert [r.code for r in taken.rows] == ["S1", "S2"]
    trail = list(taken.earlier)
    assert trail == [
        {"action": "change", "tile": 1, "from": "S2", "to": "S1"},
        {"action": "change", "tile": 2, "from": "S1", "to": "S2", "by": "set offer"},
    ]
    assert correction_words(dict(trail[1])) == "#2 S1 → S2 (to keep to one set, asked)"


# the bonus row read S2 then S1: the reader's S1 went to the surer tile (#14 0.6 against #13 0.5)
SEASONS = scene(bonus=["S2", "S1"])


def seasons_odds() -> np.ndarray:
    rows = [odds(**{code: 0.9}) for code in SEASONS.codes]
    rows[-2], rows[-1] = odds(S1=0.5, S2=0.2), odds(S1=0.6, S2=0.3)
    return np.stack(rows)


def test_the_page_offers_the_tile_a_correction_crowds_out(app: AppTest, install: Install) -> None:
    install(FakeReader({90: SEASONS}, probabilities=seasons_odds()))
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    labels = [b.label for b in app.button if b.key and b.key.startswith("set_offer_")]
    assert labels == []
    numbers = [r.code for r in app.session_state["base"].rows]
    s2 = numbers.index("S2")
    edit_tiles(app, {"edited_rows": {str(s2): {"tile": "S1"}}, "added_rows": [], "deleted_rows": []})
    assert not app.exception, [e.value for e in app.exception]
    s1 = numbers.index("S1") + 1
    infos = [str(i.value) for i in app.info]
    assert any(f"Check #{s1} (the reader took it for S1, 0.60)" in t for t in infos), infos
    version = app.session_state["version"]
    assert [b.label for b in app.button if b.key == f"set_offer_{version}"] == [f"Take #{s1} as S2"]
    app.button(key=f"set_offer_{version}").click().run()
    assert not app.exception, [e.value for e in app.exception]
    codes = [r.code for r in app.session_state["base"].rows]
    assert codes[s2] == "S1" and codes[s1 - 1] == "S2"
    assert not [b for b in app.button if b.key and b.key.startswith("set_offer_")]
    case = json.loads(json.dumps(app.session_state["case_json"]))
    taken = {"action": "change", "tile": s1, "from": "S1", "to": "S2", "by": "set offer"}
    assert taken in case["corrections"]
    assert sorted(case["bonus"]) == ["S1", "S2"]
    # a step back: the table as the user had made it, and the offer again
    app.button(key="undo_last").click().run()
    assert not app.exception, [e.value for e in app.exception]
    version = app.session_state["version"]
    assert [b.label for b in app.button if b.key == f"set_offer_{version}"] == [f"Take #{s1} as S2"]
    app.button(key="undo").click().run()  # all the way back: the photo's reading, nothing to offer
    assert [r.code for r in app.session_state["base"].rows] == numbers
    assert not [b for b in app.button if b.key and b.key.startswith("set_offer_")]


def test_the_photos_caption_says_what_the_dashed_boxes_are_where_the_reader_left_some_out(
    app: AppTest, install: Install
) -> None:
    install(FakeReader({90: SEASONS}, left_out=np.array([[500.0, 100.0, 540.0, 155.0]], np.float32)))
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    caption = image_captions(app)[0]
    assert caption.endswith(
        "Grey dashed boxes: left out by the reader (no tile there, or cut by the edge); add "
        "any tile there in the table."
    ), caption
    install(FakeReader({30: SEASONS}))  # a reading that left nothing out: nothing to explain
    app.file_uploader(key="upload").upload("other.jpg", photo_bytes(shade=30), "image/jpeg")
    app.run()
    assert "Grey dashed" not in image_captions(app)[0]


def test_the_caption_counts_left_out_boxes_outside_the_part_shown() -> None:
    assert left_out_caption(0, 0) == ""
    assert left_out_caption(1, 0).startswith(" Grey dashed boxes: left out by the reader")
    assert (
        left_out_caption(0, 1)
        == " The reader left out 1 box outside this part: Show the whole photo to see it."
    )
    assert left_out_caption(2, 3).endswith(
        "left out 3 more boxes outside this part: Show the whole photo to see them."
    )


def test_the_page_names_the_tiles_of_a_typed_hand_corrected_out_of_the_set(app: AppTest) -> None:
    # a typed hand has no reading to offer from: the page names the tiles the scoring counts too often
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.text_input(key="typed_bonus").input("S1 S2").run()
    app.button(key="typed_use").click().run()
    assert not app.exception, [e.value for e in app.exception]
    assert not any("do not keep to one set" in str(i.value) for i in app.info)
    codes = [r.code for r in app.session_state["base"].rows]
    s2 = codes.index("S2")
    edit_tiles(app, {"edited_rows": {str(s2): {"tile": "S1"}}, "added_rows": [], "deleted_rows": []})
    assert not app.exception, [e.value for e in app.exception]
    said = (
        f"The tiles do not keep to one set: #{codes.index('S1') + 1} and #{s2 + 1} are S1 (2 tiles; a set "
        "has one). Check them and correct the misread ones."
    )
    assert said in [str(i.value) for i in app.info], [str(i.value) for i in app.info]
