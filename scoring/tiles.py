"""Tile codes of RULES.md, their properties, and compact hand strings (parse and print round-trip).

A tile is its canonical code string (`"3m"`, `"E"`, `"F1"`, `"fly"`): an immutable value with one text form,
the same as the detector's class names. Helpers here answer questions about a code; they never guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from scoring.errors import HandStringError, UnknownTileError, json_kind, json_value

Tile = str

SUITS: tuple[str, ...] = ("m", "p", "s")
SUIT_NAMES: dict[str, str] = {"m": "characters (m)", "p": "dots (p)", "s": "bamboo (s)"}
SUITED: tuple[Tile, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in range(1, 10))
WINDS: tuple[Tile, ...] = ("E", "S", "W", "N")
DRAGONS: tuple[Tile, ...] = ("C", "F", "P")
HONOURS: tuple[Tile, ...] = WINDS + DRAGONS
FLOWERS: tuple[Tile, ...] = ("F1", "F2", "F3", "F4")
SEASONS: tuple[Tile, ...] = ("S1", "S2", "S3", "S4")
ANIMALS: tuple[Tile, ...] = ("cat", "rat", "rooster", "centipede")
FACE: Tile = "face"
FLY: Tile = "fly"
BACK: Tile = "back"

# Tiles that belong to the bonus row, never to the hand proper. `fly` is a hand tile that a Malaysian
# player may also set aside as a bonus, so it is accepted in both places.
BONUS: frozenset[Tile] = frozenset(FLOWERS + SEASONS + ANIMALS + (FACE,))
HAND_TILES: frozenset[Tile] = frozenset(SUITED + HONOURS + (FLY,))
ALL_CODES: frozenset[Tile] = frozenset(SUITED + HONOURS + FLOWERS + SEASONS + ANIMALS + (FACE, FLY, BACK))

TERMINALS: frozenset[Tile] = frozenset(f"{rank}{suit}" for suit in SUITS for rank in (1, 9))
# suit by suit, as a hand is sorted (1m 9m 1p 9p 1s 9s), then the honours: the order the reading shows
THIRTEEN_WONDERS: tuple[Tile, ...] = tuple(f"{rank}{suit}" for suit in SUITS for rank in (1, 9)) + HONOURS
WIND_NAMES: dict[Tile, str] = {"E": "East", "S": "South", "W": "West", "N": "North"}
TILE_NAMES: dict[Tile, str] = {
    **WIND_NAMES,
    "C": "red dragon",
    "F": "green dragon",
    "P": "white dragon",
}

# Sort order: suits m, p, s by rank, then winds, dragons, fly, then bonus tiles.
_ORDER: dict[Tile, int] = {
    code: index
    for index, code in enumerate(SUITED + HONOURS + (FLY,) + FLOWERS + SEASONS + ANIMALS + (FACE, BACK))
}


def check_code(token: str) -> Tile:
    """Return `token` if it is a tile code, else raise `UnknownTileError` quoting it."""
    if token not in ALL_CODES:
        raise UnknownTileError(f"unknown tile code {token!r} (expected e.g. 3m, 9p, 1s, E, C, F1, cat)")
    return token


# Lookup tables: these helpers run in the scoring loop for every arrangement.
_SUITED_SET: frozenset[Tile] = frozenset(SUITED)
_HONOUR_SET: frozenset[Tile] = frozenset(HONOURS)
_RANK: dict[Tile, int] = {tile: int(tile[0]) for tile in SUITED}
_SHIFTED: dict[tuple[Tile, int], Tile] = {
    (tile, step): f"{_RANK[tile] + step}{tile[1]}"
    for tile in SUITED
    for step in range(-8, 9)
    if 1 <= _RANK[tile] + step <= 9
}


def is_suited(tile: Tile) -> bool:
    return tile in _SUITED_SET


def is_honour(tile: Tile) -> bool:
    return tile in _HONOUR_SET


def suit_of(tile: Tile) -> str | None:
    """The suit letter of a suited tile, None for anything else."""
    return tile[1] if tile in _SUITED_SET else None


def rank_of(tile: Tile) -> int:
    """The rank (1..9) of a suited tile; 0 for anything else."""
    return _RANK.get(tile, 0)


def shifted(tile: Tile, step: int) -> Tile | None:
    """The suited tile `step` ranks away in the same suit, None off the end or for honours."""
    return _SHIFTED.get((tile, step))


def sort_key(tile: Tile) -> int:
    return _ORDER[tile]


def sorted_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=sort_key)


# the codes as a user is told them (`python -m scoring --help`, and `python -m vision --help`, whose
# output is these codes: an audit met "C 0.65" and "F4" beside "F" with no word of what they are)
TILE_CODES_HELP = (
    "tile codes: 1m-9m characters, 1p-9p dots, 1s-9s bamboo; E S W N winds; C red, F green, P white "
    "dragons; F1-F4 flowers, S1-S4 seasons; cat rat rooster centipede; Malaysian face and fly; back "
    "(face down). A hand is written as groups: 123m 456p 789s CCC 55p."
)


# One token inside a space-separated group. Word codes first; `F1`..`S4` only when the digit is not the
# start of a suited run (so `S123m` reads as S, 1m, 2m, 3m); honours one letter each; ranks then a suit.
_TOKEN = re.compile(
    r"(?P<word>fly|face|cat|rat|rooster|centipede|back)"
    r"|(?P<bonus>[FS][1-4])(?![0-9]*[mps])"
    r"|(?P<honour>[ESWNCFP])"
    r"|(?P<run>[1-9]+)(?P<suit>[mps])"
)


def _unreadable(group: str, position: int, typed: str) -> str:
    """What is wrong in a group from `position` on, said once, with the likely fix: judged on the codes
    read (`group`), quoting the group as the user typed it (`typed`, its letters in any case)."""
    rest = typed[position:]
    where = "" if position == 0 else f" in hand group {typed!r}"
    # `S0`, `F5` or `F12` reads as a wind, dragon or bonus tile and then lone digits: a bonus code was meant
    bonus_like = re.search(r"[FS][0-9]*$", group[:position])
    if bonus_like and rest.isascii() and rest.isdigit():
        code = typed[bonus_like.start() :]
        where = "" if bonus_like.start() == 0 else where
        return f"unknown tile code {code!r}{where}: flowers are F1-F4, seasons S1-S4"
    if rest.isascii() and rest.isdigit():  # str.isdigit also takes "１" and "²", no rank of ours
        return f"{rest!r}{where} needs a suit letter after the digits: m, p or s (e.g. {rest}m)"
    # another notation's letters (R, G for the dragons; b, c, d for the suits): say ours (stage 89), the
    # example in dots, a suit of every rule set
    if re.fullmatch(r"[1-9]+[A-Za-z]", rest):
        return f"cannot read {rest!r}{where}: the suits are m characters, p dots, s bamboo (e.g. 123p)"
    if rest[:1].upper() in ("R", "G"):
        return f"cannot read {rest!r}{where}: the dragons are C red, F green, P white (e.g. CCC)"
    # dots and a dragon: tiles of every rule set (an audit, stage 78: 123m is no Malaysian tile)
    return f"cannot read {rest!r}{where} (e.g. 123p 55p CCC)"


def parse_hand_string(text: str) -> list[Tile]:
    """Read a compact hand string (`"123m 456p 789s CCC 55p"`) into tile codes, in written order.

    Raises `HandStringError` / `UnknownTileError` (both `MalformedHandError`) naming the bad group.
    """
    if not isinstance(text, str):
        raise HandStringError(f"a hand string must be text, not {json_kind(text)}")
    return [tile for group in text.replace(",", " ").split() for tile in read_group(group)]


def read_group(group: str, typed: str | None = None) -> list[Tile]:
    """One group's tile codes (`123m` or `F1S2`); `UnknownTileError` naming the group as `typed`, the
    text the user typed that reads as `group` but for its letters' case (`F1S2x`, read as `F1s2x`): a
    refusal quotes what is on the user's screen, not the reader's copy of it."""
    shown = typed if typed is not None and len(typed) == len(group) else group
    tiles: list[Tile] = []
    position = 0
    while position < len(group):
        match = _TOKEN.match(group, position)
        if match is None:
            raise UnknownTileError(_unreadable(group, position, shown))
        if match.group("run"):
            tiles.extend(f"{digit}{match.group('suit')}" for digit in match.group("run"))
        else:
            tiles.append(match.group(0))
        position = match.end()
    return tiles


def format_hand(tiles: Iterable[Tile]) -> str:
    """Print tile codes as a compact hand string in the given order; `parse_hand_string` reads it back.

    Neighbouring suited tiles of one suit share a group (`123m`), neighbouring equal honours too (`CCC`).
    """
    groups: list[str] = []
    previous: Tile | None = None
    for tile in tiles:
        check_code(tile)
        if previous is not None and is_suited(tile) and suit_of(previous) == suit_of(tile):
            groups[-1] = groups[-1][:-1] + tile[0] + tile[1]
        elif previous is not None and is_honour(tile) and tile == previous:
            groups[-1] += tile
        else:
            groups.append(tile)
        previous = tile
    return " ".join(groups)


def tiles_from_field(value: object, field: str) -> list[Tile]:
    """A hand field given as a compact string or a list of codes, as a list of checked codes; a code
    that cannot be read is refused naming `field` (an audit: "cannot read '5q'" left a user to search
    the concealed tiles, the melds and the bonus tiles for it)."""
    if isinstance(value, str):
        return _in_field(value, field)
    if isinstance(value, list | tuple):
        tiles: list[Tile] = []
        for item in value:
            if not isinstance(item, str):
                raise HandStringError(f"{field}: tile codes must be text, got {json_value(item)}")
            # A list item may itself be a small group such as "123m".
            tiles.extend([item] if item in ALL_CODES else _in_field(item, field))
        return tiles
    raise HandStringError(f"{field} must be a hand string or a list of tile codes, not {json_kind(value)}")


def _in_field(text: str, field: str) -> list[Tile]:
    """`parse_hand_string(text)`, its refusal naming the hand `field` the text is in."""
    try:
        return parse_hand_string(text)
    except (UnknownTileError, HandStringError) as error:
        raise type(error)(f"{field}: {error}") from None
