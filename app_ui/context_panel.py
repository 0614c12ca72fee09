"""The page's *How was it won?* section: seat and prevailing wind, discard or self-draw, the winning
tile, special circumstances, pay-all and who discarded (or is liable), and the bonus tiles held from the
deal. What a rule-set switch cannot carry over is said and comes back on switching back."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

import scoring
import scoring.rulesets
from app_ui import hand_build
from app_ui.case import Context
from app_ui.rules_panel import chosen_rules, chosen_set
from app_ui.summary import RULE_LABELS, WIND_LABELS, circumstance_label, circumstances_help
from app_ui.tile_sets import tiles_in_set
from app_ui.toasts import toast_later
from app_ui.widget_memory import KEPT, keep, kept_value, remember

# the winning-tile box's first choice: a string, as a None value would show no choice at all
NO_WINNING_TILE = "(not set)"
# the bonus tiles whose instant payouts double when held from the deal (Singapore)
FROM_DEAL_TILES = frozenset(scoring.tiles.FLOWERS + scoring.tiles.SEASONS + scoring.tiles.ANIMALS)
NOT_SAID = "(not said)"
# an empty choice box's words, in the words of the boxes above it ("(not set)", "(not said)"): a walkthrough
# saw Streamlit's own "Choose options" under "(not set)", as if something had to be chosen
NONE_CHOSEN = "(none)"
# set by a new hand replacing another: the winner's seat box still holds the last hand's winner
SEAT_FROM_LAST_HAND = "seat_from_last_hand"
# where the winning discard went (`winning_tile_into`), asked where the tiles let it go either way
WINNING_TILE_INTO = "winning_tile_into"
PLACE_NOT_SAID = "either"
PLACE_LABELS = {
    PLACE_NOT_SAID: "Not said: the place that scores more counts",
    "hand": "Into the hand: every laid-down meld was claimed before it",
    "meld": "Into a chow or pong laid down with it",
}
# what the winning tile decides, in each rule set's words
WINNING_TILE_HELP = {
    "singapore": "Needed for the sequence-hand (平胡) wait rule.",
    "malaysian": "Decides whether a set laid out was the one the winning discard completed: a hand "
    "concealed until then earns the bomb (x2).",
}


LAST_WIN = "last_win"


@dataclass(frozen=True)
class LastWin:
    """How a hand was won, as the page's boxes hold it: read off the page when a new hand replaces it
    (`from_page`), and set on the page again in one tap where the new hand is the same win (`apply`;
    `CLEARED` is a new hand's). One record, so the note, the reset, the offer and the bring-back name the
    same boxes (a review, stage 82: five lists of them had drifted)."""

    winning_tile: str | None
    won_by: str
    circumstances: tuple[str, ...]
    pay_all: bool
    discarder: str
    bonus_from_deal: tuple[str, ...]
    winning_tile_into: str
    # the discarder set aside while pay-all named the liable player (`DISCARDER_ASIDE`)
    discarder_aside: str | None = None
    # bonus tiles held from the deal that a tile edit had set aside (`from_deal_aside`)
    from_deal_aside: tuple[str, ...] = ()
    # the winning tile was set aside (the box showed "(not set)", a caption named the tile)
    winning_tile_aside: bool = False

    @classmethod
    def from_page(cls, winning_tile: str | None, aside: bool = False) -> LastWin:
        """The boxes as they stand, with the `winning_tile` chosen (or, `aside`, set aside)."""
        state = st.session_state
        return cls(
            winning_tile=winning_tile,
            winning_tile_aside=aside and winning_tile is not None,
            won_by=str(state.get("won_by") or "discard"),
            circumstances=tuple(state.get("circumstances") or ()),
            pay_all=bool(state.get("pay_all")),
            discarder=discarder_now(),
            bonus_from_deal=tuple(state.get("bonus_from_deal") or ()),
            winning_tile_into=str(kept_value(WINNING_TILE_INTO, PLACE_NOT_SAID)),
            discarder_aside=state.get(DISCARDER_ASIDE),
            from_deal_aside=tuple(state.get("from_deal_aside") or ()),
        )

    def set_boxes(self) -> tuple[object, ...]:
        """What the user sets of it (the set-aside values follow them)."""
        return (
            self.winning_tile,
            self.won_by,
            self.circumstances,
            self.pay_all,
            self.discarder,
            self.bonus_from_deal,
            self.winning_tile_into,
        )

    def words(self, rules: str) -> list[str]:
        """What of it a new hand clears, in the note's words."""
        # a tile set aside is said as the page showed it: its box said "(not set)", a caption named it
        aside = ", set aside" if self.winning_tile_aside else ""
        said = [f"winning tile ({self.winning_tile}{aside})"] if self.winning_tile else []
        said += [circumstance_label(name, rules) for name in self.circumstances]
        said += ["pay-all"] if self.pay_all else []
        said += ["discarder's seat"] if self.discarder != NOT_SAID else []
        said += ["bonus tiles held from the deal"] if self.bonus_from_deal else []
        said += ["where the winning tile went"] if self.winning_tile_into != PLACE_NOT_SAID else []
        # self-drawn or not is the last win's, as its winning tile was (an audit, stage 81: a new photo
        # kept "Self-drawn" and paid the next hand as one, unsaid)
        said += ["self-draw (Won by is Discard again)"] if self.won_by == "self-drawn" else []
        return said

    def apply(self) -> None:
        """Set the page's boxes to it. A winning tile the hand does not hold is set aside, as a tile edit
        sets it aside; a discarder who is now the winner's seat is left unsaid by the discarder's box,
        which says so."""
        state = st.session_state
        state["winning_tile"] = self.winning_tile or NO_WINNING_TILE
        state["winning_tile_wanted"] = None
        state["won_by"] = self.won_by
        state["circumstances"] = list(self.circumstances)
        state["pay_all"] = self.pay_all
        set_discarder(self.discarder)
        if self.pay_all and self.discarder_aside is not None:
            state[DISCARDER_ASIDE] = self.discarder_aside
        else:
            state.pop(DISCARDER_ASIDE, None)
        state.pop(LIABLE_ASIDE, None)
        state["bonus_from_deal"] = list(self.bonus_from_deal)
        state["from_deal_aside"] = list(self.from_deal_aside)
        keep(WINNING_TILE_INTO, self.winning_tile_into)


# the boxes of a hand whose win is not yet said
CLEARED = LastWin(None, "discard", (), False, NOT_SAID, (), PLACE_NOT_SAID)


def bring_back_win(last: LastWin) -> None:
    """The *Bring back* button's callback: the boxes as the last hand had them."""
    last.apply()
    st.session_state.pop(LAST_WIN, None)
    st.session_state["context_note"] = "Brought back how the last hand was won: check it fits this hand."


def wind_label(code: str) -> str:
    return WIND_LABELS.get(code, code)


CONTEXT_KEYS = ("seat_wind", "prevailing_wind", "circumstances")


def round_winds(tile_set: str) -> list[str]:
    """The winds a round may have with the set `tile_set` (`tile_sets.set_name`) on the table, by the
    scoring's rule (`scoring.rulesets.round_winds`: no North round in a set without the North wind; an
    audit had North offered as the prevailing wind of such a set)."""
    return list(scoring.rulesets.round_winds(tiles_in_set(tile_set)))


def set_label(tile_set: str) -> str:
    """The set on the table in the switch note's words: "Malaysian (3 players) without the North wind"."""
    rules, _, left_out = tile_set.partition(" without ")
    label = RULE_LABELS.get(rules, rules)
    return f"{label} without the North wind" if left_out == "N" else label


def _switch_context(rules: str, tile_set: str, seats: list[str]) -> None:
    """On a switch of rule set, or of the set's tiles (`tile_set`: the North wind left out), the seat,
    prevailing wind and circumstances carry over where the new set holds them (they are facts of the
    table); what it cannot hold (a North seat in the 3-player game, a North round without the North
    wind, a humanly hand) is said, not dropped silently, and comes back on switching back unless the
    user has set it since, so switching there and back loses nothing."""
    state = st.session_state
    before = state.get("context_rules")
    state["context_rules"] = tile_set
    if before is None or before == tile_set:
        return
    # the last hand's win was another rule set's: its seats and circumstances may not be this one's (a
    # review, stage 82: brought back, a humanly hand was dropped unsaid and North named a seat); the
    # North wind left out or put back changes no seat nor circumstance, so the offer stays (stage 83)
    if before.partition(" without ")[0] != tile_set.partition(" without ")[0]:
        state.pop(LAST_WIN, None)
    store: dict[str, dict[str, Any]] = state.setdefault("context_store", {})
    store[before] = {key: state[key] for key in CONTEXT_KEYS if key in state}
    store[before]["discarder_wind"] = discarder_now()
    # what the last switch set itself, not the user, goes back to what this set had
    kept = store.get(tile_set, {})
    for key, value in state.pop("context_forced", {}).items():
        if key == "discarder_wind":
            if discarder_now() == value and key in kept:
                set_discarder(kept[key])
        elif state.get(key) == value and key in kept:
            state[key] = kept[key]
    forced: dict[str, Any] = {}
    said: list[str] = []  # what the set has not ("... has no North seat: ...")
    also: list[str] = []  # what follows from it, each a sentence
    if state.get("seat_wind") is not None and state["seat_wind"] not in seats:
        said.append(
            f"no {WIND_LABELS[state['seat_wind']]} seat: the winner's seat is {WIND_LABELS[seats[0]]} now"
        )
        state["seat_wind"] = forced["seat_wind"] = seats[0]
        state.pop(SEAT_FROM_LAST_HAND, None)  # set by the switch, and said: not the last hand's
    rounds = round_winds(tile_set)
    if state.get("prevailing_wind") is not None and state["prevailing_wind"] not in rounds:
        said.append(
            f"no {WIND_LABELS[state['prevailing_wind']]} round: the prevailing wind is "
            f"{WIND_LABELS[rounds[0]]} now"
        )
        state["prevailing_wind"] = forced["prevailing_wind"] = rounds[0]
    discarder = discarder_now()
    if discarder != NOT_SAID and (discarder not in seats or discarder == state.get("seat_wind")):
        # under pay-all the box names the liable player, who need not have discarded
        whom = "the liable player" if state.get("pay_all") else "who discarded"
        # an audit read "has no North liable player": the seat is what the rule set lacks
        if discarder not in seats:
            said.append(f"no {WIND_LABELS[discarder]} seat: {whom} is not said now")
        else:  # a seat of the set, now the user's own: a sentence of its own (a review)
            also.append(
                f"{whom[0].upper()}{whom[1:]} is not said now: {WIND_LABELS[discarder]} is the winner's seat."
            )
        set_discarder(NOT_SAID)
        forced["discarder_wind"] = NOT_SAID
    offered = scoring.circumstances_for(rules)
    gone = [c for c in state.get("circumstances", []) if c not in offered]
    if gone:
        state["circumstances"] = forced["circumstances"] = [c for c in state["circumstances"] if c in offered]
        names = ", ".join(circumstance_label(c, rules) for c in gone)
        said.append(f"no {names}: left out of the special circumstances")
    state["context_forced"] = forced
    if said or also:
        lacks = [f"{set_label(tile_set)} has {'; '.join(said)}."] if said else []
        back = "it." if len(said) + len(also) == 1 else "them."
        state["context_note"] = " ".join([*lacks, *also, f"Switching back restores {back}"])
        # the fields it says the new value of: the toast's change line under it leaves them out (it said
        # "who discarded is not said now" and "who discarded North → not said")
        state[NOTE_TELLS] = tuple(forced)


def _hold_winning_tile(choices: list[str]) -> str | None:
    """A winning tile a tile edit took out of the hand is set aside, not lost: the box shows "(not set)"
    and the choice comes back when the tile does (unless the user chose another meanwhile). Returns the
    tile set aside, if any."""
    state = st.session_state
    current = state.get("winning_tile", NO_WINNING_TILE)
    if current not in choices:
        state["winning_tile_wanted"] = current
        state["winning_tile"] = NO_WINNING_TILE
    wanted = state.get("winning_tile_wanted")
    if wanted is not None and wanted in choices and state.get("winning_tile") == NO_WINNING_TILE:
        state["winning_tile"] = wanted
        state["winning_tile_wanted"] = None
        return None
    return wanted


def discarder_now() -> str:
    """The discarder's seat as set, its box drawn or not (a self-draw asks no discarder)."""
    return str(kept_value("discarder_wind", NOT_SAID))


def set_discarder(value: str) -> None:
    keep("discarder_wind", value)


DISCARDER_ASIDE = "discarder_aside"  # the discarder's seat as set before pay-all was ticked
LIABLE_ASIDE = "liable_aside"  # the liable player's seat as set before pay-all was unticked
# whether the win is scored as self-drawn (said so, or a replacement tile): the discarder's box hidden
DISCARDER_HIDDEN = "discarder_hidden"
# the scoring input's fields the context note says the new value of (`toasts.toast_later`'s `told`)
NOTE_TELLS = "context_note_tells"


def set_aside_choices() -> dict[str, str]:
    """The discarder's seat as the user set it, its box drawn or not (a self-draw hides it, and the
    case then names no discarder), and the one pay-all set aside: kept beside the case for a reload."""
    kept = {"discarder_wind": discarder_now()}
    aside = st.session_state.get(DISCARDER_ASIDE)
    if aside is not None:
        kept[DISCARDER_ASIDE] = str(aside)
    return kept


def bring_back_set_aside(kept: Mapping[str, Any], context: Context, rules: str) -> None:
    """After a reload opened its case (`context`), the discarder the page held beside it (`kept`:
    `set_aside_choices`) where the case names none (a self-draw), and the one pay-all set aside; a seat
    that is no other player's now is left unsaid, as the case opened."""
    players = {NOT_SAID, *(s for s in scoring.get_ruleset(rules).seats if s != context.seat_wind)}
    hidden = kept.get("discarder_wind")
    if context.discarder_wind is None and hidden in players:
        set_discarder(str(hidden))
    aside = kept.get(DISCARDER_ASIDE)
    if context.pay_all and aside in players:
        st.session_state[DISCARDER_ASIDE] = aside


def _pay_all_changed() -> None:
    """One box names the discarder and, under pay-all, the liable player: ticked, the discarder is set
    aside; unticked, it comes back (said or not; not said where it is now the user's own seat), with a
    note where the box named another player meanwhile, who would otherwise stay the discarder unsaid."""
    state = st.session_state
    if state.get("pay_all"):
        state[DISCARDER_ASIDE] = discarder_now()
        liable_before = state.pop(LIABLE_ASIDE, None)
        if liable_before in _other_seats():
            # the liable player chosen before pay-all was unticked, not the discarder again (an audit,
            # stage 82: ticked off and on, pay-all charged the discarder, not the one chosen)
            set_discarder(str(liable_before))
        elif state.get(DISCARDER_HIDDEN):
            # a self-draw's hidden box still holds the discarder of before: no liable player the
            # user named (an audit saw South charged for all, never chosen)
            set_discarder(NOT_SAID)
        return
    aside = state.pop(DISCARDER_ASIDE, None)
    liable = discarder_now()
    if liable != NOT_SAID:
        state[LIABLE_ASIDE] = liable
    if aside is None or aside == liable:
        return
    back = aside if aside == NOT_SAID or aside in _other_seats() else NOT_SAID
    # through the kept value, the box drawn afresh from it: a self-draw draws no box this run
    state.setdefault(KEPT, {})["discarder_wind"] = back
    state.pop("discarder_wind", None)
    if liable == NOT_SAID or state.get("won_by") == "self-drawn":
        return
    was = f"{wind_label(liable)} was the liable player"
    if back == aside:
        said = "who discarded is not said" if back == NOT_SAID else f"discarded by {wind_label(back)}"
        state["context_note"] = f"Pay-all off: {said} again, as before it ({was})."
    else:
        state["context_note"] = (
            f"Pay-all off: who discarded is not said: {wind_label(aside)}, the discarder before it, "
            f"is the winner's seat now ({was})."
        )
    state[NOTE_TELLS] = ("discarder_wind",)


def _other_seats() -> list[str]:
    """The seats of the rule set's players other than the winner's."""
    seats = scoring.get_ruleset(chosen_rules()).seats
    return [other for other in seats if other != st.session_state.get("seat_wind", "E")]


def _payer_ui(seats: list[str], seat: str, self_drawn: bool, pay_all: bool) -> str | None:
    """Which seat discarded the winning tile (under pay-all: which player is liable), so the payout
    names every player by seat; not asked of a self-draw, where every loser pays alike."""
    if self_drawn and not pay_all:
        return None
    choices = [NOT_SAID, *(other for other in seats if other != seat)]
    if discarder_now() not in choices:
        # the seat it named is now the user's own: nobody discards to himself
        note = f"{wind_label(discarder_now())} is the winner's seat now: who discarded is not said."
        st.session_state["context_note"] = note
        st.session_state[NOTE_TELLS] = ("discarder_wind",)
        set_discarder(NOT_SAID)
    elif "discarder_wind" not in st.session_state:
        set_discarder(discarder_now())
    picked = st.selectbox(
        "Liable player's seat" if pay_all else "Discarded by",
        choices,
        key="discarder_wind",
        format_func=lambda code: code if code == NOT_SAID else wind_label(code),
        help="Names each player's seat in the payout; the amounts do not depend on it.",
    )
    remember("discarder_wind")
    return None if picked == NOT_SAID else picked


def context_ui(hand: dict[str, Any], rules: str) -> Context:
    """How the hand was won; every widget is keyed so the choices survive reruns."""
    st.header("How was it won?")
    seats = list(scoring.get_ruleset(rules).seats)
    tile_set = chosen_set()
    _switch_context(rules, tile_set, seats)
    left, right = st.columns(2)
    # the winner's: whoever holds the phone, the hand scored is the winner's (an audit, stage 81: "your
    # seat" read as the seat of the player scoring it)
    seat = left.selectbox(
        "Winner's seat wind",
        seats,
        format_func=wind_label,
        key="seat_wind",
        help="The seat of the player who won this hand, whoever is scoring it.",
        on_change=lambda: st.session_state.pop(SEAT_FROM_LAST_HAND, None),
    )
    if st.session_state.get(SEAT_FROM_LAST_HAND):
        # beside the box, until it is set: the result below is scored for it (an audit, stage 82: a
        # night's third hand was paid to the second hand's winner's seat, the note a screen above)
        left.caption(f"Kept from the last hand: is {wind_label(seat or 'E')} this hand's winner too?")
    # every round has its wind, North's too, in the 3-player game (seeds/004 goes round all four),
    # unless the set has no North wind
    prevailing = right.selectbox(
        "Prevailing wind", round_winds(tile_set), format_func=wind_label, key="prevailing_wind"
    )
    if not scoring.get_ruleset(rules).scores_prevailing_wind:
        right.caption(f"{RULE_LABELS.get(rules, rules)} rules give no fan for the prevailing wind.")
    how = st.radio(
        "Won by",
        ["discard", "self-drawn"],
        horizontal=True,
        key="won_by",
        format_func=lambda v: "Discard (someone threw it)" if v == "discard" else "Self-drawn",
    )
    state = st.session_state
    # the circumstances as their box holds them, as the winning tile's box is drawn above theirs
    circumstances_now = state.get("circumstances") or ()
    self_drawn = hand_build.scored_as_self_drawn(
        how == "self-drawn", hand.get("bonus") or (), circumstances_now, rules
    )
    chosen = (state.get("winning_tile"), state.get("winning_tile_wanted"))
    choices = [NO_WINNING_TILE, *hand_build.winning_tile_choices(hand, self_drawn, chosen)]
    gone = _hold_winning_tile(choices)
    picked = st.selectbox(
        "Winning tile",
        choices,
        key="winning_tile",
        help=WINNING_TILE_HELP.get(rules, "")
        + " A kong's tiles are not offered: no win completes a kong; nor, on a self-draw, a tile only in an"
        " exposed chow or pong: it was claimed from a discard.",
        on_change=lambda: st.session_state.update(winning_tile_wanted=None),
    )
    winning = None if picked == NO_WINNING_TILE else picked
    into = _place_ui(hand, winning, self_drawn, circumstances_now)
    if gone:
        why = hand_build.set_aside_reason(gone, [meld.get("tiles") or () for meld in hand.get("melds") or []])
        # an audit (stage 77): "a tile which the hand does not hold now (it comes back with the tile)"
        st.caption(
            f"Winning tile {gone} set aside: {why}. It is chosen again once the hand can be won on it."
        )
    offered = scoring.circumstances_for(rules)
    # those the hand cannot have left out, a tick already given kept (`hand_build.circumstances_shown`)
    lacking = hand_build.circumstances_lacking(hand, self_drawn, seat or "E", rules)
    # a choice only the other rule set offers was left out by _switch_context, and said so
    # "Select all" would claim circumstances that exclude each other (heavenly hand and robbing a kong)
    circumstances = st.multiselect(
        "Special circumstances",
        hand_build.circumstances_shown(offered, lacking, circumstances_now),
        key="circumstances",
        # one label whatever the rule set: Streamlit keeps a choice by its label
        format_func=circumstance_label,
        placeholder=NONE_CHOSEN,
        select_all=False,
        help=circumstances_help(offered, rules, lacking),
    )
    # a replacement tile (eight flowers too) is drawn by the winner whatever the radio says: the page
    # says so where it is asked, and asks nobody who discarded (an audit saw "Discard" and a discarder
    # beside a result scored as self-drawn)
    drawn = scoring.drawn_by_winner(hand.get("bonus") or (), circumstances, scoring.get_ruleset(rules))
    if drawn and how == "discard":
        st.caption(f"Scored as self-drawn: {drawn}.")
    # read by the pay-all box's callback, run before this script on the next click
    st.session_state[DISCARDER_HIDDEN] = how == "self-drawn" or bool(drawn)
    # the label short: at 320 px the whole sentence was cut off (an accessibility audit, stage 80)
    pay_all = st.checkbox(
        "Pay-all (包)",
        key="pay_all",
        on_change=_pay_all_changed,
        help="One liable player pays everything, the other players' shares too.",
    )
    payer = _payer_ui(seats, seat or "E", how == "self-drawn" or bool(drawn), bool(pay_all))
    held = _from_deal_ui(hand, rules)
    note = st.session_state.pop("context_note", None)
    tells = st.session_state.pop(NOTE_TELLS, ())
    if note:
        st.info(note)
        # the seat box it is about lies a screen above on a phone, the sidebar beside; one toast with
        # the score's change that it may bring, which leaves out the fields the note told
        toast_later(note, told=tells)
    # offered until a box it would set is set, or it is taken: not only in the run of the new hand's
    # note (a hostile test, stage 82: setting the seat first, as its caption asks, lost the offer)
    last_win = st.session_state.get(LAST_WIN)
    untouched = LastWin.from_page(winning).set_boxes() == CLEARED.set_boxes()
    if not untouched:
        # this hand's win is being set: the seat above was looked at with it
        st.session_state.pop(SEAT_FROM_LAST_HAND, None)
    if not untouched or not isinstance(last_win, LastWin):
        st.session_state.pop(LAST_WIN, None)
    else:
        st.button(
            "Bring back how the last hand was won (the same win, only its tiles changed)",
            key="bring_back_win",
            on_click=bring_back_win,
            args=(last_win,),
        )
    return Context(
        seat_wind=seat or "E",
        prevailing_wind=prevailing or "E",
        self_drawn=how == "self-drawn",
        winning_tile=winning,
        circumstances=tuple(circumstances),
        pay_all=bool(pay_all),
        discarder_wind=payer,
        bonus_from_deal=held,
        winning_tile_into=into,
    )


def _place_ui(
    hand: dict[str, Any], winning: str | None, self_drawn: bool, circumstances: Iterable[str]
) -> str | None:
    """Where the winning discard went, asked only where the tiles let it go either way: into the
    concealed tiles, or into an exposed chow or pong laid down with it. A photo cannot tell which, and
    the two may score apart (four chows laid down and a pair won on a single wait are no sequence hand;
    an audit, stage 82). Unsaid, the place that scores more counts. A place said (by the user, or an
    opened case) stays asked, and scored, whatever the tile or the win since: the scoring then says
    where it no longer fits, as `python -m scoring` does with the case (a hostile test, stage 82: a
    case's place, its question not asked, was dropped unsaid and the page and the CLI disagreed)."""
    said = kept_value(WINNING_TILE_INTO, PLACE_NOT_SAID)
    if said not in PLACE_LABELS:
        said = PLACE_NOT_SAID
        keep(WINNING_TILE_INTO, said)
    either_way = (
        winning is not None and not self_drawn and hand_build.goes_either_way(hand, winning, circumstances)
    )
    if not either_way and said == PLACE_NOT_SAID:
        return None
    if WINNING_TILE_INTO not in st.session_state:
        keep(WINNING_TILE_INTO, said)
    picked = st.radio(
        f"Where the winning {winning or 'tile'} went",
        list(PLACE_LABELS),
        key=WINNING_TILE_INTO,
        format_func=PLACE_LABELS.__getitem__,
        help="The discard that won may have gone into the concealed tiles, or completed a chow or pong laid "
        "down with the melds: a photo cannot tell which, and the result says what each scores.",
    )
    remember(WINNING_TILE_INTO)
    return None if picked == PLACE_NOT_SAID else picked


def _from_deal_ui(hand: dict[str, Any], rules: str) -> tuple[str, ...]:
    """The bonus tiles held from the deal, which double the instant payouts they earn (Singapore's only:
    the Malaysian rules pay none); asked only of a hand with such tiles."""
    tiles = [code for code in dict.fromkeys(hand.get("bonus") or []) if code in FROM_DEAL_TILES]
    state = st.session_state
    # a tile an edit takes out of the bonus row is set aside (the box refuses a value it does not
    # offer), and held again when the tile comes back, as the winning tile is
    marked = list(
        dict.fromkeys([*(state.get("bonus_from_deal") or []), *(state.get("from_deal_aside") or [])])
    )
    state["bonus_from_deal"] = [code for code in tiles if code in marked]  # in the bonus row's order
    state["from_deal_aside"] = [code for code in marked if code not in tiles]
    if rules != "singapore" or not tiles:
        return ()
    held = st.multiselect(
        "Bonus tiles held from the deal",
        tiles,
        key="bonus_from_deal",
        placeholder=NONE_CHOSEN,
        help="Flowers, seasons or animals the winner was dealt (not drawn later): they double the instant "
        "payouts for an animal pair and for the winner's own flower and season.",
    )
    aside = state["from_deal_aside"]
    if aside:
        st.caption(
            f"Held from the deal, set aside: {', '.join(aside)} (held again when back in the bonus row)."
        )
    return tuple(held)
