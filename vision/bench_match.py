"""How a reading is scored against the truth, for `vision.bench`: boxes matched to true boxes one
to one (IoU 0.5, most confident first), a real photo's labelled rows aligned place by place with
chains of read boxes, and hands compared as far as a photo shows them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.box_filters import iou_matrix
from vision.detections import UNSURE_BELOW
from vision.layout import Layout
from vision.layout_check import expected_hand, found_hand

IOU_MATCH = 0.5


@dataclass(frozen=True)
class TileCounts:
    """Tile-level outcome of one photo; `confusions` counts (true code, read code) pairs."""

    right: int
    extra: int  # false positives: read where there is no such tile
    missed: int  # false negatives: true tiles not read right
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    # The boxes marked unsure (confidence under UNSURE_BELOW), and how many of the `extra` (misread)
    # boxes are among them; None where boxes are not matched one to one (a real photo's rows).
    marked: int | None = None
    extra_marked: int | None = None
    # the true tiles by code, and those of them not read right (missed or misread), so a set's errors
    # can be told by kind of tile (`vision.bench.by_kind`); detail of the counts above, so left out of
    # comparing two outcomes
    truth: Counter[str] = field(default_factory=Counter, compare=False)
    not_right: Counter[str] = field(default_factory=Counter, compare=False)

    @property
    def exact(self) -> bool:
        return self.extra == 0 and self.missed == 0


def matched_truth(
    pred_xyxy: np.ndarray,
    pred_conf: Sequence[float] | np.ndarray,
    true_xyxy: np.ndarray,
    iou: float = IOU_MATCH,
) -> list[int]:
    """Per predicted box, the true box it matches (-1: none): greedy one-to-one, most confident
    prediction first, each to the free true box it overlaps most, at `iou` or more."""
    matched = [-1] * len(pred_xyxy)
    if not len(pred_xyxy) or not len(true_xyxy):
        return matched
    overlaps = iou_matrix(pred_xyxy, true_xyxy)
    taken: set[int] = set()
    for p in np.argsort(-np.asarray(pred_conf, np.float64), kind="stable"):
        candidates = [(overlaps[p, t], t) for t in range(len(true_xyxy)) if t not in taken]
        best = max(candidates, default=(0.0, -1))
        if best[0] >= iou:
            taken.add(best[1])
            matched[p] = best[1]
    return matched


def match_boxes(
    pred_xyxy: np.ndarray,
    pred_codes: Sequence[str],
    pred_conf: Sequence[float] | np.ndarray,
    true_xyxy: np.ndarray,
    true_codes: Sequence[str],
    iou: float = IOU_MATCH,
) -> TileCounts:
    """Greedy one-to-one matching, most confident prediction first, to the best free true box."""
    right = 0
    confusions: Counter[tuple[str, str]] = Counter()
    unsure = np.asarray(pred_conf, np.float64) < UNSURE_BELOW
    extra_marked = 0
    truth, read_right = Counter(true_codes), Counter[str]()
    for p, t in enumerate(matched_truth(pred_xyxy, pred_conf, true_xyxy, iou)):
        if t >= 0 and pred_codes[p] == true_codes[t]:
            right += 1
            read_right[true_codes[t]] += 1
            continue
        extra_marked += int(unsure[p])
        if t >= 0:
            confusions[(true_codes[t], pred_codes[p])] += 1
    return TileCounts(
        right=right,
        extra=len(pred_codes) - right,
        missed=len(true_codes) - right,
        confusions=confusions,
        marked=int(unsure.sum()),
        extra_marked=extra_marked,
        truth=truth,
        not_right=truth - read_right,
    )


def match_codes(pred_codes: Iterable[str], true_codes: Iterable[str]) -> TileCounts:
    """Multiset matching (no boxes): a confusion is counted only when exactly one code is
    missing and one extra, the only case where the pair is certain."""
    pred, true = Counter(pred_codes), Counter(true_codes)
    common = sum((pred & true).values())
    extra, missed = pred - true, true - pred
    confusions: Counter[tuple[str, str]] = Counter()
    if sum(extra.values()) == 1 and sum(missed.values()) == 1:
        confusions[(next(iter(missed)), next(iter(extra)))] = 1
    return TileCounts(
        right=common,
        extra=sum(extra.values()),
        missed=sum(missed.values()),
        confusions=confusions,
        truth=true,
        not_right=missed,
    )


@dataclass(frozen=True)
class RowMatch:
    """Tile outcome of a photo labelled by rows, with the codes missed and read in excess."""

    counts: TileCounts
    missing: tuple[str, ...]
    extra: tuple[str, ...]
    # per read box, the labelled tile it stands for where that is known (a row's place, or a loose tile
    # read right), None where not (an extra box; a loose tile read wrong)
    truth: tuple[str | None, ...] = ()


def lines_of_boxes(xyxy: np.ndarray) -> list[list[int]]:
    """Chains of boxes lying side by side: rows (left to right) and columns (top to bottom).

    Two boxes are neighbours in a row when they overlap by half the smaller height and the gap
    between them is under 1.2 typical tile widths (room for one tile the detector missed);
    the same turned for columns. Only chains of two boxes or more are returned.
    """
    boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
    if len(boxes) < 2:
        return []
    step = float(np.median(np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
    chains = []
    for along in (0, 1):  # 0: rows, left to right; 1: columns, top to bottom
        across = 1 - along
        start, end = boxes[:, along], boxes[:, along + 2]
        low, high = boxes[:, across], boxes[:, across + 2]
        overlap = np.minimum(high[:, None], high[None, :]) - np.maximum(low[:, None], low[None, :])
        thin = np.minimum((high - low)[:, None], (high - low)[None, :])
        gap = start[None, :] - end[:, None]  # [i, j]: from i's end to j's start
        linked = (overlap >= 0.5 * thin) & (gap > -0.3 * step) & (gap < 1.2 * step)
        linked &= start[None, :] > start[:, None]
        nearest_next = {
            i: int(min(np.flatnonzero(linked[i]), key=lambda j: gap[i, j]))
            for i in range(len(boxes))
            if linked[i].any()
        }
        nearest_prev = {
            j: int(min(np.flatnonzero(linked[:, j]), key=lambda i: gap[i, j]))
            for j in range(len(boxes))
            if linked[:, j].any()
        }
        follows = {i: j for i, j in nearest_next.items() if nearest_prev.get(j) == i}
        heads = sorted(set(follows) - set(follows.values()), key=lambda i: start[i])
        for head in heads:
            chain = [head]
            while chain[-1] in follows:
                chain.append(follows[chain[-1]])
            chains.append(chain)
    return chains


def align(true_row: Sequence[str], read_row: Sequence[str]) -> list[tuple[int | None, int | None]]:
    """The pairs (true index, read index), None where unpaired, of the alignment of a labelled row
    with a chain of read boxes that leaves only as many tiles unpaired as the two differ in length,
    and among those the one with the fewest tiles read wrong. Each read box is a place: where the
    counts agree, the k-th tile is compared with the k-th box, so a row read shifted by one (S1 S2
    S3 S4 read 1s S3 S4 S2) is four tiles wrong, not two right beside a missed and an extra one."""
    n, m = len(true_row), len(read_row)
    gap = n + m + 1  # dearer than any number of wrong tiles: a gap only where the lengths need one
    cost = np.zeros((n + 1, m + 1), int)
    cost[:, 0], cost[0, :] = np.arange(n + 1) * gap, np.arange(m + 1) * gap
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            same = true_row[i - 1] == read_row[j - 1]
            cost[i, j] = min(cost[i - 1, j - 1] + (not same), cost[i - 1, j] + gap, cost[i, j - 1] + gap)
    pairs: list[tuple[int | None, int | None]] = []
    i, j = n, m
    while i or j:
        if i and j and cost[i, j] == cost[i - 1, j - 1] + (true_row[i - 1] != read_row[j - 1]):
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i and cost[i, j] == cost[i - 1, j] + gap:
            pairs.append((i - 1, None))
            i -= 1
        else:
            pairs.append((None, j - 1))
            j -= 1
    return pairs[::-1]


def match_rows(
    pred_xyxy: np.ndarray, pred_codes: Sequence[str], rows: Sequence[Sequence[str]], either_way: bool = False
) -> RowMatch:
    """Match a photo labelled by rows (each in the image's order: rows left to right, columns top
    to bottom): each labelled row of two tiles or more takes the chain of read boxes
    (`lines_of_boxes`) that fits it best, and is compared with it place by place (`align`), so a
    row read in the wrong order, as the eight bonus tiles read as the eight in another order, is
    wrong. Tiles of rows no chain fits, and of one-tile rows (scattered tiles), are matched as
    multisets with the read tiles in no chosen chain. `either_way`: a row may lie in either
    direction (a photo turned after labelling: a turned row's image order may run the other way)."""
    chains = lines_of_boxes(pred_xyxy)
    used: set[int] = set()
    right, confusions = 0, Counter[tuple[str, str]]()
    missing: list[str] = []
    extra: list[str] = []
    loose_true: list[str] = []
    truth: list[str | None] = [None] * len(pred_codes)
    for row in sorted(rows, key=len, reverse=True):
        free = [c for c in chains if not used.intersection(c)]
        if len(row) < 2 or not free:
            loose_true += row
            continue

        # each free chain aligned once: its read codes and the (true, read) pairs of the alignment
        options = []
        for chain in free:
            for ordered in (chain, chain[::-1]) if either_way else (chain,):
                read_row = [pred_codes[k] for k in ordered]
                pairs = align(row, read_row)
                matches = sum(t is not None and r is not None and row[t] == read_row[r] for t, r in pairs)
                options.append((matches - abs(len(chain) - len(row)), len(chain), ordered, read_row, pairs))
        _, _, ordered, read_row, pairs = max(options, key=lambda option: option[:2])
        used.update(ordered)
        for t, r in pairs:
            if t is not None and r is not None:
                truth[ordered[r]] = row[t]
            if t is not None and r is not None and row[t] == read_row[r]:
                right += 1
                continue
            if t is not None:
                missing.append(row[t])
            if r is not None:
                extra.append(read_row[r])
            if t is not None and r is not None:
                confusions[(row[t], read_row[r])] += 1
    loose_pred = [code for k, code in enumerate(pred_codes) if k not in used]
    loose = match_codes(loose_pred, loose_true)
    unclaimed = Counter(loose_true)
    for k, code in enumerate(pred_codes):
        if k not in used and unclaimed[code] > 0:
            truth[k] = code
            unclaimed[code] -= 1
    pred, true = Counter(loose_pred), Counter(loose_true)
    missing += (true - pred).elements()
    extra += (pred - true).elements()
    right += loose.right
    confusions.update(loose.confusions)
    counts = TileCounts(
        right=right,
        extra=len(pred_codes) - right,
        missed=sum(map(len, rows)) - right,
        confusions=confusions,
        truth=Counter(code for row in rows for code in row),
        not_right=Counter(missing),
    )
    return RowMatch(counts, tuple(sorted(missing)), tuple(sorted(extra)), tuple(truth))


def normalise_hand(hand: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """Order-free form of a scoring hand, to compare a read hand with the truth."""
    if hand is None:
        return None
    melds = sorted(
        (str(m.get("kind")), tuple(sorted(m.get("tiles") or [])), bool(m.get("concealed")))
        for m in hand.get("melds", [])
    )
    return (tuple(sorted(hand.get("concealed", []))), tuple(melds), tuple(sorted(hand.get("bonus", []))))


def hand_read_exactly(layout: Layout | None, meta: dict[str, Any]) -> bool:
    """Whether the layout holds the scene's hand as far as the photo shows it: a concealed kong lying
    all face down is a kong of unknown face on both sides (`vision.layout_check.expected_hand`; a scene
    written without its groups is taken as its hand)."""
    if layout is None:
        return False
    truth = expected_hand(meta) if "groups" in meta else meta["hand"]
    return normalise_hand(found_hand(layout)) == normalise_hand(truth)


def shows_whole_hand(meta: dict[str, Any]) -> bool:
    """Whether a scene shows a hand whole: it has one (not loose tiles alone) and none of its tiles
    is cut off by the frame or turned away (`complete`; older scenes without the flag: True)."""
    return meta.get("hand") is not None and bool(meta.get("complete", True))


def precision_recall_f1(counts: Iterable[TileCounts]) -> tuple[float, float, float]:
    """Per-tile precision, recall and F1 over the photos' counts together (0 where undefined)."""
    rows = list(counts)
    right = sum(c.right for c in rows)
    extra = sum(c.extra for c in rows)
    missed = sum(c.missed for c in rows)
    precision = right / (right + extra) if right + extra else 0.0
    recall = right / (right + missed) if right + missed else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
