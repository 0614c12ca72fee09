"""The ONNX models, run with onnxruntime: a one-class tile detector, a crop classifier and,
optionally, a second look at the flowers and seasons (`SecondLook`), a text look at the boxes the
classifier is unsure of (`vision.text_look`) and a glyph look at the winds and dragons (`vision.glyphs`).

`vision.sidecar` reads `models/models.json` (the files and their settings, see docs/vision.md);
here each session is checked against it: a model whose class names differ from
`vision.classes.CLASSES`, or whose input shape disagrees with the sidecar, is refused with
`ModelError` rather than silently producing wrong codes. The box arithmetic (decoding, NMS, the
filters) is `vision.box_filters`.

onnxruntime's `InferenceSession.run` may be called from several threads at once, so one
session per model is shared by every Streamlit session.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import onnxruntime as ort

from vision.box_filters import (
    clear_of,
    decode_yolo,
    drop_odd_sized,
    drop_straddlers,
    head_shape_problem,
    nms,
    tiles_smaller_than,
)
from vision.classes import CLASS_INDEX, CLASSES
from vision.crops import crop_tiles
from vision.letterbox import Letterbox, letterbox
from vision.sidecar import SIDECAR, ClassifierConfig, DetectorConfig, ModelError, SecondLookConfig, names_diff

if TYPE_CHECKING:
    from vision.glyphs import GlyphReader
    from vision.pip_look import PipLook
    from vision.rank_look import RankLook
    from vision.text_look import TextLook
DEFAULT_PROVIDERS: tuple[str, ...] = ("CPUExecutionProvider",)
DEFAULT_THREADS = 2
# Crops per classifier run: a batch of 160 (40 boxes in four turns) runs 6% faster 32 at a time on
# the 2-core laptop CPU (180 -> 169 ms, stage 62), its working set kept in the cache.
CLASSIFIER_BATCH_MOST = 32


def make_session(
    path: Path, providers: Sequence[str] = DEFAULT_PROVIDERS, threads: int = DEFAULT_THREADS
) -> ort.InferenceSession:
    if not path.is_file():
        raise ModelError(f"model files not found: {path} is missing")
    options = ort.SessionOptions()
    # The laptop target has 2 cores; more threads than cores only adds contention.
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=list(providers))
    except Exception as error:  # onnxruntime raises its own exception types for bad files
        raise ModelError(f"cannot load {path.name}: {str(error).splitlines()[0][:160]}") from None


def _embedded_names(session: ort.InferenceSession) -> list[str] | None:
    """Class names ultralytics writes into the ONNX metadata ("{0: 'tile'}"), if any."""
    raw = session.get_modelmeta().custom_metadata_map.get("names")
    if not raw:
        return None
    try:
        parsed = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        return None
    if isinstance(parsed, dict):
        return [str(parsed[k]) for k in sorted(parsed)]
    return [str(n) for n in parsed] if isinstance(parsed, list) else None


def static_dim(dim: object) -> int | None:
    """A model dimension's size where the file fixes it (a positive int), else None (symbolic)."""
    return dim if isinstance(dim, int) and dim > 0 else None


def _check_detector_output(session: ort.InferenceSession) -> None:
    """`ModelError` unless the model's first output may be a YOLO head: a crop classifier put in the
    detector's place was refused only on the first photo read (an audit, stage 77: "internal error"
    from `python -m vision`, where a wrong model file is exit 2). A file that gives no shape is left to
    the check on its first output."""
    outputs = session.get_outputs()
    shape = list(outputs[0].shape or ()) if outputs else []
    problem = head_shape_problem(shape) if shape else None
    if problem is not None:
        raise ModelError(problem)


def _rgb_nchw_input(session: ort.InferenceSession, what: str) -> tuple[str, tuple[object, object, object]]:
    """The model's one input name and its (batch, height, width) dims; `ModelError` unless it is NCHW RGB."""
    inputs = session.get_inputs()
    if len(inputs) != 1 or len(inputs[0].shape) != 4:
        raise ModelError(f"{what} must have one NCHW input")
    batch, channels, height, width = inputs[0].shape
    if static_dim(channels) not in (None, 3):
        raise ModelError(f"{what} input must have 3 channels, got {channels}")
    return inputs[0].name, (batch, height, width)


@dataclass(frozen=True)
class TileDetector:
    """Finds tiles (any face, or face down) and returns their boxes in source-image pixels."""

    session: ort.InferenceSession
    config: DetectorConfig
    input_name: str
    input_hw: tuple[int, int]

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: DetectorConfig) -> TileDetector:
        input_name, (_, height, width) = _rgb_nchw_input(session, "detector")
        hw = (static_dim(height) or config.imgsz[0], static_dim(width) or config.imgsz[1])
        if hw != config.imgsz:
            raise ModelError(f"detector input is {hw[0]}x{hw[1]} but {SIDECAR} says {config.imgsz}")
        _check_detector_output(session)
        # The embedded names are not checked: a single-class ultralytics run calls its class "item".
        return cls(session=session, config=config, input_name=input_name, input_hw=hw)

    def detect(self, rgb: np.ndarray, grid: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (N, 4) float32 in `rgb` pixels and scores (N,), best first, after NMS.

        With `grid` g > 1 (default: the sidecar's), the whole image AND g x g overlapping
        windows are detected and merged, so tiles too small at the model's input size in the
        whole image are still found; tiles cut by a window's inner edge are left to the
        window (or whole image) that holds them whole. Where the sidecar sets `fine_below` and
        the boxes found say the photo's tiles are smaller than that, the finer `fine_grid`
        replaces g (the whole-image pass is not run twice).
        """
        boxes, scores, _, _ = self.detect_with_candidates(rgb, grid)
        return boxes, scores

    def detect_with_candidates(
        self, rgb: np.ndarray, grid: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """`detect`'s boxes and scores, then the second-chance candidates' (empty unless the sidecar
        sets `second_chance`): boxes scored from `second_chance` up to `conf`, put through the same
        straddle and odd-size checks, that overlap none of the kept boxes. The model is run once:
        greedy NMS lets no lower-scored box suppress a better one, so the kept boxes are those a
        run at `conf` alone keeps."""
        grid = self.config.grid if grid is None else grid
        whole = self._detect_window(rgb)
        merged = self._merged(rgb, whole, grid)
        boxes, scores = self._kept(merged)
        fine_below, fine_grid = self.config.fine_below, self.config.fine_grid
        if (
            fine_below is not None
            and fine_grid > grid
            and tiles_smaller_than(boxes, scores, rgb.shape, fine_below)
        ):
            merged = self._merged(rgb, whole, fine_grid)
            boxes, scores = self._kept(merged)
        candidates, candidate_scores = self._candidates(merged, boxes)
        return boxes, scores, candidates, candidate_scores

    @property
    def _floor(self) -> float:
        """The lowest score a box is decoded at: `second_chance` where set, else `conf`."""
        second = self.config.second_chance
        return self.config.conf if second is None else min(second, self.config.conf)

    def _merged(
        self, rgb: np.ndarray, whole: tuple[np.ndarray, np.ndarray], grid: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The whole-image boxes `whole` merged with those of `grid` x `grid` windows (NMS)."""
        return self._add_windows(rgb, grid, *whole) if grid > 1 else whole

    def _kept(self, merged: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The merged boxes scored `conf` or more, through the sidecar's straddle and odd-size checks."""
        boxes, scores = merged
        sure = scores >= self.config.conf
        return self._checked(boxes[sure], scores[sure])

    def _checked(self, boxes: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.config.straddle is not None:
            keep = drop_straddlers(boxes, scores, self.config.straddle)
            boxes, scores = boxes[keep], scores[keep]
        if self.config.odd_size is not None:
            keep = drop_odd_sized(boxes, scores, self.config.odd_size, self.config.odd_size_below)
            boxes, scores = boxes[keep], scores[keep]
        return boxes, scores

    def _candidates(
        self, merged: tuple[np.ndarray, np.ndarray], kept: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        if self.config.second_chance is None:
            return np.zeros((0, 4), np.float32), np.zeros((0,), np.float32)
        boxes, scores = self._checked(*merged)
        low = (scores < self.config.conf) & clear_of(boxes, kept)
        return boxes[low], scores[low]

    def _add_windows(
        self, rgb: np.ndarray, grid: int, boxes: np.ndarray, scores: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        all_boxes, all_scores = [boxes], [scores]
        height, width = rgb.shape[:2]
        for window in tile_windows(height, width, grid):
            x1, y1, x2, y2 = (int(v) for v in window)
            found, found_scores = self._detect_window(np.ascontiguousarray(rgb[y1:y2, x1:x2]))
            found = found + np.array([x1, y1, x1, y1], np.float32)
            whole = ~_cut_by_inner_edge(found, window, height, width)
            all_boxes.append(found[whole])
            all_scores.append(found_scores[whole])
        merged, merged_scores = np.concatenate(all_boxes), np.concatenate(all_scores)
        keep = nms(merged, merged_scores, self.config.iou, self.config.contain)
        return merged[keep], merged_scores[keep]

    def _detect_window(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        canvas, plan = letterbox(rgb, *self.input_hw)
        return self.detect_letterboxed(canvas, plan)

    def detect_letterboxed(self, canvas: np.ndarray, plan: Letterbox) -> tuple[np.ndarray, np.ndarray]:
        blob = np.ascontiguousarray(canvas.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        (output,) = self.session.run(None, {self.input_name: blob})[:1]
        boxes, scores = decode_yolo(np.asarray(output), self._floor)
        keep = nms(boxes, scores, self.config.iou, self.config.contain)
        boxes = plan.to_source(boxes[keep])
        scores = scores[keep]
        # Boxes wholly in the padding collapse to zero area once clipped: drop them.
        real = (boxes[:, 2] - boxes[:, 0] >= 1) & (boxes[:, 3] - boxes[:, 1] >= 1)
        return boxes[real], scores[real]


WINDOW_OVERLAP = 0.25


def tile_windows(height: int, width: int, grid: int, overlap: float = WINDOW_OVERLAP) -> np.ndarray:
    """(grid * grid, 4) int xyxy windows covering the image, neighbours overlapping by about
    `overlap` of a window (so any tile smaller than that lies whole in some window)."""
    if grid <= 1:
        return np.array([[0, 0, width, height]], np.int64)
    win_w = min(width, math.ceil(width / grid * (1 + overlap)))
    win_h = min(height, math.ceil(height / grid * (1 + overlap)))
    xs = np.linspace(0, width - win_w, grid).round().astype(np.int64)
    ys = np.linspace(0, height - win_h, grid).round().astype(np.int64)
    return np.array([[x, y, x + win_w, y + win_h] for y in ys for x in xs], np.int64)


def _cut_by_inner_edge(boxes: np.ndarray, window: np.ndarray, height: int, width: int) -> np.ndarray:
    """Boxes touching a window edge that is not the image's edge: probably a cut tile."""
    x1, y1, x2, y2 = (float(v) for v in window)
    slack = max(2.0, 0.005 * max(x2 - x1, y2 - y1))
    cut = np.zeros(len(boxes), bool)
    if x1 > 0:
        cut |= boxes[:, 0] <= x1 + slack
    if y1 > 0:
        cut |= boxes[:, 1] <= y1 + slack
    if x2 < width:
        cut |= boxes[:, 2] >= x2 - slack
    if y2 < height:
        cut |= boxes[:, 3] >= y2 - slack
    return cut


def checked_classifier(
    session: ort.InferenceSession,
    what: str,
    imgsz: int,
    size_from: str,
    expected: tuple[str, ...],
    names_from: str,
) -> tuple[str, int | None]:
    """The input name and fixed batch (None if dynamic) of a crop classifier; `ModelError` unless its
    input is `imgsz` square, it has one output per `expected` class and, where ultralytics embedded
    its training folders' names, they are `expected` in order."""
    input_name, (batch, height, width) = _rgb_nchw_input(session, what)
    for dim in (height, width):
        if static_dim(dim) not in (None, imgsz):
            raise ModelError(f"{what} input is {height}x{width} but {size_from} says {imgsz}")
    outputs = session.get_outputs()
    classes = outputs[0].shape[-1] if outputs and outputs[0].shape else None
    if static_dim(classes) not in (None, len(expected)):
        raise ModelError(f"{what} has {classes} outputs, expected {len(expected)}")
    embedded = _embedded_names(session)
    if embedded is not None:
        # Training folders are named "NN_code" so that their sorted order is the class order.
        trained = tuple(re.sub(r"^\d+_", "", name) for name in embedded)
        if trained != expected:
            raise ModelError(
                f"{what} was trained on classes {names_diff(trained, expected)}, not {names_from}"
            )
    return input_name, static_dim(batch)


@dataclass(frozen=True)
class TileClassifier:
    """Reads the face of each square tile crop: (N, 49) class probabilities (and, for a model
    trained with the NOT_A_TILE class, how likely the crop holds no tile at all)."""

    session: ort.InferenceSession
    config: ClassifierConfig
    input_name: str
    size: int
    fixed_batch: int | None  # None when the batch dimension is dynamic
    second_look: SecondLook | None = None
    text_look: TextLook | None = None
    glyphs: GlyphReader | None = None
    rank_look: RankLook | None = None
    pip_look: PipLook | None = None
    # names the model whose looks `describe` gives (a digest of its file: `vision.set_memory.look_key`);
    # a memory taught with another model's looks is not comparable
    look_key: str = ""

    @classmethod
    def from_session(
        cls, session: ort.InferenceSession, config: ClassifierConfig, size_from: str = SIDECAR
    ) -> TileClassifier:
        """`size_from`: what set `config.imgsz`, named where the model's input is another size."""
        expected = CLASSES + (() if config.reject is None else (config.reject,))
        input_name, fixed_batch = checked_classifier(
            session, "classifier", config.imgsz, size_from, expected, "vision/classes.py"
        )
        given = {output.name for output in session.get_outputs()}
        missing = [name for name in config.features if name not in given]
        if missing:
            raise ModelError(f"classifier has no output {', '.join(missing)} (the sidecar's 'features')")
        return cls(
            session=session, config=config, input_name=input_name, size=config.imgsz, fixed_batch=fixed_batch
        )

    @property
    def describes(self) -> bool:
        """Whether `describe` can tell tiles apart by their look (the model gives pooled features)."""
        return bool(self.config.features)

    def describe(self, rgb: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        """(N, D) float32 unit vectors, one per box of `xyxy` in photo `rgb`: the classifier's pooled
        features (each member's made unit length, at each of its quarter turns, and averaged), cut as
        it cuts its crops. Two copies of one face of one set lie close (`vision.set_memory`); (N, 0)
        where the model gives no features."""
        if not self.describes or not len(xyxy):
            return np.zeros((len(xyxy), 0), np.float32)
        crops = crop_tiles(rgb, xyxy, self.size, self.config.crop_margin)
        members = run_batched_outputs(
            self.session,
            self.input_name,
            self.fixed_batch,
            turned_views(crops, self.turns),
            self.config.features,
            CLASSIFIER_BATCH_MOST,
        )
        parts = []
        for member in members:
            features = member.reshape(len(self.turns), len(xyxy), -1)
            features /= np.linalg.norm(features, axis=2, keepdims=True) + 1e-6
            parts.append(features.mean(axis=0))
        joined = np.concatenate(parts, axis=1)
        return (joined / (np.linalg.norm(joined, axis=1, keepdims=True) + 1e-6)).astype(np.float32)

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """(N, S, S, 3) uint8 RGB crops -> (N, 49) float32 tile probabilities (rows sum to 1)."""
        return self.classify_with_reject(crops)[0]

    def classify_with_reject(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(N, 49) tile probabilities (rows sum to 1, given that the crop holds a tile) and (N,) the
        probability that it holds none (all 0 for a model without the NOT_A_TILE output).

        A second look of another size reads these crops resized; `read_boxes` gives it its own.
        The glyph look needs the photo: only `read_boxes` takes it."""
        tiles, not_tile = self._first_look(crops)
        second = self.second_look
        if second is not None:
            tiles = second.refine(lambda rows: resized(crops[rows], second.size), tiles)
        return tiles, not_tile

    def read_boxes(
        self, rgb: np.ndarray, xyxy: np.ndarray, crops: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """`classify_with_reject` of the boxes `xyxy` (N, 4) of photo `rgb`, each cut square with
        the classifier's margin (or `crops`, cut so already); the second look cuts its crops from the
        photo at its own size, the text look its faces, the glyph look reads the winds' and
        dragons' characters there, and the rank look the flowers' and seasons' corner numbers."""
        margin = self.config.crop_margin
        crops = crop_tiles(rgb, xyxy, self.size, margin) if crops is None else crops
        tiles, not_tile = self._first_look(crops)
        second = self.second_look
        if second is not None and second.size == self.size:
            tiles = second.refine(lambda rows: crops[rows], tiles)
        elif second is not None:
            tiles = second.refine(lambda rows: crop_tiles(rgb, xyxy[rows], second.size, margin), tiles)
        if self.text_look is not None:
            tiles = self.text_look.refine(rgb, xyxy, tiles)
        if self.glyphs is not None:
            tiles = self.glyphs.refine(rgb, xyxy, tiles)
        if self.rank_look is not None:
            tiles = self.rank_look.refine(rgb, xyxy, tiles)
        pips = self.pip_look
        if pips is not None:
            same = pips.config.imgsz == self.size
            tiles = pips.refine(
                lambda rows: crops[rows] if same else crop_tiles(rgb, xyxy[rows], pips.config.imgsz, margin),
                tiles,
            )
        return tiles, not_tile

    @property
    def turns(self) -> tuple[int, ...]:
        """The quarter turns of each crop that are read and averaged."""
        return {1: (0,), 2: (0, 2), 4: (0, 1, 2, 3)}[self.config.rotations]

    def _first_look(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = len(crops)
        if n == 0:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0,), np.float32)
        if crops.shape[1:] != (self.size, self.size, 3):
            raise ValueError(f"crops must be (N, {self.size}, {self.size}, 3), got {crops.shape}")
        probs = self._classify(turned_views(crops, self.turns)).reshape(len(self.turns), n, -1).mean(axis=0)
        tiles = probs[:, : len(CLASSES)]
        not_tile = probs[:, len(CLASSES) :].sum(axis=1)
        # a crop judged all "no tile" still gets a usable tile distribution (uniform, not 0/0)
        sums = tiles.sum(axis=1, keepdims=True)
        tiles = np.where(sums > 1e-12, tiles / np.maximum(sums, 1e-12), 1.0 / len(CLASSES))
        return tiles.astype(np.float32), not_tile.astype(np.float32)

    def _classify(self, crops: np.ndarray) -> np.ndarray:
        probs = run_batched(self.session, self.input_name, self.fixed_batch, crops, CLASSIFIER_BATCH_MOST)
        if probs.shape[1] != self.config.outputs:
            raise ModelError(f"classifier returned {probs.shape[1]} classes, expected {self.config.outputs}")
        return _as_probabilities(probs)


def turned_views(crops: np.ndarray, turns: Sequence[int]) -> np.ndarray:
    """(len(turns) * N, S, S, 3): all N crops turned by the first quarter turns, then the next ..."""
    return np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in turns])


def resized(crops: np.ndarray, size: int) -> np.ndarray:
    """(N, size, size, 3) copies of square crops (N, S, S, 3)."""
    if crops.shape[1] == size:
        return crops
    interpolation = cv2.INTER_AREA if crops.shape[1] > size else cv2.INTER_LINEAR
    return np.stack([cv2.resize(c, (size, size), interpolation=interpolation) for c in crops]).reshape(
        len(crops), size, size, 3
    )


def run_batched(
    session: ort.InferenceSession,
    input_name: str,
    fixed_batch: int | None,
    crops: np.ndarray,
    most: int | None = None,
) -> np.ndarray:
    """(N, S, S, 3) uint8 RGB crops -> the model's (N, K) outputs, in batches the model accepts: its
    fixed batch, else at most `most` crops at a time (all at once where None)."""
    # the first output alone: a classifier may give its pooled features too (`describe`)
    first = session.get_outputs()[0].name
    return run_batched_outputs(session, input_name, fixed_batch, crops, (first,), most)[0]


def run_batched_outputs(
    session: ort.InferenceSession,
    input_name: str,
    fixed_batch: int | None,
    crops: np.ndarray,
    names: Sequence[str],
    most: int | None = None,
) -> list[np.ndarray]:
    """`run_batched` for the model's outputs `names`: each (N, K) of its own, in their order."""
    n = len(crops)
    blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
    step = fixed_batch or min(n, most or n)
    parts: list[list[np.ndarray]] = [[] for _ in names]
    for start in range(0, n, step):
        chunk = blob[start : start + step]
        real = len(chunk)
        if fixed_batch and real < fixed_batch:
            # A fixed-batch model needs full batches: pad with copies, drop their outputs.
            chunk = np.concatenate([chunk, np.repeat(chunk[-1:], fixed_batch - real, axis=0)])
        outputs = session.run(list(names), {input_name: chunk})
        for kept, out in zip(parts, outputs, strict=True):
            kept.append(np.asarray(out, np.float32).reshape(len(chunk), -1)[:real])
    return [np.concatenate(kept) for kept in parts]


def share_out(tiles: np.ndarray, rows: np.ndarray, second: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """`tiles` (N, 49) with the probability each of `rows` gives the faces at `columns` shared out
    among them as `second` (len(rows), len(columns)) says; every other face and row keeps its value."""
    out = tiles.copy()
    mass = out[np.ix_(rows, columns)].sum(axis=1, keepdims=True)
    out[np.ix_(rows, columns)] = mass * second
    return out


@dataclass(frozen=True)
class SecondLook:
    """The flowers-and-seasons classifier (`SecondLookConfig`): reads `size` square crops in the
    first classifier's quarter `turns` (a tile lies at any angle) and averages them; `columns` are
    its names' places in CLASSES."""

    session: ort.InferenceSession
    config: SecondLookConfig
    input_name: str
    fixed_batch: int | None
    size: int
    turns: tuple[int, ...]
    columns: np.ndarray

    @classmethod
    def from_session(
        cls,
        session: ort.InferenceSession,
        config: SecondLookConfig,
        imgsz: int,
        turns: tuple[int, ...],
    ) -> SecondLook:
        """`imgsz` and `turns` are the classifier's; `imgsz` is used where `config.imgsz` is None."""
        size = imgsz if config.imgsz is None else config.imgsz
        where = "the classifier" if config.imgsz is None else "its second_look section"
        input_name, fixed_batch = checked_classifier(
            session, "second look", size, where, config.names, "its second_look names"
        )
        return cls(
            session=session,
            config=config,
            input_name=input_name,
            fixed_batch=fixed_batch,
            size=size,
            turns=turns,
            columns=np.array([CLASS_INDEX[code] for code in config.names]),
        )

    def refine(self, crops_of: Callable[[np.ndarray], np.ndarray], tiles: np.ndarray) -> np.ndarray:
        """`tiles` (N, 49) with its names re-read where they hold at least `above` together;
        `crops_of(rows)` gives those rows' crops, `size` square, upright as cut."""
        columns = self.columns
        rows = np.flatnonzero(tiles[:, columns].sum(axis=1) >= self.config.above)
        if rows.size == 0:
            return tiles
        crops = crops_of(rows)
        if crops.shape[1:] != (self.size, self.size, 3):
            raise ValueError(f"second look crops must be (N, {self.size}, {self.size}, 3), got {crops.shape}")
        probs = run_batched(self.session, self.input_name, self.fixed_batch, turned_views(crops, self.turns))
        if probs.shape[1] != columns.size:
            raise ModelError(f"second look returned {probs.shape[1]} classes, expected {columns.size}")
        second = _as_probabilities(probs).reshape(len(self.turns), rows.size, -1).mean(axis=0)
        return share_out(tiles, rows, second, columns)


def _as_probabilities(values: np.ndarray) -> np.ndarray:
    """ultralytics exports softmax already applied; apply it here only if the model gave logits."""
    sums = values.sum(axis=1)
    if (values >= 0).all() and np.allclose(sums, 1.0, atol=1e-3):
        return values
    shifted = np.exp(values - values.max(axis=1, keepdims=True))
    return (shifted / shifted.sum(axis=1, keepdims=True)).astype(np.float32)
