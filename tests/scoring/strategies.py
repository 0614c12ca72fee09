"""Hypothesis strategies: random well-formed winning-shape hands for either rule set."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from scoring.tiles import ANIMALS, FLOWERS, HONOURS, SEASONS, SUITED, format_hand, is_suited, rank_of, suit_of

TILES = {
    "singapore": SUITED + HONOURS,
    "malaysian": tuple(f"{rank}p" for rank in range(1, 10)) + HONOURS,
}
BONUS = {
    "singapore": FLOWERS + SEASONS + ANIMALS,
    "malaysian": FLOWERS + SEASONS + ANIMALS + ("face",),
}


def chow_starts(palette: Sequence[str]) -> list[str]:
    """The tiles of `palette` that begin a chow whose three tiles are all in it."""
    return [
        tile
        for tile in palette
        if is_suited(tile)
        and rank_of(tile) <= 7
        and all(f"{rank_of(tile) + step}{suit_of(tile)}" in palette for step in (1, 2))
    ]


@st.composite
def sets_and_pair(
    draw: st.DrawFn, palette: Sequence[str], kinds: Sequence[str]
) -> tuple[list[tuple[str, list[str]]], str]:
    """Four sets of `palette`'s tiles, each of a kind drawn from `kinds` (a chow where the palette holds
    no run is a pong), and a pair; no tile more than a set's four copies."""
    starts = chow_starts(palette)
    groups: list[tuple[str, list[str]]] = []
    for _ in range(4):
        kind = draw(st.sampled_from(kinds))
        if kind == "chow" and starts:
            start = draw(st.sampled_from(starts))
            groups.append((kind, [f"{rank_of(start) + step}{suit_of(start)}" for step in range(3)]))
        else:
            kind = "pong" if kind == "chow" else kind
            tile = draw(st.sampled_from(palette))
            groups.append((kind, [tile] * (4 if kind == "kong" else 3)))
    pair = draw(st.sampled_from(palette))
    counts = Counter(tile for _, tiles in groups for tile in tiles)
    counts.update([pair, pair])
    assume(all(count <= 4 for count in counts.values()))
    return groups, pair


@st.composite
def hand_json(draw: st.DrawFn, rules: str) -> dict[str, Any]:
    """A hand of four sets and a pair (some sets laid down as melds), with random bonus tiles and context."""
    groups, pair = draw(sets_and_pair(TILES[rules], ("chow", "pong", "pong", "kong")))
    concealed: list[str] = [pair, pair]
    melds = []
    for kind, tiles in groups:
        if kind == "kong" or draw(st.booleans()):
            melds.append({"kind": kind, "tiles": tiles, "concealed": kind == "kong" and draw(st.booleans())})
        else:
            concealed.extend(tiles)
    bonus = draw(st.lists(st.sampled_from(BONUS[rules]), unique=True, max_size=4))
    if rules == "malaysian":
        bonus = [tile for tile in bonus if tile != "face"] + ["face"] * draw(st.integers(0, 2))
    seats = ("E", "S", "W", "N") if rules == "singapore" else ("E", "S", "W")
    data: dict[str, Any] = {
        "rules": rules,
        "concealed": format_hand(concealed),
        "melds": melds,
        "bonus": bonus,
        "seat_wind": draw(st.sampled_from(seats)),
        "prevailing_wind": draw(st.sampled_from(("E", "S", "W", "N"))),
        "self_drawn": draw(st.booleans()),
        "pay_all": draw(st.booleans()),
        "winning_tile": draw(st.sampled_from(concealed)),
        "options": {"min_tai": 0},
    }
    return data
