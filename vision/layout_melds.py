"""Which runs of tiles form melds: one meld read from its tiles (`read_meld`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from vision.classes import BACK

MeldKind = Literal["chow", "pong", "kong"]
FLY = "fly"


@dataclass(frozen=True)
class MeldRead:
    """One meld read from a run: `start:stop` of the run, its kind and whether it is concealed.

    `tiles` are the codes for the scoring JSON; a concealed kong shown with face-down tiles
    takes its face from the face-up ones, and is `None` when all four are face down.
    """

    start: int
    stop: int
    kind: MeldKind
    concealed: bool
    tiles: tuple[str, ...] | None


def _suit_rank(code: str) -> tuple[str, int] | None:
    if len(code) == 2 and code[0].isdigit() and code[1] in "mps":
        return code[1], int(code[0])
    return None


def read_meld(codes: Sequence[str]) -> MeldRead | None:
    """The meld `codes` form (in any order), or None.

    Kong: four equal faces (exposed), or two equal faces and two face-down tiles (backs at
    both ends or both in the middle), or four face-down tiles (concealed: players show it so);
    pong: three equal faces; chow: three consecutive ranks of one suit. `fly` (Malaysian
    wild tile) may stand in a pong or chow (at most one in a chow), never in a kong.
    """
    n = len(codes)
    faces = [c for c in codes if c != BACK]
    if n == 4:
        if FLY in faces or len(set(faces)) > 1:
            return None
        if len(faces) == 4:
            return MeldRead(0, 4, "kong", False, tuple(faces))
        if len(faces) not in (0, 2):
            return None
        # Players show a concealed kong symmetrically: backs at both ends or in the middle.
        if len(faces) == 2 and (codes[0] == BACK) != (codes[3] == BACK):
            return None
        return MeldRead(0, 4, "kong", True, (faces[0],) * 4 if faces else None)
    if n != 3 or len(faces) != 3:
        return None
    real = [c for c in faces if c != FLY]
    if not real:
        return None
    if len(set(real)) == 1:
        return MeldRead(0, 3, "pong", False, tuple(faces))
    if len(real) < 2:
        return None
    parts = [_suit_rank(c) for c in real]
    if any(p is None for p in parts) or len(real) < 2 or faces.count(FLY) > 1:
        return None
    suits = {p[0] for p in parts if p}
    ranks = sorted(p[1] for p in parts if p)
    if len(suits) != 1 or len(set(ranks)) != len(ranks) or ranks[-1] - ranks[0] > 2:
        return None
    # A chow reads low to high whatever order it lies in; `fly` stays last.
    return MeldRead(0, 3, "chow", False, tuple(sorted(real, key=lambda c: c[0])) + (FLY,) * faces.count(FLY))
