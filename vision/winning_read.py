"""The photo shows a winning hand: a reading that is one unsure tile away from a win is most likely that win.

When the tiles' readings (after `vision.tile_set`) do not make a winning shape (four sets and a pair,
kongs included, seven pairs or thirteen wonders), but moving one or two tiles to a runner-up the
classifier also gave real weight does, that reading is taken, as a player looking at the photo
would. It is taken only when it is clearly the most likely such fix: two fixes about as likely
leave the reading as it was (the user settles it). Every moved tile is reported, so nothing is
changed silently.

Given the layout (`layout_of`: class per tile -> `vision.layout.Layout`), the check looks at the hand
as it lies: only the tiles of the hand, its melds and its bonus row are moved (tiles lying elsewhere
on the table, a wall of face-down tiles among them, neither block the check nor count in it), and a
fix is taken only when the tiles laid out again make a win with the melds as laid down: the
concealed tiles make the sets the declared melds (a concealed kong of four backs included) leave,
and a pair, a `fly` standing for any tile in a pong, chow or pair. No face is read more often than a
set holds it. Without a layout, every tile of the photo is taken for the hand, and a photo with a
face-down tile or a `fly` is left alone. A reading too far from a hand's tile count is left alone
either way.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from scoring.decompose import sets_and_pair, winning_shape
from scoring.tiles import FLY
from vision.classes import BACK, BONUS_CODES, CLASSES, NOT_A_TILE
from vision.tile_set import COPIES_IN_SET

if TYPE_CHECKING:
    from vision.layout import Layout, TileGroup

# The layout of the photo's tiles read as the given class per tile (None: no layout to be had).
LayoutOf = Callable[[np.ndarray], "Layout | None"]

MAX_MOVES = 2  # tiles moved off their reading; more would be guessing a hand, not reading one
RUNNER_UP_AT_LEAST = 0.05  # a class the classifier gave less than this is never moved to
RUNNERS_UP = 3  # per tile, the most likely other classes tried
MAX_LOSS = math.log(30.0)  # the fix may be at most this much less likely than the reading (log)
CLEAR_BY = math.log(2.0)  # and must be this much more likely than the next fix (log)
# Each tile moved beyond the first counts as this much less likely again (log) when fixes are ranked:
# two misreads in one photo are rarer than the product of two calibrated doubts says (stage 70:
# HELDOUT3's 2m read as 1m beside two true 2m, fixed by moving the one doubtful 1m, not both 2m).
EXTRA_MOVE_COST = 1.0
MAX_RIVALS = 3  # fixes about as likely as the best, offered to the user when none is clear

_SKIP = frozenset((FLY, BACK, NOT_A_TILE))


@dataclass(frozen=True)
class WinFix:
    """The class per tile after the check, and the tiles it moved (indices), empty when none.

    `rivals`: when two or more fixes were about as likely (so none was taken), each of them as its
    moves ((tile, class), ...), likeliest first, for the user to choose from; empty otherwise.
    """

    class_id: np.ndarray
    moved: tuple[int, ...]
    rivals: tuple[tuple[tuple[int, int], ...], ...] = ()


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


# (log-probability given up, and EXTRA_MOVE_COST per move after the first; ((tile, class), ...))
Fix = tuple[float, tuple[tuple[int, int], ...]]


def _winning_fixes(
    codes: Sequence[str],
    options: list[list[tuple[int, float]]],
    tiles_in_hand: Sequence[int],
    wins: Callable[[list[str]], bool],
) -> list[Fix]:
    """Every way of moving one to MAX_MOVES of the hand's tiles to a runner-up, within MAX_LOSS, after
    which the codes pass `wins`; likeliest first, each move after the first costing EXTRA_MOVE_COST."""
    movable = [i for i in tiles_in_hand if options[i]]
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
                if wins(candidate):
                    fixes.append((loss + EXTRA_MOVE_COST * (count - 1), moves))
    return sorted(fixes)


def _moved(class_id: np.ndarray, moves: tuple[tuple[int, int], ...]) -> np.ndarray:
    fixed = class_id.copy()
    for i, j in moves:
        fixed[i] = j
    return fixed


def _unchanged(class_id: np.ndarray) -> WinFix:
    return WinFix(class_id, ())


def complete_to_win(
    probabilities: np.ndarray, class_id: np.ndarray, layout_of: LayoutOf | None = None
) -> WinFix:
    """`class_id` (N,) as read, or moved to the clearly most likely winning reading one or two tiles away.

    `probabilities` is (N, len(CLASSES)), one row per tile. With `layout_of`, the hand is checked as
    it lies (module docstring); without it, or when it gives no layout, all tiles are the hand.
    """
    class_id = np.asarray(class_id, np.int64)
    probabilities = np.asarray(probabilities, np.float64)
    layout = layout_of(class_id) if layout_of is not None else None
    if layout_of is None or layout is None:
        return _complete_photo(probabilities, class_id)
    return _complete_layout(probabilities, class_id, layout, layout_of)


def _complete_photo(probabilities: np.ndarray, class_id: np.ndarray) -> WinFix:
    """Every tile of the photo taken for the hand (no layout to say where it lies)."""
    codes = [CLASSES[i] for i in class_id]
    if any(code in _SKIP for code in codes) or not _hand_size_near_a_win(codes) or is_winning_read(codes):
        return _unchanged(class_id)
    fixes = _winning_fixes(codes, _runners_up(probabilities, class_id), range(len(codes)), is_winning_read)
    if not fixes:
        return _unchanged(class_id)
    best_loss, best = fixes[0]
    # a fix that only adds a move to the best one is not a rival reading
    rivals = [loss for loss, moves in fixes[1:] if not set(best) <= set(moves)]
    if rivals and rivals[0] - best_loss < CLEAR_BY:
        return _unchanged(class_id)
    return WinFix(_moved(class_id, best), tuple(i for i, _ in best))


def layout_completes(layout: Layout) -> bool | None:
    """Whether the hand as laid out is a win: its concealed tiles make the sets its declared melds leave
    and a pair (a `fly` wild in them; with no meld, seven pairs and thirteen wonders too). None when
    that cannot be told: a face-down tile among the concealed tiles."""
    melds = [group for group in layout.groups if group.kind == "meld"]
    concealed = [code for group in layout.groups if group.kind == "concealed" for code in group.codes]
    if BACK in concealed:
        return None
    if not melds and winning_shape(concealed):
        return True
    return sets_and_pair(concealed, 4 - len(melds))


def _within_set(codes: Sequence[str]) -> bool:
    counts = Counter(code for code in codes if code != BACK)
    return all(count <= COPIES_IN_SET[code] for code, count in counts.items())


def _may_win(codes: Sequence[str], hand: Sequence[int], melds: Sequence[TileGroup]) -> bool:
    """A quick test a fix must pass before the tiles are laid out again: the hand's tiles (read as
    `codes`) make four sets and a pair, a meld holding face-down tiles taken for a kong of the face
    it shows, or for a set of its own when it shows none."""
    backed = [group for group in melds if any(codes[i] == BACK for i in group.indices)]
    hidden = {i for group in backed for i in group.indices}
    tiles = [codes[i] for i in hand if i not in hidden and codes[i] not in BONUS_CODES]
    sets = 4
    for group in backed:
        faces = [codes[i] for i in group.indices if codes[i] != BACK]
        if faces:
            tiles.extend([faces[0]] * len(group.indices))
        else:
            sets -= 1
    if BACK in tiles:
        return False
    return (sets == 4 and winning_shape(tiles)) or sets_and_pair(tiles, sets)


def _complete_layout(
    probabilities: np.ndarray, class_id: np.ndarray, layout: Layout, layout_of: LayoutOf
) -> WinFix:
    """The hand as laid out: its tiles (and its bonus row's) moved, the result laid out again."""
    if layout_completes(layout) is not False:
        return _unchanged(class_id)
    codes = [CLASSES[i] for i in class_id]
    hand = sorted(i for group in layout.groups if group.kind != "unused" for i in group.indices)
    if not _hand_size_near_a_win([codes[i] for i in hand]):
        return _unchanged(class_id)
    melds = [group for group in layout.groups if group.kind == "meld"]

    def may_win(candidate: list[str]) -> bool:
        return _within_set(candidate) and _may_win(candidate, hand, melds)

    fixes = _winning_fixes(codes, _runners_up(probabilities, class_id), hand, may_win)
    wins: list[Fix] = []
    # Laid out again in order of likelihood, until the best is clear of every rival.
    for loss, moves in fixes:
        if wins:
            if loss - wins[0][0] >= CLEAR_BY or len(wins) == MAX_RIVALS:
                break
            if any(set(taken) <= set(moves) for _, taken in wins):
                continue  # a fix and a move more: not a reading of its own
        relaid = layout_of(_moved(class_id, moves))
        if relaid is not None and layout_completes(relaid):
            wins.append((loss, moves))
    if not wins:
        return _unchanged(class_id)
    if len(wins) > 1:  # readings about as likely: the user settles it
        return WinFix(class_id, (), tuple(moves for _, moves in wins))
    return WinFix(_moved(class_id, wins[0][1]), tuple(i for i, _ in wins[0][1]))
