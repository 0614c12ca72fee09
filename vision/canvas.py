"""The photo within a screenshot's canvas: a phone's screenshot of a photo (a chat's, a gallery's) shows
it fitted to the screen, with flat bands of the viewer's colour above and below it (or beside it) and
the status bar's strip of icons beyond them. Read whole, the canvas shrinks the photo in the detector's
input and its seams read as tiles (an audit, stage 79: 12 real photos shot so read F1 0.960 -> 0.911-0.915,
5-6 of 12 exact against 9; the photo cut back out read as the original), and its white bands were called
white-out. `content_xyxy` finds the photo on such a canvas, for the reader to read it alone.

A row (column) is flat where its grey spans at most FLAT_SPAN across the whole width (height): no tile
lies across such a row, so cutting it away loses none. A canvas is told from a photo's own flat rows (a
black sky at night, blown-out highlights along one edge, a black table round rows of tiles) by flat
bands of one colour on both sides of the photo, as a viewer lays them, and by the photo's straight
seam against them, unbroken along its edge.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

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
# bar's icons and time, a viewer's title strip and toolbar, a gallery's strip of thumbnails or a
# phone's home bar keep to the screen's edges, where tiles lying apart from the hand in a dark photo
# (their rows flat between them) need not
CHROME_EDGE = 0.15
# a flat stretch of at most this many rows parts no photo from what lies beyond it (a JPEG's ringing
# beside a seam or under a title's letters stands a row or two apart from them)
GAP_MOST_PX = 8
# how close in grey the bands on the two sides of the photo must be: one canvas, one colour
BAND_SAME = 12
# The seam: the photo's line this share of the side inside its edge, cut in blocks of SEAM_BLOCK px,
# each standing apart from the band (its mean more than SEAM_APART levels off the band's grey, or its
# own grey spanning more than that: a dark photo's noise against a black band), along SEAM_SHARE of the
# edge and at both its ends (within SEAM_ENDS of them): a photo's edge runs corner to corner. A
# rendered picture's flat ground, or a black table round rows of tiles, meets the band only where the
# tiles lie (an audit, stage 79: level rows of tiles on a clipped black table were cut to the rows,
# every tile then said to touch the photo's edge); a real photo's dark stretches (a shadow, a black
# table at its foot) may meet a black band in places.
SEAM_IN = 0.004
# every how many pixels the quick look for a flat line samples the image
SAMPLE = 4
SEAM_BLOCK = 16
SEAM_APART = 2 * FLAT_SPAN
SEAM_SHARE = 0.6
SEAM_ENDS = 0.1


@dataclass(frozen=True)
class _Span:
    """Along one axis: the photo's [start, end), and the grey of the bands that meet it before and after."""

    start: int
    end: int
    before: float
    after: float


def _grey(rgb: np.ndarray) -> np.ndarray:
    return (rgb[..., 0].astype(np.uint16) * 3 + rgb[..., 1].astype(np.uint16) * 4 + rgb[..., 2]) // 8


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """The [start, end) of each run of True in a 1-D `mask`."""
    edges = np.flatnonzero(np.diff(np.concatenate([[False], mask, [False]]).astype(np.int8)))
    return [(int(start), int(end)) for start, end in zip(edges[0::2], edges[1::2], strict=True)]


def _flat_rows(grey: np.ndarray) -> np.ndarray:
    """Which rows of `grey` are flat, a flat stretch of at most GAP_MOST_PX rows within the image
    not counted."""
    flat = np.ptp(grey, axis=1) <= FLAT_SPAN
    for start, end in _runs(flat):
        if end - start <= GAP_MOST_PX and start > 0 and end < len(flat):
            flat[start:end] = False
    return flat


def _span(grey: np.ndarray) -> _Span | None:
    """Along axis 0 of `grey` (rows), the photo between a canvas's two flat bands of one colour, or
    None where no such canvas lies round it (the seam is checked by `content_xyxy`, over the photo's
    own extent)."""
    side = grey.shape[0]
    flat = _flat_rows(grey)
    runs = _runs(~flat)
    if not runs:
        return None
    start, end = max(runs, key=lambda run: run[1] - run[0])
    chrome = np.flatnonzero(~flat)
    chrome = chrome[(chrome < start) | (chrome >= end)]
    inward = (chrome >= CHROME_EDGE * side) & (chrome < (1.0 - CHROME_EDGE) * side)
    if (
        end - start < CONTENT_LEAST * side
        or flat[:start].sum() < BAND_LEAST * side
        or flat[end:].sum() < BAND_LEAST * side
        or inward.any()
    ):
        return None
    # the bands that meet the photo: the flat rows next to it on each side
    before, after = float(np.median(grey[start - 1])), float(np.median(grey[end]))
    if abs(before - after) > BAND_SAME:
        return None
    return _Span(start, end, before, after)


def _seam(line: np.ndarray, band: float) -> bool:
    """Whether a line of the photo along its edge stands apart from the band's grey along SEAM_SHARE of
    it and at both its ends (`SEAM_BLOCK` px blocks)."""
    count = len(line) // SEAM_BLOCK
    if count < 2:
        return False
    blocks = line[: count * SEAM_BLOCK].reshape(count, SEAM_BLOCK).astype(np.float32)
    apart = (np.abs(blocks.mean(axis=1) - band) > SEAM_APART) | (np.ptp(blocks, axis=1) > SEAM_APART)
    ends = max(1, round(SEAM_ENDS * count))
    return bool(apart.mean() >= SEAM_SHARE and apart[:ends].any() and apart[-ends:].any())


def _seams_hold(grey: np.ndarray, rows: _Span | None, cols: _Span | None) -> bool:
    """Whether the photo framed by `rows` and `cols` (None: the whole side) meets each band found in a
    seam, each looked at over the photo's own extent (a photo with bands on both axes, a portrait photo
    on a tablet, meets the top band only between the side bands)."""
    height, width = grey.shape
    top, bottom = (rows.start, rows.end) if rows else (0, height)
    left, right = (cols.start, cols.end) if cols else (0, width)
    checks = []
    if rows is not None:
        inside = max(1, round(SEAM_IN * height))
        first, last = min(top + inside, bottom - 1), max(bottom - 1 - inside, top)
        checks += [(grey[first, left:right], rows.before), (grey[last, left:right], rows.after)]
    if cols is not None:
        inside = max(1, round(SEAM_IN * width))
        first, last = min(left + inside, right - 1), max(right - 1 - inside, left)
        checks += [(grey[top:bottom, first], cols.before), (grey[top:bottom, last], cols.after)]
    return all(_seam(line, band) for line, band in checks)


def content_xyxy(rgb: np.ndarray) -> tuple[int, int, int, int] | None:
    """The (x1, y1, x2, y2) of a photo shown on a screenshot's canvas (flat bands of one colour above
    and below it, or beside it, or both), or None where the image is no such canvas (a photo as taken)."""
    # a photo as taken has no flat row nor column: told on every fourth pixel (a flat line stays flat
    # so sampled) before the whole image is looked at (75 ms at 12 MP here, a review found)
    sample = _grey(rgb[::SAMPLE, ::SAMPLE])
    if not ((np.ptp(sample, axis=1) <= FLAT_SPAN).any() or (np.ptp(sample, axis=0) <= FLAT_SPAN).any()):
        return None
    grey = _grey(rgb)
    height, width = grey.shape
    for rows, cols in _framings(grey):
        if _seams_hold(grey, rows, cols):
            top, bottom = (rows.start, rows.end) if rows else (0, height)
            left, right = (cols.start, cols.end) if cols else (0, width)
            return left, top, right, bottom
    return None


def _framings(grey: np.ndarray) -> Iterator[tuple[_Span | None, _Span | None]]:
    """The ways a canvas may frame the photo, tried in turn (each worked out only where the ones before
    fail): bands above and below and beside it, above and below alone, beside alone."""
    rows = _span(grey)
    if rows is not None:
        cols = _span(grey[rows.start : rows.end].T)
        if cols is not None:
            yield rows, cols
        yield rows, None
    beside = _span(grey.T)
    if beside is not None:
        yield None, beside
