"""A hand's JSON fields typed as a player types them in the app (`123M`, 東東東, 🀇🀈🀉, 紅中, `spring`;
winds as `s`, `south` or 南; a rule set in any case), read as the codes the scoring takes: `python -m
scoring` and the app's *Open a case* read a file through `typed_hand`, the command line's flags through
`typed_one`, so the same text works in every place. Text the scoring reads as codes itself is left to it.
Standard library only, as the rest of `scoring`."""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Callable, Collection, Mapping
from typing import Any

from scoring.errors import MalformedHandError, MeldError
from scoring.options import MALAYSIAN_PAYMENTS, PAYOUT_SCHEMES, Options
from scoring.tiles import ALL_CODES, BONUS, FLY, WINDS, format_hand, parse_hand_string
from scoring.typed import read_bonus, read_melds, read_tiles

# the fields of one tile, wind or rule set's name, which a command-line flag gives too
TYPED_ONE = ("rules", "seat_wind", "prevailing_wind", "winning_tile", "discarder_wind")


# the bonus tiles a typed bonus field takes, in the app (`app_ui.typed_tab`) and a file alike: every
# set's, the rule set's own being the scoring's to check ("bonus tile face is not in the Singapore tile set")
TYPED_BONUS = BONUS | {FLY}


def _typed_bonus(text: str) -> list[str]:
    return read_bonus(text, TYPED_BONUS)


def _scoring_reads(text: str) -> bool:
    """Whether the scoring reads `text` as codes itself: such text is left to it, so a file scored
    before is scored alike (the app's reader differs on codes run together, `S43s`: S4 3s or S 43s)."""
    try:
        parse_hand_string(text)
    except MalformedHandError:
        return False
    return True


def typed_codes(value: object, field: str, read: Callable[[str], list[str]]) -> object:
    """A hand field's tiles (text, or a list of it) that the scoring cannot read as codes, read by the
    app's typed field's reader `read` (`123M`, 東東東, 🀇🀈🀉), as codes; a refusal names the `field`,
    as the scoring's own do. Anything else is left as given, for the scoring to read or refuse."""
    try:
        if isinstance(value, str):
            return value if _scoring_reads(value) else read(value)
        if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
            return [tile for item in value for tile in ([item] if _scoring_reads(item) else read(item))]
    except ValueError as error:
        raise MalformedHandError(f"{field}: {error}") from None
    return value


def one_code(text: str, codes: Collection[str] = ALL_CODES) -> str:
    """One tile typed as the app reads it (`3M`, 紅中, `south`) as its code, where it is no code but
    reads as one of `codes`; else `text` as typed, for the scoring to read, or refuse naming it."""
    if text.strip() in ALL_CODES:
        return text
    try:
        tiles = read_tiles(text)
    except ValueError:
        return text
    return tiles[0] if len(tiles) == 1 and tiles[0] in codes else text


def typed_hand(data: dict[str, Any]) -> dict[str, Any]:
    """A hand's fields with its tiles read as the app reads a typed hand (`123M`, 東東東, 🀇🀈🀉, 紅中,
    `spring`), as codes, and its winds and rule set as the flags read them (`south`, `Malaysian`): what
    a player typed in the app, or on the command line, works in a file too. The codes are what is
    scored, so the output and later errors name the canonical codes."""
    data = dict(data)
    for field, read in (
        ("concealed", read_tiles),
        ("bonus", _typed_bonus),
        ("bonus_from_deal", _typed_bonus),
    ):
        if data.get(field) is not None:
            data[field] = typed_codes(data[field], field, read)
    if isinstance(data.get("melds"), str):
        data["melds"] = _melds_typed(data["melds"], "melds")
    elif isinstance(data.get("melds"), list | tuple):
        data["melds"] = [
            typed
            for index, meld in enumerate(data["melds"])
            for typed in (
                _melds_typed(meld, f"melds[{index}]", one=True)
                if isinstance(meld, str)
                else [_typed_meld(meld, index) if isinstance(meld, dict) else meld]
            )
        ]
    if isinstance(data.get("circumstances"), list | tuple):
        data["circumstances"] = [
            typed_circumstance(name) if isinstance(name, str) else name for name in data["circumstances"]
        ]
    elif isinstance(data.get("circumstances"), str):
        data["circumstances"] = typed_circumstances(data["circumstances"])
    if isinstance(data.get("options"), dict):
        data["options"] = typed_options(data["options"])
    # the fields a flag also gives (the winds, the winning tile, the rule set) read as their flags read
    # them: `"seat_wind": "south"` was refused where `--seat south` was taken (an audit)
    for field in TYPED_ONE:
        if isinstance(data.get(field), str):
            data[field] = typed_one(field, data[field])
    return data


# a meld's kind as players write it: the English words, the romanised Chinese and Japanese ones and
# the Chinese characters (stage 89, a user's file: `"kind": "pung"` and `"gong"` were unknown meld kinds)
MELD_KIND_WORDS = {
    "chow": ("chi", "chii", "吃"),
    "pong": ("pung", "peng", "碰"),
    "kong": ("gong", "kang", "quad", "槓", "杠"),
}
_MELD_KINDS = {word: kind for kind, words in MELD_KIND_WORDS.items() for word in (kind, *words)}
MELD_KINDS_SAID = "{}, {} or {}".format(
    *(f"{kind} ({', '.join(words)})" for kind, words in MELD_KIND_WORDS.items())
)


def typed_meld_kind(kind: str, where: str) -> str:
    """A meld's kind as typed (`Pong`, `pung`, `Gong`, full-width letters) as its code, chow, pong or
    kong; `MeldError` naming the meld (`where`) and the words read, for any other word."""
    word = " ".join(unicodedata.normalize("NFKC", kind).lower().split())
    if word not in _MELD_KINDS:
        raise MeldError(f"{where}.kind: unknown meld kind {kind!r}: type {MELD_KINDS_SAID}")
    return _MELD_KINDS[word]


def _melds_typed(text: str, field: str, one: bool = False) -> list[dict[str, Any]]:
    """Melds written as the app's melds field takes them (`"melds": "CCC 456p"`, or a list of melds each
    so, `one`): each its tiles, its kind the scoring's to tell (stage 89: "melds must be a list, not
    text"). A list's item of several melds is refused, so that `melds[1]` still names the second item."""
    try:
        melds = read_melds(text)
    except ValueError as error:
        raise MeldError(f"{field}: {error}") from None
    if one and len(melds) > 1:
        said = " ".join(format_hand(meld) for meld in melds)
        raise MeldError(f"{field}: {text!r} holds {len(melds)} melds ({said}): give each its own item")
    return [{"tiles": tiles} for tiles in melds]


def _typed_meld(meld: dict[str, Any], index: int) -> dict[str, Any]:
    """A meld's tiles read as `typed_hand` reads the concealed ones, and its kind as players write it
    (`Pong`, `pung`, `gong`), as the rule set is (stage 89, a user's file: `"kind": "Pong"` was an
    unknown meld kind)."""
    meld = dict(meld)
    if "tiles" in meld:
        meld["tiles"] = typed_codes(meld["tiles"], f"melds[{index}].tiles", read_tiles)
    if isinstance(meld.get("kind"), str) and not meld["kind"].strip():
        del meld["kind"]  # left blank, as left out: the scoring tells the kind from the tiles
    elif isinstance(meld.get("kind"), str):
        meld["kind"] = typed_meld_kind(meld["kind"], f"melds[{index}]")
    return meld


_OPTION_NAMES = frozenset(field.name for field in dataclasses.fields(Options))
# the options whose values are words, read as their names are (`Shooter Pays`: shooter_pays)
_WORDED_OPTIONS: dict[str, Collection[str]] = {
    "payout_scheme": PAYOUT_SCHEMES,
    "malaysian_payment": MALAYSIAN_PAYMENTS,
}


def _as_code(text: str) -> str:
    """A name typed in words (`Max Tai`, `max-tai`, full-width letters) as its code, `max_tai`."""
    return "_".join(unicodedata.normalize("NFKC", text).replace("-", " ").lower().split())


def typed_options(options: Mapping[Any, Any]) -> dict[Any, Any]:
    """Options as a user types their names (`Max_Tai`, `max tai`) and their worded values (`Shooter
    Pays`), by their codes (stage 89: `--option Max_Tai=5` was an unknown option). A name whose code
    is no option, or is given as well, is left as typed, for the scoring to refuse naming it."""
    typed: dict[Any, Any] = {}
    for name, value in options.items():
        code = _as_code(name) if isinstance(name, str) else name
        if code not in _OPTION_NAMES or code in options or code in typed:
            code = name
        if isinstance(value, str) and _as_code(value) in _WORDED_OPTIONS.get(code, ()):
            value = _as_code(value)  # else left as typed, for the scoring to quote
        typed[code] = value
    return typed


def typed_circumstance(name: str) -> str:
    """A circumstance as a user types its name (`Robbing kong`, `robbing-kong`, full-width letters): its
    code, `robbing_kong` (stage 89: `--circumstance "robbing kong"` was unknown, where the tiles and
    winds are read as typed)."""
    return _as_code(name)


def typed_circumstances(text: str) -> list[str]:
    """Circumstances typed in one text, apart by commas (`robbing kong, last tile`), as their codes: a
    file's `"circumstances": "robbing_kong, last_tile"` was one unknown circumstance (stage 89)."""
    named = unicodedata.normalize("NFKC", text).replace("、", ",").split(",")
    return [typed_circumstance(name) for name in named if name.strip()]


# a rule set as players name it: the country (`Malaysia`), its people's word (`Singaporean`), its code
# (`SG`, `MY`), "rules" after any of them (stage 89: `--rules malaysia` was unknown rules)
_RULES_WORDS = {
    **dict.fromkeys(("singapore", "singaporean", "sg"), "singapore"),
    **dict.fromkeys(("malaysian", "malaysia", "my"), "malaysian"),
}


def typed_rules(value: str) -> str:
    """A rule set's name as typed (`Malaysian`, `malaysia rules`, `ＳＧ`) as its name; else `value` in
    small letters, as typed, for the scoring to refuse naming the rule sets."""
    word = _as_code(value).removesuffix("_rules").removesuffix("_rule").strip(".,;_")
    return _RULES_WORDS.get(word, value.strip().lower())


def typed_one(field: str, value: str) -> str:
    """One of `TYPED_ONE`'s fields as the scoring reads it: a wind as the app reads a tile (`s`, `south`,
    南: S), a rule set in any case (`Malaysian`), a tile typed as in the app (`3M`, 紅中)."""
    if field == "rules":
        return typed_rules(value)
    if field == "winning_tile":
        return one_code(value)
    return one_code(value, WINDS)
