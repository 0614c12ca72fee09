"""A typed hand: any letter case, commas, and a word on melds typed apart or kongs short of four."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app_ui.case import TILE_CODES
from scoring.typed import (
    canonical_case,
    chinese_name,
    read_bonus,
    read_concealed_kongs,
    read_melds,
    read_tiles,
)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("123M", "123m"),
        ("456P", "456p"),
        ("99S", "99s"),
        ("ccc", "CCC"),
        ("eee", "EEE"),
        ("sss", "SSS"),  # letters alone are honours: a suit needs digits
        ("f1", "F1"),
        ("s4", "S4"),
        ("Cat", "cat"),
        ("FACE", "face"),
        ("FlyFly", "flyfly"),
        ("cat", "cat"),  # the codes spelt in lower case stay so
        ("fly", "fly"),
        ("face", "face"),
        ("123m", "123m"),
        ("4x", "4x"),  # unreadable: left for the parser to name
    ],
)
def test_a_group_is_put_in_the_codes_own_case(typed: str, code: str) -> None:
    assert canonical_case(typed) == code


def test_a_hand_typed_in_any_case_reads_as_its_codes() -> None:
    assert read_tiles("123M, 456P 789s ccc 22m") == read_tiles("123m 456p 789s CCC 22m")
    assert read_tiles("123M 22m")[:3] == ["1m", "2m", "3m"]


def test_unreadable_text_is_refused() -> None:
    with pytest.raises(ValueError, match="456x"):
        read_tiles("123m 456x")


def test_melds_one_a_group_commas_or_spaces() -> None:
    assert read_melds("CCC,456p  5555s") == [["C"] * 3, ["4p", "5p", "6p"], ["5s"] * 4]
    assert read_melds("") == []


def test_a_meld_typed_a_tile_a_word_is_read_where_it_can_only_be_one() -> None:
    # stage 72 (an audit): the honours' names, said to be read, made no meld, each a word of its own
    assert read_melds("east east east") == [["E"] * 3]
    assert read_melds("Red red RED red, 456p") == [["C"] * 4, ["4p", "5p", "6p"]]
    assert read_melds("C C C") == [["C"] * 3]
    assert read_melds("CC fly 1m 2m 3m") == [["C", "C", "fly"], ["1m", "2m", "3m"]]
    assert read_melds("CCC 7s 8s 9s") == [["C"] * 3, ["7s", "8s", "9s"]]


def test_a_meld_typed_apart_is_explained() -> None:
    with pytest.raises(ValueError, match=r"meld 'C' has 1 tile: type each meld's tiles together, e.g. CCC"):
        read_melds("C C")
    with pytest.raises(ValueError, match=r"meld 'east' has 1 tile: type each meld's tiles together"):
        read_melds("east east 456p")  # two tiles are no meld, and 456p is one of its own
    with pytest.raises(ValueError, match=r"meld .CC. has 2 tiles: .* 456p, a fly among them: CCfly$"):
        read_melds("CC fly fly")
    with pytest.raises(ValueError, match=r"meld '1m' has 1 tile"):
        read_melds("1m 2m 3m 4m")  # a chow and a tile, or no meld: not one reading
    with pytest.raises(ValueError, match=r"meld 'C' has 1 tile"):
        read_melds("C F C C")  # a pong typed apart, out of order, with a tile too many
    assert read_melds("CCfly") == [["C", "C", "fly"]]
    with pytest.raises(ValueError, match=r"meld '12m' has 2 tiles: .* e.g. CCC or 456p$"):
        read_melds("CCfly 456p 12m")  # no fly beside the short meld: no word on flies
    with pytest.raises(ValueError, match="meld '12m' has 2 tiles"):
        read_melds("12m")


@pytest.mark.parametrize(
    "typed", ["555s", "5556s", "55555s", "CCCC 555s", "backbackbackback", "back5s5pback"]
)
def test_a_concealed_kong_is_four_of_one_tile(typed: str) -> None:
    with pytest.raises(ValueError, match="a concealed kong is four of one tile"):
        read_concealed_kongs(typed)


def test_concealed_kongs_read() -> None:
    assert read_concealed_kongs("5555s cccc") == [["5s"] * 4, ["C"] * 4]
    # typed as it lies, face-down tiles at the ends or in the middle: the backs take the face shown
    assert read_concealed_kongs("back5s5sback 5sbackback5s") == [["5s"] * 4, ["5s"] * 4]


def test_a_concealed_kong_of_flies_says_why_there_is_none() -> None:
    with pytest.raises(ValueError, match="fly cannot stand in a kong"):
        read_concealed_kongs("5pflyflyfly")


def test_a_full_width_keyboard_types_the_same_hand() -> None:
    assert read_tiles("１２３ｍ、４５６ｐ　ＣＣＣ") == read_tiles("123m 456p CCC")


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("22", "'22' needs a suit letter after the digits: m, p or s (e.g. 22m)"),
        ("123m 55", "'55' needs a suit letter"),
        ("hello", "cannot read 'hello' (e.g."),  # the group is named once, not twice
        ("123m9x", "cannot read '9x' in hand group '123m9x'"),
    ],
)
def test_what_cannot_be_read_is_said_once_with_its_fix(typed: str, says: str) -> None:
    with pytest.raises(ValueError) as caught:
        read_tiles(typed)
    assert str(caught.value).startswith(says)
    assert str(caught.value).count(typed.split()[-1]) <= 2


BONUS_TILES = frozenset({"F1", "F2", "S1", "cat", "face", "fly"})


def test_a_bonus_row_may_hold_a_code_more_than_once() -> None:
    # four face and four fly tiles in a Malaysian set
    assert read_bonus("f1, Face face FLY fly", BONUS_TILES) == ["F1", "face", "face", "fly", "fly"]


@pytest.mark.parametrize("typed", ["F1 3m", "CCC", "cat 5p"])
def test_a_bonus_row_refuses_a_hand_tile(typed: str) -> None:
    with pytest.raises(ValueError, match="is not a bonus tile"):
        read_bonus(typed, BONUS_TILES)


@pytest.mark.parametrize(("typed", "named"), [("F1S2", "F1S2"), ("F5", "F5"), ("F1 F5 dog", "F5")])
def test_a_bonus_row_that_cannot_be_read_names_the_group_and_says_how_to_type_it(
    typed: str, named: str
) -> None:
    with pytest.raises(
        ValueError, match=rf"cannot read '{named}' as bonus tiles: .* typed apart, e\.g\. F1 S2 cat"
    ):
        read_bonus(typed, BONUS_TILES)


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        ("東東東 南 西 北", ["E", "E", "E", "S", "W", "N"]),
        ("东 发 中 白 發", ["E", "F", "C", "P", "F"]),  # simplified characters too
        ("east South WEST north", ["E", "S", "W", "N"]),
        ("red green white", ["C", "F", "P"]),
        ("🀇🀈🀉 🀙🀚🀛 🀐🀑🀒", ["1m", "2m", "3m", "1p", "2p", "3p", "1s", "2s", "3s"]),  # Unicode's order: m s p
        ("🀏 🀡 🀘", ["9m", "9p", "9s"]),
        ("🀀🀁🀂🀃 🀄🀅🀆", ["E", "S", "W", "N", "C", "F", "P"]),
        ("🀄\ufe0f🀄\ufe0e", ["C", "C"]),  # emoji or text presentation: the same tile
        ("🀫🀫", ["back", "back"]),
        # the tile key shows the fly as 飛 (an audit, stage 78: typed so, it was refused)
        ("飛 23p 飞飛C", ["fly", "2p", "3p", "fly", "fly", "C"]),
    ],
)
def test_tiles_typed_as_they_show_read_as_their_codes(typed: str, codes: list[str]) -> None:
    assert read_tiles(typed) == codes


def test_a_meld_and_a_concealed_kong_typed_as_they_show_keep_their_groups() -> None:
    assert read_melds("中中中 🀇🀈🀉") == [["C", "C", "C"], ["1m", "2m", "3m"]]
    assert read_concealed_kongs("🀫🀐🀐🀫") == [["1s"] * 4]


def test_unicode_bonus_tiles_read_by_their_names_in_rules_md() -> None:
    # Unicode orders the flowers plum, orchid, bamboo, chrysanthemum; RULES.md numbers bamboo F4
    bonus = frozenset({"F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"})
    assert read_bonus("🀢🀣🀤🀥 🀦🀧🀨🀩", bonus) == ["F1", "F2", "F4", "F3", "S1", "S2", "S3", "S4"]
    assert read_tiles("🀅🀢") == ["F", "F1"]  # not FF1: a bonus tile stands apart


def test_the_joker_and_other_names_are_still_refused() -> None:
    for typed in ("🀪", "dragon", "flower"):
        with pytest.raises(ValueError, match="cannot read"):
            read_tiles(typed)


@pytest.mark.parametrize(
    ("read", "typed", "says"),
    [
        (read_melds, "東東", "meld '東東' (read as 'EE') has 2 tiles"),
        (read_concealed_kongs, "🀫🀝🀝", "concealed kong '🀫🀝🀝' (read as 'back5p5p'): a concealed kong"),
        (lambda text: read_bonus(text, BONUS_TILES), "東方", "cannot read '東方' (read as 'E方') as bonus"),
        (lambda text: read_bonus(text, BONUS_TILES), "🀢 🀄", "C (from '🀄') is not a bonus tile"),
        # typed as codes, a group is named as before
        (read_melds, "CC", "meld 'CC' has 2 tiles"),
        (lambda text: read_bonus(text, BONUS_TILES), "F1 3m", "3m is not a bonus tile"),
    ],
)
def test_a_refusal_quotes_the_group_as_typed_and_as_read(
    read: Callable[[str], object], typed: str, says: str
) -> None:
    # a group typed as characters or emoji tiles is named as the user typed it: `'EE' has 2 tiles` of a
    # meld typed 東東 names text that is nowhere on the page
    with pytest.raises(ValueError) as caught:
        read(typed)
    assert str(caught.value).startswith(says), str(caught.value)


@pytest.mark.parametrize(
    ("typed", "refused"), [("99南", "'99' needs a suit letter"), ("發1", "'1' needs a suit letter")]
)
def test_an_honour_typed_against_a_digit_is_no_suit_letter_nor_flower_number(
    typed: str, refused: str
) -> None:
    # read as letters, 99南 would be the bamboo pair 99S -> 9s 9s, and 發1 the flower F1
    with pytest.raises(ValueError, match=refused):
        read_tiles(typed)
    assert read_tiles("1m南") == ["1m", "S"]  # after a suit letter it is an honour


def test_the_joker_is_answered_with_how_to_type_a_fly() -> None:
    with pytest.raises(ValueError, match="typed fly"):
        read_tiles("🀪 東東東")


@pytest.mark.parametrize(
    ("typed", "melds"),
    [
        ("🀇🀈🀉🀙🀚🀛", [["1m", "2m", "3m"], ["1p", "2p", "3p"]]),  # an emoji keyboard types no spaces
        ("123m555p", [["1m", "2m", "3m"], ["5p", "5p", "5p"]]),
        ("EEEECCC", [["E"] * 4, ["C"] * 3]),
        ("東東東南南南", [["E"] * 3, ["S"] * 3]),
        ("CCfly456p", [["C", "C", "fly"], ["4p", "5p", "6p"]]),
        ("111222333m", [["1m"] * 3, ["2m"] * 3, ["3m"] * 3]),  # cut as typed, not sorted into chows
    ],
)
def test_melds_typed_together_are_cut_where_one_cut_alone_makes_melds(
    typed: str, melds: list[list[str]]
) -> None:
    assert read_melds(typed) == melds
    assert read_melds(typed + " 789s") == [*melds, ["7s", "8s", "9s"]]


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("1234567m", r"^meld '1234567m' has 7 tiles and is no row of chows, pongs and kongs: type a space"),
        ("EEEEEEE", r"^meld 'EEEEEEE' has 7 tiles: it reads as EEE EEEE or EEEE EEE; type a space between"),
        ("🀇🀈🀉🀙🀚", r"^meld '🀇🀈🀉🀙🀚' \(read as '1m2m3m1p2p'\) has 5 tiles and is no row"),
        ("E" * 17, r"^meld 'E{17}' has 17 tiles: a hand holds at most 4 melds; type a space"),
        ("E" * 300, r"^meld 'E{300}' has 300 tiles: a hand holds at most 4 melds"),  # answered at once
    ],
)
def test_melds_typed_together_cut_no_way_or_two_ways_are_refused(typed: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        read_melds(typed)


MELDS = st.one_of(
    st.sampled_from(["E", "S", "W", "N", "C", "F", "P", "1m", "5p", "9s"]).map(lambda code: [code] * 3),
    st.sampled_from(["E", "C", "2m", "7s"]).map(lambda code: [code] * 4),
    st.tuples(st.integers(1, 7), st.sampled_from("mps")).map(
        lambda rs: [f"{rs[0] + k}{rs[1]}" for k in range(3)]
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(MELDS, min_size=2, max_size=4))
def test_melds_typed_together_read_back_as_typed_or_are_refused(melds: list[list[str]]) -> None:
    typed = "".join("".join(meld) for meld in melds)
    try:
        read = read_melds(typed)
    except ValueError as error:
        assert "type a space between melds" in str(error)
        return
    # never a tile dropped, added or moved; every piece a meld
    assert [code for meld in read for code in meld] == [code for meld in melds for code in meld]
    assert all(len(meld) in (3, 4) for meld in read)
    # typed apart, they always read back exactly
    assert read_melds(" ".join("".join(meld) for meld in melds)) == melds


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("fly fly fly", "meld 'fly fly fly' is no meld: a meld needs at least one real tile, not only fly"),
        ("C C F", "meld 'C C F' is no meld: a pong is three equal tiles"),
        (
            "fly fly fly fly",
            "meld 'fly fly fly fly' is no meld: a meld needs at least one real tile, not only fly",
        ),
        ("C C F F", "meld 'C C F F' is no meld: a kong is four equal tiles"),
    ],
)
def test_a_meld_typed_a_tile_a_word_that_is_no_meld_says_why(typed: str, why: str) -> None:
    # an audit: `fly fly fly` was told "meld 'fly' has 1 tile", though typed together it is no meld either
    with pytest.raises(ValueError) as error:
        read_melds(typed)
    assert str(error.value) == why


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        ("一萬二萬三萬", ["1m", "2m", "3m"]),
        ("一二三萬 五五五筒 九九索", ["1m", "2m", "3m", "5p", "5p", "5p", "9s", "9s"]),  # numbers, then suit
        ("123萬 4万5万6万", ["1m", "2m", "3m", "4m", "5m", "6m"]),  # arabic numbers, simplified 万
        ("七條八條九條 1餅 2饼 3条 四竹", ["7s", "8s", "9s", "1p", "2p", "3s", "4s"]),  # 竹 after a number
        ("紅中红中 發財 发财 白板", ["C", "C", "F", "F", "P"]),
        ("東風 南风 西風 北風", ["E", "S", "W", "N"]),
        ("１２３萬", ["1m", "2m", "3m"]),  # a full-width keyboard's numbers
        ("一萬南", ["1m", "S"]),  # an honour after a suit is an honour, as after a suit letter
        ("幺雞 么鸡 二三索", ["1s", "1s", "2s", "3s"]),  # the bird of 1s by its name, not a rooster
        ("一二三萬子 四五六筒子", ["1m", "2m", "3m", "4p", "5p", "6p"]),
        ("两万 兩筒 二二條", ["2m", "2p", "2s", "2s"]),
        ("青發 青发 綠發", ["F", "F", "F"]),
        # an audit's (stage 80): a flower's or season's number is not a suit's
        ("F1竹 S3竹 s1竹 5s6竹 1p2竹", ["F1", "F4", "S3", "F4", "S1", "F4", "5s", "6s", "1p", "2s"]),
    ],
)
def test_tiles_typed_by_their_chinese_names_read_as_their_codes(typed: str, codes: list[str]) -> None:
    assert read_tiles(typed) == codes


def test_chinese_names_keep_melds_and_bonus_tiles_apart() -> None:
    assert read_melds("紅中紅中紅中 一二三餅") == [["C"] * 3, ["1p", "2p", "3p"]]
    assert read_melds("一萬 二萬 三萬") == [["1m", "2m", "3m"]]  # a tile a word, read as the meld
    assert read_concealed_kongs("五五五五筒") == [["5p"] * 4]
    # each bonus tile stands apart, as an emoji one does: 梅蘭 is F1 F2, not one group
    every_bonus = frozenset(
        {"F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4", "cat", "rat", "rooster", "centipede"}
    )
    assert read_bonus("梅花 蘭花 兰花 菊花 竹花 雞公 鷄 百足", every_bonus) == [
        *("F1", "F2", "F2", "F3", "F4", "rooster", "rooster", "centipede")
    ]
    assert read_bonus("梅蘭菊竹 春夏秋冬 貓 老鼠 公雞 蜈蚣 兰 猫 鼠 鸡", every_bonus) == [
        *("F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"),
        *("cat", "rat", "rooster", "centipede", "F2", "cat", "rat", "rooster"),
    ]


@pytest.mark.parametrize("typed", ["三", "九九 123m", "一萬 三"])
def test_a_chinese_number_without_its_suit_is_refused_with_how_to_type_it(typed: str) -> None:
    with pytest.raises(ValueError, match=r"a number needs its suit after it, e\.g\. 三萬"):
        read_tiles(typed)


def test_a_refusal_names_a_group_typed_in_chinese_as_typed_and_as_read() -> None:
    with pytest.raises(ValueError, match=r"meld '一萬二萬' \(read as '1m2m'\) has 2 tiles"):
        read_melds("一萬二萬")
    with pytest.raises(ValueError, match=r"4s \(from '四竹'\) is not a bonus tile"):
        read_bonus("四竹", BONUS_TILES)


@pytest.mark.parametrize("code", TILE_CODES)
def test_each_of_a_tiles_chinese_names_as_a_list_shows_them_reads_back_as_the_tile(code: str) -> None:
    code_shown, *names = chinese_name(code).split()
    assert code_shown == code
    assert bool(names) == (code not in ("face", "back"))  # those two have no Chinese name of their own
    for name in names:
        assert read_tiles(name) == [code], name


def test_simplified_names_are_in_the_pick_lists_labels() -> None:
    # Singapore writes simplified characters: 五万 typed into the list's search must find 5m
    assert chinese_name("5m") == "5m 五萬 五万"
    assert "五饼" in chinese_name("5p") and "五条" in chinese_name("5s") and "幺鸡" in chinese_name("1s")
    assert "东" in chinese_name("E") and "发" in chinese_name("F") and "兰" in chinese_name("F2")


@pytest.mark.parametrize(
    ("typed", "refused"),
    [
        ("九九南", "cannot read '九九南': a number needs its suit after it"),
        ("碰五筒", "cannot read '碰五筒': type each tile by its code (5p, C), its Chinese name (五筒, 紅中)"),
        ("一萬子子", "cannot read '一萬子子': "),
        ("發1", "'1' needs a suit letter"),  # a group typed as codes keeps scoring's own word
    ],
)
def test_a_refusal_quotes_what_was_typed_not_what_it_was_half_read_as(typed: str, refused: str) -> None:
    with pytest.raises(ValueError) as caught:
        read_tiles(typed)
    assert refused in str(caught.value), str(caught.value)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            "雞雞雞",
            "meld '雞雞雞': rooster is a bonus tile; type it under Bonus tiles (the bird of 1s is 一索",
        ),
        ("梅梅梅", "meld '梅梅梅': F1 is a bonus tile; type it under Bonus tiles"),
        ("CCC F1", "meld 'F1': F1 is a bonus tile"),
    ],
)
def test_a_bonus_tile_typed_as_a_meld_is_sent_to_the_bonus_field(typed: str, said: str) -> None:
    with pytest.raises(ValueError) as caught:
        read_melds(typed)
    assert str(caught.value).startswith(said), str(caught.value)


@pytest.mark.parametrize(
    ("typed", "kongs"),
    [
        ("5p 5p 5p 5p", [["5p"] * 4]),
        ("五筒 五筒 五筒 五筒", [["5p"] * 4]),
        ("555s 5s 6666p", [["5s"] * 4, ["6p"] * 4]),
        ("back 5s 5s back", [["5s"] * 4]),
    ],
)
def test_a_concealed_kong_typed_a_tile_a_word_is_read_four_at_a_time(
    typed: str, kongs: list[list[str]]
) -> None:
    assert read_concealed_kongs(typed) == kongs


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("5p 5p 5p", "concealed kong '5p 5p 5p': a concealed kong is four of one tile"),
        # the words gathered so far are refused once a word of another tile comes, never a good kong
        ("5p 5p 5p 6p", "concealed kong '5p 5p 5p': "),
        ("EEE 5555s", "concealed kong 'EEE': "),
        ("555s 6666p 7777m", "concealed kong '555s': "),
        ("梅 梅 梅 梅", "concealed kong '梅 梅 梅 梅': F1 is a bonus tile; type it under Bonus tiles"),
        (
            "雞雞雞雞",
            "concealed kong '雞雞雞雞': rooster is a bonus tile; type it under Bonus tiles (the bird",
        ),
    ],
)
def test_a_concealed_kong_typed_apart_short_or_mixed_is_refused_naming_its_words(
    typed: str, said: str
) -> None:
    with pytest.raises(ValueError) as caught:
        read_concealed_kongs(typed)
    assert str(caught.value).startswith(said), str(caught.value)


def test_a_word_that_reads_as_nothing_is_no_kong_short_of_tiles() -> None:
    assert read_concealed_kongs("5555s \ufe0f") == [["5s"] * 4]  # a lone emoji presentation mark


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        ("S一萬 F五筒", ["S", "1m", "F", "5p"]),  # a Chinese number after a letter is still a number
        ("S1五筒 五筒S1", ["S1", "5p", "5p", "S1"]),  # a code typed against a Chinese name stays apart
    ],
)
def test_chinese_names_typed_against_codes_keep_both(typed: str, codes: list[str]) -> None:
    assert read_tiles(typed) == codes


def test_a_bird_typed_after_a_number_is_not_read_into_it() -> None:
    with pytest.raises(ValueError, match="'5' needs a suit letter"):
        read_tiles("5幺雞")  # not 5s 1s


def test_the_joker_is_said_before_any_other_refusal() -> None:
    with pytest.raises(ValueError, match="the joker"):
        read_tiles("1 🀪")


def test_the_flowers_and_seasons_are_read_by_their_english_names_but_bamboo_is_asked_about() -> None:
    every_bonus = frozenset({"F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"})
    assert read_bonus("plum Orchid CHRYSANTHEMUM spring summer autumn winter", every_bonus) == [
        *("F1", "F2", "F3", "S1", "S2", "S3", "S4")
    ]
    with pytest.raises(ValueError, match="'Bamboo' names the bamboo flower and the bamboo suit: type F4"):
        read_tiles("Bamboo")
    assert read_bonus("bamboo plum", every_bonus) == ["F4", "F1"]  # among bonus tiles it is the flower


@pytest.mark.parametrize(
    ("read", "typed", "refused"),
    [
        (read_tiles, "F1S2x", "cannot read '2x' in hand group 'F1S2x'"),
        (read_melds, "123M 5Px", "cannot read 'x' in hand group '5Px'"),
        (read_concealed_kongs, "5555S 12S0", "'0' in hand group '12S0' needs a suit letter"),
    ],
)
def test_a_refusal_quotes_a_group_in_the_case_it_was_typed(
    read: Callable[[str], object], typed: str, refused: str
) -> None:
    # the reader puts a suit letter in the codes' case (5P as 5p) before reading: a refusal quoted that
    # copy, 'F1s2x', text nowhere on the page
    with pytest.raises(ValueError) as caught:
        read(typed)
    assert refused in str(caught.value), str(caught.value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="123459FSMPmpsECx ", min_size=1, max_size=12))
def test_every_quote_in_a_refusal_is_text_the_user_typed(typed: str) -> None:
    try:
        read_tiles(typed)
    except ValueError as error:
        quoted = re.findall(r"'([^']*)'", str(error))
        assert all(quote in typed for quote in quoted), (typed, str(error))
