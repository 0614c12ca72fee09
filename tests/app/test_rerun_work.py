"""What a rerun does not do again: the labelled photo and the tile pictures are drawn and encoded once
for what they show (`app_ui.picture_bytes`), and the *Add a missed tile* box names the tile set once.

Streamlit reruns the whole page on every click; a click that moves no tile (a seat, a self-draw, a
special circumstance) drew both pictures again (a third of a rerun with a 12 MP photo). Counted here,
not timed: a count does not depend on the machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from PIL import Image
from streamlit.elements.lib import image_utils
from streamlit.testing.v1 import AppTest

import app_ui.art
import app_ui.picture_bytes
import app_ui.tile_editor
from app_ui.art import annotate_photo, hand_picture
from app_ui.case import HAND, TileRow
from app_ui.hand_view import DRAWN_PHOTO
from app_ui.picture_bytes import (
    PHOTO_QUALITY,
    drawn_photo,
    frozen_blocks,
    jpeg_bytes,
    png_bytes,
    tile_pictures_png,
)
from tests.app.fakes import FakeReader, photo_bytes, scene

Install = Callable[[FakeReader | None], None]


class Calls:
    """How many times a patched function ran."""

    def __init__(self) -> None:
        self.count = 0


def counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> Calls:
    """`owner.name` patched to count its runs (and still do its work)."""
    calls = Calls()
    original = getattr(owner, name)

    def run(*args: Any, **kwargs: Any) -> Any:
        calls.count += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, run)
    return calls


@pytest.fixture(autouse=True)
def _no_pictures_kept() -> Iterator[None]:
    # the tile pictures are kept per process: a hand another test drew is not drawn again here
    tile_pictures_png.cache_clear()
    yield
    tile_pictures_png.cache_clear()


def picture_urls(at: AppTest) -> list[str]:
    """The media addresses of the pictures on the page (named by their bytes' hash), the photo's first."""

    def elements(node: Any) -> Iterator[Any]:
        yield node
        for child in getattr(node, "children", {}).values():
            yield from elements(child)

    return [img.url for element in elements(at.main) for img in getattr(element.proto, "imgs", [])]


def test_a_click_that_moves_no_tile_draws_neither_picture_again(
    app: AppTest, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(FakeReader({90: scene()}))
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(shade=90), "image/jpeg")
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    shown = picture_urls(app)
    assert len(shown) == 2, shown  # the labelled photo and the tile pictures
    # counted where each picture is drawn (`annotate_photo` and `hand_picture` call these)
    photo_drawn = counted(monkeypatch, app_ui.art, "annotate_photo_and_labels")
    tiles_drawn = counted(monkeypatch, app_ui.art, "place_blocks")
    app.selectbox(key="seat_wind").set_value("S").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    app.multiselect(key="circumstances").set_value(["last_tile"]).run()
    assert not app.exception, [e.value for e in app.exception]
    assert (photo_drawn.count, tiles_drawn.count) == (0, 0)
    assert picture_urls(app) == shown  # the same bytes sent: the browser fetches nothing new
    # a tile changed: both drawn again, once
    app.session_state[f"tiles_{app.session_state['version']}"] = {
        "edited_rows": {"0": {"tile": "9m"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    assert (photo_drawn.count, tiles_drawn.count) == (1, 1)
    now = picture_urls(app)
    assert now[0] != shown[0] and now[1] != shown[1], (now, shown)


def test_a_typed_hand_lets_go_of_the_photo_s_drawing(app: AppTest, install: Install) -> None:
    install(FakeReader({90: scene()}))
    app.file_uploader(key="upload").upload("hand.jpg", photo_bytes(shade=90), "image/jpeg")
    app.run()
    assert DRAWN_PHOTO in app.session_state
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    assert not app.exception, [e.value for e in app.exception]
    assert DRAWN_PHOTO not in app.session_state  # no photo on the page: its copy is not held for it


def test_the_add_a_tile_box_names_the_tile_set_once_a_run(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.text_input(key="typed_concealed").input("123m 456p 789s 22m").run()
    app.text_input(key="typed_melds").input("CCC").run()
    app.button(key="typed_use").click().run()
    assert not app.exception, [e.value for e in app.exception]
    named = counted(monkeypatch, app_ui.tile_editor, "chosen_set")
    app.selectbox(key="seat_wind").set_value("S").run()
    assert not app.exception, [e.value for e in app.exception]
    # the tile key's caption and the box's faces: once each (it was once per code of the 49, each
    # reading the sidebar's options)
    assert named.count == 2, named.count
    assert "add_tile_" in " ".join(str(box.key) for box in app.selectbox)


def a_photo(width: int = 320, height: int = 240) -> np.ndarray:
    rng = np.random.default_rng(7)
    return rng.integers(0, 256, (height, width, 3), dtype=np.uint8)


ROWS = [
    TileRow("1m", HAND, 0.95, (10.0, 10.0, 50.0, 65.0)),
    TileRow("2m", HAND, 0.4, (52.0, 10.0, 92.0, 65.0)),
]


def test_the_pictures_are_the_bytes_streamlit_would_have_encoded() -> None:
    # the same bytes as `st.image` made of the picture itself: the page shows exactly what it did
    photo = annotate_photo(a_photo(), ROWS)
    assert jpeg_bytes(photo) == image_utils._pil_to_bytes(photo, "JPEG")
    assert jpeg_bytes(photo, PHOTO_QUALITY) == image_utils._pil_to_bytes(photo, "JPEG", PHOTO_QUALITY)
    tiles = hand_picture([("hand", ["1m", "2m"], False), ("meld 1 kong", ["C"] * 4, True)])
    assert tiles is not None and tiles.mode == "RGBA"
    assert png_bytes(tiles) == image_utils._pil_to_bytes(tiles, "PNG")
    # a picture Streamlit would flatten for a JPEG is flattened as it would be
    with_alpha = Image.new("RGBA", (8, 8), (10, 20, 30, 128))
    assert jpeg_bytes(with_alpha) == image_utils._pil_to_bytes(with_alpha, "JPEG")


def test_the_photo_is_drawn_again_only_for_new_marks_or_another_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = counted(monkeypatch, app_ui.picture_bytes, "annotate_photo")
    photo = a_photo()
    first = drawn_photo(None, photo, ROWS, {}, [1, 2], [])
    expected = jpeg_bytes(annotate_photo(photo, ROWS, {}, [1, 2], []), PHOTO_QUALITY)
    assert drawn.count == 1 and first.jpeg == expected
    # the same copy and marks (equal, not the same lists): the run before's bytes
    again = drawn_photo(first, photo, list(ROWS), {}, [1, 2], [])
    assert again is first and drawn.count == 1
    # each mark drawn: a tile's face, its confidence, its number, a meld's kind, a box left out
    for rows, kinds, numbers, left_out in (
        ([ROWS[0], TileRow("3m", HAND, 0.4, ROWS[1].box)], {}, [1, 2], []),
        ([ROWS[0], TileRow("2m", HAND, 0.9, ROWS[1].box)], {}, [1, 2], []),
        (ROWS, {}, [1, 7], []),
        (ROWS, {"meld 1": "pong"}, [1, 2], []),
        (ROWS, {}, [1, 2], [(100.0, 100.0, 140.0, 155.0)]),
    ):
        before = drawn.count
        other = drawn_photo(first, photo, rows, kinds, numbers, left_out)
        assert other is not first and drawn.count == before + 1, (rows, kinds, numbers, left_out)
    # another copy (a new photo, or the whole photo for its tiles' part) is drawn, whatever its pixels
    before = drawn.count
    assert drawn_photo(first, photo.copy(), ROWS, {}, [1, 2], []) is not first
    assert drawn.count == before + 1


def test_a_hand_s_tile_pictures_are_drawn_once_and_kept_within_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = counted(monkeypatch, app_ui.picture_bytes, "hand_picture")
    blocks = [("hand", ["1m", "2m", "3m"], False), ("bonus", ["F1"], False)]
    first = tile_pictures_png(frozen_blocks(blocks))
    assert first is not None and drawn.count == 1
    picture = hand_picture(blocks)
    assert picture is not None and first == png_bytes(picture)
    assert tile_pictures_png(frozen_blocks([(label, list(codes), c) for label, codes, c in blocks])) is first
    assert drawn.count == 1
    assert tile_pictures_png(frozen_blocks([("hand", ["1m"], False)])) != first and drawn.count == 2
    assert tile_pictures_png(()) is None
    maxsize = tile_pictures_png.cache_info().maxsize
    assert maxsize is not None and maxsize <= 64  # shared by every session: bounded


def test_the_labelled_photo_is_sent_at_a_phone_s_size() -> None:
    # a phone photo's 1280 px copy at Streamlit's quality 100 was 0.35-0.75 MB, sent again on each tile
    # corrected; at 90 under half of it even for pure noise (the worst case: real photos, under a third)
    photo = annotate_photo(a_photo(1280, 960), ROWS)
    assert len(jpeg_bytes(photo, PHOTO_QUALITY)) * 2 < len(jpeg_bytes(photo))
    assert 85 <= PHOTO_QUALITY < 100
