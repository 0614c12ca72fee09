"""A saved case opened again: the app's own download or any scoring JSON input, read back into the
base rows, the rules, the options and how it was won, or refused in one line (`CaseFileError`).

Kept apart from writing the file (`app_ui.case_file`): opening validates a file that may have been
written by hand or by an older app, and keeps its saved table and trail where they still hold.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app_ui.case import (
    BONUS,
    GROUPS,
    MAX_MELDS,
    MELD_GROUPS,
    NUMBERED_UP_TO,
    TILE_CODES,
    WIND_LABELS,
    Base,
    Context,
    HandBuild,
    TileRow,
    file_number,
    photo_digest,
    row_numbers,
)
from app_ui.hand_build import (
    build_hand,
    hand_tile_choices,
    impossible_count,
    not_winning_why,
    rows_from_hand_strings,
    scoring_input,
)
from app_ui.options import option_label, option_specs
from app_ui.summary import RULE_LABELS
from app_ui.table_edits import RENUMBERED, numbered_afresh

if TYPE_CHECKING:
    from scoring.options import Options

# A case the app writes is a few kilobytes; anything this long is not one. Counted in characters, not
# bytes, as python -m scoring counts its input: a case saved as UTF-16 is held to the same text.
MAX_CASE_CHARACTERS = 2_000_000


_HALF_CHARACTER = re.compile(r"[\ud800-\udfff]")


class CaseFileError(ValueError):
    """A file that cannot be opened as a case (one line, naming the file)."""


@dataclass(frozen=True)
class OpenedCase:
    """A downloaded case read back: its tiles as the base rows, and the rules, options and context."""

    base: Base
    rules: str
    options: Mapping[str, Any]
    context: Context
    # False for a file naming no options (a typed hand, a photo's reading, a scene): it opens with the
    # sidebar's house rules as they are, not the rule set's defaults
    options_said: bool = True
    # False for a file naming no rule set: it opens under the sidebar's, which python -m scoring may not use
    rules_said: bool = True
    # what of the file the page holds otherwise than the file says it, in a sentence each
    notes: tuple[str, ...] = ()
    # True for the case a reloaded page brings back (`app_ui.reload`): no case opened from a file, but
    # the page's own as it stood, said so in a note of its own, with what the page held beside it
    reloaded: bool = False


def open_case(name: str, data: bytes, rules_unsaid: str = "singapore") -> OpenedCase:
    """Read a case file (the app's download, or any scoring JSON input) back; CaseFileError if it is not one.
    A file that names no rule set (a hand typed for `python -m scoring`, a photo's reading) opens under
    `rules_unsaid` (the app's: the sidebar's); one that names no options, with the app's house rules
    (`options_said` False).

    The scoring fields at the top level are what `python -m scoring` replays, so they are what is opened:
    the hand as scored, in its groups, with the rules, options and how it was won."""
    import scoring  # the app's dependency; imported here so the case model stays importable on its own
    from scoring.api import hand_of, reading_warning_lines, unused_beside, unused_beside_warning
    from scoring.errors import json_kind, json_object, text_within
    from scoring.typed_fields import typed_hand

    try:
        # UTF-8, or UTF-16 after its byte-order mark (Notepad's "Unicode"), as python -m scoring reads it
        text = text_within(data, name, MAX_CASE_CHARACTERS)
        if text is None:
            raise CaseFileError(
                f"{name} is too large to be a case file (over {MAX_CASE_CHARACTERS:,} characters)"
            )
        # a photo's reading (`python -m vision --json`) or a generated scene opens as its hand, as
        # `python -m scoring` scores it
        given = json_object(text, name, "a case")
        _check_text(given, name)
        case = hand_of(given)
    except scoring.MalformedHandError as error:
        raise CaseFileError(str(error)) from None  # the message names the file already
    try:
        # a hand typed as in the app (`123M`, 紅中, "seat_wind": "south") opens as python -m scoring reads it
        case = typed_hand(case)
        rules = case.get("rules", rules_unsaid)
        if not isinstance(rules, str):
            raise scoring.RulesetError(f"rules must be a rule set's name, got {rules!r}")
        ruleset = scoring.get_ruleset(rules)
        # null is "not said"; any other non-object (false, 0, "") is refused, as python -m scoring
        # refuses it: read as no options here, the case's own scoring would fail later
        overrides = {} if case.get("options") is None else case["options"]
        if not isinstance(overrides, Mapping):
            raise scoring.OptionError(f"options must be an object, not {json_kind(overrides)}")
        options, unusable_options = _usable_options(rules, overrides)
    except scoring.MalformedHandError as error:
        raise CaseFileError(f"{name}: {error}") from None
    # The app's own download keeps its tile table, problems and all (a bonus tile left in the hand,
    # a face-down kong, a fifth copy): it opens as it was saved, for the user to finish correcting.
    saved = _saved_table(case)
    unusable = None  # a winning tile the saved table's case names that no hand can be won on
    try:
        hand, won = scoring.hand_from_json(case)
        bonus_row, held = list(hand.bonus), won.bonus_from_deal
    except scoring.MalformedHandError as error:
        if saved is None:
            raise CaseFileError(f"{name}: {error}") from None
        # the saved table holds the tiles: the bonus tiles held from the deal are those of its bonus
        # row (an empty row here would refuse them, and the file would not open)
        aside: dict[str, Any] = {"concealed": [], "melds": [], "bonus": [], "bonus_from_deal": []}
        try:
            hand, won = scoring.hand_from_json({**case, **aside})
        except scoring.MalformedHandError:
            try:  # a winning tile no hand holds (a bonus tile the table left in the hand, chosen)
                hand, won = scoring.hand_from_json({**case, **aside, "winning_tile": None})
            except scoring.MalformedHandError:
                raise CaseFileError(f"{name}: {error}") from None
            unusable = case.get("winning_tile")
        bonus_row = [row.code for row in saved[0] if row.group == BONUS]
        try:  # checked against the saved bonus row, as python -m scoring checks it against the file's
            held = frozenset(_held_from_deal(case.get("bonus_from_deal"), bonus_row))
        except scoring.MalformedHandError as held_error:
            raise CaseFileError(f"{name}: {held_error}") from None
    if won.seat_wind not in ruleset.seats:
        raise CaseFileError(f"{name}: {won.seat_wind} is not a seat in the {rules} rules")
    offered = scoring.circumstances_for(rules)
    # left out and said, as `python -m scoring` warns and scores without them
    unknown = sorted(set(won.circumstances) - set(offered))
    if len(hand.melds) > MAX_MELDS:
        raise CaseFileError(f"{name}: {len(hand.melds)} melds, at most {MAX_MELDS}")
    # the tile table marks only kongs concealed: a chow or pong formed in the hand is the hand's tiles,
    # read at their best (RULES.md: the best of all decompositions counts), which may be other sets
    in_hand = [m for m in hand.melds if m.concealed and m.kind != "kong"]
    laid = [m for m in hand.melds if m not in in_hand]
    concealed = [*hand.concealed, *(tile for meld in in_hand for tile in meld.tiles)]
    rows = rows_from_hand_strings(concealed, [m.tiles for m in laid], hand.bonus)
    named = ", ".join(f"{meld.kind} {' '.join(meld.tiles)}" for meld in in_hand)
    notes = (
        [
            f"The concealed {named} open{'s' if len(in_hand) == 1 else ''} among the hand's tiles, which "
            "score at their best reading (python -m scoring keeps the file's sets, so its "
            f"{ruleset.unit_name} may be lower)."
        ]
        if in_hand
        else []
    )
    if not rows and saved is None:
        raise CaseFileError(f"{name} holds no tiles")
    # scored with the house rules it opens with: one the scoring refuses is set aside above
    usable = dict(case) if case.get("options") is None else {**case, "options": dataclasses.asdict(options)}
    impossible = impossible_count(usable) if saved is None else None
    if impossible:
        raise CaseFileError(f"{name}: {impossible}")
    discarder, discarder_note = won.discarder_wind, None
    plays_discarder = not won.self_drawn or won.pay_all  # a self-draw ignores it, as python -m scoring does
    if (
        discarder is not None
        and plays_discarder
        and (discarder == won.seat_wind or discarder not in ruleset.seats)
    ):
        # python -m scoring refuses such a case as impossible; the app opens it with the discarder
        # unsaid, for the user to set, and says why
        why = (
            "the winner's own seat"
            if discarder == won.seat_wind
            else f"no seat in the {rules.capitalize()} rules"
        )
        discarder_note = (
            f"The case names {WIND_LABELS.get(discarder, discarder)} as the discarder, {why}: who discarded "
            "is not said "
            "(python -m scoring calls such a case impossible)."
        )
        discarder = None
    context = Context(
        seat_wind=won.seat_wind,
        prevailing_wind=won.prevailing_wind,
        self_drawn=won.self_drawn,
        winning_tile=won.winning_tile,
        circumstances=tuple(c for c in offered if c in won.circumstances),
        pay_all=won.pay_all,
        discarder_wind=discarder,
        bonus_from_deal=tuple(dict.fromkeys(code for code in bonus_row if code in held)),
        winning_tile_into=won.winning_tile_into,
    )
    kongs = {MELD_GROUPS[i]: True for i, meld in enumerate(laid) if meld.concealed}
    if saved is not None:
        rows, kongs = saved
        notes = []
    notes.extend(_sentence(in_page_words(line)) for line in reading_warning_lines(given))
    notes.extend(_sentence(unused_beside_warning(key)) for key in unused_beside(given))
    if discarder_note:
        notes.append(discarder_note)
    if unknown:
        notes.append(f"The {rules.capitalize()} rules know no {', '.join(unknown)}: left out.")
    notes.extend(unusable_options)
    if unusable is not None:
        shown = unusable if isinstance(unusable, str) else json.dumps(unusable)
        notes.append(f"The case names {shown} as the winning tile, which no hand is won on: it is set aside.")
    winning = won.winning_tile
    built = build_hand(rows, kongs)  # the hand as the page builds the opened table
    if winning is not None and winning not in hand_tile_choices(built.hand):
        refused = (
            ""
            if scoring.flowers_win(hand.bonus, won.circumstances, rules)
            else " (python -m scoring calls such a case no valid win)"
        )
        why = not_winning_why(winning, [meld.tiles for meld in hand.melds])
        notes.append(f"The case names {winning} as the winning tile, which {why}: it is set aside{refused}.")
    # a round the set has not (a North round without the North wind) opens as the set's first, and is
    # said so (`case_tab.apply_opened_case`): the saved result is compared with the score the page shows,
    # not with python -m scoring's refusal of the file
    rounds = ruleset.round_winds(options)
    on_page = context
    if context.prevailing_wind not in rounds:
        on_page = dataclasses.replace(context, prevailing_wind=rounds[0])
    changed = _saved_result_change(case.get("result"), built, on_page, rules, options)
    if changed:
        if "options" not in case:
            # an older app's file names none: scored with the defaults, as python -m scoring scores it,
            # where the page takes the sidebar's (a review, stage 79)
            changed += (
                " (with the rule set's default house rules, as python -m scoring scores it: the file names "
                "none, and the sidebar's may be others)"
            )
        notes.append(_sentence(changed[0].upper() + changed[1:]))
    history = _saved_history(case)
    if history is not None and numbered_afresh(history["corrections"], rows):
        # the later corrections are numbered as this table, not as those saved
        history["corrections"].append({"action": RENUMBERED})
    base = Base(
        rows=tuple(rows),
        source="case",
        name=name,
        sha256=photo_digest(data),
        meld_concealed=kongs,
        history=history,
        numbered_up_to=_numbered_up_to(case.get("source")),
    )
    return OpenedCase(
        base=base,
        rules=rules,
        options=dataclasses.asdict(options),
        context=context,
        options_said="options" in case,
        rules_said="rules" in case,
        notes=tuple(notes),
    )


PAYMENT_OPTIONS = ("payout_scheme", "payout_table", "unit", "points_per_fan", "malaysian_payment")


def _usable_options(rules: str, overrides: Mapping[str, Any]) -> tuple[Options, list[str]]:
    """A case's house rules, each the scoring cannot use (an option since renamed, a value it refuses,
    one that contradicts the others) left at the rule set's default with a note: one such option kept
    the whole case, its tiles and corrections, from opening (an audit, stage 79: a minimum of 0 tai with
    the table payout, which the sidebar lets a user set, made a download the app then refused)."""
    import scoring
    from scoring.errors import brief
    from scoring.options import options_from_mapping

    defaults = scoring.default_options(rules)
    try:
        return options_from_mapping(defaults, overrides), []
    except scoring.OptionError:
        pass
    unit = scoring.get_ruleset(rules).unit_name
    labels = {spec.name: option_label(spec, unit) for spec in option_specs(scoring.Options, defaults)}
    kept: dict[str, Any] = {}
    notes = []
    # the options that choose how money is paid first: where they clash with another (the table payout
    # with a minimum of 0 tai, which the sidebar lets a user set), the other is the one set aside, the
    # amounts of the case staying as paid
    for name in sorted(overrides, key=lambda name: name not in PAYMENT_OPTIONS):
        value = overrides[name]
        try:
            options_from_mapping(defaults, {**kept, name: value})
        except scoring.OptionError as error:
            if name in labels:
                said = f"house rule {labels[name]} cannot be used ({error}): set to the rule set's default"
            else:  # no option of this app's (one renamed since, or a typing slip): it has no default
                said = f"option {brief(repr(name), 60)} is no house rule of this app: left out"
            notes.append(f"The case's {said} (python -m scoring refuses the file).")
        else:
            kept[name] = value
    return options_from_mapping(defaults, kept), notes


def _saved_result_change(
    saved: object, build: HandBuild, context: Context, rules: str, options: Options
) -> str | None:
    """`scoring.api.saved_result_change` for the case as it opens: the file's saved result against the
    score of its hand (`build`), rules and context now (as the page scores them), where they settle
    otherwise."""
    import scoring
    from scoring.api import saved_result_change

    if not isinstance(saved, Mapping):
        return None
    try:
        now = scoring.score_json(scoring_input(build.hand, context, rules, dataclasses.asdict(options)))
    except scoring.MalformedHandError:
        return None  # a table the page cannot score yet (a meld unfinished): it says why itself
    return saved_result_change(saved, now)


# python -m vision's advice to its own command line (`vision.cli.with_rules_advice`)
_CLI_ADVICE = re.compile(r"If so, give (.+), here and to python -m scoring\.$")


def in_page_words(line: str) -> str:
    """A reader's line from a `python -m vision --json` file in the page's words: its advice to give
    `--rules` on the command line becomes the sidebar's rule set (an audit, stage 72)."""
    match = _CLI_ADVICE.search(line)
    if match is None:
        return line
    names = re.findall(r"--rules (\w+)", match.group(1))
    labels = [f"{RULE_LABELS.get(name, name)} rules" for name in names]
    if "--option" in match.group(1):
        labels.append("other options")
    return f"{line[: match.start()]}If so, choose {' or '.join(labels)} in the sidebar."


def _sentence(line: str) -> str:
    """A warning line as a note's sentence: capitalised, one full stop."""
    return f"{line[:1].upper()}{line[1:]}" + ("" if line.endswith((".", "?", "!")) else ".")


def _saved_row(item: object) -> TileRow | None:
    """One row of a saved `tiles` list, or None where it is not one this app writes."""
    if not isinstance(item, Mapping) or item.get("code") not in TILE_CODES or item.get("group") not in GROUPS:
        return None
    confidence, box = _finite(item.get("confidence")), item.get("box")
    corners: tuple[float, float, float, float] | None = None
    if isinstance(box, list) and len(box) == 4:
        x1, y1, x2, y2 = (_finite(v) for v in box)
        if x1 is not None and y1 is not None and x2 is not None and y2 is not None:
            corners = (x1, y1, x2, y2)
    number, runner_up = item.get("tile"), item.get("runner_up")
    return TileRow(
        code=str(item["code"]),
        group=str(item["group"]),
        confidence=confidence,
        box=corners,
        alternative=runner_up if runner_up in TILE_CODES and runner_up != item["code"] else None,
        number=file_number(number),
    )


def _finite(value: object) -> float | None:
    """A saved number as a float, or None: a file edited by hand may hold an integer too large for a
    float (OverflowError) or NaN and Infinity (Python's JSON reads them), none a confidence or a box."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _as_written(value: object) -> list[Any] | None:
    """A list field as this app writes it (null or absent: empty), or None for anything else (a file
    edited by hand: a number where the tiles were)."""
    if value is None:
        return []
    return value if isinstance(value, list) else None


def _saved_table(case: Mapping[str, Any]) -> tuple[list[TileRow], dict[str, bool]] | None:
    """The tile table a case was saved with (`tiles`: numbers, groups, confidences, boxes) and its
    concealed-kong flags, when it builds exactly the hand the case scores (what the table could not
    build, a face-down kong or a group that is no meld, left out of the hand, or written without a
    kind); else None (a hand-written
    file, or one edited by hand), and the table is rebuilt from the scoring fields. Kept, the tile
    numbers its corrections name still point at the same tiles."""
    items = case.get("tiles")
    if not isinstance(items, list) or not items:
        return None
    rows = [_saved_row(item) for item in items]
    if any(row is None for row in rows):
        return None
    table = [row for row in rows if row is not None]
    if len(set(row_numbers(table))) < len(table):  # a file edited by hand: numbered by place
        table = [dataclasses.replace(row, number=None) for row in table]
    concealed, bonus, written = (_as_written(case.get(key)) for key in ("concealed", "bonus", "melds"))
    if concealed is None or bonus is None or written is None:
        return None  # not as the app writes it: the scoring fields say what is wrong
    melds = [m for m in written if isinstance(m, Mapping)]
    if any(_as_written(m.get("tiles")) is None for m in melds):
        return None
    # as the app writes it, or not said: "false" would read as concealed (an audit, stage 78: a kong
    # so written opened concealed, paid twice its instant payout, where python -m scoring refused it)
    if any(not isinstance(m.get("concealed", False), bool) for m in melds):
        return None
    groups = build_hand(table, {}).meld_groups
    said = {group: bool(meld.get("concealed")) for group, meld in zip(groups, melds, strict=False)}
    # a tile face down makes a kong concealed unless said otherwise (`build_hand`): an exposed one is
    # kept as said; and a kong lying all face down is in no meld of the case (its face unsaid): flagged
    # concealed, it stays so once the user names its face
    face_down = {row.group for row in table if row.code == "back" and row.group in MELD_GROUPS}
    flags = {group: concealed for group, concealed in said.items() if concealed or group in face_down}
    flags.update({group: True for group in face_down if group not in flags})
    built = build_hand(table, flags)
    saved = {
        "concealed": concealed,
        "melds": [
            {
                "kind": m.get("kind"),
                "tiles": _as_written(m.get("tiles")),
                "concealed": bool(m.get("concealed")),
            }
            for m in melds
            if "kind" in m
        ],
        "bonus": bonus,
    }
    # the groups the table could not make a meld of, written without a kind (stage 51; none before)
    unfinished = tuple(tuple(m.get("tiles") or ()) for m in melds if "kind" not in m)
    return (table, flags) if built.hand == saved and unfinished in ((), built.unfinished) else None


def _saved_history(case: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record of where an opened case came from, as saved, when it has one worth keeping."""
    source = case.get("source")
    photo_tiles = case.get("photo_tiles")
    saved_corrections = case.get("corrections")
    if not isinstance(source, Mapping):
        return None
    return {
        "source": dict(source),
        "photo_tiles": _records(photo_tiles),
        "corrections": _records(saved_corrections),
    }


def _numbered_up_to(source: object) -> int:
    """The highest tile number a saved case had given, as its `source` says it (`case_file.case_json`);
    0 where it does not (a file an older app wrote, or not the app's): then its tiles and corrections
    alone say which numbers were given (`table_edits.last_number`)."""
    said = source.get(NUMBERED_UP_TO) if isinstance(source, Mapping) else None
    return file_number(said) or 0


def _held_from_deal(listed: object, bonus_row: list[str]) -> list[str]:
    """The bonus tiles a file says were held from the deal, checked as python -m scoring checks them
    (each a bonus tile of the bonus row), that row being the saved table's."""
    from scoring.hand import check_bonus_codes, check_held_from_deal
    from scoring.tiles import tiles_from_field

    held = [] if listed is None else tiles_from_field(listed, "bonus_from_deal")
    check_bonus_codes(held)
    check_held_from_deal(held, bonus_row)
    return held


def _check_text(value: object, name: str) -> None:
    """Refuse a file whose JSON escapes write half a character (`\\ud800`, a lone surrogate): Python reads
    it as text that cannot be written again, so the page failed on the next download or note (an
    audit, stage 78)."""
    waiting = [value]  # walked, not recursed: a file may nest as deep as the JSON reader allows
    while waiting:
        item = waiting.pop()
        if isinstance(item, Mapping):
            waiting.extend([*item.keys(), *item.values()])
        elif isinstance(item, list):
            waiting.extend(item)
        elif isinstance(item, str) and _HALF_CHARACTER.search(item):
            raise CaseFileError(f"{name} holds a \\u escape that is half a character (a lone surrogate)")


def _numbered_within(record: Mapping[str, Any]) -> bool:
    """Whether a saved record names no tile number, or one a file may give (`file_number`)."""
    number = record.get("tile")
    return not isinstance(number, int) or isinstance(number, bool) or file_number(number) is not None


def _records(items: object) -> list[dict[str, Any]]:
    """The records of a saved list; one naming a tile number past any table's names none of its tiles
    (`file_number`), and is left out."""
    if not isinstance(items, list):
        return []
    return [dict(item) for item in items if isinstance(item, Mapping) and _numbered_within(item)]
