"""The photo within a screenshot's canvas: a phone's screenshot of a photo (a chat's, a gallery's) shows
it fitted to the screen, with flat bands of the viewer's colour above and below it (or beside it) and
the status bar's strip of icons beyond them. Read whole, the canvas shrinks the photo in the detector's
input and its seams read as tiles (an audit, stage 79: 12 real photos shot so read F1 0.960 -> 0.911-0.915,
5-6 of 12 exact against 9; the photo cut back out read as the original), and its white bands were called
white-out. `content_xyxy` finds the photo on such a canvas, for the reader to read it alone.

A row (column) is flat where its grey spans at most FLAT_SPAN across the whole width (height): no tile
lies across such a row, so cutting it away loses none. A canvas is told from a photo's own flat rows (a
black sky at night, blown-out highlights along one edge) by flat bands of one colour on both sides of
the photo, as a viewer lays them.
"""

from __future__ import annotations

import numpy as np

# how far a flat row's grey may span: a viewer's band is one colour (a screenshot forwarded as a JPEG
# keeps its bands within 0-3 levels but for a few rows of ringing next to the photo, which go with the
# photo), where a dark photo's own shadow spans 3-16 levels across a row (the generator's dark scenes)
FLAT_SPAN = 4
# the least share of the side each of the two bands must take (a thin line is a frame's border, not
# a canvas), and the least share the photo itself must take
BAND_LEAST = 0.03
CONTENT_LEAST = 0.2
# how far in from the ends of the side anything other than the photo and the bands may lie: a status
# bar's icons and time, a viewer's title strip or a phone's home bar keep to the screen's edges, where
# tiles lying apart from the hand in a dark photo (their rows flat between them) do not
CHROME_EDGE = 0.1
# the photo's row looked at for its seam lies this share of the side inside it (past a JPEG's ringing),
# and most of it (SEAM_APART) must stand more than BAND_APART grey levels apart from the band
SEAM_IN = 0.004
SEAM_APART = 0.6
BAND_APART = 16
# a flat stretch shorter than this share of the side parts no photo from what lies beyond it
GAP_MOST = 0.01
# how close in grey the bands on the two sides of the photo must be: one canvas, one colour
BAND_SAME = 12


def _grey(rgb: np.ndarray) -> np.ndarray:
    return (rgb[..., 0].astype(np.uint16) * 3 + rgb[..., 1].astype(np.uint16) * 4 + rgb[..., 2]) // 8


def _longest_run(mask: np.ndarray) -> tuple[int, int] | None:
    """The [start, end) of the longest run of True in a 1-D `mask`; None where it holds none."""
    runs = _runs(mask)
    return max(runs, key=lambda run: run[1] - run[0]) if runs else None


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """The [start, end) of each run of True in a 1-D `mask`."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], mask, [False]]).astype(np.int8)))
    return [(int(start), int(end)) for start, end in zip(edges[0::2], edges[1::2], strict=True)]


def _flat_rows(grey: np.ndarray) -> np.ndarray:
    """Which rows of `grey` are flat, a flat stretch shorter than GAP_MOST of the side not counted (a
    JPEG's ringing beside the photo's edge stands a row or two apart from it)."""
    flat = np.ptp(grey, axis=1) <= FLAT_SPAN
    for start, end in _runs(flat):
        if end - start < GAP_MOST * len(flat) and start > 0 and end < len(flat):
            flat[start:end] = False
    return flat


def _span(grey: np.ndarray) -> tuple[int, int] | None:
    """Along axis 0 of `grey` (rows), the [start, end) of the photo between a canvas's two flat bands
    of one colour, or None where no such canvas lies round it."""
    side = grey.shape[0]
    flat = _flat_rows(grey)
    run = _longest_run(~flat)
    if run is None:
        return None
    start, end = run
    before, after = flat[:start], flat[end:]
    chrome = np.flatnonzero(~flat)
    chrome = chrome[(chrome < start) | (chrome >= end)]
    inward = (chrome >= CHROME_EDGE * side) & (chrome < (1.0 - CHROME_EDGE) * side)
    if (
        end - start < CONTENT_LEAST * side
        or before.sum() < BAND_LEAST * side
        or after.sum() < BAND_LEAST * side
        or inward.any()
    ):
        return None
    # the bands that meet the photo: the flat rows next to it on each side
    above, below = float(np.median(grey[start - 1])), float(np.median(grey[end]))
    if abs(above - below) > BAND_SAME:
        return None
    # a photo's edge is a straight seam: the photo's rows there stand apart from the band nearly all
    # along it, where a rendered picture's flat ground meets its first tiles only where the tiles are
    # (cut there, every tile would touch the cut)
    inside = max(1, round(SEAM_IN * side))
    first, last = grey[min(start + inside, end - 1)], grey[max(end - 1 - inside, start)]
    if min(_apart(first, above), _apart(last, below)) < SEAM_APART:
        return None
    return start, end


def _apart(row: np.ndarray, band: float) -> float:
    """The share of a row's pixels that stand apart from a band's grey."""
    return float(np.mean(np.abs(row.astype(np.float32) - band) > BAND_APART))


def content_xyxy(rgb: np.ndarray) -> tuple[int, int, int, int] | None:
    """The (x1, y1, x2, y2) of a photo shown on a screenshot's canvas (flat bands of one colour above
    and below it, or beside it), or None where the image is no such canvas (a photo as taken)."""
    grey = _grey(rgb)
    height, width = grey.shape
    rows = _span(grey)
    top, bottom = rows if rows is not None else (0, height)
    cols = _span(grey[top:bottom].T)
    left, right = cols if cols is not None else (0, width)
    if rows is None and cols is None:
        return None
    return left, top, right, bottom
