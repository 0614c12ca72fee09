"""Box arithmetic on (N, 4) xyxy arrays, in numpy alone: YOLO decoding, NMS, and the filters that
drop a box that is not one tile (a box astride two tiles, one far off the photo's tile size, one
overlapping kept boxes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from vision.sidecar import DetectorConfig, ModelError


def box_areas(boxes: np.ndarray) -> np.ndarray:
    """(N,) the area of each of (N, 4) boxes x1, y1, x2, y2 (0 for one turned inside out)."""
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def intersections(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Area of `box` (4,) shared with each of `others` (K, 4)."""
    w = np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0])
    h = np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)) intersection over union of xyxy boxes."""
    a = np.asarray(a, np.float64).reshape(-1, 1, 4)
    b = np.asarray(b, np.float64).reshape(1, -1, 4)
    w = np.clip(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0, None)
    h = np.clip(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0, None)
    inter = w * h
    area_a = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
    area_b = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    union = area_a + area_b - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)


def _overlaps(
    box: np.ndarray, area: float, others: np.ndarray, other_areas: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """IoU of `box` (4,) with each of `others` (K, 4), and the share of the smaller of each pair
    lying inside the other (0 where an area is 0)."""
    inter = intersections(box, others)
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
    areas = box_areas(boxes)
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
    areas = box_areas(boxes)
    keep: list[int] = []
    for i in order:
        covered = intersections(boxes[i], boxes[keep]) / areas[i] if areas[i] > 0 else np.zeros(0)
        if int((covered >= share).sum()) >= 2:  # two better boxes each cover `share` of this one
            continue
        keep.append(int(i))
    return np.asarray(keep, np.int64)


def unsure_inside_surer(
    xyxy: np.ndarray, det_score: np.ndarray, likeliest: np.ndarray, unsure_below: float, inside: float
) -> np.ndarray:
    """(N,) bool: boxes read unsurely (`likeliest`, the top face probability, under `unsure_below`)
    that lie `inside` or more of their own area within a box both models prefer: one the detector
    scores higher and the classifier reads surer. Such a box straddles two tiles or doubles a tile
    read already; the detector's own filters (`contain`, `straddle`) keep it as it overlaps no box
    enough. A tile whose box only the detector or only the classifier doubts stays (requiring both
    lost 2 tiles read right on HELDOUT3 where the detector's score alone lost 3). Judged against
    every box at once, so settling the boxes kept again drops none of them."""
    scores = np.asarray(det_score, np.float32).reshape(-1)
    read = np.asarray(likeliest, np.float32).reshape(-1)
    return _inside_preferred(
        xyxy, read < unsure_below, inside, lambda i: (scores > scores[i]) & (read > read[i])
    )


def doubted_inside_surer(
    xyxy: np.ndarray, det_score: np.ndarray, likeliest: np.ndarray, doubted_below: float, inside: float
) -> np.ndarray:
    """(N,) bool: boxes the detector doubts (score under `doubted_below`) that lie `inside` or more of
    their own area within a box the classifier reads surer (a higher top face probability). Such a
    box is a second box on a tile, or one slid half onto its neighbour, read as surely as a tile may
    be: `unsure_inside_surer` keeps it when its top face is 0.4 or more. Touching tiles' upright
    boxes overlap a third of each at most, turned 45 degrees; the two tiles read right on HELDOUT3
    and a pool whose box lay 0.65 inside one read surer were scored 0.8 (stage 84). Judged against
    every box at once, so settling the boxes kept again drops none of them."""
    scores = np.asarray(det_score, np.float32).reshape(-1)
    read = np.asarray(likeliest, np.float32).reshape(-1)
    return _inside_preferred(xyxy, scores < doubted_below, inside, lambda i: read > read[i])


def _inside_preferred(
    xyxy: np.ndarray, doubted: np.ndarray, inside: float, preferred: Callable[[int], np.ndarray]
) -> np.ndarray:
    """(N,) bool: of the boxes `doubted` (N,), those lying `inside` or more of their own area within
    one of the boxes `preferred(i)` ((N,) bool) says is better than box i (never itself)."""
    boxes = np.asarray(xyxy, np.float32).reshape(-1, 4)
    areas = box_areas(boxes)
    flagged = np.zeros(len(boxes), bool)
    for i in np.flatnonzero(np.asarray(doubted, bool).reshape(-1) & (areas > 0)).tolist():
        covered = intersections(boxes[i], boxes) / areas[i]
        covered[i] = 0.0  # not inside itself
        flagged[i] = bool(((covered >= inside) & preferred(i)).any())
    return flagged


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
    areas, other_areas = box_areas(boxes), box_areas(others)
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


def head_shape_problem(shape: Sequence[object]) -> str | None:
    """Why a detector output of `shape` (a dimension None or named where the file leaves it open) is no
    YOLO head (1, 4 + classes, anchors), or None: checked on the model's file when it loads and on
    each output it gives."""
    rows = shape[1] if len(shape) == 3 else None
    if (
        len(shape) != 3
        or (isinstance(shape[0], int) and shape[0] != 1)
        or (isinstance(rows, int) and rows < 5)
    ):
        return f"detector output must be (1, 4 + classes, anchors), got {tuple(shape)}"
    return None


def decode_yolo_classes(output: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`decode_yolo` with each box's likeliest class (N,) too."""
    problem = head_shape_problem(output.shape)
    if problem is not None:
        raise ModelError(problem)
    rows = output[0].T  # (A, 4 + nc)
    class_id = rows[:, 4:].argmax(axis=1)
    scores = rows[np.arange(len(rows)), 4 + class_id]
    mask = scores >= conf
    rows, scores, class_id = rows[mask], scores[mask], class_id[mask]
    cx, cy, w, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    return xyxy.astype(np.float32), scores.astype(np.float32), class_id.astype(np.int64)
