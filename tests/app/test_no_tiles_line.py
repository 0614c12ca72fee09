"""The line for a photo with no tile on it says why in words a player reads, not the reader's count of
refused boxes beside "no tiles were found" (an audit, stage 81: it read as a contradiction)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from streamlit.testing.v1 import AppTest

from app_ui.hand_view import notes_to_say
from app_ui.photo_reading import NO_TILES_FOUND, far_off_may_be_why, no_tiles_line
from tests.app.conftest import captions
from tests.app.fakes import FakeReader, photo_bytes, scene
from tests.app.test_app import image_captions
from vision.detections import Detections


def test_refused_boxes_are_said_as_shapes_that_held_no_tile_face() -> None:
    warnings = [NO_TILES_FOUND, "left out 19 boxes that hold no tile, at (445, 199), (12, 40), ..."]
    line = no_tiles_line("cat.jpg", warnings)
    assert line == (
        "cat.jpg: no tiles were found on the photo (19 shapes looked like tiles at first, and none held a "
        "tile face): is it a photo of a mahjong hand? If it is, and the hand lies far off in it, take it "
        "closer or crop it to the hand. The hand on the page is kept."
    )
    assert "1 shape looked" in no_tiles_line("x.png", ["left out 1 box that holds no tile, at (1, 2)"])


def test_another_reason_is_quoted_as_the_reader_says_it() -> None:
    line = no_tiles_line("dark.jpg", [NO_TILES_FOUND, "the photo is very dark"])
    assert "(the photo is very dark)" in line
    assert no_tiles_line("blank.png", [NO_TILES_FOUND]).startswith(
        "blank.png: no tiles were found on the photo:"
    )


def test_boxes_cut_by_the_edge_are_said_as_shapes_too_cut_to_read() -> None:
    warnings = [
        NO_TILES_FOUND,
        "left out 2 boxes at the photo's edge, too cut to read as a tile, at (1, 2)",
    ]
    assert "(2 shapes at the photo's edge looked like tiles, too cut off to read)" in no_tiles_line(
        "e.jpg", warnings
    )


def test_a_reason_of_the_light_is_not_told_to_come_closer() -> None:
    # a whole table's photo, the hand a tenth of its width, had only been asked whether it showed a hand
    # (an audit, stage 83); a photo too dark or all white has its own advice, and closer is not it
    assert "take it closer" in no_tiles_line("table.jpg", [NO_TILES_FOUND])
    assert "take it closer" not in no_tiles_line("dark.jpg", [NO_TILES_FOUND, "the photo is very dark"])


def test_shapes_cut_by_the_edge_are_not_told_to_come_closer() -> None:
    # closer cuts more off (a review, stage 83); shapes refused as holding no face may be a far-off hand
    cut = [NO_TILES_FOUND, "left out 2 boxes at the photo's edge, too cut to read as a tile, at (1, 2)"]
    assert "take it closer" not in no_tiles_line("e.jpg", cut)
    assert not far_off_may_be_why(cut)
    assert far_off_may_be_why(
        [NO_TILES_FOUND, "left out 2 boxes that hold no tile: dashed grey on the photo"]
    )
    assert not far_off_may_be_why([NO_TILES_FOUND, "the photo is all white: no tiles can be seen in it"])


def test_the_photos_caption_says_closer_only_where_the_reader_would() -> None:
    from app_ui.hand_view import photo_caption

    assert "take it closer" in photo_caption("t.jpg", [], False, far_off=True)
    assert photo_caption("w.png", [], False, far_off=False).endswith("(If so, add them in Check the tiles.)")


def test_a_blurred_photo_is_told_so_not_asked_whether_it_shows_a_hand() -> None:
    # a strong shake or a missed focus leaves (almost) no tile found: the reader says so (stage 84), and
    # the page no longer asks whether it is a photo of a mahjong hand, nor to come closer
    from app_ui.hand_view import photo_caption
    from app_ui.photo_reading import blur_why
    from vision.sharpness import WHOLE_BLURRED_LINE, WHOLE_SHAKEN_LINE

    shaken = [NO_TILES_FOUND, WHOLE_SHAKEN_LINE]
    line = no_tiles_line("shaken.jpg", shaken)
    assert line == (
        f"shaken.jpg: no tiles were found on the photo: {WHOLE_SHAKEN_LINE}. The hand on the page is kept."
    )
    assert "mahjong hand" not in line and not far_off_may_be_why(shaken)
    assert blur_why([NO_TILES_FOUND, "left out 2 boxes that hold no tile, at (1, 2)", WHOLE_BLURRED_LINE])
    assert blur_why([NO_TILES_FOUND]) is None
    caption = photo_caption("soft.jpg", [], False, blurred=WHOLE_BLURRED_LINE)
    assert "mahjong hand" not in caption and WHOLE_BLURRED_LINE in caption


def test_the_readers_no_tiles_found_is_not_listed_under_the_caption_that_says_it() -> None:
    # an audit (stage 87): a bare table's photo said "no tiles found" in its caption, then again as the
    # reader's only note, then "Read 0 tiles"
    assert notes_to_say([NO_TILES_FOUND]) == []
    assert notes_to_say([NO_TILES_FOUND, "the photo is very dark"]) == ["the photo is very dark"]
    offer = "tiles 12-14 may be a meld read the other way"
    assert notes_to_say([offer, "glare on tile 3"], answered=offer) == ["glare on tile 3"]
    assert notes_to_say([offer]) == [offer]


class _BareReader(FakeReader):
    """A reader that finds no tile and says so, as `vision.pipeline` does."""

    def settle(self, seen: Detections, faces: Any = None) -> Any:
        reading = super().settle(seen, faces)
        return dataclasses.replace(reading, warnings=(NO_TILES_FOUND, *reading.warnings))


def test_a_photo_with_no_tiles_says_so_once(
    app: AppTest, install: Callable[[FakeReader | None], None]
) -> None:
    install(_BareReader({30: scene([], [], [])}))
    app.file_uploader(key="upload").upload("bare.jpg", photo_bytes(shade=30), "image/jpeg")
    app.run()
    assert not app.exception
    notes = [str(w.value) for w in app.warning if "The reader says" in str(w.value)]
    assert not any(NO_TILES_FOUND in note for note in notes), notes
    # the photo's caption says it, with what to do
    assert any("no tiles found on the photo" in c for c in captions(app) + image_captions(app))
