"""How sharp a photo's tiles are, to tell the user a blurred photo is why tiles read less surely.

Measured on the faces of the tiles read face up (a back or a standing tile shows no detail to
judge): each face's inner part (the tile's own outline left out), and

- `detail`: its mean |Laplacian| over its contrast (standard deviation), with the face shrunk to
  FACE_SIDE px across, so that a blur is judged against the tile's size, as it harms the reading;
- `fine`: the same at the photo's own pixels (a small tile is not enlarged, which would blur it);
- `even`: how evenly its gradients run in every direction (the smaller over the larger eigenvalue
  of their summed structure tensor) on the face shrunk to FACE_SIDE, beyond the way the faces' own
  strokes run (a bamboo's sticks give gradients across the tile: `datasets.face_gradients` measured
  each face's on the tile art, turned here as each tile lies): a shaken phone smears every face the
  same way. The shake is judged by the same at the photo's own pixels (`Blur.even`): shrinking a large
  face to FACE_SIDE shrinks its smear too (a 25 px shake of 130 px tiles had read 0.496 there).

The photo's sharpness is median(detail) * sqrt(median(fine)) * even; see docs/vision.md, A blurred
photo, for how BLURRED_BELOW was chosen on generated scenes (stage 55). A shake that leaves the faces
sharper than that yet smears them one way (`Blur.even` under SHAKEN_EVEN, sharpness under SHAKEN_BELOW)
is told too, and a blur whose faces run one way is named a shake (docs/vision.md, A shaken photo).

Where too few faces can be judged (a strong shake or a missed focus often leaves 0-2 tiles found),
the whole photo is (`whole_photo_blur`): shrunk to WORK_SIDE px across (and further where the few
tiles found are large, to WHOLE_TILE_PX across theirs: a blur is judged against the tiles' size), its
strongest gradients' edge width (mean |Laplacian| over mean |gradient| on them: a sharp edge gives as
much of one as of the other, an edge blurred s px wide about 1/s as much) and how evenly they run
every way. So a photo that is merely blurred is told so, not asked whether it shows a mahjong hand
at all (docs/vision.md, A photo too blurred to find tiles in).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.classes import BACK, CLASSES
from vision.deskew import tile_sides
from vision.lines import BLURRED, PHOTO, SHAKEN, WHOLE_BLURRED, WHOLE_SHAKEN, Line

# code -> the normalised gradient tensor (gxx, gxy, gyy) of its face, upright, sharp, on the tile art
GRADIENTS_FILE = Path(__file__).with_name("face_gradients.json")

# each face is judged shrunk to this many pixels across its shorter side
FACE_SIDE = 32
# the share of a tile's shorter side left out along each edge: its outline, not its face
RIM_SHARE = 1 / 6
# a face whose grey levels vary less than this (standard deviation) has nothing to judge
MIN_CONTRAST = 6.0
# fewer faces than this say nothing of the photo
MIN_FACES = 3
# under this, the photo is blurred (docs/vision.md, A blurred photo: chosen on generated scenes)
BLURRED_BELOW = 0.14

# a shake smears every face one way: faces whose gradients run this unevenly (`even`) are shaken,
# and told so while their sharpness is under SHAKEN_BELOW, looser than BLURRED_BELOW (a strong shake
# keeps much of the faces' detail across it; docs/vision.md, A shaken photo: chosen on generated scenes)
SHAKEN_EVEN = 0.5
SHAKEN_BELOW = 0.25

# the whole photo, judged where too few faces are (`whole_photo_blur`): its longer side shrunk to this
WORK_SIDE = 800
# ... and further where tiles were found, until their median box is this many px across its shorter side:
# an edge's width is judged against the tiles' size, as a face's `detail` is (a close-up of two large tiles
# drawn soft read blurred at 800 px across, HELDOUT_D's 000190; docs/vision.md: chosen on generated scenes)
WHOLE_TILE_PX = 64
# a photo whose grey levels span less than this (1st to 99th percentile) is flat: nothing to judge
MIN_SPAN = 24.0
# the share of its pixels, strongest gradients first, whose edges are judged
STRONG_SHARE = 0.1
# under this edge sharpness the photo is blurred; under WHOLE_SHAKEN_BELOW where its strong gradients
# run this unevenly (WHOLE_SHAKEN_EVEN), shaken (docs/vision.md: chosen on generated scenes, stage 84)
WHOLE_BLURRED_BELOW = 0.8
WHOLE_SHAKEN_EVEN = 0.35
WHOLE_SHAKEN_BELOW = 1.7
# gradients running more one way than this are a grain's (a wood table's, drawn sharp or soft), not a
# shake's: a shaken scene keeps some edges along the shake (generated scenes shaken up to 40 px: 0.037)
WHOLE_ONE_WAY = 0.02

BLURRED_LINE = (
    "the photo looks blurred: tiles read less surely; hold the phone steady (or tap to focus) and retake"
)
SHAKEN_LINE = (
    "the photo looks shaken (motion blur): tiles read less surely; hold the phone still, braced on the"
    " table or with more light (a faster shot), and retake"
)
# with (almost) no tile found, the blur is why: no tile to read less surely
WHOLE_BLURRED_LINE = (
    "the photo looks blurred (out of focus): tap the screen on the tiles to focus, and take it again"
)
WHOLE_SHAKEN_LINE = (
    "the photo looks shaken (motion blur): hold the phone still, braced on the table or with more light,"
    " and take it again"
)
WHOLE_LINES = (WHOLE_BLURRED_LINE, WHOLE_SHAKEN_LINE)


def face_tensor(face: np.ndarray) -> np.ndarray | None:
    """The gradient structure tensor (gxx, gxy, gyy) of a grey face shrunk to FACE_SIDE px across,
    normalised to gxx + gyy = 1; None where it has no gradient."""
    short = min(face.shape)
    scale = FACE_SIDE / short
    small = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else face
    return _tensor(small)


def _tensor(grey: np.ndarray) -> np.ndarray | None:
    """The gradient structure tensor (gxx, gxy, gyy) of a grey image as it is, normalised to gxx + gyy
    = 1; None where it has no gradient."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    tensor = np.array([(gx * gx).sum(), (gx * gy).sum(), (gy * gy).sum()], np.float64)
    total = tensor[0] + tensor[2]
    return tensor / total if total > 0 else None


@cache
def face_gradients() -> dict[str, np.ndarray]:
    """code -> its face's normalised tensor, upright (GRADIENTS_FILE)."""
    table = json.loads(GRADIENTS_FILE.read_text())["tensors"]
    return {code: np.asarray(values, np.float64) for code, values in table.items()}


def _matrix(tensor: np.ndarray) -> np.ndarray:
    """A tensor (gxx, gxy, gyy) as its symmetric 2 x 2 matrix."""
    return np.array([[tensor[0], tensor[1]], [tensor[1], tensor[2]]])


def _triple(matrix: np.ndarray) -> np.ndarray:
    """A symmetric 2 x 2 matrix as its tensor (gxx, gxy, gyy)."""
    return np.array([matrix[0, 0], matrix[0, 1], matrix[1, 1]])


def turned(tensor: np.ndarray, degrees: float) -> np.ndarray:
    """A tensor (gxx, gxy, gyy) of a face turned `degrees` (`vision.deskew.tile_angle`'s sense)."""
    a = math.radians(degrees)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return _triple(rotation @ _matrix(tensor) @ rotation.T)


def expected_tensor(code: str, box: np.ndarray, degrees: float) -> np.ndarray:
    """The tensor a sharp face of `code` gives in `box` (x1, y1, x2, y2) turned `degrees` (NaN: as
    the box lies): a tile lying sideways turns its face a quarter more."""
    degrees = 0.0 if math.isnan(degrees) else degrees
    width, height = tile_sides(float(box[2] - box[0]), float(box[3] - box[1]), degrees)
    return turned(face_gradients()[code], degrees + (90.0 if width > height else 0.0))


def whitened(tensor: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """`tensor` as seen against `expected`: E^-1/2 T E^-1/2, so that faces whose strokes run one way
    give an even tensor where sharp."""
    values, vectors = np.linalg.eigh(_matrix(expected))
    root = vectors @ np.diag(np.maximum(values, 1e-6) ** -0.5) @ vectors.T
    return _triple(root @ _matrix(tensor) @ root)


def _face_measures(grey: np.ndarray, box: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray] | None:
    """(detail, fine, structure tensor (gxx, gxy, gyy) normalised to sum 1 at FACE_SIDE across, the
    same at the photo's own pixels) of one face, or None where it is too small or too flat to judge."""
    x1, y1, x2, y2 = (round(float(v)) for v in box)
    crop = grey[max(0, y1) : max(0, y2), max(0, x1) : max(0, x2)]
    short = min(crop.shape) if crop.size else 0
    rim = max(1, int(short * RIM_SHARE))
    face = crop[rim:-rim, rim:-rim].astype(np.float32)
    if min(face.shape, default=0) < 8:
        return None
    spread = float(face.std())
    if spread < MIN_CONTRAST:
        return None
    fine = float(np.abs(cv2.Laplacian(face, cv2.CV_32F)).mean()) / spread
    scale = FACE_SIDE / short
    small = cv2.resize(face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else face
    detail = float(np.abs(cv2.Laplacian(small, cv2.CV_32F)).mean()) / max(float(small.std()), 1e-6)
    tensor, own = face_tensor(face), _tensor(face)
    return None if tensor is None or own is None else (detail, fine, tensor, own)


def evenness(tensor: np.ndarray) -> float:
    """The smaller over the larger eigenvalue of a 2 x 2 structure tensor (gxx, gxy, gyy): 1 where
    the gradients run every way alike, 0 where all run one way (motion blur)."""
    a, b, d = (float(v) for v in tensor)
    half_trace = (a + d) / 2
    root = math.sqrt(max(half_trace * half_trace - (a * d - b * b), 0.0))
    larger = half_trace + root
    return (half_trace - root) / larger if larger > 0 else 1.0


@dataclass(frozen=True)
class Blur:
    """How sharp a photo's tile faces are (`sharpness`), and how evenly their gradients run every way
    beyond their own strokes (`even`: 1 alike, 0 all one way, as a shake leaves them; the faces' at the
    photo's own pixels, the whole photo's at `whole_scale`)."""

    sharpness: float
    even: float


def photo_sharpness(
    rgb: np.ndarray, xyxy: np.ndarray, probabilities: np.ndarray, angles: np.ndarray | None = None
) -> float | None:
    """The sharpness of the tiles read face up in an (H, W, 3) uint8 RGB photo (`photo_blur`'s)."""
    blur = photo_blur(rgb, xyxy, probabilities, angles)
    return None if blur is None else blur.sharpness


def photo_blur(
    rgb: np.ndarray, xyxy: np.ndarray, probabilities: np.ndarray, angles: np.ndarray | None = None
) -> Blur | None:
    """The blur of the tiles read face up in an (H, W, 3) uint8 RGB photo (boxes `xyxy` (N, 4),
    class `probabilities` (N, 49), each tile's `angles` (N,), degrees, NaN or None: as its box lies);
    None where fewer than MIN_FACES faces can be judged."""
    if not len(xyxy):
        return None
    codes = np.asarray(probabilities).argmax(axis=1)
    turns = np.full(len(xyxy), np.nan) if angles is None else np.asarray(angles, np.float64)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    measures, expected = [], []
    for box, code, degrees in zip(np.asarray(xyxy), codes, turns, strict=True):
        if CLASSES[code] == BACK or (measure := _face_measures(grey, box)) is None:
            continue
        measures.append(measure)
        expected.append(expected_tensor(CLASSES[code], box, float(degrees)))
    if len(measures) < MIN_FACES:
        return None
    detail = float(np.median([m[0] for m in measures]))
    fine = float(np.median([m[1] for m in measures]))
    sharp_faces = np.mean(expected, axis=0)
    even = evenness(whitened(np.mean([m[2] for m in measures], axis=0), sharp_faces))
    # the shake is judged where it is seen, at the photo's own pixels: a large face shrunk to FACE_SIDE
    # shrinks its smear as much (generated scenes shaken 15-40 px: 44 of 47 named a shake, 34 before)
    own = evenness(whitened(np.mean([m[3] for m in measures], axis=0), sharp_faces))
    # evenness weighs in whole: a shake smears the faces one way while leaving much of their detail
    return Blur(sharpness=detail * math.sqrt(fine) * even, even=own)


def blur_lines(sharpness: float | None, even: float | None = None) -> list[Line]:
    """The line for a photo whose tiles are blurred (`photo_blur`'s sharpness under BLURRED_BELOW) or
    shaken (`even` under SHAKEN_EVEN, sharpness under SHAKEN_BELOW): one line, naming a shake where
    the faces' gradients run one way, as its remedy differs from a missed focus' (`Line.about`
    SHAKEN or BLURRED)."""
    if sharpness is None:
        return []
    shaken = even is not None and even < SHAKEN_EVEN
    if sharpness >= (SHAKEN_BELOW if shaken else BLURRED_BELOW):
        return []
    return [Line(SHAKEN_LINE, PHOTO, about=SHAKEN) if shaken else Line(BLURRED_LINE, PHOTO, about=BLURRED)]


def whole_scale(shape: tuple[int, ...], xyxy: np.ndarray | None = None) -> float:
    """The factor a photo of `shape` (H, W, ...) is shrunk by to be judged whole: to WORK_SIDE px across,
    and further where boxes `xyxy` (N, 4) were found, until their median shorter side is WHOLE_TILE_PX
    (never enlarged: a small tile's blur is its own)."""
    scale = min(1.0, WORK_SIDE / max(shape[:2]))
    boxes = np.empty((0, 4)) if xyxy is None else np.asarray(xyxy, np.float64).reshape(-1, 4)
    if len(boxes):
        short = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        if short * scale > WHOLE_TILE_PX:
            scale = WHOLE_TILE_PX / short
    return scale


def whole_photo_blur(rgb: np.ndarray, xyxy: np.ndarray | None = None) -> Blur | None:
    """The blur of a whole (H, W, 3) uint8 RGB photo, for one whose faces are too few to judge: its
    `sharpness` the mean |Laplacian| over the mean |gradient| on its strongest gradients (STRONG_SHARE
    of its pixels) at WORK_SIDE px across, or smaller where the boxes `xyxy` (N, 4, in its pixels) found
    are large (`whole_scale`), `even` how evenly those run every way (`evenness` of their structure
    tensor); None where the photo is flat (a bare wall, a plain table: nothing to judge)."""
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    scale = whole_scale(grey.shape, xyxy)
    if scale < 1:
        grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    grey = grey.astype(np.float32)
    low, high = np.percentile(grey, (1, 99))
    if high - low < MIN_SPAN:
        return None
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0) / 8
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1) / 8
    magnitude = np.hypot(gx, gy)
    strong = magnitude >= np.percentile(magnitude, 100 * (1 - STRONG_SHARE))
    mean_gradient = float(magnitude[strong].mean())
    if mean_gradient <= 0:
        return None
    laplacian = np.abs(cv2.Laplacian(grey, cv2.CV_32F))
    sx, sy = gx[strong].astype(np.float64), gy[strong].astype(np.float64)
    tensor = np.array([(sx * sx).sum(), (sx * sy).sum(), (sy * sy).sum()])
    return Blur(sharpness=float(laplacian[strong].mean()) / mean_gradient, even=evenness(tensor))


def whole_blur_lines(sharpness: float | None, even: float | None = None) -> list[Line]:
    """The line for a photo with too few faces to judge whose whole is blurred (`whole_photo_blur`'s
    sharpness under WHOLE_BLURRED_BELOW) or shaken (`even` under WHOLE_SHAKEN_EVEN, sharpness under
    WHOLE_SHAKEN_BELOW): it says why (almost) no tile was found, and what to do (`Line.about`
    WHOLE_SHAKEN or WHOLE_BLURRED). Nothing where all its gradients run one way (`even` under
    WHOLE_ONE_WAY): a grained surface, not a shaken scene."""
    if sharpness is None or (even is not None and even < WHOLE_ONE_WAY):
        return []
    shaken = [Line(WHOLE_SHAKEN_LINE, PHOTO, about=WHOLE_SHAKEN)]
    one_way = even is not None and even < WHOLE_SHAKEN_EVEN
    if sharpness < WHOLE_BLURRED_BELOW:
        return shaken if one_way else [Line(WHOLE_BLURRED_LINE, PHOTO, about=WHOLE_BLURRED)]
    if one_way and sharpness < WHOLE_SHAKEN_BELOW:
        return shaken
    return []
