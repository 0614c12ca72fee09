"""Draw what was read onto the photo: a labelled box per tile, an outline per layout group."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.detections import UNSURE_BELOW, Detections

# RGB colours. Tiles: green when sure, orange when not; groups by kind.
SURE = (40, 200, 40)
UNSURE = (255, 140, 0)
NO_TILE = (160, 160, 160)  # boxes the classifier judged to hold no tile (left out of the reading)
GROUP_COLOURS: dict[str, tuple[int, int, int]] = {
    "concealed": (30, 120, 255),
    "meld": (200, 40, 200),
    "bonus": (230, 200, 0),
    "unused": (128, 128, 128),
}


class GroupLike(Protocol):
    """The fields of vision.layout.TileGroup used here (kept structural: no import cycle)."""

    @property
    def kind(self) -> str: ...
    @property
    def meld(self) -> str | None: ...
    @property
    def box(self) -> tuple[float, float, float, float]: ...


FONT = cv2.FONT_HERSHEY_SIMPLEX
SMALLEST_FONT = 0.3  # OpenCV's font scale below which a code no longer reads


def _thickness(scale: float) -> int:
    return max(1, round(scale * 2))


def _text_size(text: str, scale: float) -> tuple[int, int]:
    """Width and height of `text`'s background box at `scale`."""
    (width, height), baseline = cv2.getTextSize(text, FONT, scale, _thickness(scale))
    return width + 4, height + baseline + 2


def _label(
    image: np.ndarray, text: str, x: int, top: int, colour: tuple[int, int, int], scale: float
) -> None:
    """`text` in black on a `colour` box whose top left corner is (x, top)."""
    width, height = _text_size(text, scale)
    baseline = cv2.getTextSize(text, FONT, scale, _thickness(scale))[1]
    cv2.rectangle(image, (x, top), (x + width, top + height), colour, -1)
    cv2.putText(
        image,
        text,
        (x + 2, top + height - baseline - 1),
        FONT,
        scale,
        (0, 0, 0),
        _thickness(scale),
        cv2.LINE_AA,
    )


def fitted_scale(texts: Sequence[str], width: float, largest: float) -> float:
    """The font scale, at most `largest`, at which every one of `texts` fits `width` pixels (not under
    `SMALLEST_FONT`): a tile's label stays within its tile, so a row of touching tiles keeps every label
    readable."""

    def widest(scale: float) -> int:
        return max(_text_size(text, scale)[0] for text in texts)

    scale = min(largest, largest * width / widest(largest))
    # the box's padding and the stroke do not scale with the font: step down until it fits
    while scale > SMALLEST_FONT and widest(scale) > width:
        scale *= 0.95
    return max(SMALLEST_FONT, scale)


def label_room(xyxy: np.ndarray) -> np.ndarray:
    """Per box, the width its label may take, centred on the box: its own width, and no more than the
    distance to the centre of a box beside it (one whose height overlaps its own by half), so the labels
    of a row of tiles whose boxes overlap (tiles laid at a slant) do not cover each other."""
    boxes = np.asarray(xyxy, dtype=np.float64).reshape(-1, 4)
    room = boxes[:, 2] - boxes[:, 0]
    centres = (boxes[:, 0] + boxes[:, 2]) / 2
    heights = boxes[:, 3] - boxes[:, 1]
    for i in range(len(boxes)):
        overlap = np.minimum(boxes[i, 3], boxes[:, 3]) - np.maximum(boxes[i, 1], boxes[:, 1])
        beside = overlap >= 0.5 * np.minimum(heights[i], heights)
        beside[i] = False
        if beside.any():
            room[i] = min(room[i], float(np.abs(centres[beside] - centres[i]).min()))
    return room


def _tile_label(
    image: np.ndarray,
    lines: Sequence[str],
    xyxy: tuple[int, int, int, int],
    room: float,
    colour: tuple[int, int, int],
    font: float,
) -> None:
    # centred on the tile, within the room it has: the neighbours' labels never cover it
    x1, y1, x2, y2 = xyxy
    scale = fitted_scale(lines, room, font)
    sizes = [_text_size(text, scale) for text in lines]
    top = max(0, (y1 + y2) // 2 - sum(height for _, height in sizes) // 2)  # whole at the photo's top
    for text, (width, height) in zip(lines, sizes, strict=True):
        _label(image, text, (x1 + x2) // 2 - width // 2, top, colour, scale)
        top += height


def _group_label_top(box: tuple[int, int, int, int], label_height: int, image_height: int) -> int:
    # under the group's outline, or over it where the photo ends first
    below = box[3]
    return below if below + label_height <= image_height else max(0, box[1] - label_height)


def annotate(
    rgb: np.ndarray,
    detections: Detections,
    groups: Sequence[GroupLike] = (),
    scale: float = 1.0,
    rejected_xyxy: np.ndarray | None = None,
) -> np.ndarray:
    """A copy of `rgb` with the tiles and groups drawn on it, and the left-out boxes in grey ("no tile").

    `scale` maps detection coordinates to `rgb` pixels (for boxes given in another resolution).
    """
    out = np.ascontiguousarray(rgb.copy())
    size = max(out.shape[:2])
    line = max(2, size // 500)
    font = max(0.5, size / 1600)
    pad = 3 * line
    outlines = []
    for group in groups:
        x1, y1, x2, y2 = (round(v * scale) for v in group.box)
        outline = (x1 - pad, y1 - pad, x2 + pad, y2 + pad)
        colour = GROUP_COLOURS.get(group.kind, (255, 255, 255))
        cv2.rectangle(out, outline[:2], outline[2:], colour, line)
        outlines.append((outline, group.kind if group.meld is None else group.meld, colour))
    for box in () if rejected_xyxy is None else rejected_xyxy:
        x1, y1, x2, y2 = (round(float(v) * scale) for v in box)
        cv2.rectangle(out, (x1, y1), (x2, y2), NO_TILE, max(1, line // 2))
        _label(out, "no tile", x1, y1, NO_TILE, fitted_scale(["no tile"], x2 - x1, font * 0.8))
    tiles: list[tuple[str, float, tuple[int, int, int, int]]] = []
    for code, conf, box in zip(detections.codes, detections.confidence, detections.xyxy, strict=True):
        x1, y1, x2, y2 = (round(float(v) * scale) for v in box)
        tiles.append((code, float(conf), (x1, y1, x2, y2)))
    for _, conf, (x1, y1, x2, y2) in tiles:
        cv2.rectangle(out, (x1, y1), (x2, y2), SURE if conf >= UNSURE_BELOW else UNSURE, line)
    # every box before any label, so no box is drawn over a label; an unsure tile says its score too
    rooms = label_room(np.array([xyxy for _, _, xyxy in tiles], dtype=np.float64))
    for (code, conf, xyxy), room in zip(tiles, rooms, strict=True):
        sure = conf >= UNSURE_BELOW
        lines = (code,) if sure else (code, f"{conf:.2f}")
        _tile_label(out, lines, xyxy, float(room), SURE if sure else UNSURE, font)
    # the groups' names last, over anything a tile drew where the rows lie close; no taller than half
    # a typical tile, so that where tiles are small in the photo a name does not cover their labels
    group_font = group_name_scale(np.array([xyxy for _, _, xyxy in tiles], dtype=np.float64), font)
    for outline, name, colour in outlines:
        top = _group_label_top(outline, _text_size(name, group_font)[1], out.shape[0])
        _label(out, name, max(0, outline[0]), top, colour, group_font)
    return out


SMALLEST_GROUP_FONT = 0.4  # a group's name stays readable, however small the tiles


def group_name_scale(xyxy: np.ndarray, largest: float) -> float:
    """The font scale of the groups' names: at most `largest`, and a text box no taller than half the
    median tile's short side (not under `SMALLEST_GROUP_FONT`)."""
    if not len(xyxy):
        return largest
    short = float(np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))
    scale = largest
    while scale > SMALLEST_GROUP_FONT and _text_size("Ag", scale)[1] > short / 2:
        scale *= 0.95
    return max(SMALLEST_GROUP_FONT, scale)


def _partial_path(path: str) -> tuple[str, str]:
    """The file `path` names, links followed, and the file beside it that `save_png` writes first."""
    target = os.path.realpath(path)
    return target, os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.{os.getpid()}.part")


def try_writing(path: str) -> None:
    """Create and remove the file `save_png` would write first, so that a folder that takes no new
    file is found before a photo is read (an audit: /proc/x.png passed every check of permissions,
    as root, and failed only after the reading was printed); OSError, in the system's words, if not."""
    _, partial = _partial_path(path)
    try:
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.remove(partial)
    except OSError as error:
        raise OSError(error.strerror or str(error)) from None


def save_png(rgb: np.ndarray, path: str) -> None:
    """Write RGB as an image file (format from the extension); OSError if it cannot be written.

    Encoded by OpenCV and written by Python: cv2.imwrite crashes the process on a file name that is
    not UTF-8, and logs its own line beside ours where it cannot open the file."""
    try:
        ok, encoded = cv2.imencode(Path(path).suffix.lower(), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    except cv2.error as error:  # an extension OpenCV has no writer for raises, not returns False
        raise OSError("no image format for that extension") from error
    if not ok:
        raise OSError("no image format for that extension")
    # written beside the target and moved over it whole: a full disk must not leave a half picture,
    # nor spoil a picture already there
    target, partial = _partial_path(path)
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(encoded.tobytes())
            os.replace(partial, target)
        finally:
            if os.path.lexists(partial):
                os.remove(partial)
    except OSError as error:
        raise OSError(error.strerror or str(error)) from None
