"""The page's two pictures as the bytes `st.image` sends, each drawn and encoded once for what it shows.

Streamlit reruns the whole page on every click, and most clicks (a seat, a self-draw, a special
circumstance, a house rule) change neither the tiles nor their groups. Drawn and encoded again on each
rerun, the labelled photo and the tile pictures took about a third of it (measured on the 2-core
machine with a 12 MP photo: the photo's labels ~10 ms, its JPEG 10-30 ms, the tile pictures' PNG
~5 ms, of a rerun of ~60-90 ms). They are encoded here exactly as Streamlit encodes a picture it is
given (`streamlit.elements.lib.image_utils._pil_to_bytes`), the photo at `PHOTO_QUALITY`: the same
bytes on each rerun, so the same media address, and the browser fetches nothing new.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image

from app_ui.art import Box, annotate_photo, hand_picture
from app_ui.case import TileRow

# Streamlit's quality for a picture it encodes itself (`image_utils._pil_to_bytes`): kept for the tile
# pictures (a PNG, which it does not change)
STREAMLIT_QUALITY = 100
# The labelled photo's: at Streamlit's 100 a phone photo's 1280 px copy was 0.35-0.75 MB (median 0.55,
# 17 photos), sent again on each tile corrected, over a phone's connection; at 90, 0.1-0.25 MB (median
# 0.16), its labels as sharp to the eye (Streamlit itself encodes at 90 a picture it has to shrink)
PHOTO_QUALITY = 90

# a group of the tile pictures as `art.group_blocks` gives it (label, codes, concealed), hashable
Block = tuple[str, tuple[str, ...], bool]


def jpeg_bytes(image: Image.Image, quality: int = STREAMLIT_QUALITY) -> bytes:
    """`image` as the JPEG `st.image(image, output_format="JPEG")` would send (at its `quality`)."""
    out = io.BytesIO()
    # converted only where Streamlit converts it (`_image_may_have_alpha_channel`); the photo is RGB
    flat = image.convert("RGB") if image.mode in ("RGBA", "LA", "P") else image
    flat.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def png_bytes(image: Image.Image) -> bytes:
    """`image` (with transparency) as the PNG `st.image(image)` would send."""
    out = io.BytesIO()
    image.save(out, format="PNG", quality=STREAMLIT_QUALITY)
    return out.getvalue()


@dataclass(frozen=True, eq=False)  # eq=False: compared by what was drawn on which copy, never as a whole
class DrawnPhoto:
    """The labelled photo as sent: `picture`, the session's copy it was drawn on (`PhotoView`), told by
    identity (the copies are never changed, a new photo brings new ones); `marks`, all that was drawn
    on it; `jpeg`, the result."""

    picture: np.ndarray
    marks: tuple[Hashable, ...]
    jpeg: bytes


def photo_marks(
    rows: Sequence[TileRow], kinds: Mapping[str, str], numbers: Sequence[int | None], left_out: Sequence[Box]
) -> tuple[Hashable, ...]:
    """Everything `art.annotate_photo` draws from, as one value to compare: the rows (code, group,
    confidence, box: what a label or an outline shows), the melds' kinds, the numbers and the boxes
    left out."""
    return (tuple(rows), tuple(kinds.items()), tuple(numbers), tuple(left_out))


def drawn_photo(
    kept: DrawnPhoto | None,
    picture: np.ndarray,
    rows: Sequence[TileRow],
    kinds: Mapping[str, str],
    numbers: Sequence[int | None],
    left_out: Sequence[Box],
) -> DrawnPhoto:
    """The photo `picture` labelled (`art.annotate_photo`) and encoded: `kept`, the one the run before
    drew, where it was drawn on the same copy with the same marks; else drawn now."""
    marks = photo_marks(rows, kinds, numbers, left_out)
    if kept is not None and kept.picture is picture and kept.marks == marks:
        return kept
    drawn = annotate_photo(picture, rows, kinds, numbers, left_out)
    return DrawnPhoto(picture, marks, jpeg_bytes(drawn, PHOTO_QUALITY))


def frozen_blocks(blocks: Sequence[tuple[str, Sequence[str], bool]]) -> tuple[Block, ...]:
    """`art.group_blocks`'s groups as a key for `tile_pictures_png`."""
    return tuple((label, tuple(codes), bool(concealed)) for label, codes, concealed in blocks)


# A hand's pictures are the same for every session showing that hand: shared, and bounded (a PNG of a
# hand is some 30-60 kB) to the hands of a few tables' last corrections.
@lru_cache(maxsize=32)
def tile_pictures_png(blocks: tuple[Block, ...]) -> bytes | None:
    """The tile pictures of a hand (`art.hand_picture` of `blocks`) as a PNG, or None where there are
    none."""
    picture = hand_picture(blocks)
    return None if picture is None else png_bytes(picture)
