"""A hand typed as compact strings (`123m 456p 789s 22m`, melds `CCC 456p`, concealed kongs `5555s`),
read as a user at a table types it: any letter case, commas or spaces, and a word on what is wrong."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from scoring.hand import MAX_MELDS, meld_kind
from scoring.tiles import BONUS, read_group

# honour letters alone (E S W N winds, C F P dragons): "ccc" can only mean CCC, since a suit needs digits
_HONOURS_ONLY = re.compile(r"[eswncfp]+")
_BONUS_NUMBERED = re.compile(r"[fs][1-4]")
_SUIT_AFTER_DIGITS = re.compile(r"(?<=\d)[MPS]")
# the codes spelt as words, typed in any case (`Cat`, `FACE`)
_WORDS = re.compile(r"(?:cat|rat|rooster|centipede|face|fly|back)+", re.IGNORECASE)


# Tiles typed as what they show: the honours' characters (traditional and simplified) and Unicode's
# mahjong tiles (U+1F000-1F02B, as an emoji keyboard types them; a bonus tile spaced apart, so that
# 🀅🀢 reads F F1, not FF1). The joker has no code: a `fly` is typed as fly.
_HONOURS_SHOWN = {
    **dict.fromkeys("東东", "E"), "南": "S", "西": "W", "北": "N",
    "中": "C", **dict.fromkeys("發发", "F"), "白": "P",
    **{chr(0x1F000 + k): code for k, code in enumerate("ESWNCFP")},
}  # fmt: skip
_SHOWN = str.maketrans(
    {
        **_HONOURS_SHOWN,
        **{chr(0x1F007 + 9 * s + n): f"{n + 1}{suit}" for s, suit in enumerate("msp") for n in range(9)},
        **{chr(0x1F022 + k): f" {code} " for k, code in enumerate(("F1", "F2", "F4", "F3"))},
        **{chr(0x1F026 + k): f" S{k + 1} " for k in range(4)},
        chr(0x1F02B): "back",
        # the Malaysian joker's character, as the tile key shows it (an audit, stage 78: it was refused)
        **dict.fromkeys("飛飞", "fly"),
        "\ufe0e": "", "\ufe0f": "",  # text or emoji presentation of a tile: the same tile
    }
)  # fmt: skip
# Tiles typed by their Chinese names, as players at a Singapore table call them, in traditional or
# simplified characters: a suit after its numbers (一萬, 1萬, 两万, 一二三萬 as 123m; 筒 or 餅 dots,
# 索 or 條 bamboo, 竹 too after a number), the honours' two-character names (紅中, 發財, 青發, 白板,
# 東風), the bird 幺雞 (1s) and the bonus tiles' names (梅 or 梅花 ... 竹, 春 夏 秋 冬, 貓 鼠 雞 蜈蚣), each
# bonus tile standing apart as the emoji ones do.
_NUMERALS = "一二三四五六七八九"
_CHINESE_NUMBERS = str.maketrans(
    {**{numeral: str(n + 1) for n, numeral in enumerate(_NUMERALS)}, "两": "2", "兩": "2"}
)
_CHINESE_SUITS = {
    **dict.fromkeys("萬万", "m"),
    **dict.fromkeys("筒餅饼", "p"),
    **dict.fromkeys("索條条竹", "s"),
}
_NUMBER_CHARACTERS = _NUMERALS + "两兩"  # 两 and 兩 say 2 as well as 二
_CHINESE_NUMBER = re.compile(f"[{_NUMBER_CHARACTERS}]")
# A run of numbers and its suit; 子 after it, as in 萬子 (the characters suit), says nothing more. An
# Arabic number that ends a flower's or season's code is not the run's (F1竹 is F1 and the bamboo
# flower), but one after a suit letter is (5s6竹: 6s after 5s); a Chinese number always is (S一萬).
_ARABIC_RUN = r"(?:(?<![FSfs\d])|(?<=\d[sS]))(?=[1-9])"
_CHINESE_SUITED = re.compile(
    f"(?:{_ARABIC_RUN}|(?=[{_NUMBER_CHARACTERS}]))([{_NUMBER_CHARACTERS}1-9]+)([{''.join(_CHINESE_SUITS)}])子?"
)
_CHINESE_WORD_READ = {
    **dict.fromkeys(("紅中", "红中"), "中"),
    **dict.fromkeys(("發財", "发财", "青發", "青发", "綠發", "绿发"), "發"),
    "白板": "白",
    **{
        f"{bird}{hen}": " 1s " for bird in "幺么" for hen in "雞鸡鷄"
    },  # the bird of 1s, apart: 5幺雞 is no 51s
    "老鼠": " rat ",
    **{f"{who}{hen}": " rooster " for hen in "雞鸡鷄" for who in ("公", "")},
    **{f"{hen}公": " rooster " for hen in "雞鸡鷄"},  # Cantonese
    **dict.fromkeys(("蜈蚣", "百足"), " centipede "),
}
_CHINESE_WORD_READ |= {f"{plant}花": plant for plant in "梅蘭兰菊竹"}  # 梅花: the plum, F1
_CHINESE_WORDS = re.compile(
    "([東东南西北])[風风]|" + "|".join(sorted(_CHINESE_WORD_READ, key=len, reverse=True))
)
_CHINESE_BONUS = {
    **{name: f" F{n + 1} " for n, name in enumerate("梅蘭菊竹")}, "兰": " F2 ",
    **{name: f" S{n + 1} " for n, name in enumerate("春夏秋冬")},
    **dict.fromkeys("貓猫", " cat "), "鼠": " rat ",
}  # fmt: skip

# each code's Chinese names as a list to pick from shows them: typing any of them into its search
# finds the tile (the names the typed fields read, traditional and simplified)
_CHINESE_OF_CODE = {
    **{f"{n + 1}{suit}": " ".join(numeral + name for name in names)
       for suit, names in zip("mps", ("萬万", "筒餅饼", "索條条"), strict=True)
       for n, numeral in enumerate(_NUMERALS)},
    "E": "東 东", "S": "南", "W": "西", "N": "北", "C": "中 紅中 红中", "F": "發 发 發財 青發",
    "P": "白 白板",
    **{f"F{n + 1}": f"{plant} {plant}花" for n, plant in enumerate("梅蘭菊竹")},
    "S1": "春", "S2": "夏", "S3": "秋", "S4": "冬",
    "cat": "貓 猫", "rat": "鼠 老鼠", "rooster": "雞 鸡 鷄", "centipede": "蜈蚣", "fly": "飛 飞",
}  # fmt: skip
_CHINESE_OF_CODE["F2"] += " 兰 兰花"
_CHINESE_OF_CODE["1s"] += " 幺雞 幺鸡"


def chinese_name(code: str) -> str:
    """A tile code with its Chinese names where it has them (`5p 五筒 五饼`, `E 東 东`, `F1 梅`), as a
    list to pick from shows it: typing 五筒, 五饼 or 东 into the list's search finds the tile."""
    names = _CHINESE_OF_CODE.get(code)
    return f"{code} {names}" if names else code


def _suited_codes(match: re.Match[str], group: str) -> str:
    """A run of numbers and its suit as codes (`一二三萬` -> `123m`), set apart from a code typed against
    it: S1五筒 is S1 and 5p, not S15p (1p 5p)."""
    codes = match.group(1).translate(_CHINESE_NUMBERS) + _CHINESE_SUITS[match.group(2)]
    before = group[match.start() - 1] if match.start() > 0 else ""
    after = group[match.end()] if match.end() < len(group) else ""
    apart = [(c.isascii() and c.isalnum()) for c in (before, after)]
    return (" " if apart[0] else "") + codes + (" " if apart[1] else "")


def _chinese_read(group: str) -> str:
    """A typed group with its Chinese tile names as codes (`一二三萬` -> `123m`, `紅中` -> `中`, read
    on as the honour's character); a number alone before no suit stays as typed, to be refused."""
    suited = _CHINESE_SUITED.sub(lambda match: _suited_codes(match, group), group)
    worded = _CHINESE_WORDS.sub(lambda match: match.group(1) or _CHINESE_WORD_READ[match.group(0)], suited)
    return "".join(_CHINESE_BONUS.get(character, character) for character in worded)


# an honour's character or tile against a digit stands apart: 99南 is no bamboo pair (S read as the
# suit letter) and 發1 no flower; 99 alone is then refused
_HONOUR = "[" + "".join(_HONOURS_SHOWN) + "]"
_HONOUR_BESIDE_DIGIT = re.compile(rf"(?<=\d)(?={_HONOUR})|(?<={_HONOUR})(?=\d)")
_JOKER = chr(0x1F02A)
# the honours by name, a word a tile: `east`, `Red`
_NAMES = {
    "east": "E", "south": "S", "west": "W", "north": "N", "red": "C", "green": "F", "white": "P",
    # the flowers and seasons by RULES.md's names; not "bamboo", which also names a suit
    "plum": "F1", "orchid": "F2", "chrysanthemum": "F3",
    "spring": "S1", "summer": "S2", "autumn": "S3", "winter": "S4",
}  # fmt: skip


# said beside the typed fields, under the codes
TYPED_ALSO = (
    "Also read: the honours' characters 東 南 西 北 中 發 白, their names (east … north, red, green, "
    "white; a meld of them a word a tile: east east east), the flowers' and seasons' (plum … winter) and "
    "the mahjong tiles of an emoji keyboard (🀇 🀙 🀐 🀀 🀄 🀢 🀦 🀫); 飛 is a fly. And the tiles' Chinese "
    "names: 一萬 (or 1萬; 一二三萬 is 123m), 五筒 or 五餅, 三索 or 三條, 紅中 發財 白板, 東風; 梅 蘭 菊 竹, "
    "春 夏 秋 冬, 貓 鼠 雞 蜈蚣."
)


# what stands between words as a space does: commas, the ideographic comma, semicolons and strokes
# (`123m;456p`, `F1/S2`: stage 89, they were refused), and the characters that show nothing, pasted
# from a chat (zero-width spaces and joiners, a byte-order mark: '\u200b' was refused)
_APART = str.maketrans(dict.fromkeys(",、;/|\u200b\u200c\u2060\ufeff", " "))
# the word after an honour's name that says what it is (`red dragon`, `East Wind`): it adds no tile
_HONOUR_KINDS = {
    **dict.fromkeys(("dragon", "dragons"), ("red", "green", "white")),
    **dict.fromkeys(("wind", "winds"), ("east", "south", "west", "north")),
}


def _typed_words(text: str) -> list[tuple[str, list[str]]]:
    """Each word as typed beside the groups read from it (the characters and emoji tiles as their
    codes; a bonus tile stands apart: 🀅🀢 typed gives F and F1)."""
    if _JOKER in text:  # said before any other word on the text: it is the one thing to change
        raise ValueError(f"cannot read {_JOKER} (the joker): a Malaysian wild tile is typed fly")
    # NFKC: a phone's full-width keyboard types １２３ｍ and the ideographic comma and space
    words = unicodedata.normalize("NFKC", text).translate(_APART).split()
    typed = [
        word
        for before, word in zip(["", *words], words, strict=False)
        if before.lower() not in _HONOUR_KINDS.get(word.lower(), ())
    ]
    return [
        (as_typed, _HONOUR_BESIDE_DIGIT.sub(" ", _chinese_read(as_typed)).translate(_SHOWN).split())
        for as_typed in typed
    ]


def _typed_groups(text: str) -> list[tuple[str, str]]:
    """Each group as read beside the word typed that it comes from (🀅🀢 gives F and F1, each from 🀅🀢)."""
    return [(group, as_typed) for as_typed, groups in _typed_words(text) for group in groups]


def _named(group: str, typed: str) -> str:
    """A group named in a message as the user typed it, and as read where that differs (東東: EE): the
    codes alone would name text that is nowhere on the page."""
    return repr(typed) if typed == group else f"{typed!r} (read as {group!r})"


def canonical_case(group: str) -> str:
    """One typed group in the codes' own case: `123M` -> `123m`, `ccc` -> `CCC`, `f1` -> `F1`, `Cat`
    -> `cat`, an honour's name `East` -> `E`; anything unreadable is left as typed."""
    if group.lower() in _NAMES:
        return _NAMES[group.lower()]
    if _HONOURS_ONLY.fullmatch(group) or _BONUS_NUMBERED.fullmatch(group):
        return group.upper()
    if _WORDS.fullmatch(group):
        return group.lower()
    return _SUIT_AFTER_DIGITS.sub(lambda match: match.group(0).lower(), group)


def read_tiles(text: str) -> list[str]:
    """Tile codes of a typed string; ValueError (scoring's message) for what cannot be read."""
    return [tile for group, typed in _typed_groups(text) for tile in _group_tiles(group, typed)]


def _group_tiles(group: str, typed: str) -> list[str]:
    """One group's tile codes, read (`group`) from what the user typed (`typed`); a refusal quotes what
    was typed (an audit, stage 80: `九九南` was refused as '九九S', text nowhere on the page)."""
    if group.lower() == "bamboo":
        raise ValueError(
            f"{typed!r} names the bamboo flower and the bamboo suit: type F4 (or 竹), or a suit tile, e.g. 5s"
        )
    if _CHINESE_NUMBER.search(group):
        raise ValueError(f"cannot read {typed!r}: a number needs its suit after it, e.g. 三萬, 三筒 or 三索")
    try:
        # quoted as typed: `F1S2x` was refused as 'F1s2x', the reader's copy in the codes' case
        return read_group(canonical_case(group), group)
    except ValueError:
        if group in typed:
            raise  # typed as codes: scoring's own message names it as typed
        raise ValueError(
            f"cannot read {typed!r}: type each tile by its code (5p, C), its Chinese name (五筒, 紅中) "
            "or its emoji tile"
        ) from None


def meld_splits(tiles: Sequence[str]) -> list[list[list[str]]]:
    """Every way to cut `tiles`, in the order typed, into melds of 3 or 4 tiles that are each a chow,
    pong or kong (`hand_build.meld_kind`, the engine's own check)."""
    if not tiles:
        return [[]]
    splits = []
    for size in (3, 4):
        head = list(tiles[:size])
        if len(head) == size and meld_kind(head)[0] is not None:
            splits += [[head, *rest] for rest in meld_splits(tiles[size:])]
    return splits


def _apart(group: str, typed: str, tiles: list[str]) -> list[list[str]]:
    """A group of more tiles than a meld holds (`123m555p`, `🀇🀈🀉🀙🀚🀛` from an emoji keyboard) read
    as the melds it can only be; ValueError, naming the readings, where it is none or several."""
    if "back" in tiles:  # face-down tiles lie only in a concealed kong, which has its own field
        return [tiles]
    said = f"meld {_named(group, typed)} has {len(tiles)} tiles"
    if len(tiles) > 4 * MAX_MELDS:  # also keeps the cuts tried few (they grow as 2 ** (tiles / 3))
        raise ValueError(f"{said}: a hand holds at most {MAX_MELDS} melds; type a space between melds")
    splits = meld_splits(tiles)
    if len(splits) == 1:
        return splits[0]
    if not splits:
        raise ValueError(f"{said} and is no row of chows, pongs and kongs: type a space between melds")
    readings = " or ".join(" ".join("".join(meld) for meld in split) for split in splits[:2])
    raise ValueError(f"{said}: it reads as {readings}; type a space between melds")


def read_melds(text: str) -> list[list[str]]:
    """One meld per group; a group of more than four is cut into the melds it holds where only one cut
    makes every piece a meld. Groups of one or two tiles side by side are a meld typed apart, a tile a
    word (`east east east`, `C C C`, `CC fly`): together they are read as the melds they can only be,
    and refused, with a word on typing melds together, where they are none or several."""
    melds: list[list[str]] = []
    typed_groups = _typed_groups(text)
    # the groups of one or two tiles since the last whole meld: (index, its tiles)
    short: list[tuple[int, list[str]]] = []
    for index, (group, typed) in enumerate(typed_groups):
        tiles = _group_tiles(group, typed)
        _refuse_bonus("meld", typed, tiles)  # said first: 雞雞 is two roosters, not a meld's "1 tile"
        if len(tiles) < 3:
            short.append((index, tiles))
            continue
        melds += _typed_apart(typed_groups, short)
        short = []
        melds += _apart(group, typed, tiles) if len(tiles) > 4 else [tiles]
    return melds + _typed_apart(typed_groups, short)


def _refuse_bonus(kind: str, typed: str, tiles: Sequence[str]) -> None:
    """ValueError where a meld or concealed kong (`kind`) is typed with a bonus tile in it (an audit,
    stage 80: 雞雞雞 was "meld '雞雞雞 雞雞雞 雞雞雞' is no meld")."""
    bonus = next((tile for tile in tiles if tile in BONUS), None)
    if bonus is None:
        return
    bird = " (the bird of 1s is 一索 or 幺雞)" if bonus == "rooster" and bonus not in typed.lower() else ""
    raise ValueError(f"{kind} {typed!r}: {bonus} is a bonus tile; type it under Bonus tiles{bird}")


def _typed_apart(
    typed_groups: Sequence[tuple[str, str]], short: Sequence[tuple[int, list[str]]]
) -> list[list[str]]:
    """The melds that groups of one or two tiles typed side by side (`short`: each group's index and
    tiles) make together (an audit, stage 72: the honours' names, which the page says are read, could
    make no meld, as each is a word of its own); ValueError naming the first where they make none, or
    several."""
    if not short:
        return []
    tiles = [tile for _, group_tiles in short for tile in group_tiles]
    splits = meld_splits(tiles) if len(tiles) <= 4 * MAX_MELDS else []
    if len(splits) == 1:
        return splits[0]
    (first_index, first), last_index = short[0], short[-1][0]
    if not splits and _holds_no_meld(tiles) and all(len(group_tiles) == 1 for _, group_tiles in short):
        # three or four tiles typed a word each that hold no meld: why they are none, not how to type them
        # (an audit: `fly fly fly` was told "meld 'fly' has 1 tile", though typed together it is no meld
        # either; stage 77: `fly fly fly fly` too)
        typed_words = " ".join(typed_groups[k][1] for k, _ in short)
        raise ValueError(f"meld '{typed_words}' is no meld: {meld_kind(tiles)[1]}")
    group, typed = typed_groups[first_index]
    # a fly typed apart from its meld (`CC fly`) is in this group or the next to it
    groups = [g for g, _ in typed_groups]
    beside = " ".join(groups[max(first_index - 1, 0) : last_index + 2]).lower()
    raise ValueError(
        f"meld {_named(group, typed)} has {len(first)} tile{'s' if len(first) != 1 else ''}: "
        "type each meld's tiles together, e.g. CCC or 456p"
        + (", a fly among them: CCfly" if "fly" in beside else "")
    )


def _holds_no_meld(tiles: Sequence[str]) -> bool:
    """Whether three or four tiles typed apart, no meld as they are, hold no meld beside a stray tile
    either: `1m 2m 3m 4m` or `C F C C` may be a meld typed apart with a tile too many, and is better
    told to type melds together."""
    if len(tiles) not in (3, 4):
        return False
    return all(meld_kind(list(three))[0] is None for three in itertools.combinations(tiles, 3))


class _Word(NamedTuple):
    """A word typed in the concealed kongs' field: as typed, the groups read from it, their tiles."""

    typed: str
    groups: list[str]
    tiles: list[str]


def read_concealed_kongs(text: str) -> list[list[str]]:
    """One concealed kong per group: four of one tile, typed as such or as it lies with face-down tiles
    (`back5s5sback`, the backs taking the face shown); or typed a tile a word (`5p 5p 5p 5p`, `五筒 五筒
    五筒 五筒`), the words read together four at a time, as the melds' field reads a meld typed apart."""
    kongs = []
    apart: list[_Word] = []  # the words of a kong typed apart so far
    for typed, groups in _typed_words(text):
        if not groups:  # a word that reads as nothing (a lone emoji presentation mark)
            continue
        word = _Word(typed, groups, [tile for group in groups for tile in _group_tiles(group, typed)])
        if apart and len(_faces([*apart, word])) > 1:
            _concealed_kong(apart)  # refused, naming its own words: the next word is another tile's
        apart.append(word)
        if sum(len(w.tiles) for w in apart) >= 4:
            kongs.append(_concealed_kong(apart))
            apart = []
    if apart:
        _concealed_kong(apart)
    return kongs


def _faces(words: Sequence[_Word]) -> set[str]:
    return {tile for word in words for tile in word.tiles} - {"back"}


def _concealed_kong(words: Sequence[_Word]) -> list[str]:
    """The concealed kong the `words` typed make; ValueError, naming them, where they make none."""
    tiles = [tile for word in words for tile in word.tiles]
    typed = " ".join(word.typed for word in words)
    named = _named(" ".join(group for word in words for group in word.groups), typed)
    faces = _faces(words)
    _refuse_bonus("concealed kong", typed, tiles)
    if "fly" in faces:
        raise ValueError(f"concealed kong {named}: fly cannot stand in a kong")
    if len(tiles) != 4 or len(faces) != 1:
        raise ValueError(
            f"concealed kong {named}: a concealed kong is four of one tile, e.g. 5555s or back5s5sback"
        )
    return [faces.pop()] * 4


_BONUS_TILES = (
    "flowers F1-F4, seasons S1-S4, the animals cat rat rooster centipede, and in a Malaysian set face and fly"
)


def read_bonus(text: str, bonus_codes: frozenset[str] | set[str]) -> list[str]:
    """The bonus row typed as codes (`F1 S2 cat face face`, any letter case); ValueError for a tile
    that is no bonus tile. A set holds four `face` and four `fly`, so a code may come more than once."""
    tiles: list[tuple[str, str]] = []  # (code, the group typed it came from) where that is no code
    for group, typed in _typed_groups(text):
        if group.lower() == "bamboo":  # among bonus tiles, only the bamboo flower
            tiles.append(("F4", typed))
            continue
        try:
            tiles += [(tile, "" if typed == group else typed) for tile in _group_tiles(group, typed)]
        except ValueError:
            raise ValueError(
                f"cannot read {_named(group, typed)} as bonus tiles: bonus tiles are {_BONUS_TILES}, "
                "typed apart, e.g. F1 S2 cat"
            ) from None
    stranger = next(((tile, typed) for tile, typed in tiles if tile not in bonus_codes), None)
    if stranger is not None:
        code, typed = stranger
        said = f"{code} (from {typed!r})" if typed else code
        raise ValueError(f"{said} is not a bonus tile: bonus tiles are {_BONUS_TILES}")
    return [tile for tile, _ in tiles]
