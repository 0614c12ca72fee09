"""`models/models.json`, the sidecar: which file each model is, its input size, class names and the
thresholds it runs with, parsed and checked into frozen configs (docs/vision.md lists the fields).

A sidecar whose class names differ from `vision.classes`, or with a value out of range, is refused
with `ModelError` (one line) before any model runs, so a wrong file never reads as wrong codes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.classes import CLASS_INDEX, CLASSES, FLOWERS, NOT_A_TILE, SEASONS

SIDECAR = "models.json"


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
    # the model's outputs of pooled features (`vision.feature_outputs`), by which `vision.set_memory`
    # tells a tile like one of this set confirmed before; () = the model has none: nothing is recalled
    features: tuple[str, ...] = ()

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
    # with `bonus_words`, also take a name's character anywhere in an edge strip (a set that prints it
    # along the top, not in a corner)
    bonus_strip_glyphs: bool = False
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
    # each corner window is this share of the face wide (the glyph look's 0.48 cuts a number set in
    # from the corner, as many sets print the season's 二)
    window_width: float = 0.48


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


def _optional_float(section: dict[str, Any], key: str) -> float | None:
    return None if section.get(key) is None else float(section[key])


def _detector(det: dict[str, Any], where: str) -> DetectorConfig:
    return DetectorConfig(
        file=str(det["file"]),
        imgsz=_hw(det["imgsz"]),
        names=_names(det, where),
        conf=float(det.get("conf", 0.25)),
        iou=float(det.get("iou", 0.6)),
        grid=int(det.get("grid", 1)),
        contain=_optional_float(det, "contain"),
        straddle=_optional_float(det, "straddle"),
        odd_size=_optional_float(det, "odd_size"),
        odd_size_below=float(det.get("odd_size_below", 0.75)),
        fine_below=_optional_float(det, "fine_below"),
        fine_grid=int(det.get("fine_grid", 3)),
        second_chance=_optional_float(det, "second_chance"),
        second_chance_sure=float(det.get("second_chance_sure", 0.97)),
        second_chance_none=float(det.get("second_chance_none", 0.05)),
    )


def _classifier(cls: dict[str, Any], where: str) -> ClassifierConfig:
    return ClassifierConfig(
        file=str(cls["file"]),
        imgsz=int(cls["imgsz"]),
        names=_names(cls, where),
        crop_margin=float(cls.get("crop_margin", 0.15)),
        rotations=int(cls.get("rotations", 1)),
        reject=None if cls.get("reject") is None else str(cls["reject"]),
        reject_above=float(cls.get("reject_above", 0.5)),
        odd_shape=_optional_float(cls, "odd_shape"),
        odd_shape_below=float(cls.get("odd_shape_below", 0.7)),
        odd_shape_unsure=float(cls.get("odd_shape_unsure", 0.5)),
        features=_feature_names(cls, where),
    )


def _feature_names(cls: dict[str, Any], where: str) -> tuple[str, ...]:
    value = cls.get("features", [])
    if not isinstance(value, list) or not all(isinstance(name, str) and name for name in value):
        raise ModelError(f"{where}: classifier 'features' must be a list of output names")
    return tuple(value)


def parse_config(data: Any, where: str = SIDECAR) -> ModelsConfig:
    """Validate the sidecar JSON (already parsed) into typed settings."""
    if not isinstance(data, dict):
        raise ModelError(f"{where}: expected a JSON object")
    det = _section(data, "detector", where)
    cls = _section(data, "classifier", where)
    try:
        config = ModelsConfig(
            detector=_detector(det, where),
            classifier=_classifier(cls, where),
            second_look=_second_look(data, where),
            glyphs=_glyphs(data, where),
            text_look=_text_look(data, where),
            rank_look=_rank_look(data, where),
            pip_look=_pip_look(data, where),
        )
    except KeyError as error:
        raise ModelError(f"{where}: missing {error}") from None
    except (TypeError, ValueError) as error:
        raise ModelError(f"{where}: malformed ({error})") from None
    check_detector(config.detector, where)
    check_classifier(config.classifier, where)
    if config.second_look is not None:
        check_second_look(config.second_look, where)
    if config.glyphs is not None:
        check_glyphs(config.glyphs, where)
    if config.text_look is not None:
        check_text_look(config.text_look, where)
    if config.rank_look is not None:
        check_rank_look(config.rank_look, where)
    if config.pip_look is not None:
        check_pip_look(config.pip_look, where)
    return config


def check_detector(detector: DetectorConfig, where: str) -> None:
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


def check_classifier(classifier: ClassifierConfig, where: str) -> None:
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
        raise ModelError(
            f"{where}: classifier names {names_diff(classifier.names)} differ from vision/classes.py"
        )


def check_second_look(second_look: SecondLookConfig, where: str) -> None:
    if not second_look_names_ok(second_look.names):
        raise ModelError(
            f"{where}: second_look names {list(second_look.names)} must be tile codes in "
            "vision/classes.py order, each once, the eight flowers and seasons among them"
        )
    if not 0.0 < second_look.above <= 1.0:
        raise ModelError(f"{where}: second_look above must be in (0, 1], got {second_look.above}")
    if second_look.imgsz is not None and not 16 <= second_look.imgsz <= 1024:
        raise ModelError(f"{where}: second_look imgsz must be 16..1024, got {second_look.imgsz}")


def check_glyphs(glyphs: GlyphConfig, where: str) -> None:
    if not 0.0 < glyphs.above <= 1.0:
        raise ModelError(f"{where}: glyphs above must be in (0, 1], got {glyphs.above}")
    if not glyphs.floor > 0.0:
        raise ModelError(f"{where}: glyphs floor must be above 0, got {glyphs.floor}")
    if not 0.0 <= glyphs.shrink < 0.5:
        raise ModelError(f"{where}: glyphs shrink must be in [0, 0.5), got {glyphs.shrink}")
    if glyphs.bonus_above is not None and not 0.0 < glyphs.bonus_above <= 1.0:
        raise ModelError(f"{where}: glyphs bonus_above must be in (0, 1] or null, got {glyphs.bonus_above}")
    if not glyphs.bonus_floor > 0.0:
        raise ModelError(f"{where}: glyphs bonus_floor must be above 0, got {glyphs.bonus_floor}")


def check_text_look(text_look: TextLookConfig, where: str) -> None:
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
        bonus_strip_glyphs=_flag(
            section.get("bonus_strip_glyphs", default.bonus_strip_glyphs), "glyphs bonus_strip_glyphs", where
        ),
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
    if not 0.2 <= rank_look.window_width <= 1.0:
        raise ModelError(f"{where}: rank_look window_width must be in [0.2, 1], got {rank_look.window_width}")


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
        window_width=float(section.get("window_width", default.window_width)),
    )


def names_diff(names: Sequence[str], expected: Sequence[str] = CLASSES) -> str:
    """Where class names part from the expected ones, for a one-line error: "(class 3 is 'x', ...)"."""
    if len(names) != len(expected):
        return f"({len(names)} classes, expected {len(expected)})"
    first = next(i for i, (a, b) in enumerate(zip(names, expected, strict=True)) if a != b)
    return f"(class {first} is '{names[first]}', expected '{expected[first]}')"


def load_config(models_dir: Path) -> ModelsConfig:
    path = models_dir / SIDECAR
    if models_dir.exists() and not models_dir.is_dir():
        # a file given for the folder (`--models README.md`) had read "[Errno 20] Not a directory:
        # 'README.md/models.json'" (an audit)
        raise ModelError(f"model files not found: {models_dir} is a file, not the models' folder")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"model files not found: {path} is missing") from None
    except (OSError, ValueError) as error:
        raise ModelError(f"cannot read {path}: {error}") from None
    return parse_config(data, str(path))
