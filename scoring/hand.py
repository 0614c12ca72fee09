"""The hand and its circumstances as typed values, and reading them from the scoring JSON input.

Everything here checks form only (codes, meld shapes, field types): a hand read without an error may still be
an invalid win, which is for the engine to say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import MalformedHandError, MeldError, UnknownTileError, json_kind, json_value
from scoring.tiles import (
    BACK,
    BONUS,
    FLY,
    HAND_TILES,
    WINDS,
    Tile,
    check_code,
    format_hand,
    is_suited,
    rank_of,
    sort_key,
    sorted_tiles,
    suit_of,
    tiles_from_field,
)

MELD_KINDS: tuple[str, ...] = ("chow", "pong", "kong")


def may_hold_winning_tile(kind: str) -> bool:
    """Whether a meld of `kind` can hold the winning tile: a discard that completes a chow or pong is
    laid out with the melds, but no win completes a kong (robbing one takes another player's tile)."""
    return kind != "kong"


def may_win_into(kind: str, concealed: bool, self_drawn: bool) -> bool:
    """Whether the winning tile may lie in a meld of `kind` (`concealed` as declared): not a kong's, and
    on a self-draw not a set laid out exposed, which was claimed from a discard. One rule for the engine's
    check and for the app's winning-tile list, so the list never offers a tile the check refuses."""
    return may_hold_winning_tile(kind) and (concealed or not self_drawn)


CIRCUMSTANCES: tuple[str, ...] = (
    "replacement_tile",
    "kong_replacement",
    "robbing_kong",
    "last_tile",
    "kong_on_kong",
    "heavenly",
    "earthly",
    "humanly",
    "robbing_eighth",
)
# Won on a replacement tile: always drawn by the winner, so the win is scored as a self-draw.
REPLACEMENT_CIRCUMSTANCES: frozenset[str] = frozenset(
    {"replacement_tile", "kong_replacement", "kong_on_kong"}
)
INPUT_FIELDS: frozenset[str] = frozenset(
    {
        "rules",
        "options",
        "concealed",
        "melds",
        "bonus",
        "winning_tile",
        "self_drawn",
        "seat_wind",
        "prevailing_wind",
        "discarder_wind",
        "circumstances",
        "pay_all",
        "bonus_from_deal",
        "winning_tile_into",
    }
)

# the hands won before any tile is claimed (seeds/001)
FIRST_TURN: frozenset[str] = frozenset({"heavenly", "earthly", "humanly"})

# where a winning discard went, when the table says (`Context.winning_tile_into`): into the concealed
# tiles (every laid-down meld was claimed before it), or into an exposed chow or pong laid down with it
WINNING_TILE_PLACES: tuple[str, ...] = ("hand", "meld")


@dataclass(frozen=True)
class Meld:
    """A declared set: `kind` chow|pong|kong, its tiles as laid down (a Malaysian `fly` stays `fly`)."""

    kind: str
    tiles: tuple[Tile, ...]
    concealed: bool = False

    def __post_init__(self) -> None:
        check_meld(self)

    @property
    def real_tiles(self) -> tuple[Tile, ...]:
        return tuple(tile for tile in self.tiles if tile != FLY)

    @property
    def flies(self) -> int:
        return len(self.tiles) - len(self.real_tiles)

    @property
    def face_text(self) -> str:
        """Its tiles as a player writes the set, in order and a fly last (`234p`, `CC fly`): laid down,
        a claimed chow may come as 4p 2p 3p, and "exposed chow (423p)" named no run (stage 89)."""
        return format_hand([*sorted_tiles(self.real_tiles), *(FLY,) * self.flies])

    def __str__(self) -> str:
        hidden = " (concealed)" if self.concealed else ""
        return f"{self.kind} {self.face_text}{hidden}"


@dataclass(frozen=True)
class Hand:
    """The tiles: `concealed` (including the winning tile), declared `melds`, and the `bonus` row."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()

    def __post_init__(self) -> None:
        for tile in self.concealed:
            if tile in BONUS:
                raise MalformedHandError(f"bonus tile {tile} is inside the concealed hand (put it in bonus)")
            if tile == BACK:
                raise MalformedHandError("a face-down tile 'back' can only stand in a concealed kong")
            check_code(tile)
        for tile in self.bonus:
            if tile not in BONUS and tile != FLY:
                # the Hand knows no rule set: name the Malaysian bonus tiles too, or a Malaysian
                # player is told that face and fly do not belong in the bonus row
                raise MalformedHandError(
                    f"{tile} is not a bonus tile (bonus takes flowers, seasons, animals, "
                    "and in a Malaysian set face and fly)"
                )

    @property
    def tile_count(self) -> int:
        """Tiles in the hand proper, a kong counting as 3 (a winning hand has 14)."""
        return len(self.concealed) + 3 * len(self.melds)

    def all_tiles(self) -> list[Tile]:
        """Every physical tile of the hand proper and the bonus row."""
        tiles = list(self.concealed) + list(self.bonus)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles


@dataclass(frozen=True)
class Context:
    """How the hand was won: winning tile, self-draw, winds, circumstances, pay-all."""

    winning_tile: Tile | None = None
    self_drawn: bool = False
    seat_wind: Tile = "E"
    prevailing_wind: Tile = "E"
    circumstances: frozenset[str] = field(default_factory=frozenset)
    pay_all: bool = False
    bonus_from_deal: frozenset[Tile] = field(default_factory=frozenset)
    # the seat of the player who discarded the winning tile (under pay-all: the liable player), so the
    # payout names each player's seat; None: not said
    discarder_wind: Tile | None = None
    # where the winning discard went, as the table agreed: "hand" or "meld" (WINNING_TILE_PLACES);
    # None: not said, and each place the tiles allow is scored, the best counting (a photo cannot tell
    # a chow claimed with the winning tile from one claimed before it)
    winning_tile_into: str | None = None

    def __post_init__(self) -> None:
        for name in ("self_drawn", "pay_all"):
            if not isinstance(getattr(self, name), bool):
                raise MalformedHandError(
                    f"{name} must be true or false, got {json_value(getattr(self, name))}"
                )
        for name in ("circumstances", "bonus_from_deal"):
            given = getattr(self, name)
            items = list(given) if isinstance(given, Iterable) and not isinstance(given, str) else None
            if items is None or not all(isinstance(item, str) for item in items):
                raise MalformedHandError(f"{name} must be a set of names, got {json_value(given)}")
            # a list or tuple given in code means the same set (the engine compares them as sets)
            object.__setattr__(self, name, frozenset(items))
        check_bonus_codes(sorted(self.bonus_from_deal))
        winds = [("seat_wind", self.seat_wind), ("prevailing_wind", self.prevailing_wind)]
        if self.discarder_wind is not None:
            winds.append(("discarder_wind", self.discarder_wind))
        for name, wind in winds:
            if wind not in WINDS:
                raise MalformedHandError(f"{name} must be one of E, S, W, N, got {json_value(wind)}")
        unknown = sorted(set(self.circumstances) - set(CIRCUMSTANCES))
        if unknown:
            raise MalformedHandError(
                f"unknown circumstance {unknown[0]!r} (known: {', '.join(CIRCUMSTANCES)})"
            )
        if self.winning_tile is not None:
            try:
                check_code(self.winning_tile)
            except UnknownTileError as error:  # named as the hand's tile fields are (`tiles_from_field`)
                raise UnknownTileError(f"winning_tile: {error}") from None
            if self.winning_tile not in HAND_TILES:
                raise MalformedHandError(f"winning tile {self.winning_tile} is not a hand tile")
        if self.winning_tile_into is not None and self.winning_tile_into not in WINNING_TILE_PLACES:
            raise MalformedHandError(
                f"winning_tile_into must be {' or '.join(WINNING_TILE_PLACES)}, "
                f"got {json_value(self.winning_tile_into)}"
            )


def places_won_into(
    hand: Hand, winning_tile: Tile | None, self_drawn: bool, into: str | None = None
) -> tuple[Meld | None, ...]:
    """Where the winning tile may have gone: None for the concealed tiles, or a chow or pong laid down
    with the tile a winning discard completed (its other tiles were waiting). A self-drawn tile is never
    melded (a chow, pong or kong is claimed from a discard), and no win completes a kong. The concealed
    tiles come first; the engine scores every place and keeps the best, as it does decompositions.
    `into` (`Context.winning_tile_into`) keeps the places the table agreed on: "hand", the concealed
    tiles and sets given as concealed; "meld", the exposed chows and pongs (with no winning tile given,
    any one of them)."""
    if self_drawn:
        return (None,)
    if winning_tile is None:
        # any exposed chow or pong may be the one the discard completed, where the table says one was
        return (winning_tile_holders(hand, None, concealed=False) or (None,)) if into == "meld" else (None,)
    in_hand, in_exposed = winning_tile_homes(hand, winning_tile)
    if into == "hand":
        return in_hand or (None,)
    if into == "meld":
        return in_exposed or (None,)
    # both kinds, the concealed tiles first and the melds in the order given: a tie keeps the first
    melds = tuple(meld for meld in hand.melds if meld in in_hand or meld in in_exposed)
    return ((None,) if None in in_hand else ()) + melds or (None,)


def winning_tile_homes(hand: Hand, winning_tile: Tile) -> tuple[tuple[Meld | None, ...], tuple[Meld, ...]]:
    """Where a winning discard of `winning_tile` may have gone: into the hand (None for the concealed
    tiles, and the chows and pongs given as concealed) and into the exposed chows and pongs. One answer
    for the engine's places and checks and for the page's question (`places_won_into`)."""
    in_concealed: tuple[Meld | None, ...] = (None,) if winning_tile in hand.concealed else ()
    return in_concealed + winning_tile_holders(hand, winning_tile, concealed=True), winning_tile_holders(
        hand, winning_tile, concealed=False
    )


def in_tile_order(melds: Iterable[Meld]) -> list[Meld]:
    """`melds` in the order of their tiles, whatever order they were given in: where one of several is
    named or taken first, the order a user or a photo listed them in decides nothing (stage 89: a
    first-turn hand with two exposed chows named one or the other as claimed)."""
    return sorted(
        melds, key=lambda meld: ([sort_key(tile) for tile in meld.real_tiles], meld.flies, meld.kind)
    )


def winning_tile_holders(hand: Hand, winning_tile: Tile | None, concealed: bool) -> tuple[Meld, ...]:
    """The chows and pongs given as concealed (or laid down exposed) that may hold the winning tile:
    any of them where no winning tile is given, in tile order. One answer for the places, the first-turn
    hands' claimed melds and the engine's check of a place said."""
    return tuple(
        meld
        for meld in in_tile_order(hand.melds)
        if may_hold_winning_tile(meld.kind)
        and meld.concealed == concealed
        and (winning_tile is None or winning_tile in meld.tiles)
    )


def exposed_before_win(
    hand: Hand, winning_tile: Tile | None, self_drawn: bool, into: str | None = None
) -> list[Meld]:
    """The chows, pongs and exposed kongs claimed before the winning tile came. On a discard win the set
    the discard completed may lie with them: the one holding the winning tile, or with no winning tile
    given any one chow or pong; it is not counted. A meld given as `concealed` was claimed from no one
    (an audit, stage 77: a concealed pong counted as concealed for fully concealed, as exposed for a
    heavenly hand). `into` "hand": every one was claimed before it."""
    exposed = [meld for meld in in_tile_order(hand.melds) if not meld.concealed]
    if self_drawn or into == "hand":
        return exposed
    # an exposed set only: a concealed one listed first had left the exposed chow that took the discard
    # counted as claimed before the win, so the melds' order decided a first-turn hand (an audit, stage 78)
    won_into = next(iter(winning_tile_holders(hand, winning_tile, concealed=False)), None)
    return [meld for meld in exposed if meld is not won_into]


def winnable_in(
    concealed: Iterable[Tile], melds: Iterable[tuple[str, bool, Iterable[Tile]]], self_drawn: bool
) -> list[Tile]:
    """The tiles the winning tile may be, repeats kept: the `concealed` ones, and those of each meld
    (kind, concealed as declared, tiles) it may have completed (`may_win_into`: never a kong's, nor on a
    self-draw an exposed set's). One rule for the engine's `winnable_tiles` and for the winning-tile
    box's `scoring.winning_tiles.hand_tile_choices` (the JSON form, maybe half typed), so that the box
    never offers a tile the check refuses."""
    laid = (tile for kind, hidden, tiles in melds if may_win_into(kind, hidden, self_drawn) for tile in tiles)
    return [*concealed, *laid]


def winnable_tiles(hand: Hand, self_drawn: bool) -> frozenset[Tile]:
    """`winnable_in` of a typed hand. One answer for the engine's check of a winning tile given and of
    a robbed kong's tile where none is."""
    melds = ((meld.kind, meld.concealed, meld.tiles) for meld in hand.melds)
    return frozenset(winnable_in(hand.concealed, melds, self_drawn))


def check_meld(meld: Meld) -> None:
    """Raise `MeldError` unless the tiles can form the meld's kind (a `fly` is wild, never in a kong)."""
    label = f"{meld.kind} {' '.join(meld.tiles)}"
    if meld.kind not in MELD_KINDS:
        raise MeldError(f"unknown meld kind {meld.kind!r} (expected chow, pong or kong)")
    size = 4 if meld.kind == "kong" else 3
    if len(meld.tiles) != size:
        raise MeldError(f"a {meld.kind} has {size} tiles, got {len(meld.tiles)}: {label}")
    for tile in meld.tiles:
        check_code(tile)
        if tile not in HAND_TILES:
            raise MeldError(f"{tile} cannot be part of a meld: {label}")
    real = meld.real_tiles
    if not real:
        raise MeldError(f"a meld needs at least one real tile, not only fly: {label}")
    if meld.kind == "kong":
        if meld.flies:
            raise MeldError(f"fly cannot stand in a kong: {label}")
        if len(set(real)) != 1:
            raise MeldError(f"a kong is four equal tiles: {label}")
    elif meld.kind == "pong":
        if len(set(real)) != 1:
            raise MeldError(f"a pong is three equal tiles: {label}")
    else:
        if not meld.concealed and meld.flies > 1:
            raise MeldError(f"an exposed chow may hold at most one fly: {label}")
        suits = {suit_of(tile) for tile in real}
        ranks = sorted(rank_of(tile) for tile in real)
        if not all(is_suited(tile) for tile in real) or len(suits) != 1:
            raise MeldError(f"a chow is three suited tiles of one suit in a row: {label}")
        if len(set(ranks)) != len(ranks) or ranks[-1] - ranks[0] > 2:
            raise MeldError(f"a chow is three consecutive tiles of one suit: {label}")


def _resolve_backs(kind: str, tiles: list[Tile], where: str) -> list[Tile]:
    """Face-down `back` tiles of a concealed kong take the face of the kong's visible tiles."""
    if BACK not in tiles:
        return tiles
    faces = {tile for tile in tiles if tile != BACK}
    if kind != "kong":
        raise MeldError(f"{where}: a face-down tile 'back' can only stand in a kong")
    if len(faces) > 1:
        raise MeldError(f"{where}: a kong is four of one tile, but its faces show {', '.join(sorted(faces))}")
    if not faces:
        raise MeldError(f"{where}: cannot tell which tile a face-down kong is (show one face)")
    face = faces.pop()
    return [face] * len(tiles)


def _field(data: Mapping[str, Any], name: str, default: Any) -> Any:
    """A field's value; missing or null means the default (an empty list or object is kept as given)."""
    value = data.get(name)
    return default if value is None else value


def _bool(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise MalformedHandError(f"{name} must be true or false, got {json_value(value)}")
    return value


def _optional_code(data: Mapping[str, Any], name: str, default: Tile | None) -> Tile | None:
    value = data.get(name, default)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        # a wind's field says which codes it takes, as it does for a code that is no wind
        what = "one of E, S, W, N" if name.endswith("_wind") else "a tile code"
        raise MalformedHandError(f"{name} must be {what}, got {json_value(value)}")
    return value.strip()


def _optional_place(data: Mapping[str, Any]) -> Any:
    """`winning_tile_into` as given, spaces at the ends and letter case aside (`Hand`, as the rule set
    and the winds are read; stage 89): none for null or "" (`Context` checks the rest)."""
    value = data.get("winning_tile_into")
    if isinstance(value, str):
        value = value.strip().lower()
    return None if value in (None, "") else value


# a winning hand's four sets: no more melds are laid down (the app's table, the typed fields)
MAX_MELDS = 4


def meld_kind(codes: Sequence[str]) -> tuple[str | None, str]:
    """The kind (kong, pong or chow) the engine takes an exposed meld of `codes` for, or None and the
    engine's reason why it is none. The engine's own check (`check_meld`) decides, so the app's table
    and typed fields never calls a meld what the scoring then refuses (`5p fly fly` is a pong: an exposed chow
    holds at most one fly)."""
    kinds: tuple[str, ...] = ("kong",) if len(codes) == 4 else ("pong", "chow") if len(codes) == 3 else ()
    reasons: dict[str, str] = {}
    for kind in kinds:
        try:
            Meld(kind, tuple(codes))
        except MeldError as error:
            reasons[kind] = str(error).removesuffix(f": {kind} {' '.join(codes)}")
            continue
        return kind, ""
    if not reasons:
        return None, f"a meld has 3 or 4 tiles, not {len(codes)}"
    real = set(codes) - {"fly"}
    # the reason of the kind the tiles come nearest: a chow's for unequal suited tiles, else the first's
    nearest = "chow" if "chow" in reasons and len(real) > 1 and all(map(is_suited, real)) else kinds[0]
    return None, reasons[nearest]


def infer_meld_kind(tiles: list[Tile], where: str) -> str:
    """The kind of a meld given without one (a photo shows the tiles, not the word): kong, pong or chow."""
    faces = {tile for tile in tiles if tile not in (BACK, FLY)}
    if len(tiles) == 4:
        return "kong"
    if len(tiles) == 3 and len(faces) <= 1:
        return "pong"
    if len(tiles) == 3:
        return "chow"
    count = f"{len(tiles)} tile{'' if len(tiles) == 1 else 's'}"
    raise MeldError(f"{where}: cannot tell the kind of a meld of {count} ({' '.join(tiles)})")


def meld_from_json(item: object, index: int) -> Meld:
    where = f"melds[{index}]"
    if not isinstance(item, Mapping):
        raise MeldError(f"{where} must be an object with kind and tiles, got {json_value(item)}")
    if "tiles" not in item:
        raise MeldError(f"{where} has no tiles")
    tiles = tiles_from_field(item["tiles"], f"{where}.tiles")
    kind = item.get("kind")
    if kind is None:
        kind = infer_meld_kind(tiles, where)
    if not isinstance(kind, str):
        raise MeldError(f"{where}.kind must be chow, pong or kong, got {json_value(kind)}")
    # Face-down tiles stand only in a concealed kong, so they say it is one when the flag is left out.
    concealed = item.get("concealed", BACK in tiles)
    tiles = _resolve_backs(kind, tiles, where)
    if not isinstance(concealed, bool):
        raise MeldError(f"{where}.concealed must be true or false, got {json_value(concealed)}")
    try:
        return Meld(kind=kind, tiles=tuple(tiles), concealed=concealed)
    except MeldError as error:
        # named by its place, as a tile that cannot be read is (`melds[1].tiles: ...`): a hand of several
        # pongs was told "a pong is three equal tiles: pong 1s 2s 4s" with no word on which (stage 89)
        raise MeldError(error.reason, where) from None


def check_bonus_codes(from_deal: Iterable[Tile]) -> None:
    """Raise `MalformedHandError` for a tile said held from the deal that is no bonus tile."""
    # a fly kept in the bonus row is a bonus tile too (Malaysian)
    not_bonus = next((tile for tile in from_deal if tile not in BONUS and tile != FLY), None)
    if not_bonus is not None:
        raise MalformedHandError(
            f"bonus_from_deal lists {not_bonus}, which is not a bonus tile "
            "(flowers, seasons, animals, face, fly)"
        )


def check_held_from_deal(from_deal: Iterable[Tile], bonus: Sequence[Tile]) -> None:
    """Raise `MalformedHandError` for a tile said held from the deal that is not in the bonus row."""
    not_held = next((tile for tile in from_deal if tile not in bonus), None)
    if not_held is not None:
        raise MalformedHandError(
            f"bonus_from_deal lists {not_held}, which is not in the bonus row: a tile held from the deal "
            "is one of the hand's bonus tiles"
        )


def hand_from_json(data: Mapping[str, Any]) -> tuple[Hand, Context]:
    """Read the hand and context of the scoring JSON input; `MalformedHandError` if it cannot be a hand."""
    # a photo's reading whose hand is not there; an object there (a hand nested in a hand) has no tiles
    # to read, and is told so below, not "not an object" (an audit)
    if "concealed" not in data and "hand" in data and not isinstance(data["hand"], Mapping):
        raise MalformedHandError(
            "hand must be an object holding the tiles (as python -m vision --json writes it), not "
            + json_kind(data["hand"])
        )
    if "concealed" not in data:
        raise MalformedHandError("the hand has no 'concealed' field (e.g. \"123m 456p 789s CCC 55p\")")
    concealed = tiles_from_field(data["concealed"], "concealed")
    melds_data = _field(data, "melds", [])
    if not isinstance(melds_data, list | tuple):
        raise MalformedHandError(f"melds must be a list, not {json_kind(melds_data)}")
    melds = tuple(meld_from_json(item, index) for index, item in enumerate(melds_data))
    bonus = tiles_from_field(_field(data, "bonus", []), "bonus")
    from_deal = tiles_from_field(_field(data, "bonus_from_deal", []), "bonus_from_deal")
    check_bonus_codes(from_deal)
    check_held_from_deal(from_deal, bonus)
    circumstances = _field(data, "circumstances", [])
    if isinstance(circumstances, str):
        circumstances = [circumstances]
    if not isinstance(circumstances, list | tuple) or not all(isinstance(c, str) for c in circumstances):
        raise MalformedHandError(f"circumstances must be a list of names, got {json_value(circumstances)}")
    hand = Hand(concealed=tuple(concealed), melds=melds, bonus=tuple(bonus))
    context = Context(
        winning_tile=_optional_code(data, "winning_tile", None),
        self_drawn=_bool(data, "self_drawn"),
        seat_wind=_optional_code(data, "seat_wind", "E") or "E",
        prevailing_wind=_optional_code(data, "prevailing_wind", "E") or "E",
        circumstances=frozenset(circumstances),
        pay_all=_bool(data, "pay_all"),
        bonus_from_deal=frozenset(from_deal),
        discarder_wind=_optional_code(data, "discarder_wind", None),
        winning_tile_into=_optional_place(data),
    )
    return hand, context
