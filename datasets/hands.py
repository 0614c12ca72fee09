"""What lies on the table: a winning hand (or arbitrary tiles) and where each tile goes.

Positions are in millimetres on the table plane (x to the player's right, y away from the player),
before any camera is involved. A tile's `up` angle is the direction its face's top points, in the
table plane, in radians counter-clockwise from +y.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from vision.classes import ANIMALS, BACK, DRAGONS, FLOWERS, SEASONS, SUITED, WINDS
from vision.tile_set import COPIES_IN_SET

HONOURS = WINDS + DRAGONS
PLAYABLE = SUITED + HONOURS
SG_BONUS = FLOWERS + SEASONS + ANIMALS


@dataclass(frozen=True)
class Meld:
    kind: str  # chow | pong | kong
    tiles: tuple[str, ...]
    concealed: bool = False


@dataclass(frozen=True)
class Hand:
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...]
    bonus: tuple[str, ...]
    rules: str = "singapore"  # the rule set whose tile set the hand uses (scoring JSON `rules`)

    def as_json(self) -> dict[str, object]:
        return {
            "concealed": list(self.concealed),
            "melds": [{"kind": m.kind, "tiles": list(m.tiles), "concealed": m.concealed} for m in self.melds],
            "bonus": list(self.bonus),
        }


@dataclass(frozen=True)
class Dims:
    """Tile size in mm: face width, face height, thickness; and the share of it that is ivory."""

    w: float
    h: float
    t: float
    ivory: float


@dataclass(frozen=True)
class Placed:
    code: str  # the class shown (BACK for a face-down tile)
    x: float
    y: float
    up: float  # radians, direction of the face's top in the table plane
    z: float = 0.0  # height of the tile's bottom (stacked wall tiles)
    face_up: bool = True
    claimed: bool = False
    group: int = -1
    hidden: bool = False  # under another tile: never labelled
    standing: bool = False  # on its bottom edge, face toward the player (as held before the reveal)


@dataclass(frozen=True)
class Group:
    kind: str  # concealed | meld | bonus | distractor
    meld: str | None
    concealed: bool
    tiles: tuple[int, ...]


# ---------------------------------------------------------------------------- hands


def _suit_tiles(suit: str) -> list[str]:
    return [f"{r}{suit}" for r in range(1, 10)]


def sample_hand(rng: np.random.Generator) -> Hand:
    """A plausible winning hand: four sets and a pair, with melds and bonus tiles."""
    malaysian = rng.random() < 0.12
    left: dict[str, int] = {code: 4 for code in PLAYABLE}
    if malaysian:
        left = {code: 4 for code in _suit_tiles("p") + list(HONOURS)}
    # flush-type hands happen in real games far more than at random: bias the suit choice
    suits = ["m", "p", "s"] if not malaysian else ["p"]
    focus = rng.choice(suits)
    honour_p = rng.uniform(0.1, 0.45)

    def pick_tile() -> str:
        if rng.random() < honour_p:
            return str(rng.choice(list(HONOURS)))
        suit = focus if rng.random() < 0.6 else rng.choice(suits)
        return f"{rng.integers(1, 10)}{suit}"

    sets: list[tuple[str, list[str]]] = []
    while len(sets) < 4:
        kind = str(rng.choice(["chow", "pong", "kong"], p=[0.5, 0.38, 0.12]))
        t = pick_tile()
        if kind == "chow":
            if t in HONOURS or int(t[0]) > 7:
                continue
            tiles = [f"{int(t[0]) + k}{t[1]}" for k in range(3)]
        else:
            tiles = [t] * (3 if kind == "pong" else 4)
        if any(left.get(x, 0) < tiles.count(x) for x in set(tiles)):
            continue
        for x in tiles:
            left[x] -= 1
        sets.append((kind, tiles))
    while True:
        pair = pick_tile()
        if left.get(pair, 0) >= 2:
            left[pair] -= 2
            break

    n_exposed = int(rng.choice([0, 1, 2, 3, 4], p=[0.3, 0.25, 0.2, 0.15, 0.1]))
    order = rng.permutation(4)
    melds: list[Meld] = []
    concealed: list[str] = list([pair] * 2)
    for rank, i in enumerate(order):
        kind, tiles = sets[i]
        if kind == "kong":
            # a kong is always laid down; unexposed ones are concealed kongs
            melds.append(Meld("kong", tuple(tiles), concealed=rank >= n_exposed))
        elif rank < n_exposed:
            melds.append(Meld(kind, tuple(tiles)))
        else:
            concealed.extend(tiles)
    if malaysian and rng.random() < 0.5:
        # the wild tile standing in for one tile of a concealed set
        idx = int(rng.integers(len(concealed)))
        concealed[idx] = "fly"

    pool = list(SG_BONUS) + (["face"] * 4 + ["fly"] * 2 if malaysian else [])
    n_bonus = int(rng.choice(range(8), p=[0.12, 0.2, 0.2, 0.18, 0.12, 0.08, 0.06, 0.04]))
    bonus: list[str] = []
    for code in rng.permutation(pool):
        if len(bonus) >= n_bonus:
            break
        if code in FLOWERS + SEASONS + ANIMALS and code in bonus:
            continue
        bonus.append(str(code))
    return Hand(tuple(concealed), tuple(melds), tuple(bonus), "malaysian" if malaysian else "singapore")


def sort_key(code: str) -> tuple[int, int]:
    order = {"m": 0, "p": 1, "s": 2}
    if len(code) == 2 and code[0].isdigit():
        return order[code[1]], int(code[0])
    return 3, (HONOURS.index(code) if code in HONOURS else 99)


# ---------------------------------------------------------------------------- table layout


class _Builder:
    def __init__(self, rng: np.random.Generator, dims: Dims) -> None:
        self.rng, self.d = rng, dims
        self.tiles: list[Placed] = []
        self.groups: list[Group] = []

    def row(
        self,
        items: list[tuple[str, bool, bool]],
        x0: float,
        y0: float,
        kind: str,
        gaps: list[float] | None = None,
        meld: str | None = None,
        concealed: bool = False,
        upside_down: bool = False,
        standing: bool = False,
    ) -> float:
        """Lay tiles (code, face_up, claimed) left to right from x0 along the row base y0.

        Returns the x just after the last tile. A claimed tile lies sideways, its long side along
        the row, its face's top to the player's left, as players turn a claimed tile.
        """
        rng, d = self.rng, self.d
        idx: list[int] = []
        x = x0
        curve = rng.normal(0, 0.00003)  # rows bow by a few mm at most
        for k, (code, face_up, claimed) in enumerate(items):
            along = d.h if claimed else d.w
            cx = x + along / 2
            depth = d.w if claimed else d.h
            cy = y0 + depth / 2 + rng.normal(0, 0.35) + curve * (cx - x0) ** 2
            if standing:  # the face stands on the row's base line, the body behind it
                cy = y0 + rng.normal(0, 0.35) + curve * (cx - x0) ** 2
            up = (math.pi / 2 if claimed else 0.0) + rng.normal(0, 0.012)
            if upside_down and not standing:
                up += math.pi
            idx.append(len(self.tiles))
            self.tiles.append(
                Placed(
                    code,
                    cx,
                    cy,
                    up,
                    face_up=face_up,
                    claimed=claimed,
                    group=len(self.groups),
                    standing=standing and face_up and not claimed,
                )
            )
            gap = gaps[k] if gaps is not None and k < len(gaps) else abs(rng.normal(0.25, 0.25))
            x += along + gap
        self.groups.append(Group(kind, meld, concealed, tuple(idx)))
        return x

    def scatter(self, codes: list[str], region: tuple[float, float, float, float], face_up_p: float) -> None:
        """Tiles dropped at random angles in a region, not overlapping anything placed."""
        rng, d = self.rng, self.d
        radius = math.hypot(d.w, d.h) / 2 + 1
        idx: list[int] = []
        for code in codes:
            for _ in range(30):
                x = rng.uniform(region[0], region[2])
                y = rng.uniform(region[1], region[3])
                if all(math.hypot(x - t.x, y - t.y) > 2 * radius for t in self.tiles):
                    face_up = rng.random() < face_up_p
                    idx.append(len(self.tiles))
                    self.tiles.append(
                        Placed(
                            code if face_up else BACK,
                            x,
                            y,
                            rng.uniform(-math.pi, math.pi),
                            face_up=face_up,
                            group=len(self.groups),
                        )
                    )
                    break
        if idx:
            self.groups.append(Group("distractor", None, False, tuple(idx)))

    def wall(self, n: int, x0: float, y0: float) -> None:
        """A stretch of the wall: face-down tiles two high (only the top layer shows a back)."""
        d = self.d
        idx: list[int] = []
        for k in range(n):
            cx = x0 + k * (d.w + 0.3) + d.w / 2
            for level in (0, 1):
                idx.append(len(self.tiles))
                self.tiles.append(
                    Placed(
                        BACK,
                        cx,
                        y0 + d.h / 2,
                        0.0,
                        z=level * d.t,
                        face_up=False,
                        group=len(self.groups),
                        hidden=level == 0,
                    )
                )
        self.groups.append(Group("distractor", None, False, tuple(idx)))


def _meld_items(meld: Meld, rng: np.random.Generator) -> list[tuple[str, bool, bool]]:
    tiles = list(meld.tiles)
    if meld.kind == "kong" and meld.concealed:
        if rng.random() < 0.7:
            pattern = [False, True, True, False] if rng.random() < 0.6 else [True, False, False, True]
        else:
            pattern = [False] * 4
        return [(t if up else BACK, up, False) for t, up in zip(tiles, pattern, strict=True)]
    items = [(t, True, False) for t in tiles]
    # a claimed tile lies sideways in about half the melds (kongs less often)
    if (meld.kind != "kong" or rng.random() < 0.5) and rng.random() < 0.55:
        k = int(rng.integers(len(items)))
        items[k] = (items[k][0], True, True)
    return items


def lay_hand(hand: Hand, rng: np.random.Generator, dims: Dims) -> _Builder:
    """Lay a finished hand as players do: concealed row, meld row behind it, bonus row behind that."""
    b = _Builder(rng, dims)
    d = dims
    concealed = list(hand.concealed)
    if rng.random() < 0.75:
        concealed.sort(key=sort_key)
    else:
        rng.shuffle(concealed)
    # concealed row: touching, sometimes with small gaps between sets
    gaps = None
    if rng.random() < 0.3:
        gaps = [abs(rng.normal(0.3, 0.3)) if rng.random() < 0.75 else rng.uniform(2, 10) for _ in concealed]
    upside = rng.random() < 0.08
    # before the reveal, or in some photos, the concealed tiles still stand facing the player
    standing = rng.random() < 0.12
    row_end = b.row(
        [(c, True, False) for c in concealed],
        0.0,
        0.0,
        "concealed",
        gaps=gaps,
        upside_down=upside,
        standing=standing,
    )
    next_y = (d.t if standing else d.h) + rng.uniform(4, 30)  # base of the next free row behind
    if hand.melds and rng.random() < 0.25:
        # some players put their melds at the right end of the concealed row
        x, meld_y = row_end + rng.uniform(8, 30), 0.0
    else:
        x, meld_y = rng.uniform(-20, 20), next_y
        if hand.melds:
            next_y += d.h + rng.uniform(4, 30)
    for meld in hand.melds:
        x = b.row(_meld_items(meld, rng), x, meld_y, "meld", meld=meld.kind, concealed=meld.concealed)
        x += rng.uniform(3, 18)
    if hand.bonus:
        if hand.melds and rng.random() < 0.5:
            bx, by = x + rng.uniform(3, 25), meld_y  # bonus tiles at the end of the meld row
        else:
            bx, by = rng.uniform(-20, 30), next_y
        b.row([(c, True, False) for c in hand.bonus], bx, by, "bonus")
    return b


def draw_codes(
    rng: np.random.Generator, codes_pool: list[str], weights: np.ndarray, n: int, placed: list[Placed]
) -> list[str]:
    """Up to `n` codes drawn by `weights`, never more face-up copies of a face than one set holds
    (counting the tiles already `placed`): a photo shows one set, and the reader relies on it."""
    counts = Counter(t.code for t in placed if t.code != BACK)
    out: list[str] = []
    for _ in range(n):
        room = np.array([c == BACK or counts[c] < COPIES_IN_SET[c] for c in codes_pool])
        if not room.any():
            break
        p = np.asarray(weights, np.float64) * room
        code = str(rng.choice(codes_pool, p=p / p.sum()))
        counts[code] += 1
        out.append(code)
    return out


def add_distractors(
    b: _Builder, rng: np.random.Generator, codes_pool: list[str], weights: np.ndarray
) -> None:
    d = b.d
    xs = [t.x for t in b.tiles] or [0.0]
    ys = [t.y for t in b.tiles] or [0.0]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    # the wall first: the discards below keep clear of every tile already placed
    if rng.random() < 0.12:
        b.wall(int(rng.integers(3, 10)), x0 + rng.uniform(-30, 60), y1 + d.h * rng.uniform(1.5, 4))
    r = rng.random()
    if r < 0.1:  # a busy table: the discards of a whole game behind the hand
        n = int(rng.integers(20, 45))
        codes = draw_codes(rng, codes_pool, weights, n, b.tiles)
        b.scatter(codes, (x0 - 80, y1 + d.h * 1.5, x1 + 80, y1 + d.h * 10), face_up_p=0.9)
    elif r < 0.5:
        n = int(rng.integers(2, 14))
        codes = draw_codes(rng, codes_pool, weights, n, b.tiles)
        side = rng.integers(3)
        if side == 0:  # discards in the middle of the table, behind the hand
            region = (x0 - 40, y1 + d.h * 1.5, x1 + 40, y1 + d.h * 6)
        elif side == 1:
            region = (x1 + d.h * 1.5, y0 - 40, x1 + d.h * 6, y1 + 40)
        else:
            region = (x0 - d.h * 6, y0 - 40, x0 - d.h * 1.5, y1 + 40)
        b.scatter(codes, region, face_up_p=0.85)


def lay_arbitrary(
    rng: np.random.Generator, dims: Dims, codes_pool: list[str], weights: np.ndarray
) -> _Builder:
    """Rows and heaps of arbitrary tiles, to give rare classes (bonus, back, face, fly) enough examples."""
    b = _Builder(rng, dims)
    d = dims
    y = 0.0
    for _ in range(int(rng.integers(1, 4))):
        n = int(rng.integers(3, 12))
        codes = draw_codes(rng, codes_pool, weights, n, b.tiles)
        items = [(c, c != BACK, bool(rng.random() < 0.06)) for c in codes]
        b.row(items, rng.uniform(-30, 30), y, "distractor", upside_down=bool(rng.random() < 0.2))
        y += d.h + rng.uniform(5, 40)
    if rng.random() < 0.6:
        n = int(rng.integers(3, 14))
        codes = draw_codes(rng, codes_pool, weights, n, b.tiles)
        b.scatter(codes, (-60, y, 14 * d.w + 60, y + d.h * 5), face_up_p=0.9)
    return b
