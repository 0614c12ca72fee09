"""Golden Malaysian 3-player hands (RULES.md, seeds/004): fan, bombs, fly, seven pairs, points and payments.

Defaults: seat East, discard win, min 5 fan, max 10, 20 points per fan, `seed` payment.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import score_json
from tests.scoring.helpers import case, check


def my(case_id: str, concealed: str, **kwargs: Any) -> Any:
    return case(case_id, concealed, rules="malaysian", **kwargs)


EXPOSED_FLUSH = "123p 456p 789p 55p"  # with an exposed pong of 111p: full flush, no bomb

PATTERNS = [
    my(
        "seed-example-full-flush-seat-flower-animal",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "cat"],
        tai=5,
        keys={"full_flush", "seat_flower", "animal"},
        payout={"winner_total": 200, "discarder": 200, "each_other": 0},
    ),
    my(
        "full-flush-alone-below-minimum",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        tai=3,
        valid=False,
        reason="below_minimum",
    ),
    my(
        "half-flush-1",
        "123p 456p 789p 55p",
        meld=("pong CCC",),
        bonus=["F1", "S1", "cat"],
        tai=5,
        keys={"half_flush", "dragon_pong", "seat_flower", "seat_season", "animal"},
    ),
    my(
        "east-pong-east-seat-is-2",
        "123p 456p 789p 55p",
        meld=("pong EEE",),
        bonus=["F1", "cat"],
        tai=5,
        keys={"east_north_pong", "seat_wind_pong", "half_flush", "seat_flower", "animal"},
    ),
    my(
        "east-pong-south-seat-is-1",
        "123p 456p 789p 55p",
        meld=("pong EEE",),
        seat_wind="S",
        bonus=["F2", "S2", "cat"],
        tai=5,
        keys={"east_north_pong", "half_flush", "seat_flower", "seat_season", "animal"},
    ),
    my(
        "north-pong-any-seat",
        "123p 456p 789p 55p",
        meld=("pong NNN",),
        seat_wind="W",
        bonus=["F3", "S3", "rat"],
        tai=5,
    ),
    my(
        "south-pong-south-seat",
        "123p 456p 789p 55p",
        meld=("pong SSS",),
        seat_wind="S",
        bonus=["F2", "S2", "rat"],
        tai=5,
        keys={"seat_wind_pong", "half_flush", "seat_flower", "seat_season", "animal"},
    ),
    my(
        "no-prevailing-wind-fan",
        "123p 456p 789p 55p",
        meld=("pong SSS",),
        prevailing_wind="S",
        bonus=["F1", "cat"],
        tai=3,
        valid=False,
        reason="below_minimum",
    ),
    my(
        "dragon-kong-is-2",
        "123p 456p 789p 55p",
        meld=("kong CCCC",),
        bonus=["F1", "cat"],
        tai=5,
        keys={"dragon_pong", "kong", "half_flush", "seat_flower", "animal"},
    ),
    my(
        "two-kongs-fan-each",
        "789p 55p",
        meld=("kong 1111p", "kong 2222p", "chow 345p"),
        bonus=["F1"],
        tai=6,
        keys={"kong", "full_flush", "seat_flower"},
    ),
    my(
        "fourth-flower-any-seat",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        seat_wind="S",
        bonus=["F4", "S4"],
        tai=5,
        keys={"full_flush", "fourth_flower", "fourth_season"},
    ),
    my(
        "seat-and-fourth-flower", EXPOSED_FLUSH, meld=("pong 111p",), seat_wind="W", bonus=["F3", "F4"], tai=5
    ),
    my(
        "other-flower-scores-nothing",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F2", "S3"],
        valid=False,
        reason="below_minimum",
        tai=3,
    ),
    my(
        "faces-one-each",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["face", "face"],
        tai=5,
        keys={"full_flush", "face"},
    ),
    # three faces are 3 fan, no set: the set bonus needs all four
    my(
        "three-faces-no-set",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["face"] * 3,
        tai=6,
        keys={"full_flush", "face"},
    ),
    my(
        "all-four-faces",
        "123p 456p 789p 55p",
        meld=("pong CCC",),
        bonus=["face"] * 4,
        tai=7,
        keys={"face", "all_faces", "dragon_pong", "half_flush"},
    ),
    my(
        "all-four-animals",
        "123p 456p 789p 55p",
        meld=("pong CCC",),
        bonus=["cat", "rat", "rooster", "centipede"],
        tai=7,
    ),
    my(
        "flower-set-east",
        "123p 456p 789p 55p",
        meld=("pong CCC",),
        bonus=["F1", "F2", "F3", "F4"],
        tai=5,
        keys={"seat_flower", "fourth_flower", "flower_set", "dragon_pong", "half_flush"},
    ),
    my(
        "season-set-west",
        "123p 456p 789p 55p",
        meld=("pong CCC",),
        seat_wind="W",
        bonus=["S1", "S2", "S3", "S4"],
        tai=5,
    ),
    my(
        "fly-kept-as-bonus",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["fly", "fly"],
        tai=5,
        keys={"full_flush", "fly_bonus"},
    ),
    my(
        "all-pongs",
        "222p 555p CCC 99p",
        meld=("pong 111p",),
        bonus=["F1"],
        tai=5,
        keys={"all_pongs", "dragon_pong", "half_flush", "seat_flower"},
    ),
    my(
        "small-three-dragons-replaces-dragon-pongs",
        "FFF PP 123p 456p",
        meld=("pong CCC",),
        bonus=["F1"],
        tai=5,
        keys={"small_three_dragons", "half_flush", "seat_flower"},
    ),
    # small three dragons replaces the dragon pongs' fan, not the kong's
    my(
        "small-three-dragons-with-a-dragon-kong-keeps-the-kong-fan",
        "FFF PP 123p 456p",
        meld=("kong CCCC",),
        tai=5,
        keys={"small_three_dragons", "kong", "half_flush"},
    ),
    my(
        "all-sequences-dots-pair",
        "456p 789p 234p 55p",
        meld=("chow 123p",),
        bonus=["F1"],
        tai=5,
        keys={"all_sequences_dots_pair", "full_flush", "seat_flower"},
    ),
    my(
        "ping-hu-4-replaces-all-sequences",
        "456p 789p 234p 55p",
        meld=("chow 123p",),
        tai=7,
        keys={"ping_hu", "full_flush"},
    ),
    my(
        "ping-hu-any-wait",
        "456p 789p 234p 55p",
        meld=("chow 123p",),
        winning_tile="8p",
        tai=7,
        keys={"ping_hu", "full_flush"},
    ),
    my(
        "ping-hu-plain-wind-pair",
        "456p 789p 234p SS",
        meld=("chow 123p",),
        tai=5,
        keys={"ping_hu", "half_flush"},
    ),
    my(
        "ping-hu-east-pair-scores-so-no-ping-hu",
        "456p 789p 234p EE",
        meld=("chow 123p",),
        seat_wind="S",
        bonus=["F2"],
        tai=2,
        valid=False,
        reason="below_minimum",
    ),
    # the other pairs a ping hu may not have (RULES.md: not a dragon, East, North or the seat wind): the
    # half flush alone is left (a chow laid down: no bomb)
    *(
        my(
            f"ping-hu-{what}-pair-scores-so-no-ping-hu",
            f"456p 789p 234p {pair}",
            meld=("chow 123p",),
            seat_wind=seat,
            tai=1,
            valid=False,
            reason="below_minimum",
            keys={"half_flush"},
        )
        for what, pair, seat in (("north", "NN", "S"), ("dragon", "CC", "E"), ("seat-wind", "WW", "W"))
    ),
    my(
        "seven-pairs-half-flush-bonus-bomb",
        "11p 33p 55p 77p 99p EE WW",
        seat_wind="S",
        bonus=["F2", "S2", "cat"],
        tai=10,
        raw=10,
        keys={
            "seven_pairs",
            "half_flush",
            "seat_flower",
            "seat_season",
            "animal",
            "bomb_concealed_discard",
            "bomb",
        },
    ),
    # RULES.md's seven-pairs line is worth 5 all in dots, and "fan lines stack unless a line says it
    # replaces another (... seven pairs stacks with half or full flush)": 5 + full flush 3 = 8, doubled
    # 16, capped at 10 (it had been read as replacing the full flush too: raw 10)
    my(
        "all-dots-seven-pairs-5-and-full-flush-3-doubled",
        "11p 22p 44p 55p 77p 88p 99p",
        tai=10,
        raw=16,
        keys={"all_dots_seven_pairs", "full_flush", "bomb_concealed_discard", "bomb"},
    ),
    # the same under a cap of 20 pays the 16 (RULES.md: bombs double the total fan before the cap)
    my(
        "all-dots-seven-pairs-stacks-with-full-flush-under-a-higher-cap",
        "11p 22p 44p 55p 77p 88p 99p",
        options={"max_tai": 20},
        tai=16,
        raw=16,
        keys={"all_dots_seven_pairs", "full_flush", "bomb_concealed_discard", "bomb"},
        payout={"winner_total": 640, "discarder": 640, "each_other": 0},
    ),
    my(
        "seven-pairs-no-four-of-a-kind", "11p 11p 44p 55p 77p 88p 99p", valid=False, reason="no_winning_shape"
    ),
    my(
        "seven-pairs-with-fly",
        "11p 22p 44p 55p 77p 88p 9p fly",
        tai=10,
        keys={"all_dots_seven_pairs", "full_flush", "bomb_concealed_discard", "bomb"},
    ),
]

LIMITS_AND_BOMBS = [
    my(
        "big-three-dragons-5-no-bomb",
        "CCC FFF PPP 123p 55p",
        self_drawn=True,
        tai=5,
        raw=5,
        keys={"big_three_dragons"},
    ),
    my("small-four-winds-5", "EEE SSS WWW NN 123p", tai=5, keys={"small_four_winds"}),
    my("big-four-winds-10", "EEE SSS WWW NNN 55p", tai=10, keys={"big_four_winds"}),
    my("big-four-winds-capped-by-max", "EEE SSS WWW NNN 55p", options={"max_tai": 8}, tai=8, raw=10),
    my("all-honours-5", "EEE SSS CCC FFF PP", tai=5, keys={"all_honours"}),
    # all honours is made by the tiles, whatever their shape: seven pairs of them too
    my("all-honours-seven-pairs-5", "EE SS WW NN CC FF PP", seat_wind="S", tai=5, keys={"all_honours"}),
    my(
        "four-kongs-5",
        "55p",
        meld=("kong 1111p", "kong 2222p", "kong 3333p", "kong 4444p"),
        tai=5,
        keys={"four_kongs"},
    ),
    my("nine-gates-5", "1112345678999p 5p", winning_tile="5p", tai=5, keys={"nine_gates"}),
    # won on a fly, nine gates is the fly's tile added to 1112345678999 (a mutation audit, stage 82: it
    # was never found, so this hand, nine gates won on 5p, was a 3-fan full flush won on the fly)
    *(
        my(
            f"nine-gates-won-on-{won_on}",
            "2345678999p fly",
            meld=("pong 111p",),
            winning_tile=won_on,
            self_drawn=True,
            tai=5,
            keys={"nine_gates"},
        )
        for won_on in ("5p", "fly")
    ),
    # every reading of a fly drawn to 1112345678999 is nine gates: the limit-type 5, not a bombed flush
    my(
        "nine-gates-waiting-on-any-tile-won-on-the-fly",
        "1112345678999p fly",
        winning_tile="fly",
        self_drawn=True,
        tai=5,
        keys={"nine_gates"},
    ),
    my(
        "heavenly-5",
        EXPOSED_FLUSH + " 111p",
        self_drawn=True,
        circumstances=["heavenly"],
        tai=5,
        keys={"heavenly"},
    ),
    my(
        "earthly-5",
        EXPOSED_FLUSH + " 111p",
        seat_wind="S",
        circumstances=["earthly"],
        tai=5,
        keys={"earthly"},
    ),
    # seeds/004: "winning with the first tile discarded by another player", the dealer's
    my(
        "earthly-self-drawn-impossible",
        EXPOSED_FLUSH + " 111p",
        seat_wind="S",
        self_drawn=True,
        circumstances=["earthly"],
        valid=False,
        reason="impossible_context",
    ),
    my(
        "earthly-on-a-replacement-tile-impossible",
        EXPOSED_FLUSH + " 111p",
        seat_wind="W",
        bonus=["F1"],
        circumstances=["earthly", "replacement_tile"],
        valid=False,
        reason="impossible_context",
    ),
    my(
        "earthly-on-souths-discard-impossible",
        EXPOSED_FLUSH + " 111p",
        seat_wind="W",
        discarder_wind="S",
        circumstances=["earthly"],
        valid=False,
        reason="impossible_context",
    ),
    my("four-flies-in-hand", "fly fly fly fly 123p 456p 789p 5p", tai=5, keys={"four_flies"}),
    my(
        "four-flies-hand-and-bonus",
        "fly fly 5p 123p 456p 789p CC",
        bonus=["fly", "fly"],
        tai=5,
        keys={"four_flies"},
    ),
    my(
        "bomb-concealed-self-draw",
        "123p 456p 789p 111p 55p",
        self_drawn=True,
        tai=6,
        raw=6,
        keys={"full_flush", "bomb_concealed_self_draw", "bomb"},
    ),
    my(
        "bomb-concealed-discard",
        "123p 456p 789p 111p 55p",
        tai=6,
        raw=6,
        keys={"full_flush", "bomb_concealed_discard", "bomb"},
    ),
    # The set a winning discard completed lies with the melds, but the hand was concealed until then.
    my(
        "bomb-concealed-discard-completed-pong-laid-down",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        winning_tile="1p",
        tai=6,
        raw=6,
        keys={"full_flush", "bomb_concealed_discard", "bomb"},
        payout={"winner_total": 240, "discarder": 240, "each_other": 0},
    ),
    my(
        "bomb-concealed-discard-completed-chow-laid-down",
        "111p 456p 789p 55p",
        meld=("chow 123p",),
        winning_tile="3p",
        tai=6,
        raw=6,
        keys={"full_flush", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "no-bomb-when-the-win-went-into-the-concealed-tiles",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        winning_tile="5p",
        tai=3,
        valid=False,
        reason="below_minimum",
    ),
    my(
        "no-bomb-for-a-second-exposed-meld",
        "456p 789p 55p",
        meld=("pong 111p", "chow 123p"),
        winning_tile="3p",
        tai=3,
        valid=False,
        reason="below_minimum",
    ),
    my(
        "bomb-concealed-kong-keeps-concealed",
        "234p 567p 789p 55p",
        meld=("ckong 1111p",),
        tai=8,
        raw=8,
        keys={"full_flush", "kong", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "bomb-last-tile",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        self_drawn=True,
        circumstances=["last_tile"],
        tai=6,
        keys={"full_flush", "bomb_last_tile", "bomb"},
    ),
    my(
        "bomb-kong-replacement",
        "234p 567p 789p 55p",
        meld=("kong 1111p",),
        self_drawn=True,
        circumstances=["kong_replacement"],
        tai=10,
        raw=10,
        keys={"full_flush", "kong", "replacement_tile", "bomb_kong_replacement", "bomb"},
    ),
    my(
        "replacement-with-kong-and-no-bonus-is-kong-replacement",
        "234p 567p 789p 55p",
        meld=("kong 1111p",),
        self_drawn=True,
        circumstances=["replacement_tile"],
        tai=10,
    ),
    # a kong beside other melds is still the only thing a bonus-less hand can have replaced: 4 fan doubled
    my(
        "replacement-with-kong-and-a-chow-and-no-bonus-is-kong-replacement",
        "234p 678p 99p",
        meld=("kong CCCC", "chow 345p"),
        self_drawn=True,
        circumstances=["replacement_tile"],
        tai=8,
        raw=8,
        keys={"dragon_pong", "kong", "half_flush", "replacement_tile", "bomb_kong_replacement", "bomb"},
    ),
    my(
        "flower-replacement-no-bomb",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1"],
        self_drawn=True,
        circumstances=["replacement_tile"],
        tai=5,
        keys={"full_flush", "seat_flower", "replacement_tile"},
    ),
    # seeds/004's moon grab is "drawing the very last tile": never on a discard
    my(
        "last-tile-on-a-discard-impossible",
        "123p 456p 789p 111p 55p",
        circumstances=["last_tile"],
        valid=False,
        reason="impossible_context",
    ),
    my(
        "several-bombs-double-once",
        "123p 456p 789p 111p 55p",
        self_drawn=True,
        circumstances=["last_tile"],
        tai=6,
        raw=6,
    ),
    my("bomb-cap-10", "123p 456p 789p 111p 55p", bonus=["F1", "S1", "cat"], tai=10, raw=12),
    my(
        "robbing-kong-counts-as-discard-bomb",
        "123p 456p 789p 111p 55p",
        circumstances=["robbing_kong"],
        tai=8,
        keys={"full_flush", "robbing_kong", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "no-bomb-for-exposed-hand",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "S1"],
        tai=5,
        keys={"full_flush", "seat_flower", "seat_season"},
    ),
]

FLY = [
    # seven pairs with the two flies as a pair of a face not held (99p is held, so 33p, 55p or 77p)
    my(
        "seven-pairs-two-flies-a-pair-of-their-own",
        "11p 22p 44p 66p 88p 99p fly fly",
        tai=10,
        keys={"all_dots_seven_pairs", "full_flush", "bomb_concealed_discard", "bomb"},
    ),
    # the pairs of seven pairs differ: three 1p and a fly are not two pairs of 1p, so this is no win
    my(
        "three-of-a-kind-and-a-fly-are-no-two-pairs",
        "111p 22p 33p 55p 77p 99p fly",
        valid=False,
        reason="no_winning_shape",
    ),
    # seven pairs is the whole hand concealed: beside a laid-down pong, five pairs and a fly are no win
    my(
        "pairs-beside-a-meld-are-no-seven-pairs",
        "11p 33p 55p 77p 99p fly",
        meld=("pong EEE",),
        valid=False,
        reason="no_winning_shape",
    ),
    # the two flies can only be the pair (with a real pong a fly would be a fifth copy): read as a pair
    # of dots they make a half flush, 5 fan doubled; as North or green, a limit-type hand of 5 only
    my(
        "two-flies-alone-are-the-pair",
        "EEE SSS WWW CCC fly fly",
        tai=10,
        keys={"dragon_pong", "east_north_pong", "seat_wind_pong", "half_flush", "all_pongs"}
        | {"bomb_concealed_discard", "bomb"},
    ),
    # two fly readings, one a limit-type hand (nine gates, 5) and one summed (flush 3 + faces 2 + seat
    # flower 1 = 6): the best-scoring reading counts (RULES.md's fly rule), not the limit (metamorphic
    # test: a bonus tile added to a limit hand)
    my(
        "fly-readings-nine-gates-or-a-higher-flush",
        "99p fly 22p fly 34567p",
        meld=("pong 111p",),
        bonus=["face", "face", "F1"],
        tai=6,
        keys={"face", "seat_flower", "full_flush"},
    ),
    my(
        "fly-completes-concealed-dragon-pong",
        "CC fly 123p 456p 789p 55p",
        bonus=["F1"],
        tai=6,
        keys={"dragon_pong", "half_flush", "seat_flower", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "fly-in-exposed-pong",
        "123p 456p 789p 55p",
        meld=("pong CC fly",),
        bonus=["F1", "cat", "rat"],
        tai=5,
        keys={"dragon_pong", "half_flush", "seat_flower", "animal"},
    ),
    my(
        "two-fly-exposed-pong",
        "123p 456p 789p 55p",
        meld=("pong C fly fly",),
        bonus=["F1", "cat", "rat"],
        tai=5,
    ),
    my(
        "one-fly-exposed-chow",
        "456p 789p 234p 55p",
        meld=("chow 1p fly 3p",),
        tai=7,
        keys={"ping_hu", "full_flush"},
    ),
    my(
        "three-flies-read-as-the-best-chow",
        "fly fly fly 123p 456p 789p 55p",
        tai=10,
        raw=14,
        keys={"ping_hu", "full_flush", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "two-fly-concealed-chow-ok",
        "fly fly 3p 456p 789p 111p 55p",
        tai=6,
        keys={"full_flush", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "fly-pair-or-fly-chow",
        "123p 456p 789p 111p fly fly",
        tai=10,
        raw=14,
        keys={"ping_hu", "full_flush", "bomb_concealed_discard", "bomb"},
    ),
    my(
        "fly-pair",
        "123p 456p 789p CCC fly fly",
        bonus=["F1"],
        tai=6,
        raw=6,
        keys={"dragon_pong", "half_flush", "seat_flower", "bomb_concealed_discard", "bomb"},
    ),
    my("fly-pair-with-real-tile", "123p 456p 789p 111p 5p fly", tai=6),
    my("fly-best-reading-counts", "123p 456p 789p CCC 5p fly", bonus=["F1"], tai=6),
    my(
        "fly-not-a-fifth-copy",
        "fly 23p 789p 55p",
        meld=("kong 1111p", "kong 4444p"),
        valid=False,
        reason="no_winning_shape",
    ),
    my(
        "fly-counts-as-its-tile-for-flush",
        "123p 456p 78p fly 111p 55p",
        tai=6,
        keys={"full_flush", "bomb_concealed_discard", "bomb"},
    ),
]

VALIDITY_AND_PAYMENT = [
    my(
        "north-seat-impossible",
        EXPOSED_FLUSH + " 111p",
        seat_wind="N",
        valid=False,
        reason="impossible_context",
    ),
    my("characters-not-in-set", "123m 456p 789p 111p 55p", valid=False, reason="tile_not_in_set"),
    my(
        "north-removed-by-option",
        "NNN 456p 789p 111p 55p",
        options={"north_wind": False},
        valid=False,
        reason="tile_not_in_set",
    ),
    my(
        "five-fly-too-many",
        "fly fly fly 123p 456p 789p 55p",
        bonus=["fly", "fly"],
        valid=False,
        reason="too_many_copies",
    ),
    my(
        "five-faces-too-many",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["face"] * 5,
        valid=False,
        reason="too_many_copies",
    ),
    my(
        "humanly-ignored-with-warning",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        seat_wind="S",
        circumstances=["humanly"],
        bonus=["F2", "S2"],
        tai=5,
    ),
    my(
        "min-5-rejects-4",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1"],
        tai=4,
        valid=False,
        reason="below_minimum",
    ),
    my(
        "min-option-3-accepts-4",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1"],
        options={"min_tai": 3},
        tai=4,
        payout={"winner_total": 160, "discarder": 160, "each_other": 0},
    ),
    my(
        "seed-payment-self-draw",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "cat"],
        self_drawn=True,
        tai=5,
        payout={"winner_total": 200, "discarder": None, "each_other": 100},
    ),
    my(
        "discarder-and-other-discard",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "cat"],
        options={"malaysian_payment": "discarder_and_other"},
        tai=5,
        payout={"winner_total": 300, "discarder": 200, "each_other": 100},
    ),
    my(
        "discarder-and-other-self-draw",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "cat"],
        self_drawn=True,
        options={"malaysian_payment": "discarder_and_other"},
        tai=5,
        payout={"winner_total": 400, "discarder": None, "each_other": 200},
    ),
    my(
        "points-per-fan-option",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "cat"],
        options={"points_per_fan": 10},
        tai=5,
        payout={"winner_total": 100, "discarder": 100},
    ),
    my(
        "pay-all-malaysian",
        EXPOSED_FLUSH,
        meld=("pong 111p",),
        bonus=["F1", "cat"],
        self_drawn=True,
        pay_all=True,
        tai=5,
        payout={"winner_total": 200, "discarder": 200, "each_other": 0},
    ),
    my("limit-10-payment", "EEE SSS WWW NNN 55p", tai=10, payout={"winner_total": 400, "discarder": 400}),
]

# Stage 89's audit: each derived by hand from RULES.md's Malaysian section (the line that decides it quoted)
AUDIT = [
    # "Bombs double the total fan ... Several bombs still double once": a concealed self-draw on the last
    # tile is seat flower 1 + dragon pong 1 + half flush 1 = 3, doubled once: 6 (not 12); each pays 120
    my(
        "two-bombs-double-once",
        "123p 456p 789p CCC 55p",
        self_drawn=True,
        circumstances=["last_tile"],
        bonus=["F1"],
        tai=6,
        raw=6,
        keys={
            "seat_flower",
            "dragon_pong",
            "half_flush",
            "bomb_concealed_self_draw",
            "bomb_last_tile",
            "bomb",
        },
        payout={"winner_total": 240, "discarder": None, "each_other": 120},
    ),
    # the open question of nine gates, 5 or 6: "nine gates ... 5 (limit-type hand: the fan is set to 5, not
    # added)" and "A limit-type hand sets the fan to its value ... and bombs do not apply to it": a
    # concealed nine gates self-drawn is 5 (its full flush 3, bombed, would be 6); each pays 100
    my(
        "nine-gates-self-drawn-is-5-not-a-bombed-flush",
        "1112345678999p 5p",
        winning_tile="5p",
        self_drawn=True,
        tai=5,
        raw=5,
        keys={"nine_gates"},
        payout={"winner_total": 200, "discarder": None, "each_other": 100},
    ),
    # "Details: ... a dragon kong is 1 for the dragon + 1 for the kong": an exposed kong of red, 2, beside
    # half flush 1, seat flower 1 and seat season 1: 5, no bomb (the hand is open); the discarder pays 200
    my(
        "dragon-kong-is-dragon-1-and-kong-1",
        "123p 456p 789p 55p",
        meld=("kong CCCC",),
        bonus=["F1", "S1"],
        tai=5,
        raw=5,
        keys={"dragon_pong", "kong", "half_flush", "seat_flower", "seat_season"},
        payout={"winner_total": 200, "discarder": 200, "each_other": 0},
    ),
    # "seat flower / seat season, and flower F4 / season S4 for every seat": West holds F3 (its own) and
    # F4 (every seat's) and S4: 3, with a dragon pong 1 and half flush 1: 5
    my(
        "west-seat-flower-and-the-fourth-flower-and-season",
        "123p 456p 789p 55p",
        meld=("pong CCC",),
        seat_wind="W",
        bonus=["F3", "F4", "S4"],
        tai=5,
        raw=5,
        keys={"seat_flower", "fourth_flower", "fourth_season", "dragon_pong", "half_flush"},
    ),
    # "ping hu ... may include exposed chows; its pair must not score": an exposed chow, a pair of 5p,
    # no bonus tile: ping hu 4 (replacing all sequences with a dots pair) + full flush 3 = 7, no bomb
    # (open); seed payment: the discarder pays 2 x 140 = 280
    my(
        "ping-hu-with-an-exposed-chow",
        "123p 456p 789p 55p",
        meld=("chow 234p",),
        winning_tile="5p",
        tai=7,
        raw=7,
        keys={"ping_hu", "full_flush"},
        payout={"winner_total": 280, "discarder": 280, "each_other": 0},
    ),
    # "seven pairs stacks with half or full flush": five dots pairs and two honour pairs, half flush 1 +
    # seven pairs 1 = 2, with three animals 3 = 5, doubled by the concealed discard bomb: 10
    my(
        "seven-pairs-with-honours-stacks-with-half-flush",
        "11p 33p 55p 77p 99p SS WW",
        seat_wind="E",
        bonus=["cat", "rat", "rooster"],
        tai=10,
        raw=10,
        keys={"seven_pairs", "half_flush", "animal", "bomb_concealed_discard", "bomb"},
    ),
]

ALL = PATTERNS + LIMITS_AND_BOMBS + FLY + VALIDITY_AND_PAYMENT + AUDIT


@pytest.mark.parametrize(("data", "expect"), ALL)
def test_malaysian_golden(data: dict[str, Any], expect: dict[str, Any]) -> None:
    result = score_json(data)
    check(result, expect)
    assert len(result["payout"]["players"]) == 3


def test_points_are_fan_times_points_per_fan() -> None:
    data = {
        "rules": "malaysian",
        "concealed": EXPOSED_FLUSH,
        "melds": [{"kind": "pong", "tiles": "111p"}],
        "bonus": ["F1", "cat"],
    }
    assert score_json(data)["points"] == 100


def test_golden_case_count() -> None:
    assert len(ALL) >= 50
