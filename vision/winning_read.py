"""The photo shows a winning hand: a reading that is one unsure tile away from a win is most likely that win.

When the tiles' readings (after `vision.tile_set`) do not make a winning shape (four sets and a pair,
kongs included, seven pairs or thirteen wonders), but moving one or two tiles to a runner-up the
classifier also gave real weight does, that reading is taken, as a player looking at the photo
would. It is taken only when it is clearly the most likely such fix: two fixes about as likely
leave the reading as it was (the user settles it). Every moved tile is reported, so nothing is
changed silently. Photos with a face-down tile or a `fly` (which can stand for anything) are left
alone, and so is a reading too far from a hand's tile count to be one.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.decompose import winning_shape
from scoring.tiles import FLY
from vision.classes import BACK, BONUS_CODES, CLASSES, NOT_A_TILE
from vision.tile_set import COPIES_IN_SET

MAX_MOVES = 2  # tiles moved off their reading; more would be guessing a hand, not reading one
RUNNER_UP_AT_LEAST = 0.05  # a class the classifier gave less than this is never moved to
RUNNERS_UP = 3  # per tile, the most likely other classes tried
MAX_LOSS = math.log(30.0)  # the fix may be at most this much less likely than the reading (log)
CLEAR_BY = math.log(3.0)  # and must be this much more likely than the next fix (log)

_SKIP = frozenset((FLY, BACK, NOT_A_TILE))


@dataclass(frozen=True)
class WinFix:
    """The class per tile after the check, and the tiles it moved (indices), empty when none."""

    class_id: np.ndarray
    moved: tuple[int, ...]


def is_winning_read(codes: Sequence[str]) -> bool:
    """Whether tile codes read off a photo make a win: the hand tiles a winning shape, the bonus tiles
    no more copies than a set holds."""
    bonus = Counter(code for code in codes if code in BONUS_CODES)
    if any(count > COPIES_IN_SET[code] for code, count in bonus.items()):
        return False
    return winning_shape(code for code in codes if code not in BONUS_CODES)


def _hand_size_near_a_win(codes: Sequence[str]) -> bool:
    hand = sum(code not in BONUS_CODES for code in codes)
    return 14 - MAX_MOVES <= hand <= 18 + MAX_MOVES


def _runners_up(probabilities: np.ndarray, class_id: np.ndarray) -> list[list[tuple[int, float]]]:
    """Per tile, (class, log-probability given up) for each class it may be moved to."""
    out = []
    for row, current in zip(probabilities, class_id, strict=True):
        base = math.log(max(float(row[current]), 1e-9))
        order = [int(j) for j in np.argsort(-row) if j != current and CLASSES[j] not in _SKIP]
        out.append(
            [(j, base - math.log(float(row[j]))) for j in order[:RUNNERS_UP] if row[j] >= RUNNER_UP_AT_LEAST]
        )
    return out


Fix = tuple[float, tuple[tuple[int, int], ...]]  # (log-probability given up, ((tile, class), ...))


def _winning_fixes(codes: Sequence[str], options: list[list[tuple[int, float]]]) -> list[Fix]:
    """Every way of moving one to MAX_MOVES tiles to a runner-up that makes `codes` a win, within MAX_LOSS."""
    movable = [i for i, choices in enumerate(options) if choices]
    fixes: list[Fix] = []
    for count in range(1, MAX_MOVES + 1):
        for tiles in itertools.combinations(movable, count):
            for picks in itertools.product(*(options[i] for i in tiles)):
                loss = sum(lost for _, lost in picks)
                if loss > MAX_LOSS:
                    continue
                moves = tuple((i, j) for i, (j, _) in zip(tiles, picks, strict=True))
                candidate = list(codes)
                for i, j in moves:
                    candidate[i] = CLASSES[j]
                if is_winning_read(candidate):
                    fixes.append((loss, moves))
    return sorted(fixes)


def complete_to_win(probabilities: np.ndarray, class_id: np.ndarray) -> WinFix:
    """`class_id` (N,) as read, or moved to the clearly most likely winning reading one or two tiles away.

    `probabilities` is (N, len(CLASSES)), one row per tile.
    """
    class_id = np.asarray(class_id, np.int64)
    codes = [CLASSES[i] for i in class_id]
    if any(code in _SKIP for code in codes) or not _hand_size_near_a_win(codes) or is_winning_read(codes):
        return WinFix(class_id, ())
    fixes = _winning_fixes(codes, _runners_up(np.asarray(probabilities, np.float64), class_id))
    if not fixes:
        return WinFix(class_id, ())
    best_loss, best = fixes[0]
    # a fix that only adds a move to the best one is not a rival reading
    rivals = [loss for loss, moves in fixes[1:] if not set(best) <= set(moves)]
    if rivals and rivals[0] - best_loss < CLEAR_BY:
        return WinFix(class_id, ())
    fixed = class_id.copy()
    for i, j in best:
        fixed[i] = j
    return WinFix(fixed, tuple(i for i, _ in best))
