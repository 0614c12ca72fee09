"""`score_json`: the scoring CLI's JSON in, JSON out (ARCHITECTURE.md contract)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from decimal import InvalidOperation
from typing import Any

from scoring.engine import score
from scoring.errors import MalformedHandError, MeldError, RulesetError, brief, json_kind, json_value
from scoring.hand import INPUT_FIELDS, Context, Hand, hand_from_json
from scoring.options import Options, default_options, options_from_mapping, unread_options
from scoring.payout import format_amount
from scoring.rulesets import DEFAULT_RULESET, RULESET_NAMES, Ruleset, get_ruleset
from scoring.tiles import BACK, tiles_from_field

# What the app's downloaded case records beside the hand (its photo, reading, corrections and the result
# it showed): the case replays with `python -m scoring case.json`, so these are expected, not unknown.
CASE_RECORD_FIELDS = frozenset({"source", "photo_tiles", "corrections", "tiles", "result"})


def _meld_tile_outside(data: Mapping[str, Any], tiles: Collection[str]) -> str | None:
    """The first tile of the input's melds that is not among `tiles`, or None (unreadable melds too)."""
    melds = data.get("melds")
    for meld in melds if isinstance(melds, list) else []:
        try:
            codes = tiles_from_field(meld.get("tiles") if isinstance(meld, Mapping) else meld, "melds")
        except MalformedHandError:
            continue
        outside = next((code for code in codes if code not in tiles), None)
        if outside is not None:
            return outside
    return None


def _beside_and_said(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """For a file holding a photo's `hand` (no `concealed` of its own): the scoring fields written
    beside it, and those of the hand that stand over them; None for a hand written at the top level."""
    hand = data.get("hand")
    if "concealed" in data or not isinstance(hand, dict):
        return None
    # scoring fields written beside the reading (`"seat_wind": "S"` added to a photo's JSON) say what
    # the photo cannot; what the hand says itself is more particular, and stands, but for the empty
    # lists a reading writes where it saw nothing (`"bonus": []`: a bonus row written beside)
    beside = {key: value for key, value in data.items() if key in INPUT_FIELDS}
    # a null in the hand says nothing (JSON's "not given"), so a value written beside it is used
    said = {
        key: value for key, value in hand.items() if value is not None and (value != [] or key not in beside)
    }
    return beside, said


def hand_of(data: dict[str, Any]) -> dict[str, Any]:
    """The hand in a file: the object itself, or, when it has no `concealed` field, its `hand`: that of
    `python -m vision --json`'s output (so `python -m vision PHOTO --json | python -m scoring -` scores
    the photo) or of a generated scene's ground truth (`samples/*.json`), with the scoring fields written
    beside it (the scene's `rules`, a seat wind added by hand) where the hand does not say them."""
    parts = _beside_and_said(data)
    return data if parts is None else {**parts[0], **parts[1]}


def unused_beside(data: Mapping[str, Any]) -> list[str]:
    """The scoring fields written beside a file's `hand` that `hand_of` leaves out, the hand saying
    them otherwise itself (a bonus row written beside a reading that has its own): to warn of, as a
    correction written there does not count."""
    parts = _beside_and_said(data)
    if parts is None:
        return []
    beside, said = parts
    return [key for key in INPUT_FIELDS if key in beside and key in said and said[key] != beside[key]]


def unused_beside_warning(key: str) -> str:
    return f'{key} written beside "hand" is not used: the hand\'s own {key} stands (correct it inside "hand")'


def score_json(data: dict[str, Any]) -> dict[str, Any]:
    """Score a hand given as the CLI's input JSON; return the output JSON. A file holding its hand as
    `hand` (`python -m vision --json`'s output, a generated scene's ground truth) is scored as the CLI
    scores it (`hand_of`), with a warning for each field beside the hand that it does not use.

    Raises `MalformedHandError` (a `ValueError`) with a one-line message for input that cannot be a hand.
    """
    if not isinstance(data, Mapping):
        raise MalformedHandError(f"the hand must be a JSON object, not {json_kind(data)}")
    given, data = data, hand_of(dict(data))
    inputs = read_inputs(data)
    result = score(inputs.hand, inputs.context, inputs.ruleset, inputs.options).to_json()
    ruleset, options, options_data = inputs.ruleset, inputs.options, data.get("options") or {}
    warnings = result["warnings"]
    assert isinstance(warnings, list)
    unknown = sorted(set(data) - INPUT_FIELDS - CASE_RECORD_FIELDS)
    if unknown:
        warnings.append(f"ignored unknown field{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}")
    warnings.extend(_unknown_meld_fields(data.get("melds")))
    warnings.extend(unused_beside_warning(key) for key in unused_beside(given))
    warnings.extend(
        f"option {name} is not part of {ruleset.name} rules; ignored"
        for name in unread_options(ruleset.name, options, options_data)
    )
    warnings.extend(reading_warning_lines(given))
    changed = saved_result_change(data.get("result"), result)
    if changed:
        warnings.append(changed)
    return result


@dataclass(frozen=True)
class Inputs:
    """What a scoring input JSON asks to score, read: two files that read alike score alike."""

    hand: Hand
    context: Context
    ruleset: Ruleset
    options: Options


def read_inputs(data: Mapping[str, Any]) -> Inputs:
    """The hand, context, rule set and options of an input JSON with its hand at the top level (after
    `hand_of`); `MalformedHandError` with a one-line message where it cannot be a hand."""
    rules_name = data.get("rules") or DEFAULT_RULESET
    if not isinstance(rules_name, str):
        names = " or ".join(RULESET_NAMES)
        raise RulesetError(f"rules must be the name of a rule set ({names}), got {json_value(rules_name)}")
    ruleset = get_ruleset(rules_name)
    options_data = {} if data.get("options") is None else data["options"]
    if not isinstance(options_data, Mapping):
        raise MalformedHandError(f"options must be an object, got {json_value(options_data)}")
    options = options_from_mapping(default_options(ruleset.name), options_data)
    try:
        hand, context = hand_from_json(data)
    except MeldError as error:
        # A meld's own rule (two flies in an exposed chow) says less than that its tile is not in this
        # rule set's tiles at all (a fly under Singapore rules): say that first.
        # a bonus tile or a face-down tile is in the set: its meld's own rule says what is wrong
        in_set = (*ruleset.set_tiles(options), BACK)
        stranger = _meld_tile_outside(data, in_set)
        if stranger is None:
            raise
        name = ruleset.name.capitalize()
        raise MeldError(f"{stranger} is not in the {name} tile set ({error.reason})", error.where) from None
    return Inputs(hand, context, ruleset, options)


def _payout_items(result: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """A result's payout list `key` (`players`, `instant_payouts`), its records only: a saved result
    may have been written by hand or by an older app."""
    payout = result.get("payout")
    items = payout.get(key) if isinstance(payout, Mapping) else None
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, list) else []


def _outcome(result: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a result settles: whether the hand wins, its tai (fan) and each player's amount where it
    does, and the instant payouts' amounts, paid win or not. Not its wording, which may be said better
    later, nor the players' seats, which the hand's context gives and results saved before 2026-12-01
    leave out (a review, stage 79: every such case was said to score otherwise)."""
    paid = tuple(_amount(item.get("total")) for item in _payout_items(result, "instant_payouts"))
    if not result.get("valid"):
        return (False, paid)
    players = _payout_items(result, "players")
    amounts = tuple((player.get("role"), _amount(player.get("amount"))) for player in players)
    return (True, result.get("tai"), amounts, paid)


def _amount(value: object) -> object:
    # an amount read back from JSON is a double: compared to the cent's millionth, not bit for bit
    return round(float(value), 6) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _outcome_words(result: Mapping[str, Any]) -> str:
    """A result in the scoring's own words (`Valid win: 3 tai; ...`), its instant payouts named."""
    words = str(result.get("message") or ("a valid win" if result.get("valid") else "not a valid win"))
    instant = _payout_items(result, "instant_payouts")
    if instant:
        named = ", ".join(map(_instant_words, instant))
        words = f"{words.rstrip('.')}; instant payouts: {named}."
    return brief(words, 300)


def _instant_words(item: Mapping[str, Any]) -> str:
    """An instant payout of a result as the CLI's line ends it, "exposed kong of P: 3 in all": the
    total set apart from the name (an audit: "exposed kong of P 6" read as a tile P6), and a saved one
    written by hand without a name or total named by its key alone, not "None None"."""
    name = str(item.get("name") or item.get("key") or "instant payout")
    total = _amount(item.get("total"))
    if not isinstance(total, float):
        return name
    try:
        said = format_amount(total)
    except InvalidOperation:
        # a total written by hand past what a payout holds (1e300, NaN: JSON reads both) is said as the
        # file gives it: it had ended the replay in an internal error
        said = f"{total:g}"
    return f"{name}: {said} in all"


def saved_result_change(saved: object, now: Mapping[str, Any]) -> str | None:
    """Where a case file's `result` (what the app showed when it was saved) settles otherwise than the
    hand scores now (the rules or this program changed since), a warning giving both; None where it
    settles the same, or the file holds no result to compare (an audit, stage 79: an old case of 3 fan,
    no win, opened later as 6 fan paying 240 without a word)."""
    if not isinstance(saved, Mapping) or not isinstance(saved.get("valid"), bool):
        return None
    if _outcome(saved) == _outcome(now):
        return None
    was, is_now = _outcome_words(saved), _outcome_words(now)
    if was == is_now:
        return None  # nothing a reader could tell apart
    return (
        f'this case was saved as "{was}" and scores now as "{is_now}": '
        "the rules or this program changed since it was saved"
    )


MELD_FIELDS = frozenset(("kind", "tiles", "concealed"))


def _unknown_meld_fields(melds: object) -> list[str]:
    """A warning for each meld with fields the scoring does not read, as for the hand's own (an audit,
    stage 77: `"concaled": true` in a meld was ignored without a word)."""
    if not isinstance(melds, list):
        return []
    warnings = []
    for index, meld in enumerate(melds):
        unknown = sorted(set(meld) - MELD_FIELDS) if isinstance(meld, Mapping) else []
        if unknown:
            plural = "s" if len(unknown) > 1 else ""
            warnings.append(
                f"ignored unknown field{plural} in melds[{index}]: {', '.join(map(str, unknown))}"
            )
    return warnings


def reading_warning_lines(data: Mapping[str, Any]) -> list[str]:
    """The photo reader's own warnings in a file that is `python -m vision --json`'s output (an unsure
    tile, tiles left out), as the score's warnings: a score piped on from a reading must not look
    surer than the reading was."""
    said = data.get("warnings") if "hand" in data and "detections" in data else None
    lines = [line for line in said if isinstance(line, str)] if isinstance(said, list) else []
    return [f"the photo's reading: {line}" for line in lines]


def other_reading_lines(result: Mapping[str, Any]) -> list[str]:
    """Each other reading of the tiles (`other_readings`) and what it scores, with what it was refused:
    the answer to a table asking "why not read it as pongs?" (an audit, stage 81: no surface said)."""
    unit = str(result.get("unit") or "tai")
    counted = int(result.get("tai") or 0)
    lines = []
    for other in result.get("other_readings") or []:
        # a bomb's own row is 0: its doubling row says it
        rows = ", ".join(f"{row['name']} {row['tai']}" for row in other.get("patterns") or [] if row["tai"])
        tai = int(other.get("tai") or 0)
        line = f"Also read as {other['arrangement']}: {tai} {unit}" + (f" ({rows})" if rows else "")
        if not result.get("valid"):
            line += ", no win either"  # below the minimum too: no tie to pick between
        elif not other.get("valid", True):
            line += ", no win: below the minimum"
        elif tai == counted:
            line += ", a tie: either reading scores the same"
        else:  # a lower figure beside the result read as a claim (an audit, stage 81)
            line += ", lower than the reading counted"
        lines.append("; ".join([line, *(str(note) for note in other.get("notes") or [])]))
    return lines


# each place the winning discard may have gone, in a player's words
PLACE_WORDS = {
    "hand": "into the hand, every laid-down meld claimed before it",
    "meld": "into an exposed chow or pong laid down with it",
}


def place_outcome_words(result: Mapping[str, Any]) -> str | None:
    """Where the winning discard went changes the score, each place's score, the counted first ("into an
    exposed chow or pong laid down with it: 4 tai (counted); into the hand, ...: not a win"); None where
    it goes one way only or scores alike either way (so on every hand that is no win: the counted place
    scores best). A photo cannot tell a chow claimed with the winning tile from one claimed before it
    (an audit, stage 82: four exposed chows paid 4 tai, unsaid)."""
    places = result.get("winning_tile_places") or []
    # as a table is paid: two readings below the minimum are both no win, whatever their tai
    if len({place.get("tai") if place.get("valid") else None for place in places}) < 2:
        return None
    unit = str(result.get("unit") or "tai")
    parts = []
    for index, place in enumerate(places):
        scored = f"{place.get('tai')} {unit}" if place.get("valid") else "not a win"
        counted = " (counted)" if index == 0 else ""
        parts.append(f"{PLACE_WORDS.get(str(place.get('into')), place.get('into'))}: {scored}{counted}")
    return "; ".join(parts)


def place_hint(data: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    """Where the winning discard went changes the score and the input (`data`, the scoring input) does
    not say: "Where the winning 9s went changes the score: ..." (`place_outcome_words`), which each
    surface ends with how to say it; None otherwise."""
    words, given = place_outcome_words(result), hand_of(dict(data))
    if words is None or given.get("winning_tile_into"):
        return None
    return f"Where the winning {given.get('winning_tile')} went changes the score: {words}"


def limits_not_added(result: Mapping[str, Any]) -> str | None:
    """Why a limit hand's rows add to more than its total, where they do (an audit, stage 80: Pure
    terminals 5 and Hidden treasure 5 stood over "Total: 5 tai" with no word why); None elsewhere."""
    rows = sum(int(pattern.get("tai") or 0) for pattern in result.get("patterns") or [])
    raw, tai = int(result.get("raw_tai") or 0), int(result.get("tai") or 0)
    if not result.get("valid") or not result.get("limit") or "raw_tai" not in result or rows <= raw:
        return None
    unit = str(result.get("unit") or "tai")
    capped = f", capped at {tai}" if tai < raw else ""
    return (
        f"the rows add to {rows}, but a limit hand scores its highest limit, not their sum: {raw} {unit}"
        + capped
    )
