"""The result section: the hand scored (or why not), the tai pattern by pattern, the payouts with their
basis, the instant payouts, the text summary, and the case offered for download."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import json
import zoneinfo
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

import scoring
from app_ui import case_file, hand_build, unsure_stakes
from app_ui.case import Base, Context, HandBuild, TileRow
from app_ui.summary import (
    NO_WIN_REASONS,
    amount_text,
    idle_bonus_note,
    instant_line,
    invalid_message,
    limit_words,
    no_payout_words,
    payout_heading,
    plain,
    plain_line,
    player_label,
    points_words,
    read_as_line,
    rules_line,
    seat_label,
    settle_words,
    summary_text,
    with_instant_payouts,
    with_option_labels,
)
from app_ui.toasts import toast_later
from app_ui.winning_hint import (
    Outcome,
    said_by_the_ask,
    score_span,
    wants_winning_tile,
    winning_tile_note,
    winning_tile_outcomes,
    winning_tile_ways,
)
from scoring.api import limits_not_added, other_reading_lines, place_hint

RESULT_ANCHOR = "result"  # the result's heading, which the line under the photo links to
# The text summary is for pasting into a chat, so it says everything the result above says (a pasted
# "Hand: ..." without its "Not a valid win: ..." would mislead); folded away on the page, where it read
# the result a second time (a no-win reason twice in a row, the red box and the summary's first line)
SUMMARY_LABEL = "Text summary to paste into a chat"


def place_note(data: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    """Where the winning discard went changes the score and the page was not told: each place's score,
    and where to say it (an audit, stage 82: four chows laid down paid 4 tai as one claimed with the
    winning tile, and only a grey line said that otherwise the hand was no win)."""
    hint = place_hint(data, result)
    if hint is None:
        return None
    return f"{hint}. Say which under *How was it won?* (*Where the winning {data.get('winning_tile')} went*)."


def score_case(
    build: HandBuild, context: Context, rules: str, options: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None, str | None]:
    """Scoring input, result (or None) and the one-line error for input that is not a hand."""
    data = hand_build.scoring_input(build.hand, context, rules, options)
    if build.problems:  # not scored; the case file keeps every tile (`HandBuild.unfinished`)
        data["melds"] += [{"tiles": list(tiles)} for tiles in build.unfinished]
        return data, None, None
    try:
        return data, scoring.score_json(data), None
    except scoring.OptionError as exc:
        return data, None, f"Check the rules in the sidebar: {with_option_labels(str(exc), rules)}"
    except scoring.MalformedHandError as exc:
        return data, None, f"This is not a hand that can be scored: {exc}"
    except Exception as exc:  # the page must never show a traceback
        return data, None, f"The hand could not be scored ({type(exc).__name__}: {exc})."


def rows_scorer(
    meld_concealed: Mapping[str, bool], context: Context, rules: str, options: Mapping[str, Any]
) -> unsure_stakes.ScoreRows:
    """Rows scored as the page scores the table's (the kongs as ticked, `meld_concealed`): the result
    and, where no winning tile is set, the hand scored with each tile that may have won it; None where
    the rows make no hand to score."""

    def score_rows(rows: list[TileRow]) -> unsure_stakes.Scored | None:
        build = hand_build.build_hand(rows, meld_concealed)
        data, result, _ = score_case(build, context, rules, dict(options))
        return None if result is None else (result, winning_tile_outcomes(data))

    return score_rows


def stakes_of(
    rows: Sequence[TileRow],
    meld_concealed: Mapping[str, bool],
    context: Context,
    rules: str,
    options: Mapping[str, Any],
    in_set: Collection[str],
    now: unsure_stakes.Scored | None = None,
) -> tuple[str, tuple[unsure_stakes.Stake, ...]] | None:
    """The hand of `rows` scored as the page scores it, in a few words, and its unsure tiles read as
    their runner-up (`unsure_stakes.unsure_stakes`); None where the rows make no hand to score or no
    tile is unsure. `now`: the rows as the page scored them (the result and its winning-tile outcomes),
    not scored again; None: scored here. Kept for the page's reruns: a click elsewhere scores nothing
    again (a Malaysian hand of flies and six unsure tiles took 0.3 s, an audit)."""
    if not any(row.to_check for row in rows):
        return None
    return _stakes_kept(
        tuple((row, row.number) for row in rows),  # a row's number is no part of its equality
        tuple(sorted(meld_concealed.items())),
        context,
        rules,
        json.dumps(dict(options), sort_keys=True, default=str),
        frozenset(in_set),
        _Unkeyed(now),
    )


@dataclasses.dataclass(frozen=True, eq=False)
class _Unkeyed:
    """A value handed through `functools.lru_cache` as no part of its key: equal to any other, as the
    score `now` follows from the rows, the context, the rules and the options that key it."""

    value: unsure_stakes.Scored | None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unkeyed)

    def __hash__(self) -> int:
        return 0


@functools.lru_cache(maxsize=64)
def _stakes_kept(
    numbered: tuple[tuple[TileRow, int | None], ...],
    meld_concealed: tuple[tuple[str, bool], ...],
    context: Context,
    rules: str,
    options: str,
    in_set: frozenset[str],
    given: _Unkeyed,
) -> tuple[str, tuple[unsure_stakes.Stake, ...]] | None:
    rows = [dataclasses.replace(row, number=number) for row, number in numbered]
    score_rows = rows_scorer(dict(meld_concealed), context, rules, json.loads(options))
    now = given.value or score_rows(rows)
    if now is None:
        return None
    return score_span(*now), tuple(unsure_stakes.unsure_stakes(rows, in_set, now, score_rows))


def result_ui(
    build: HandBuild,
    data: dict[str, Any],
    result: dict[str, Any] | None,
    error: str | None,
    option_problems: list[str],
    stale_note: str | None = None,
    outcomes: list[Outcome] | None = None,
    changed: str | None = None,
    toast_changed: str | None = None,
    reread: str | None = None,
) -> None:
    """The result: the rules it was scored under, the tai pattern by pattern, the payout and its basis,
    the instant payouts and the text summary; `stale_note` says the typed hand above is not the one
    scored; `outcomes` the hand scored with each tile that may have won it, where none is set
    (`app_ui.winning_hint`); `changed` what the user's last change did to the score, `toast_changed` the
    same as the run's toast says it (the fields a note above it told left out; None: as `changed`);
    `reread` the label of the button above that reads the photo's tiles again as the rule set's, where
    it is offered (`hand_view.reread_label`)."""
    st.header("Result", anchor=RESULT_ANCHOR)
    st.caption(rules_line(str(data.get("rules", "singapore")), dict(data.get("options") or {})))
    if not build.hand["concealed"] and not build.hand["melds"] and not build.hand["bonus"]:
        st.caption("The score appears here once there are tiles.")
        return
    if stale_note:
        st.warning(stale_note)
    # each may quote what the user typed or a file held: shown as it is, no markup
    for problem in [*option_problems, *build.problems]:
        st.warning(plain_line(problem))
    if error:
        st.error(plain_line(error))
    if result is None:
        return
    if changed:
        st.info(f"Changed: {plain(changed)}", icon="🔁")
        # also where the user is: on a phone the result lies a screen or more below the box changed
        toast_later(f"Changed: {plain(toast_changed or changed)}", icon="🔁")
    unit = str(result.get("unit") or "tai")
    outcomes = outcomes or []
    ask = winning_tile_note(result, outcomes, unit)
    place_ask = place_note(data, result)
    for warning in result.get("warnings") or []:
        if not (ask and said_by_the_ask(str(warning))):
            st.info(plain(with_option_labels(str(warning), str(data.get("rules", "singapore")))))
    if ask and wants_winning_tile(result, outcomes):
        # no win only for want of the winning tile: asked for, not shown as a hand that lost
        st.warning(ask)
        st.caption(f"As it stands, with no winning tile: {invalid_message(result)}")
    elif result.get("valid"):
        if ask:
            st.warning(ask)
        if place_ask:
            st.warning(place_ask)
        capped = result.get("raw_tai") != result.get("tai")
        # the points are what a Malaysian table pays by: in the line, not a grey caption under it (an
        # audit, stage 81)
        # after the cap's note, as the command line has it ("10 fan (raw 14) = 200 points")
        points = f" = **{points_words(result['points'])}**" if result.get("points") is not None else ""
        st.success(
            f"**{result['tai']} {unit}**"
            + (f" (raw {result['raw_tai']}, capped)" if capped else "")
            + points
            + (f" — {limit_words(data, result)}" if result.get("limit") else "")
        )
        not_added = limits_not_added(result)
        if not_added:
            st.caption(not_added[0].upper() + not_added[1:] + ".")
    else:
        st.error(invalid_message(result, reread))  # the scoring's words about codes, with our emphasis
    patterns = result.get("patterns") or []
    # why a flower scores nothing matters to a win, or to a hand short of the minimum; not to tiles the
    # set lacks, a count gone wrong or no winning shape (an audit, stage 77: it stood above those)
    counts = (
        result.get("valid") or result.get("reason") == "below_minimum" or wants_winning_tile(result, outcomes)
    )
    idle = idle_bonus_note(data) if counts else None
    if idle:
        st.caption(idle)
    if result.get("arrangement"):
        # the sets the rows were counted on, by the rows (an audit, stage 81: only the summary said it)
        # with its marks explained: [CCC] and <5555s> stood unexplained on the page (a walkthrough)
        st.caption(read_as_line(str(result["arrangement"])))
    if patterns:
        st.markdown(
            "\n".join(
                f"- **{p['name']}** {p.get('name_zh', '')} · **{p['tai']}** {unit} — {p.get('reason', '')}"
                for p in patterns
            )
        )
    for line in other_reading_lines(result):
        st.caption(with_option_labels(line, str(data.get("rules", "singapore"))))
    payout = result.get("payout") or {}
    players = payout.get("players") or []
    instant = payout.get("instant_payouts") or []
    if result.get("valid") and players:
        # while the winning tile would change it, the table is not yet what is paid (an audit, stage 81:
        # "Discarder -240" stood under "6 fan as it stands" where won on 2p it was 10 fan)
        settle = settle_words(bool(ask), bool(place_ask))
        st.markdown(payout_heading(settle, players, bool(data.get("pay_all"))))
        columns = {
            "Player": [player_label(p) for p in players],
            "Seat": [seat_label(p) for p in players],
            "Amount": [amount_text(p["amount"]) for p in players],
        }
        if instant:  # what each player ends the hand with, the instant payouts below included
            columns["With instant payouts"] = [amount_text(v) for v in with_instant_payouts(players, instant)]
        st.table(pd.DataFrame(columns).set_index("Player"))
        if payout.get("basis"):
            st.caption(f"How: {payout['basis']}")
    elif not ask and result.get("reason") in NO_WIN_REASONS:
        # said, not left to the missing table (an audit, stage 82: "who pays?" asked again at the table);
        # not of tiles or a context still to be put right, whose hand may yet win
        st.markdown(f"**Payout**: {no_payout_words(bool(instant))}")
    if instant:
        # a kong or a pair of animals is paid when shown, win or not: the case file and the CLI list them
        when = "on top of the win" if result.get("valid") else "though the hand is no win"
        st.markdown(f"**Instant payouts** (settled at once, {when})")
        st.markdown("\n".join(f"- {instant_line(item)}" for item in instant))
    ways = winning_tile_ways(result, outcomes, unit)  # as the ask above says them
    with st.expander(SUMMARY_LABEL, icon="📋"):
        st.code(summary_text(data, result, ways), language=None, wrap_lines=True)


def download_ui(
    data: dict[str, Any],
    base: Base,
    rows: list[TileRow],
    result: dict[str, Any] | None,
    kongs: list[dict[str, Any]],
    edits: dict[str, Any],
) -> bytes | None:
    """Offer the case for download (`edits`: the table's corrections as the editor holds them); its
    bytes, or None where there is no hand to keep."""
    if not rows:
        return None  # nothing to keep yet: an empty case would only confuse
    case = case_file.case_json(data, base, rows, edits, result, kongs)
    # Kept in the session so the exact file offered for download can be checked (tests, support).
    st.session_state["case_json"] = case
    offered = case_file.case_bytes(case)
    name = case_file.download_name(case, _offered_at(offered))
    st.download_button(
        "Download the case (JSON)",
        offered,
        file_name=name,
        mime="application/json",
        key="download_case",
        help=f"Replays with: python -m scoring {name}",
    )
    return offered


DOWNLOAD_STAMP = "download_stamp"  # the case's bytes offered last (their digest) and when first offered


def _offered_at(offered: bytes) -> datetime.datetime:
    """When these case bytes were first offered (`stamp_for`), in the browser's time zone where it says
    one (the server's may be another: a hand saved at 20:05 in Singapore named 12:05)."""
    state = st.session_state
    digest = hashlib.sha256(offered).hexdigest()
    state[DOWNLOAD_STAMP] = stamp_for(digest, state.get(DOWNLOAD_STAMP), _now())
    return state[DOWNLOAD_STAMP][1]


def stamp_for(
    digest: str, kept: tuple[str, datetime.datetime] | None, now: datetime.datetime
) -> tuple[str, datetime.datetime]:
    """The stamp of a case whose bytes have `digest`: the one `kept` where they are the same (a rerun
    that changed nothing offers the file under the same name), else `now`."""
    return kept if kept is not None and kept[0] == digest else (digest, now)


def _now() -> datetime.datetime:
    zone = None
    try:
        named = st.context.timezone
        zone = zoneinfo.ZoneInfo(named) if named else None
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # a zone this machine does not know
        zone = None
    return datetime.datetime.now(zone)
