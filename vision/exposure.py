"""A dark photo is read brightened.

The models learned tiles under table lights; a photo taken in a dim room (its brightest parts, the
tiles' faces, a dark grey) loses them: in a generated scene darkened to a mean grey of 12, 5 of 29
tiles were found, and at 8 none, while a linear stretch of the same photo read all 29. A photo whose
bright end (`BRIGHT_PERCENTILE` of its grey levels) lies under `DARK_BELOW` is scaled up until it
reaches `BRIGHT_TO` (at most `MAX_GAIN` times); any other photo is read as it is. A photo whose
brightest colours are lit (`colour_end`) is not dark whatever its grey: a lit mid-green cloth is.
"""

from __future__ import annotations

import cv2
import numpy as np

# the grey level that 0.1% of the pixels reach: a small hand on a dark table (tiles in half a percent of
# the frame) still sets it, where the 99.5th percentile was the table's and called the photo dark
BRIGHT_PERCENTILE = 99.9
# grey level: a lit photo's tile faces are near white; a photo darkened to a bright end of 118 and of
# 82 still read every tile, one at 59 lost 2 of 29
DARK_BELOW = 100.0
BRIGHT_TO = 230.0
MAX_GAIN = 8.0  # past this, noise and JPEG blocks are all a stretch brings out


def grey_sample(rgb: np.ndarray) -> np.ndarray:
    """An (H, W, 3) uint8 RGB photo's grey levels, every few pixels: about a megapixel is plenty for
    a percentile or a share."""
    step = max(1, round(max(rgb.shape[:2]) / 1000))
    return cv2.cvtColor(np.ascontiguousarray(rgb[::step, ::step]), cv2.COLOR_RGB2GRAY)


def value_sample(rgb: np.ndarray) -> np.ndarray:
    """An (H, W, 3) uint8 RGB photo's brightest channel per pixel (HSV's value), sampled as
    `grey_sample` samples its grey."""
    step = max(1, round(max(rgb.shape[:2]) / 1000))
    return np.ascontiguousarray(rgb[::step, ::step]).max(axis=2)


def colour_end(rgb: np.ndarray, lights_out: bool = False) -> float:
    """The value level (`value_sample`) `BRIGHT_PERCENTILE` of an (H, W, 3) uint8 RGB photo's pixels,
    with `lights_out` over the same pixels as `bright_end`'s."""
    grey = grey_sample(rgb)
    return _percentile(value_sample(rgb), _kept(grey, lights_out))


def bright_end(rgb: np.ndarray, lights_out: bool = False) -> float:
    """The grey level `BRIGHT_PERCENTILE` of an (H, W, 3) uint8 RGB photo's pixels (sampled); with
    `lights_out`, small white-out spots and their glow left out (`lights`)."""
    grey = grey_sample(rgb)
    return _percentile(grey, _kept(grey, lights_out))


def _kept(grey: np.ndarray, lights_out: bool) -> np.ndarray | None:
    """The pixels a bright end is taken over: with `lights_out` those `lights(grey)` leaves, else all
    (None)."""
    return ~lights(grey) if lights_out else None


def _percentile(levels: np.ndarray, kept: np.ndarray | None) -> float:
    """`levels`' BRIGHT_PERCENTILE over the `kept` pixels (all where None, or where none is kept)."""
    rest = levels if kept is None else levels[kept]
    return float(np.percentile(rest if rest.size else levels, BRIGHT_PERCENTILE))


def _gain_of(grey: np.ndarray, value: np.ndarray, lights_out: bool) -> float:
    """`_gain` of the sampled `grey` and `value` (`grey_sample`, `value_sample`), their ends taken over
    the same pixels, the lights found once."""
    kept = _kept(grey, lights_out)
    return _gain(_percentile(grey, kept), _percentile(value, kept))


# A light in the frame (a lamp, a window, a flash's glint on a tile) whites out a spot: where such
# spots cover under LIGHTS_UNDER of the photo, they and their glow (LIGHT_GLOW of the long side
# around them) may not be the tiles' brightness. A lamp of 0.15% of a dim photo set the bright end at
# white, and the photo, its tiles at a grey of 45, was read as it was: no tile found of 15. Yet a
# small hand lit by a flash, its faces white-out on a dark table, looks the same to a percentile: so
# where leaving the spots out changes the gain, the photo is read both ways (`gains`).
WHITE_OUT = 250
LIGHTS_UNDER = 0.02
LIGHT_GLOW = 0.03


def lights(grey: np.ndarray) -> np.ndarray:
    """(H, W) bool: the small white-out spots of an (H, W) uint8 grey photo and their glow; all False
    where white covers LIGHTS_UNDER of it or more (a bright photo, not a light in a dim one)."""
    white = grey >= WHITE_OUT
    if not white.any() or white.mean() >= LIGHTS_UNDER:
        return np.zeros(grey.shape, bool)
    reach = max(1, round(LIGHT_GLOW * max(grey.shape)))
    # within `reach` of a white pixel (a distance transform: a dilation by so wide a disc was 4 times slower)
    distance = cv2.distanceTransform((~white).astype(np.uint8), cv2.DIST_L2, 3)
    return distance <= reach


# In a dark photo (read brightened), a box this much white-out holds a light (a lamp, a window, a
# flash's glint), not a tile, where the photo's tile faces are not: one or two such boxes (LIT_MOST)
# beside at least LIT_OTHERS other boxes that are under LIT_OTHERS_SHARE white-out as a rule (their
# median). A lamp in a dim room looked like the white dragon (P). Not in a lit photo: where the light
# falls, its tiles' faces may be white-out (HELDOUT3 and HELDOUT_D lost a tile each, C and 9s, 48%
# and 58% white-out), and a photo whose tile faces are white-out keeps every box.
LIT_BOX_SHARE = 0.5
LIT_MOST = 2
LIT_OTHERS = 3
LIT_OTHERS_SHARE = 0.1


def box_white_shares(rgb: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(N,) the share of each box's pixels, in an (H, W, 3) uint8 RGB photo, that are white-out."""
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    out = np.zeros(len(boxes), np.float64)
    height, width = rgb.shape[:2]
    for k, (x1, y1, x2, y2) in enumerate(boxes):
        left, top = int(np.clip(x1, 0, width)), int(np.clip(y1, 0, height))
        right, bottom = int(np.clip(np.ceil(x2), 0, width)), int(np.clip(np.ceil(y2), 0, height))
        if right > left and bottom > top:
            grey = cv2.cvtColor(np.ascontiguousarray(rgb[top:bottom, left:right]), cv2.COLOR_RGB2GRAY)
            out[k] = float((grey >= WHITE_OUT).mean())
    return out


def lit_boxes(rgb: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
    """(N,) bool: the boxes of an (H, W, 3) uint8 RGB photo, as given (before any brightening), that
    hold a light rather than a tile: at most LIT_MOST of them white-out, among at least LIT_OTHERS
    boxes that as a rule are not (a photo whose tile faces are white-out keeps every box)."""
    shares = box_white_shares(rgb, xyxy)
    lit = shares >= LIT_BOX_SHARE
    others = shares[~lit]
    if not 0 < lit.sum() <= LIT_MOST or len(others) < LIT_OTHERS:
        return np.zeros(len(shares), bool)
    return lit if float(np.median(others)) < LIT_OTHERS_SHARE else np.zeros(len(shares), bool)


def _gain(end: float, colour: float) -> float:
    """The gain for a photo of grey bright end `end` and value bright end `colour`."""
    # A dim photo's brightest parts are its tiles' faces, near grey, their value about their grey; a
    # lit colour's value lies well above its grey: a plain mid-green cloth (40, 110, 70) is grey 85,
    # and was read brightened 2.7 times and called dark.
    if end >= DARK_BELOW or colour >= DARK_BELOW:
        return 1.0
    return min(MAX_GAIN, BRIGHT_TO / max(end, 1.0))


def gain_for(rgb: np.ndarray) -> float:
    """What a photo is brightened by to be read: 1.0 unless it is dark."""
    return _gain_of(grey_sample(rgb), value_sample(rgb), False)


def gains(rgb: np.ndarray) -> tuple[float, ...]:
    """The gains to read a photo at: `gain_for`'s, and, where leaving its small white-out spots out
    of the bright end gives another (a lamp in a dim room, or a small hand white in a flash), that one
    too; the reader keeps the reading that finds more tiles."""
    grey, value = grey_sample(rgb), value_sample(rgb)  # once for both ends
    plain, unlit = _gain_of(grey, value, False), _gain_of(grey, value, True)
    return (plain,) if unlit == plain else (plain, unlit)


def with_gain(rgb: np.ndarray, gain: float) -> np.ndarray:
    """`rgb` brightened by `gain` (saturating at white); `rgb` itself at 1.0. What the reader decided
    (`Seen.gain`) is applied again this way to show the photo as it was read, not decided anew."""
    return rgb if gain == 1.0 else cv2.convertScaleAbs(rgb, alpha=gain)


def dark_warning(gain: float) -> list[str]:
    """The reader's line about a photo read brightened by `gain`, if it was."""
    if gain <= 1.0:
        return []
    return [f"the photo is dark: it was read brightened {gain:.1f} times; a brighter photo reads more surely"]


# A photo this much of which is white-out (grey WHITE_OUT or more) lost the tiles' faces to the light:
# an audit's generated scenes brightened 2.2 times were 72% and 98% white and read 2 of 17 and none
# of 44 tiles; brightened 1.6 times, 18% white, they read 70 of 75 with the others.
OVEREXPOSED_SHARE = 0.4
# ... and a photo this white holds nothing to overexpose
BLANK_SHARE = 0.99


def white_share(rgb: np.ndarray) -> float:
    """The share of an (H, W, 3) uint8 RGB photo's pixels (sampled) that are white-out, a flat border
    left out (`within_flat_border`)."""
    return float((within_flat_border(grey_sample(rgb)) >= WHITE_OUT).mean())


# A border row or column whose grey levels span at most this is flat: a margin, not a scene
FLAT_SPAN = 2
# ... and what a flat frame holds is a picture only where it is at least this share of the photo (a
# speck on a blank page is none)
FRAMED_LEAST = 0.05


def within_flat_border(grey: np.ndarray) -> np.ndarray:
    """`grey` within a flat frame round it (a picture pasted on a white page, a transparent margin
    composited on white: an audit, stage 78, had a scene on a plain white border called 64% white-out,
    though its tiles read as without the border); all of it where no such frame closes on every side
    (white-out along one edge is a photo's blown highlights, not a margin, as the review of that fix
    found) or where what it holds is under `FRAMED_LEAST` of the photo (a blank page)."""
    rows = np.flatnonzero(np.ptp(grey, axis=1) > FLAT_SPAN)
    cols = np.flatnonzero(np.ptp(grey, axis=0) > FLAT_SPAN)
    if rows.size == 0 or cols.size == 0:
        return grey
    top, bottom, left, right = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    height, width = grey.shape[:2]
    framed = top > 0 and left > 0 and bottom < height and right < width
    if not framed or (bottom - top) * (right - left) < FRAMED_LEAST * height * width:
        return grey
    return grey[top:bottom, left:right]


def overexposed_warning(share: float) -> list[str]:
    """The reader's line about a photo `share` of which is white-out (said where the hand read falls
    short: a photo lit so that the tiles' faces are white reads few of them, and the count alone would
    look like tiles misread)."""
    if share < OVEREXPOSED_SHARE:
        return []
    if share >= BLANK_SHARE:  # a blank page or a transparent image: no light took the faces away
        return ["the photo is all white: no tiles can be seen in it"]
    return [
        f"the photo is overexposed ({share:.0%} of it is white): the tiles' faces are lost to the light; "
        "take it again with less light or a lower exposure"
    ]
