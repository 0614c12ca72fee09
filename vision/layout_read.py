"""Reading rows of tiles: which row is the hand, where its melds are, what lies elsewhere.

Works on rows already found (`vision.layout_geometry`): each row is its tiles along the
row, the gaps between them (fractions of the tile pitch), and which rows lie next to
which. Every row is tried as the concealed hand, with melds possibly at either end of it
(players put their melds beside the hand or in a row behind it); the reading kept is the
one that makes a complete hand (14 tiles, a kong counting as three) at the lowest cost.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scoring.decompose import sets_and_pair, winning_shape
from vision.classes import BACK
from vision.layout_melds import MeldRead, read_meld

# A winning hand holds 14 tiles besides bonus tiles, a kong counting as three.
HAND_SIZE = 14


def hand_tiles(concealed: int, melds: int) -> int:
    """The tiles a hand of `concealed` tiles and `melds` melds counts against HAND_SIZE (a kong as three)."""
    return concealed + 3 * melds


# A run of this many touching bonus tiles is a laid bonus row, not tiles dropped among loose ones.
BONUS_ROW_LAID = 3
# A reading that does not make a complete hand costs this much (a tile may be hidden).
INCOMPLETE_COST = 1.5
# Cost per tile counted into the hand from a tight piece near it that forms no meld.
STRAY_COST = 0.4
# Cost per tile that forms no meld outside the hand's row (it still counts as concealed).
LOOSE_COST = 1.0
# Inside one meld the tiles touch; a larger gap inside it costs this much per unit of gap.
MELD_GAP_LIMIT = 0.3
MELD_GAP_COST = 2.0
# Melds beside the hand: the gap to the hand must be at least this (tile pitches); a gap narrower
# than CUT_EVEN costs the difference, a wider one earns it (up to 0.5) ...
SIDE_GAP = 0.1
CUT_EVEN = 0.5
# ... and should be wider than every gap inside the hand by SIDE_MARGIN: a gap inside that is wider
# costs INNER_WIDER_SLOPE per pitch beyond, up to INNER_WIDER_COST (players leave gaps between the sets
# of a hand they lay open, a little narrower or wider than the one before their melds; stage 45: a
# fixed 1.0 and SIDE_GAP 0.25 read 5 of 709 generated hands wrong that these read right).
SIDE_MARGIN = 0.05
INNER_WIDER_SLOPE = 6.0
INNER_WIDER_COST = 1.0
# A sideways or face-down tile inside the concealed hand is unlikely (claimed tiles and
# concealed kongs are melds): cost per such tile.
ODD_TILE_COST = 0.6
# Rows closer than this (in tile sizes a + b, nearest tiles) lie next to each other ...
NEAR_SPANS = 1.3
# ... and a row of nothing but melds belongs with a row this close.
FAR_MELD_SPANS = 2.5
# A gap this wide (tile pitches) inside the concealed hand costs WIDE_GAP_COST.
WIDE_GAP = 0.35
WIDE_GAP_COST = 0.5
# Players sort their concealed tiles: a reading whose concealed tiles are out of order costs this
# (a split that leaves the hand sorted is likelier; chosen on generated scenes, 0.2-1.0 read alike).
UNSORTED_COST = 0.6
# A hand of nothing but backs (standing, seen from behind) is possible but unusual.
BLIND_HAND_COST = 0.6
# Up to MAX_TRIM tiles at an end of the hand's row, beyond a gap of TRIM_GAP, that form no
# meld may be tiles lying elsewhere (discards).
TRIM_GAP = 0.3
MAX_TRIM = 4
# Each hand tile (not bonus) left out of the hand, near it or not, costs this much ...
IGNORE_COST = 0.25
# ... but for face-down tiles in a touching stretch of more than a kong's four along a row: the wall
# (stage 56). Nothing in a hand lies so, and leaving the wall out is no worse a reading than leaving
# out the wall's tiles beyond the fourth; charged, a wall of 9 backs (2.25) had outweighed an
# incomplete reading (1.5) that took two of its fours for concealed kongs beside a kong read as the hand.
KONG_SIZE = 4
# Each tile a reading counts past HAND_SIZE is no tile of the hand, whichever it is: it costs what leaving
# it out would, so that taking loose tiles into an over-long hand never reads better than leaving them out
# (an audit, `datasets.synth --seed 8900`'s scene 253: a heap of dropped tiles beside the hand read as a
# hand of 22 with the true hand's row cut into melds; the flat INCOMPLETE_COST had cost it no more than a
# hand one tile short). Measured on three fresh sets: 0.25 to 1.0 read alike.
OVER_COST = IGNORE_COST
# The photo shows a winning hand: a complete reading whose concealed tiles do not make the sets and
# pair its melds leave costs this (small: a misread tile leaves the right reading shapeless too; it
# settles readings the geometry cannot tell apart, such as a pair and two discards beside four melds).
SHAPELESS_COST = 0.2
# A reading that lays a meld at the hand's end otherwise than the best, and costs at most this much
# more, is offered to the user (`end_meld_rival`). Stage 61, on the generator's truth (seeds
# 44000-44299 and 49000-49299, 221 hands, 8 read wrong): 10 offers at 0.3, 5 of them the truth where
# the best reading was wrong; 0.2 made it 5 offers (3 right), 0.5 28 offers for the same 5.
RIVAL_WITHIN = 0.3


@dataclass(frozen=True)
class Row:
    """One row of tiles along the table.

    `core` are the hand tiles along the row, `gaps[k]` the gap after `core[k]`, `sideways`
    which lie sideways, `touching[k]` whether `core[k]` and `core[k + 1]` touch (one run).
    `bonus` are the bonus tiles by run, `bonus_at` how many core tiles come before each,
    `bonus_beside` the core tiles in one touching run with each (none: bonus tiles alone).
    """

    core: tuple[int, ...]
    gaps: tuple[float, ...]
    bonus: tuple[tuple[int, ...], ...] = ()
    sideways: tuple[bool, ...] = ()
    touching: tuple[bool, ...] = ()
    bonus_at: tuple[int, ...] = ()
    bonus_beside: tuple[tuple[int, ...], ...] = ()


# a meld as a reading lays it out: its tiles (indices) and what they make
LaidMeld = tuple[tuple[int, ...], MeldRead]


@dataclass(frozen=True)
class Reading:
    """Every tile's role, as indices into the tiles the rows refer to."""

    concealed: tuple[int, ...]
    melds: tuple[tuple[tuple[int, ...], MeldRead], ...]
    stray: tuple[int, ...]  # form no meld near the hand: counted as concealed, with a warning
    ignored: tuple[int, ...]  # away from the hand: unused
    bonus: tuple[tuple[int, ...], ...]
    ignored_bonus: tuple[int, ...]  # bonus tiles away from the hand: unused
    cost: float


@dataclass(frozen=True)
class _Chunks:
    cost: float
    melds: tuple[tuple[int, int, MeldRead], ...]  # (start, stop, meld) into the sequence
    loose: tuple[tuple[int, int], ...]


def _meld_cost(gaps: Sequence[float]) -> float:
    return MELD_GAP_COST * sum(max(0.0, g - MELD_GAP_LIMIT) for g in gaps)


@lru_cache(maxsize=8192)
def chunk(codes: tuple[str, ...], gaps: tuple[float, ...], loose_ok: bool = True) -> _Chunks | None:
    """Cut a sequence into melds (and, when `loose_ok`, loose pieces) at the lowest cost.

    Melds may touch (no gap needed between them); a meld that spans a large gap, or a tile
    left loose, costs. Without `loose_ok`, None when the sequence cannot be all melds.
    """
    n = len(codes)
    inf = float("inf")
    best: list[tuple[float, tuple]] = [(0.0, ())] + [(inf, ())] * n
    for i in range(n):
        cost_i, path_i = best[i]
        if cost_i == inf:
            continue
        for size in (3, 4):
            if i + size > n:
                continue
            meld = read_meld(codes[i : i + size])
            if meld is None:
                continue
            cost = cost_i + _meld_cost(gaps[i : i + size - 1])
            if cost < best[i + size][0]:
                best[i + size] = (cost, (*path_i, (i, i + size, meld)))
        if loose_ok:
            cost = cost_i + LOOSE_COST
            if cost < best[i + 1][0]:
                best[i + 1] = (cost, (*path_i, (i, i + 1, None)))
    cost, path = best[n]
    if cost == inf:
        return None
    melds = tuple((a, b, MeldRead(a, b, m.kind, m.concealed, m.tiles)) for a, b, m in path if m is not None)
    loose: list[tuple[int, int]] = []
    for a, b, m in path:
        if m is None:
            if loose and loose[-1][1] == a:
                loose[-1] = (loose[-1][0], b)
            else:
                loose.append((a, b))
    return _Chunks(cost, melds, tuple(loose))


def _blind(meld: MeldRead) -> bool:
    return meld.tiles is None


@dataclass(frozen=True)
class _Side:
    """How a row reads when it is not the hand's row."""

    melds: tuple[tuple[tuple[int, ...], MeldRead], ...]
    loose: tuple[tuple[int, ...], ...]
    cost: float
    tight: tuple[bool, ...]  # per loose piece: its tiles touch
    bonus_counts: tuple[bool, ...]  # per bonus run of the row: the hand's, not among loose tiles


def _read_other(row: Row, codes: Sequence[str]) -> _Side:
    seq = tuple(codes[i] for i in row.core)
    chunks = chunk(seq, row.gaps)
    assert chunks is not None  # loose pieces are always allowed
    melds = tuple((row.core[a:b], m) for a, b, m in chunks.melds)
    loose = tuple(row.core[a:b] for a, b in chunks.loose)
    # Tiles in one loose piece that do not touch were not laid down together.
    tight = tuple(not row.touching or all(row.touching[a : b - 1]) for a, b in chunks.loose)
    # Bonus tiles count in a run of their own, in a row of melds, or touching melds alone (laid
    # down after them), not among loose tiles (tiles scattered on the table, a discard in line
    # with the melds).
    # A row of BONUS_ROW_LAID or more touching bonus tiles was laid down, whatever lies at its end: dropped
    # tiles do not land three in a touching line (an audit, seed 8900's scene 132: a laid row of four, a
    # back dropped at its end, was left out with it).
    in_melds = {i for tiles, _ in melds for i in tiles}
    counts = tuple(
        not loose or len(run) >= BONUS_ROW_LAID or in_melds.issuperset(beside)
        for run, beside in zip(row.bonus, row.bonus_beside, strict=True)
    )
    return _Side(melds, loose, chunks.cost, tight, counts)


def _sort_block(code: str) -> str:
    return code[1] if code[0].isdigit() else "honours"


@lru_cache(maxsize=8192)
def sorted_as_held(codes: tuple[str, ...]) -> bool:
    """Whether tiles lie as players sort them, read from either end: each suit in one block in
    rank order (every block the same way), the honours in one block with equal ones together.
    The order of the blocks is the player's; wild tiles and backs are passed over. One tile at
    either end may be out of place (the tile drawn last, often the winning tile, laid at the end)."""
    return any(_in_order(part) for part in (codes, codes[1:], codes[:-1]))


def _in_order(codes: tuple[str, ...]) -> bool:
    faces = [c for c in codes if c not in (BACK, "fly")]
    blocks: list[str] = []
    for code in faces:
        block = _sort_block(code)
        if not blocks or blocks[-1] != block:
            if block in blocks:
                return False
            blocks.append(block)
    honours = [c for c in faces if _sort_block(c) == "honours"]
    runs = [c for k, c in enumerate(honours) if k == 0 or honours[k - 1] != c]
    if len(runs) != len(set(runs)):
        return False
    steps = [
        int(b[0]) - int(a[0])
        for a, b in itertools.pairwise(faces)
        if a[0].isdigit() and _sort_block(a) == _sort_block(b)
    ]
    return all(step >= 0 for step in steps) or all(step <= 0 for step in steps)


def _inner_wider_cost(excess: float) -> float:
    """Cost of a gap inside the hand `excess` pitches wider than the cut to its melds allows."""
    return min(INNER_WIDER_COST, INNER_WIDER_SLOPE * max(excess, 0.0))


def _hand_candidates(row: Row, codes: Sequence[str]) -> list[tuple[float, int, int, list, list]]:
    """Ways to read `row` as the hand: (cost, start, stop, melds before, melds after).

    The hand is `core[start:stop]`; what lies before and after it must be all melds, cut
    off by a gap that is clearly the widest around the hand.
    """
    n = len(row.core)
    seq = tuple(codes[i] for i in row.core)
    gaps = row.gaps
    out: list[tuple[float, int, int, list, list]] = []
    for start in range(n):
        if start and gaps[start - 1] < SIDE_GAP:
            continue
        before = chunk(seq[:start], gaps[: max(start - 1, 0)], loose_ok=False) if start else None
        if start and before is None:
            continue
        for stop in range(start + 1, n + 1):
            if stop < n and gaps[stop - 1] < SIDE_GAP:
                continue
            after = chunk(seq[stop:], gaps[stop:], loose_ok=False) if stop < n else None
            if stop < n and after is None:
                continue
            inner = max(gaps[start : stop - 1], default=0.0)
            odd = sum(row.sideways[start:stop]) if row.sideways else 0
            backs = sum(codes[i] == BACK for i in row.core[start:stop])
            # A row of nothing but backs is a standing hand seen from behind; a back among
            # faces is odd.
            odd += backs if backs < stop - start else 0
            cost_blind = BLIND_HAND_COST if backs == stop - start else 0.0
            cost = ODD_TILE_COST * odd + cost_blind
            # Gaps as wide as those between melds are rare inside a concealed hand.
            cost += WIDE_GAP_COST * sum(g >= WIDE_GAP for g in gaps[start : stop - 1])
            for cut in ([gaps[start - 1]] if start else []) + ([gaps[stop - 1]] if stop < n else []):
                cost += min(max(CUT_EVEN - cut, -0.5), 1.0)
                cost += _inner_wider_cost(inner - (cut - SIDE_MARGIN))
            melds_before = [(row.core[a:b], m) for a, b, m in before.melds] if before else []
            melds_after = [(row.core[stop + a : stop + b], m) for a, b, m in after.melds] if after else []
            if before:
                cost += before.cost
            if after:
                cost += after.cost
            out.append((cost, start, stop, melds_before, melds_after))
    # Where the row can be cut so that the hand lies sorted, the cuts that leave it unsorted are
    # less likely; a row that lies unsorted every way (a shuffled hand) is weighed by gaps alone.
    in_order = [sorted_as_held(seq[start:stop]) for _, start, stop, _, _ in out]
    if any(in_order):
        out = [
            (cost + (0.0 if ok else UNSORTED_COST), start, stop, before_, after_)
            for (cost, start, stop, before_, after_), ok in zip(out, in_order, strict=True)
        ]
    return out


def _slice(row: Row, lo: int, hi: int) -> tuple[Row, tuple[int, ...], tuple[int, ...]]:
    """The row cut to `core[lo:hi]`, the hand tiles cut off, and the bonus tiles beyond them."""
    if (lo, hi) == (0, len(row.core)):
        return row, (), ()
    keep = [k for k in range(len(row.bonus)) if lo <= row.bonus_at[k] <= hi] if row.bonus_at else []
    dropped_bonus = tuple(i for k in range(len(row.bonus)) if k not in keep for i in row.bonus[k])
    trimmed = Row(
        core=row.core[lo:hi],
        gaps=row.gaps[lo : hi - 1],
        bonus=tuple(row.bonus[k] for k in keep),
        sideways=row.sideways[lo:hi] if row.sideways else (),
        touching=row.touching[lo : hi - 1] if row.touching else (),
        bonus_at=tuple(row.bonus_at[k] - lo for k in keep),
        bonus_beside=tuple(row.bonus_beside[k] for k in keep),
    )
    return trimmed, row.core[:lo] + row.core[hi:], dropped_bonus


def _trims(row: Row, codes: Sequence[str]) -> list[tuple[Row, tuple[int, ...], tuple[int, ...]]]:
    """The row, and the row without a few tiles at either end that may not be the hand's.

    Tiles scattered on the table can lie in line with the hand; a piece of at most
    MAX_TRIM tiles at an end, after a gap of at least TRIM_GAP and not touching the rest,
    that forms no meld, may be left out (each tile left out costs IGNORE_COST).
    """
    n = len(row.core)

    def droppable(a: int, b: int, cut: int) -> bool:
        if row.gaps[cut] < TRIM_GAP or (row.touching and row.touching[cut]):
            return False
        piece = tuple(codes[i] for i in row.core[a:b])
        return chunk(piece, row.gaps[a : b - 1], loose_ok=False) is None

    starts = [0] + [k + 1 for k in range(min(MAX_TRIM, n - 2)) if droppable(0, k + 1, k)]
    stops = [n] + [n - m for m in range(1, min(MAX_TRIM, n - 2) + 1) if droppable(n - m, n, n - m - 1)]
    return [_slice(row, lo, hi) for lo in starts for hi in stops if (lo, hi) == (0, n) or hi - lo >= 2]


def wall_tiles(rows: Sequence[Row], codes: Sequence[str]) -> frozenset[int]:
    """Face-down tiles lying as the wall: in a stretch of more than KONG_SIZE backs along a row, each
    touching the next. A concealed kong shows four tiles, a hand's other tiles are face up; only a
    standing hand seen from behind is longer, and that is its row's hand reading, not left out."""
    wall: set[int] = set()
    for row in rows:
        stretch: list[int] = []
        for k, i in enumerate(row.core):
            touches = k > 0 and bool(row.touching) and row.touching[k - 1]
            if codes[i] != BACK or not (stretch and touches):
                if len(stretch) > KONG_SIZE:
                    wall.update(stretch)
                stretch = []
            if codes[i] == BACK:
                stretch.append(i)
        if len(stretch) > KONG_SIZE:
            wall.update(stretch)
    return frozenset(wall)


def _left_out_cost(left_out: Sequence[int], wall: frozenset[int]) -> float:
    """IGNORE_COST for each tile left out of the hand, but the wall's (`wall_tiles`)."""
    return IGNORE_COST * sum(1 for i in left_out if i not in wall)


def all_readings(rows: Sequence[Row], distance: np.ndarray, codes: Sequence[str]) -> list[Reading]:
    """Every reading of the rows weighed, the best first (none when no row holds hand tiles).

    `distance[r, q]` is how far apart rows r and q lie, in tile sizes (a + b); rows within
    NEAR_SPANS are next to each other. Rows next to the hand's row (directly or
    through rows of melds) hold its melds and bonus tiles; tiles there that form no meld
    are counted as concealed with a warning when there are three or more of them (a meld
    that did not validate), else left unused; rows away from the hand are left unused.
    """
    sides = [_read_other(row, codes) for row in rows]
    wall = wall_tiles(rows, codes)
    near = [set(np.flatnonzero(distance[r] < NEAR_SPANS).tolist()) - {r} for r in range(len(rows))]
    # A row of nothing but good melds is the meld row even when set farther off.
    for r, side in enumerate(sides):
        if side.melds and not side.loose and not any(_blind(m) for _, m in side.melds):
            for q in np.flatnonzero(distance[r] < FAR_MELD_SPANS).tolist():
                if q != r and rows[q].core:
                    near[r].add(q)
                    near[q].add(r)
    weighed: list[tuple[tuple[float, int], Reading]] = []
    for h, hand_row in enumerate(rows):
        if not hand_row.core:
            continue
        attached = _attached(h, sides, near)
        melds: list[tuple[tuple[int, ...], MeldRead]] = []
        stray: list[int] = []
        ignored: list[int] = []
        bonus: list[tuple[int, ...]] = []
        ignored_bonus: list[int] = []
        cost = 0.0
        # Where the hand row's own melds and bonus tiles go among the others (reading order).
        split = bonus_split = 0
        for r, row in enumerate(rows):
            if r == h:
                split, bonus_split = len(melds), len(bonus)
                continue
            if r not in attached:
                ignored.extend(row.core)
                ignored_bonus.extend(i for run in row.bonus for i in run)
                continue
            side = sides[r]
            for run, counts in zip(row.bonus, side.bonus_counts, strict=True):
                if counts:
                    bonus.append(run)
                else:
                    ignored_bonus.extend(run)
            for tiles, meld in side.melds:
                # Four face-down tiles are a kong only right next to the hand (not the wall).
                if _blind(meld) and h not in near[r]:
                    ignored.extend(tiles)
                else:
                    melds.append((tiles, meld))
            for piece, tight in zip(side.loose, side.tight, strict=True):
                if len(piece) >= 3 and tight:
                    stray.extend(piece)
                    cost += STRAY_COST * len(piece)
                else:
                    ignored.extend(piece)
        for version, dropped, dropped_bonus in _trims(hand_row, codes):
            for hand_cost, start, stop, before, after in _hand_candidates(version, codes):
                concealed = version.core[start:stop]
                all_melds = melds[:split] + before + after + melds[split:]
                faces = [i for i in concealed + tuple(stray) if codes[i] != BACK]
                if all(codes[i] == BACK for i in concealed):
                    faces = list(concealed)  # a standing hand seen from behind: unreadable, still there
                size = hand_tiles(len(faces), len(all_melds))
                complete = size == HAND_SIZE
                shapeless = complete and not _winning_part(
                    tuple(sorted(codes[i] for i in faces)), len(all_melds)
                )
                # Every tile left out of the hand costs a little, wherever it lies, so that
                # the reading that explains the most tiles wins; the wall is no hand's.
                left_out = _left_out_cost((*ignored, *dropped), wall)
                total = cost + hand_cost + (0.0 if complete else INCOMPLETE_COST) + left_out
                total += SHAPELESS_COST if shapeless else 0.0
                total += OVER_COST * max(0, size - HAND_SIZE)
                reading = Reading(
                    concealed=concealed,
                    melds=tuple(all_melds),
                    stray=tuple(stray),
                    ignored=tuple(ignored) + tuple(dropped),
                    bonus=tuple(bonus[:bonus_split]) + version.bonus + tuple(bonus[bonus_split:]),
                    ignored_bonus=tuple(ignored_bonus) + dropped_bonus,
                    cost=total,
                )
                weighed.append(((-total, len(concealed)), reading))
    # the lowest cost first; of two alike, the one with more concealed tiles; then as found
    order = sorted(range(len(weighed)), key=lambda k: (weighed[k][0], -k), reverse=True)
    return [weighed[k][1] for k in order]


def end_meld_rival(readings: Sequence[Reading], codes: Sequence[str]) -> Reading | None:
    """The likeliest reading within RIVAL_WITHIN of the best (`readings[0]`) that differs from it only
    in melds at an end of the hand's row: read there as concealed tiles, or the other way round.

    Where a meld is laid at the end of the concealed row with a narrow gap (or the hand is laid in
    pieces with one such gap), the gap's width alone decides, and the two readings score differently
    (an exposed meld breaks a concealed hand): the user, who saw how it was laid, is asked. The rival
    must be a hand of the winning size; readings that take another row for the hand, or leave out
    other tiles, are no rival."""
    if not readings:
        return None
    best = readings[0]
    for other in readings[1:]:
        if other.cost - best.cost > RIVAL_WITHIN:
            return None
        if _moves_end_melds(best, other) and _winning_size(other, codes):
            return other
    return None


def moved_melds(one: Reading, other: Reading) -> tuple[list[LaidMeld], list[LaidMeld]]:
    """(melds `other` lays out that `one` does not, melds `one` lays out that `other` does not), each
    as its tiles and meld, in the order its reading holds them."""
    melds_one = {tiles for tiles, _ in one.melds}
    melds_other = {tiles for tiles, _ in other.melds}
    laid = [(tiles, meld) for tiles, meld in other.melds if tiles not in melds_one]
    taken_in = [(tiles, meld) for tiles, meld in one.melds if tiles not in melds_other]
    return laid, taken_in


def _moves_end_melds(one: Reading, other: Reading) -> bool:
    """Whether `other` reads the same tiles as `one` but for melds moved between the concealed hand
    and the laid-out melds, in one direction only."""
    if (one.stray, one.ignored, one.bonus, one.ignored_bonus) != (
        other.stray,
        other.ignored,
        other.bonus,
        other.ignored_bonus,
    ):
        return False
    laid, taken_in = moved_melds(one, other)
    if bool(laid) == bool(taken_in):
        return False
    moved = {i for tiles, _ in laid + taken_in for i in tiles}
    concealed_one, concealed_other = set(one.concealed), set(other.concealed)
    if laid:
        return concealed_one - concealed_other == moved and concealed_other <= concealed_one
    return concealed_other - concealed_one == moved and concealed_one <= concealed_other


def _winning_size(reading: Reading, codes: Sequence[str]) -> bool:
    faces = [i for i in reading.concealed + reading.stray if codes[i] != BACK]
    return hand_tiles(len(faces), len(reading.melds)) == HAND_SIZE


@lru_cache(maxsize=8192)
def _winning_part(faces: tuple[str, ...], melds: int) -> bool:
    """Whether concealed tiles `faces` make the sets and pair that `melds` laid-out melds leave (with
    no meld: seven pairs or thirteen wonders too). Face-down tiles (a standing hand seen from behind)
    cannot be judged: they pass."""
    if BACK in faces:
        return True
    if sets_and_pair(faces, 4 - melds):
        return True
    return melds == 0 and winning_shape(faces)


def _attached(h: int, sides: Sequence[_Side], near: Sequence[set[int]]) -> set[int]:
    """Rows that belong with hand row `h`: next to it, or next to a row of melds that is."""
    attached = {h}
    frontier = [h]
    while frontier:
        r = frontier.pop()
        for q in near[r]:
            if q in attached:
                continue
            attached.add(q)
            # Only rows holding melds pass the hand on to their neighbours (a bonus row
            # behind the meld row); a row of loose tiles does not.
            if any(not _blind(m) or h in near[q] for _, m in sides[q].melds):
                frontier.append(q)
    attached.discard(h)
    return attached
