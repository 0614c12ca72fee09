"""The ONNX models, run with onnxruntime: a one-class tile detector, a crop classifier and,
optionally, a second look at the flowers and seasons (`SecondLook`), a text look at the boxes the
classifier is unsure of (`vision.text_look`) and a glyph look at the winds and dragons (`vision.glyphs`).

`models/models.json` names the files and their settings (see docs/vision.md). A model whose
class names differ from `vision.classes.CLASSES`, or whose input shape disagrees with the
sidecar, is refused with `ModelError` rather than silently producing wrong codes.

onnxruntime's `InferenceSession.run` may be called from several threads at once, so one
session per model is shared by every Streamlit session.
"""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
import onnxruntime as ort

from vision.classes import CLASS_INDEX, CLASSES, FLOWERS, NOT_A_TILE, SEASONS
from vision.crops import crop_tiles
from vision.letterbox import Letterbox, letterbox

if TYPE_CHECKING:
    from vision.glyphs import GlyphReader
    from vision.pip_look import PipLook
    from vision.rank_look import RankLook
    from vision.text_look import TextLook

SIDECAR = "models.json"
DEFAULT_PROVIDERS: tuple[str, ...] = ("CPUExecutionProvider",)
DEFAULT_THREADS = 2


class ModelError(RuntimeError):
    """Model files missing, unreadable or inconsistent; the message is one line."""


@dataclass(frozen=True)
class DetectorConfig:
    file: str
    imgsz: tuple[int, int]  # (height, width)
    names: tuple[str, ...]
    conf: float
    iou: float
    # 1 = whole image only; g > 1 adds g x g overlapping windows at full resolution (small tiles).
    grid: int = 1
    # Optional: also suppress boxes lying mostly (> contain) inside a better box; None = off.
    contain: float | None = None
    # Optional: drop a box of which two better boxes each cover at least this share (a box
    # straddling two touching tiles); None = off.
    straddle: float | None = None
    # Optional: drop a box scoring below `odd_size_below` whose long side is more than `odd_size`
    # times longer or shorter than the photo's typical tile; None = off.
    odd_size: float | None = None
    odd_size_below: float = 0.75
    # Optional: where the photo's typical tile (see `typical_sides`) is shorter than `fine_below` of
    # the image's long side, detect again with `fine_grid` windows per side instead (tiles that
    # small are found more often seen larger); None = off.
    fine_below: float | None = None
    fine_grid: int = 3
    # Optional: boxes scored from `second_chance` up to `conf` that overlap no kept box are read by
    # the classifier too, and kept where it is sure of a face (`second_chance_sure` or more) and sure
    # that they hold a tile (not-a-tile at most `second_chance_none`): face-down tiles in a row are
    # one even colour, which the detector scores low; None = off.
    second_chance: float | None = None
    second_chance_sure: float = 0.97
    second_chance_none: float = 0.05


@dataclass(frozen=True)
class ClassifierConfig:
    file: str
    imgsz: int
    names: tuple[str, ...]
    crop_margin: float
    # 1 = read each crop as cut; 2 or 4 = also turned by 180 (and 90, 270) degrees, probabilities
    # averaged: a tile lies at any angle, and the views disagree where one alone is unsure
    rotations: int = 1
    # NOT_A_TILE when the model has one more output after the 49 tiles: "no tile in this crop";
    # a crop whose probability of it exceeds `reject_above` is left out of the reading
    reject: str | None = None
    reject_above: float = 0.5
    # Optional: leave out a box whose long or short side is over `odd_shape` times off the photo's
    # typical tile when the detector scores it under `odd_shape_below` and its likeliest face is
    # under `odd_shape_unsure` (see `odd_and_unsure`); None = off.
    odd_shape: float | None = None
    odd_shape_below: float = 0.7
    odd_shape_unsure: float = 0.5

    @property
    def outputs(self) -> int:
        return len(self.names) + (self.reject is not None)


# The faces the second look reads again: they differ only in small marks (a corner number, a name).
# A second look may read more faces beside them (the first look's bird of 1s, taken for a flower).
SECOND_LOOK: tuple[str, ...] = FLOWERS + SEASONS


def second_look_names_ok(names: Sequence[str]) -> bool:
    """Distinct tile codes in CLASSES order (the order a model trained on class folders has) that
    hold the eight flowers and seasons."""
    known = all(code in CLASS_INDEX for code in names)
    ordered = known and list(names) == sorted(set(names), key=CLASS_INDEX.__getitem__)
    return ordered and set(SECOND_LOOK) <= set(names)


@dataclass(frozen=True)
class SecondLookConfig:
    """A classifier trained on the flowers and seasons (and, in `names`, maybe a few faces the first
    look takes for them), run where the classifier gives its `names` together at least `above`; it
    shares that probability out among them, and the classifier keeps what it gave every other face.
    It reads crops `imgsz` square (None: the classifier's own crops), cut with the classifier's
    margin and turned the same ways."""

    file: str
    names: tuple[str, ...]
    above: float = 0.3
    # The corner numbers and names are a few pixels tall in a 96 px crop of a whole tile; a larger
    # crop of the same box, cut from the photo, keeps them legible where the photo has the pixels.
    imgsz: int | None = None


@dataclass(frozen=True)
class GlyphConfig:
    """The sidecar's "glyphs" section: a text recogniser's file inside an installed package (not in
    models/), and how its reading of a wind's or dragon's character, and of a flower's or season's
    name, is weighed against the classifier's (`vision.glyphs`)."""

    package: str = "rapidocr_onnxruntime"
    file: str = "models/ch_PP-OCRv4_rec_infer.onnx"
    # read boxes where the classifier gives the winds and dragons together at least this
    above: float = 0.2
    # added to every recogniser score: the smaller, the more the recogniser overrules the classifier
    floor: float = 1e-3
    # the box cut smaller by this share on each side: a tile's rim reads as 口 or 中
    shrink: float = 0.1
    # read the names of flowers and seasons (梅 ... 冬, PLUM ... WINTER) on boxes where the classifier
    # gives those eight together at least this; None: not read
    bonus_above: float | None = None
    # as `floor`, for the flowers' and seasons' names
    bonus_floor: float = 0.01
    # also read English names (PLUM ... WINTER) along the edges, where no corner holds a character
    bonus_words: bool = False
    # turn each face square to the axes before reading it (`vision.deskew`); False: read the box as it lies
    deskew: bool = False


@dataclass(frozen=True)
class TextLookConfig:
    """The sidecar's "text_look" section: a head over a text recogniser's backbone, fused with it in
    one file in models/, and how much its reading weighs against the classifier's
    (`vision.text_look`)."""

    file: str
    # the head's share of the geometric mean with the classifier: 0 = unheard, 1 = alone
    weight: float = 0.35
    # read only boxes whose likeliest face the classifier gives less than this; None: every box
    unsure_below: float | None = None
    # the box cut smaller by this share on each side before it is read
    shrink: float = 0.03
    # the face is read `imgsz` square (the recogniser's 48 px line height)
    imgsz: int = 48


@dataclass(frozen=True)
class RankLookConfig:
    """The sidecar's "rank_look" section: a small network in models/ that reads the number (1-4,
    一-四) in a flower's or season's corner, and how it weighs their probabilities
    (`vision.rank_look`)."""

    file: str
    # read boxes where the classifier gives the flowers and seasons together at least this
    above: float = 0.3
    # added to every rank score: the smaller, the more a read number overrules the classifier
    floor: float = 0.05
    # a rank scored under this is not heard (a stroke of a picture may look like 一)
    least: float = 0.5
    # the box cut smaller by this share on each side before the face is turned square
    shrink: float = 0.03
    # each corner window is read `imgsz` square
    imgsz: int = 32


@dataclass(frozen=True)
class PipLookConfig:
    """The sidecar's "pip_look" section: a small detector in models/ that finds each dot and stick of
    a tile, and how the count weighs the suit's ranks (`vision.pip_look`)."""

    file: str
    # count boxes where the classifier gives a suit's counted ranks (1-9 of dots, 2-9 of bamboo) this
    above: float = 0.5
    # a pip scored at least this is counted
    conf: float = 0.4
    # NMS: pips overlapping more than this are one (the boxes of slanted sticks overlap)
    iou: float = 0.6
    # the weight of each rank the count does not say (1 for the counted rank)
    floor: float = 0.1
    # the crop's side (the classifier's margin); the classifier's own crops when the sizes agree
    imgsz: int = 128


@dataclass(frozen=True)
class ModelsConfig:
    detector: DetectorConfig
    classifier: ClassifierConfig
    second_look: SecondLookConfig | None = None
    glyphs: GlyphConfig | None = None
    text_look: TextLookConfig | None = None
    rank_look: RankLookConfig | None = None
    pip_look: PipLookConfig | None = None


def _section(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ModelError(f"{where}: missing or malformed '{key}' section")
    return value


def _names(section: dict[str, Any], where: str) -> tuple[str, ...]:
    names = section.get("names")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ModelError(f"{where}: 'names' must be a list of strings")
    return tuple(names)


def _hw(value: Any) -> tuple[int, int]:
    """imgsz as an int (square) or [height, width]."""
    if isinstance(value, int):
        return (value, value)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (value[0], value[1])
    raise ValueError(f"imgsz must be an int or [height, width], got {value!r}")


def parse_config(data: Any, where: str = SIDECAR) -> ModelsConfig:
    """Validate the sidecar JSON (already parsed) into typed settings."""
    if not isinstance(data, dict):
        raise ModelError(f"{where}: expected a JSON object")
    det = _section(data, "detector", where)
    cls = _section(data, "classifier", where)
    try:
        detector = DetectorConfig(
            file=str(det["file"]),
            imgsz=_hw(det["imgsz"]),
            names=_names(det, where),
            conf=float(det.get("conf", 0.25)),
            iou=float(det.get("iou", 0.6)),
            grid=int(det.get("grid", 1)),
            contain=None if det.get("contain") is None else float(det["contain"]),
            straddle=None if det.get("straddle") is None else float(det["straddle"]),
            odd_size=None if det.get("odd_size") is None else float(det["odd_size"]),
            odd_size_below=float(det.get("odd_size_below", 0.75)),
            fine_below=None if det.get("fine_below") is None else float(det["fine_below"]),
            fine_grid=int(det.get("fine_grid", 3)),
            second_chance=None if det.get("second_chance") is None else float(det["second_chance"]),
            second_chance_sure=float(det.get("second_chance_sure", 0.97)),
            second_chance_none=float(det.get("second_chance_none", 0.05)),
        )
        classifier = ClassifierConfig(
            file=str(cls["file"]),
            imgsz=int(cls["imgsz"]),
            names=_names(cls, where),
            crop_margin=float(cls.get("crop_margin", 0.15)),
            rotations=int(cls.get("rotations", 1)),
            reject=None if cls.get("reject") is None else str(cls["reject"]),
            reject_above=float(cls.get("reject_above", 0.5)),
            odd_shape=None if cls.get("odd_shape") is None else float(cls["odd_shape"]),
            odd_shape_below=float(cls.get("odd_shape_below", 0.7)),
            odd_shape_unsure=float(cls.get("odd_shape_unsure", 0.5)),
        )
        second_look = _second_look(data, where)
        glyphs = _glyphs(data, where)
        text_look = _text_look(data, where)
        rank_look = _rank_look(data, where)
        pip_look = _pip_look(data, where)
    except KeyError as error:
        raise ModelError(f"{where}: missing {error}") from None
    except (TypeError, ValueError) as error:
        raise ModelError(f"{where}: malformed ({error})") from None
    if not 1 <= detector.grid <= 8:
        raise ModelError(f"{where}: detector grid must be 1..8, got {detector.grid}")
    if detector.straddle is not None and not 0 < detector.straddle <= 1:
        raise ModelError(f"{where}: detector straddle must be in (0, 1], got {detector.straddle}")
    if detector.odd_size is not None and not detector.odd_size > 1:
        raise ModelError(f"{where}: detector odd_size must be above 1, got {detector.odd_size}")
    if not 0 < detector.odd_size_below <= 1:
        raise ModelError(f"{where}: detector odd_size_below must be in (0, 1], got {detector.odd_size_below}")
    if detector.fine_below is not None and not 0 < detector.fine_below < 1:
        raise ModelError(f"{where}: detector fine_below must be in (0, 1), got {detector.fine_below}")
    if not 2 <= detector.fine_grid <= 8:
        raise ModelError(f"{where}: detector fine_grid must be 2..8, got {detector.fine_grid}")
    if detector.second_chance is not None and not 0 < detector.second_chance < detector.conf:
        raise ModelError(
            f"{where}: detector second_chance must be in (0, conf {detector.conf}), "
            f"got {detector.second_chance}"
        )
    if not 0 < detector.second_chance_sure <= 1:
        raise ModelError(
            f"{where}: detector second_chance_sure must be in (0, 1], got {detector.second_chance_sure}"
        )
    if not 0 <= detector.second_chance_none <= 1:
        raise ModelError(
            f"{where}: detector second_chance_none must be in [0, 1], got {detector.second_chance_none}"
        )
    if detector.names != ("tile",):
        raise ModelError(f"{where}: detector names must be ['tile'], got {list(detector.names)}")
    if classifier.rotations not in (1, 2, 4):
        raise ModelError(f"{where}: classifier rotations must be 1, 2 or 4, got {classifier.rotations}")
    if classifier.reject not in (None, NOT_A_TILE):
        raise ModelError(f"{where}: classifier reject must be '{NOT_A_TILE}', got '{classifier.reject}'")
    if not 0.0 < classifier.reject_above <= 1.0:
        raise ModelError(f"{where}: classifier reject_above must be in (0, 1], got {classifier.reject_above}")
    if classifier.odd_shape is not None and not classifier.odd_shape > 1:
        raise ModelError(f"{where}: classifier odd_shape must be above 1, got {classifier.odd_shape}")
    for key in ("odd_shape_below", "odd_shape_unsure"):
        if not 0.0 < getattr(classifier, key) <= 1.0:
            raise ModelError(f"{where}: classifier {key} must be in (0, 1], got {getattr(classifier, key)}")
    if classifier.names != CLASSES:
        raise ModelError(f"{where}: classifier names {_diff(classifier.names)} differ from vision/classes.py")
    if second_look is not None:
        if not second_look_names_ok(second_look.names):
            raise ModelError(
                f"{where}: second_look names {list(second_look.names)} must be tile codes in "
                "vision/classes.py order, each once, the eight flowers and seasons among them"
            )
        if not 0.0 < second_look.above <= 1.0:
            raise ModelError(f"{where}: second_look above must be in (0, 1], got {second_look.above}")
        if second_look.imgsz is not None and not 16 <= second_look.imgsz <= 1024:
            raise ModelError(f"{where}: second_look imgsz must be 16..1024, got {second_look.imgsz}")
    if glyphs is not None:
        if not 0.0 < glyphs.above <= 1.0:
            raise ModelError(f"{where}: glyphs above must be in (0, 1], got {glyphs.above}")
        if not glyphs.floor > 0.0:
            raise ModelError(f"{where}: glyphs floor must be above 0, got {glyphs.floor}")
        if not 0.0 <= glyphs.shrink < 0.5:
            raise ModelError(f"{where}: glyphs shrink must be in [0, 0.5), got {glyphs.shrink}")
        if glyphs.bonus_above is not None and not 0.0 < glyphs.bonus_above <= 1.0:
            raise ModelError(
                f"{where}: glyphs bonus_above must be in (0, 1] or null, got {glyphs.bonus_above}"
            )
        if not glyphs.bonus_floor > 0.0:
            raise ModelError(f"{where}: glyphs bonus_floor must be above 0, got {glyphs.bonus_floor}")
    if text_look is not None:
        if not 0.0 < text_look.weight <= 1.0:
            raise ModelError(f"{where}: text_look weight must be in (0, 1], got {text_look.weight}")
        if text_look.unsure_below is not None and not 0.0 < text_look.unsure_below <= 1.0:
            raise ModelError(
                f"{where}: text_look unsure_below must be in (0, 1] or null, got {text_look.unsure_below}"
            )
        if not 0.0 <= text_look.shrink < 0.5:
            raise ModelError(f"{where}: text_look shrink must be in [0, 0.5), got {text_look.shrink}")
        if not 16 <= text_look.imgsz <= 256:
            raise ModelError(f"{where}: text_look imgsz must be 16..256, got {text_look.imgsz}")
    if rank_look is not None:
        check_rank_look(rank_look, where)
    if pip_look is not None:
        check_pip_look(pip_look, where)
    return ModelsConfig(
        detector=detector,
        classifier=classifier,
        second_look=second_look,
        glyphs=glyphs,
        text_look=text_look,
        rank_look=rank_look,
        pip_look=pip_look,
    )


def _second_look(data: dict[str, Any], where: str) -> SecondLookConfig | None:
    """The optional "second_look" section; absent or null = no second look."""
    if data.get("second_look") is None:
        return None
    section = _section(data, "second_look", where)
    return SecondLookConfig(
        file=str(section["file"]),
        names=_names(section, where),
        above=float(section.get("above", 0.3)),
        imgsz=None if section.get("imgsz") is None else int(section["imgsz"]),
    )


def _flag(value: object, name: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise ModelError(f"{where}: {name} must be true or false, got {value!r}")
    return value


def _glyphs(data: dict[str, Any], where: str) -> GlyphConfig | None:
    """The optional "glyphs" section; absent or null = no glyph look."""
    if data.get("glyphs") is None:
        return None
    section = _section(data, "glyphs", where)
    default = GlyphConfig()
    return GlyphConfig(
        package=str(section.get("package", default.package)),
        file=str(section.get("file", default.file)),
        above=float(section.get("above", default.above)),
        floor=float(section.get("floor", default.floor)),
        shrink=float(section.get("shrink", default.shrink)),
        bonus_above=None if section.get("bonus_above") is None else float(section["bonus_above"]),
        bonus_floor=float(section.get("bonus_floor", default.bonus_floor)),
        bonus_words=_flag(section.get("bonus_words", default.bonus_words), "glyphs bonus_words", where),
        deskew=_flag(section.get("deskew", default.deskew), "glyphs deskew", where),
    )


def _text_look(data: dict[str, Any], where: str) -> TextLookConfig | None:
    """The optional "text_look" section; absent or null = no text look."""
    if data.get("text_look") is None:
        return None
    section = _section(data, "text_look", where)
    default = TextLookConfig(file="")
    return TextLookConfig(
        file=str(section["file"]),
        weight=float(section.get("weight", default.weight)),
        unsure_below=None if section.get("unsure_below") is None else float(section["unsure_below"]),
        shrink=float(section.get("shrink", default.shrink)),
        imgsz=int(section.get("imgsz", default.imgsz)),
    )


def check_rank_look(rank_look: RankLookConfig, where: str) -> None:
    """ModelError unless the rank look's settings lie in their ranges."""
    for key in ("above", "least"):
        if not 0.0 < getattr(rank_look, key) <= 1.0:
            raise ModelError(f"{where}: rank_look {key} must be in (0, 1], got {getattr(rank_look, key)}")
    if not rank_look.floor > 0.0:
        raise ModelError(f"{where}: rank_look floor must be above 0, got {rank_look.floor}")
    if not 0.0 <= rank_look.shrink < 0.5:
        raise ModelError(f"{where}: rank_look shrink must be in [0, 0.5), got {rank_look.shrink}")
    if not 8 <= rank_look.imgsz <= 256:
        raise ModelError(f"{where}: rank_look imgsz must be 8..256, got {rank_look.imgsz}")


def check_pip_look(pip_look: PipLookConfig, where: str) -> None:
    for key in ("above", "conf", "iou", "floor"):
        if not 0.0 < getattr(pip_look, key) <= 1.0:
            raise ModelError(f"{where}: pip_look {key} must be in (0, 1], got {getattr(pip_look, key)}")
    if not 32 <= pip_look.imgsz <= 512:
        raise ModelError(f"{where}: pip_look imgsz must be 32..512, got {pip_look.imgsz}")


def _pip_look(data: dict[str, Any], where: str) -> PipLookConfig | None:
    """The optional "pip_look" section; absent or null = no pip look."""
    if data.get("pip_look") is None:
        return None
    section = _section(data, "pip_look", where)
    default = PipLookConfig(file="")
    return PipLookConfig(
        file=str(section["file"]),
        above=float(section.get("above", default.above)),
        conf=float(section.get("conf", default.conf)),
        iou=float(section.get("iou", default.iou)),
        floor=float(section.get("floor", default.floor)),
        imgsz=int(section.get("imgsz", default.imgsz)),
    )


def _rank_look(data: dict[str, Any], where: str) -> RankLookConfig | None:
    """The optional "rank_look" section; absent or null = no rank look."""
    if data.get("rank_look") is None:
        return None
    section = _section(data, "rank_look", where)
    default = RankLookConfig(file="")
    return RankLookConfig(
        file=str(section["file"]),
        above=float(section.get("above", default.above)),
        floor=float(section.get("floor", default.floor)),
        least=float(section.get("least", default.least)),
        shrink=float(section.get("shrink", default.shrink)),
        imgsz=int(section.get("imgsz", default.imgsz)),
    )


def _diff(names: Sequence[str], expected: Sequence[str] = CLASSES) -> str:
    if len(names) != len(expected):
        return f"({len(names)} classes, expected {len(expected)})"
    first = next(i for i, (a, b) in enumerate(zip(names, expected, strict=True)) if a != b)
    return f"(class {first} is '{names[first]}', expected '{expected[first]}')"


def load_config(models_dir: Path) -> ModelsConfig:
    path = models_dir / SIDECAR
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"model files not found: {path} is missing") from None
    except (OSError, ValueError) as error:
        raise ModelError(f"cannot read {path}: {error}") from None
    return parse_config(data, str(path))


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


def _rgb_nchw_input(session: ort.InferenceSession, what: str) -> tuple[str, tuple[object, object, object]]:
    """The model's one input name and its (batch, height, width) dims; `ModelError` unless it is NCHW RGB."""
    inputs = session.get_inputs()
    if len(inputs) != 1 or len(inputs[0].shape) != 4:
        raise ModelError(f"{what} must have one NCHW input")
    batch, channels, height, width = inputs[0].shape
    if static_dim(channels) not in (None, 3):
        raise ModelError(f"{what} input must have 3 channels, got {channels}")
    return inputs[0].name, (batch, height, width)


def _areas(boxes: np.ndarray) -> np.ndarray:
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def _intersections(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Area of `box` (4,) shared with each of `others` (K, 4)."""
    w = np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0])
    h = np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def _overlaps(
    box: np.ndarray, area: float, others: np.ndarray, other_areas: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """IoU of `box` (4,) with each of `others` (K, 4), and the share of the smaller of each pair
    lying inside the other (0 where an area is 0)."""
    inter = _intersections(box, others)
    union = area + other_areas - inter
    iou = np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)
    smaller = np.minimum(area, other_areas)
    inside = np.where(smaller > 0, inter / np.where(smaller > 0, smaller, 1), 0.0)
    return iou, inside


def nms(
    xyxy: np.ndarray, scores: np.ndarray, iou_threshold: float, containment: float | None = None
) -> np.ndarray:
    """Class-agnostic greedy non-maximum suppression; indices kept, best score first.

    With `containment`, a box is also dropped when more than that fraction of the smaller of
    the two boxes lies inside a better one: a detector unsure of a tile's extent gives a
    face-only box inside the whole-tile box, whose IoU is too low for plain NMS. Real tiles
    almost never nest (0 of 49,257 tile pairs in 300 synthetic scenes above 0.7).
    """
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    order = np.argsort(-np.asarray(scores), kind="stable")
    areas = _areas(boxes)
    keep: list[int] = []
    while order.size:
        best = int(order[0])
        keep.append(best)
        rest = order[1:]
        iou, inside = _overlaps(boxes[best], areas[best], boxes[rest], areas[rest])
        suppress = iou > iou_threshold
        if containment is not None:
            suppress |= inside > containment
        order = rest[~suppress]
    return np.asarray(keep, np.int64)


def drop_straddlers(xyxy: np.ndarray, scores: np.ndarray, share: float) -> np.ndarray:
    """Indices kept, best score first: a box is dropped when two better kept boxes each cover at
    least `share` of it. Touching tiles in a close-up give such boxes, half on one tile and half on
    the next; NMS keeps them, as their IoU with either tile is low."""
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    order = np.argsort(-np.asarray(scores), kind="stable")
    areas = _areas(boxes)
    keep: list[int] = []
    for i in order:
        covered = _intersections(boxes[i], boxes[keep]) / areas[i] if areas[i] > 0 else np.zeros(0)
        if int((covered >= share).sum()) >= 2:  # two better boxes each cover `share` of this one
            continue
        keep.append(int(i))
    return np.asarray(keep, np.int64)


# A second-chance box overlapping a kept box this much (IoU), or lying this much inside it (or it
# inside the box), is a part or a double of that tile, not a tile the detector missed.
CLEAR_IOU = 0.3
CLEAR_CONTAIN = 0.5


def clear_of(xyxy: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """(N,) bool: the boxes `xyxy` overlapping none of `kept` by IoU `CLEAR_IOU` or containment
    `CLEAR_CONTAIN` (of the smaller of the two) or more."""
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    others = np.asarray(kept, np.float32).reshape(-1, 4)
    clear = np.ones(len(boxes), bool)
    if not len(others):
        return clear
    areas, other_areas = _areas(boxes), _areas(others)
    for i, box in enumerate(boxes):
        iou, inside = _overlaps(box, areas[i], others, other_areas)
        clear[i] = not ((iou >= CLEAR_IOU) | (inside >= CLEAR_CONTAIN)).any()
    return clear


def surely_read(probabilities: np.ndarray, not_tile: np.ndarray, config: DetectorConfig) -> np.ndarray:
    """(N,) bool: second-chance boxes the classifier reads as one face at `second_chance_sure` or
    more and as no tile at `second_chance_none` at most: only a surely read tile joins the reading."""
    likeliest = np.asarray(probabilities, np.float32).max(axis=1)
    return (likeliest >= config.second_chance_sure) & (np.asarray(not_tile) <= config.second_chance_none)


# The typical tile is measured on at least this many of the photo's surer boxes.
ODD_SIZE_MIN_BOXES = 3


def drop_odd_sized(xyxy: np.ndarray, scores: np.ndarray, ratio: float, below: float) -> np.ndarray:
    """Indices kept, in input order: a box scoring under `below` is dropped when its long side is
    over `ratio` times longer or shorter than the median long side of the surer half of the boxes.

    The tiles of one hand are one size in a photo (the long side is the tile's length at any
    quarter turn), so an unsure box far off that size holds a foot, a chair leg or two tiles
    rather than one. Sure boxes stay whatever their size: the rule only judges doubtful ones.
    """
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    scores = np.asarray(scores, np.float32).reshape(-1)
    sides = long_short_sides(boxes)
    typical = typical_sides(sides, scores)
    if typical is None or typical[0] <= 0:
        return np.arange(len(boxes), dtype=np.int64)
    off = np.abs(np.log(np.maximum(sides[:, 0], 1e-6) / typical[0])) > np.log(ratio)
    return np.flatnonzero(~(off & (scores < below))).astype(np.int64)


def long_short_sides(xyxy: np.ndarray) -> np.ndarray:
    """(N, 2) long and short side of each box."""
    w, h = xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]
    return np.stack([np.maximum(w, h), np.minimum(w, h)], axis=1)


def typical_sides(sides: np.ndarray, scores: np.ndarray) -> np.ndarray | None:
    """(2,) median long and short side of the surer half of the boxes; None under ODD_SIZE_MIN_BOXES."""
    if len(sides) < ODD_SIZE_MIN_BOXES:
        return None
    return np.median(sides[scores >= np.median(scores)], axis=0)


def tiles_smaller_than(xyxy: np.ndarray, scores: np.ndarray, shape: tuple[int, ...], share: float) -> bool:
    """Whether the photo's typical tile (`typical_sides`: judged on 3 boxes or more) is shorter than
    `share` of the image's long side."""
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    typical = typical_sides(long_short_sides(boxes), np.asarray(scores, np.float32).reshape(-1))
    return typical is not None and float(typical[0]) < share * max(shape[:2])


def odd_and_unsure(
    xyxy: np.ndarray, det_score: np.ndarray, class_prob: np.ndarray, ratio: float, below: float, unsure: float
) -> np.ndarray:
    """(N,) bool: boxes that neither model vouches for and whose shape is not the photo's tile's.

    A box is odd when its long or its short side is over `ratio` times off the median of the surer
    half of the boxes (a slipper or a cushion seen at the photo's edge is squat or big; a tile of the
    hand is the hand's size at any quarter turn). Only an odd box that the detector scores under
    `below` and whose likeliest face the classifier gives under `unsure` is flagged: either sure
    model keeps it.
    """
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    det_score = np.asarray(det_score, np.float32).reshape(-1)
    class_prob = np.asarray(class_prob, np.float32).reshape(-1)
    sides = long_short_sides(boxes)
    typical = typical_sides(sides, det_score)
    if typical is None or not (typical > 0).all():
        return np.zeros(len(boxes), bool)
    off = (np.abs(np.log(np.maximum(sides, 1e-6) / typical)) > np.log(ratio)).any(axis=1)
    return off & (det_score < below) & (class_prob < unsure)


def decode_yolo(output: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray]:
    """Raw YOLO head (1, 4 + nc, A) of (cx, cy, w, h, class scores) -> xyxy (N, 4), score (N,)."""
    xyxy, scores, _ = decode_yolo_classes(output, conf)
    return xyxy, scores


def decode_yolo_classes(output: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`decode_yolo` with each box's likeliest class (N,) too."""
    if output.ndim != 3 or output.shape[0] != 1 or output.shape[1] < 5:
        raise ModelError(f"detector output must be (1, 4 + classes, anchors), got {output.shape}")
    rows = output[0].T  # (A, 4 + nc)
    class_id = rows[:, 4:].argmax(axis=1)
    scores = rows[np.arange(len(rows)), 4 + class_id]
    mask = scores >= conf
    rows, scores, class_id = rows[mask], scores[mask], class_id[mask]
    cx, cy, w, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    return xyxy.astype(np.float32), scores.astype(np.float32), class_id.astype(np.int64)


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
            raise ModelError(f"{what} was trained on classes {_diff(trained, expected)}, not {names_from}")
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

    @classmethod
    def from_session(cls, session: ort.InferenceSession, config: ClassifierConfig) -> TileClassifier:
        expected = CLASSES + (() if config.reject is None else (config.reject,))
        input_name, fixed_batch = checked_classifier(
            session, "classifier", config.imgsz, SIDECAR, expected, "vision/classes.py"
        )
        return cls(
            session=session, config=config, input_name=input_name, size=config.imgsz, fixed_batch=fixed_batch
        )

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
        probs = run_batched(self.session, self.input_name, self.fixed_batch, crops)
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
    session: ort.InferenceSession, input_name: str, fixed_batch: int | None, crops: np.ndarray
) -> np.ndarray:
    """(N, S, S, 3) uint8 RGB crops -> the model's (N, K) outputs, in batches the model accepts."""
    n = len(crops)
    blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
    step = fixed_batch or n
    parts = []
    for start in range(0, n, step):
        chunk = blob[start : start + step]
        real = len(chunk)
        if fixed_batch and real < fixed_batch:
            # A fixed-batch model needs full batches: pad with copies, drop their outputs.
            chunk = np.concatenate([chunk, np.repeat(chunk[-1:], fixed_batch - real, axis=0)])
        out = np.asarray(session.run(None, {input_name: chunk})[0], np.float32)
        parts.append(out.reshape(len(chunk), -1)[:real])
    return np.concatenate(parts)


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
