"""Where a reader's line says a thing lies: a place in the pixels of the photo as the user has it.

The reader reads a large photo shrunk (`vision.imageio`: `scale` is the photo read to the user's), and
names places in the user's pixels, as `python -m vision` prints them; a line names at most `MOST_NAMED`
places and ends ", ..." where there are more (the page shows them on the photo, or not at all).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

MOST_NAMED = 3


def point_place(x: float, y: float, scale: float = 1.0) -> str:
    """ "(x, y)": the point (x, y) of the photo read, in the user's pixels (truncated)."""
    return f"({int(x / scale)}, {int(y / scale)})"


def box_place(xyxy: np.ndarray | Sequence[float], scale: float = 1.0) -> str:
    """ "(x, y)": a box's (x1, y1, x2, y2) centre, in the user's pixels."""
    x1, y1, x2, y2 = (float(v) / scale for v in xyxy)
    return f"({int(x1 + x2) // 2}, {int(y1 + y2) // 2})"


def first_places(places: Sequence[str]) -> str:
    """The first MOST_NAMED of `places`, joined, with ", ..." where more were left unnamed."""
    more = ", ..." if len(places) > MOST_NAMED else ""
    return ", ".join(places[:MOST_NAMED]) + more
