"""The words of a result: labels of rules, winds, circumstances and players, the one-line messages,
and the plain-text summary to paste into a chat. Pure functions of the scoring input and output (no
Streamlit), so the page and its tests say the same thing."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from decimal import Decimal
from typing import Any

import scoring
from app_ui.case import WIND_LABELS
from app_ui.options import CHOICE_LABELS, format_number_list, option_label, option_specs
from app_ui.table_edits import RENUMBERED, well_formed
from scoring.api import PLACE_WORDS, limits_not_added, other_reading_lines, place_hint
from scoring.errors import brief
from scoring.options import default_options, options_from_mapping, points_word
from scoring.payout import format_amount, instant_text, unit_text
from scoring.tiles import sorted_tiles
from scoring.view import SEAT_NUMBER

RULE_LABELS = {"singapore": "Singapore (4 players)", "malaysian": "Malaysian (3 players)"}
# each with the name a Singapore table calls it by, as the result's patterns have theirs (a walkthrough:
# four of nine had one, and the heavenly, humanly and kong replacement hands none)
CIRCUMSTANCE_LABELS = {
    "replacement_tile": "Won on a replacement tile, flower or kong (花上/杠上)",
    "kong_replacement": "Won on a kong's replacement tile (杠上开花)",
    "kong_on_kong": "Kong on kong replacement (杠上杠)",
    "robbing_kong": "Robbing the kong (抢杠)",
    "last_tile": "Last tile of the wall (海底捞月)",
    "heavenly": "Heavenly hand (天胡, East's dealt hand)",
    "earthly": "Earthly hand (地胡)",
    "humanly": "Humanly hand (人胡)",
    "robbing_eighth": "Robbing the eighth flower (七抢一)",
}
# what each circumstance is, for the box's help (an audit: it explained the earthly hand alone)
CIRCUMSTANCE_HELP = {
    "replacement_tile": "won on the tile drawn to replace a flower or a kong (a self-draw)",
    "kong_replacement": "won on the tile drawn after declaring a kong (a self-draw)",
    "kong_on_kong": "a kong's replacement tile made a second kong, and that kong's replacement won",
    "robbing_kong": "won on the tile another player added to an exposed pong to make a kong",
    "last_tile": "self-drawn on the last tile of the wall",
    "heavenly": "East wins on the tiles dealt, before any discard",
    "humanly": "won on a discard before your first draw, nobody having claimed a tile",
    "robbing_eighth": "seven flowers and seasons held, won on the eighth another player drew",
}
EARTHLY_HELP = {
    True: "won on East's first discard, or on your first draw, nobody having claimed a tile",
    False: "won on East's first discard, nobody having claimed a tile",
}


def circumstances_help(offered: Sequence[str], rules: str, lacking: Mapping[str, str] | None = None) -> str:
    """Each circumstance of `offered` in a line: its label and what it is, under the rule set `rules`;
    those `lacking` (`hand_build.circumstances_lacking`) last, with what each needs, as the box leaves
    them out (or holds one ticked that does not fit): a player looking for one learns why it is not there."""
    ruleset = scoring.get_ruleset(rules)
    lacking = lacking or {}
    lines = []
    for key in (key for key in offered if key not in lacking):
        what = EARTHLY_HELP[ruleset.earthly_self_drawn] if key == "earthly" else CIRCUMSTANCE_HELP.get(key)
        if what and key == "kong_on_kong" and not ruleset.has_row(key):
            # offered under both rule sets (one label, kept by Streamlit), but worth no more than a kong
            # replacement where the rule set has no row for it (Malaysian: +1 once, whichever kind)
            what += f"; scored as a kong's replacement tile under these rules (+1 {ruleset.unit_name} once)"
        if what:
            lines.append(f"- {circumstance_label(key, rules)}: {what}.")
    missing = [key for key in offered if key in lacking]
    if missing:
        lines += ["", "Not possible for this hand:"]
        lines += [f"- {circumstance_label(key, rules)}: {lacking[key]}." for key in missing]
    return "\n".join(lines)


def page_heading(rules: str) -> tuple[str, str]:
    """The page's title and the line under it, in the rule set's unit: Malaysian rules score in fan,
    not tai (an audit: "Mahjong tai calculator" headed a page of fan and points)."""
    # a rule set's name the page does not know (none yet) heads it as the default's
    ruleset = scoring.rulesets.RULESETS.get(rules) or scoring.get_ruleset(scoring.rulesets.DEFAULT_RULESET)
    paid = "points" if ruleset.reports_points else "payouts"
    return (
        f"Mahjong {ruleset.unit_name} calculator",
        f"Snap the winning hand, check the tiles, say how it was won: {ruleset.unit_name} and {paid}.",
    )


ROLE_LABELS = {
    "winner": "Winner",
    "discarder": "Discarder",
    "other": "Other player",
    # one word for the players who pay alike, whichever way the hand was won (a walkthrough: "Loser" on a
    # self-draw, "Other player" on a discard); the discarder, who pays more, is named apart
    "loser": "Other player",
}


def arrangement_key(arrangement: str) -> str | None:
    """What the marks of a "Read as" line (the scoring's `arrangement`) mean, in a player's words, for
    the marks it has; None where it has none. A walkthrough: [CCC] and <5555s> stood unexplained."""
    # the marks as the summary's hand line words them: "([..] exposed, <..> concealed kong)"
    said = []
    if "[" in arrangement:
        said.append("[..] an exposed set, laid down face up")
    if "<" in arrangement:
        said.append("<..> a concealed kong")
    if "(fly=" in arrangement:
        said.append("fly=... the tile a fly stands for")
    if not said:
        return None
    return "; ".join(said) + "; unmarked, the sets and pair of the tiles in the hand"


def read_as_line(arrangement: str) -> str:
    """The "Read as" line with its marks explained (`arrangement_key`)."""
    key = arrangement_key(arrangement)
    return f"Read as: {arrangement}" + (f" ({key})" if key else "")


# The earthly hand in words as each rule set has it; the choice box shows the label above for both, as
# Streamlit keeps a choice by its label and one that changed with the rule set would be dropped.
EARTHLY_AS_SELF_DRAWN_TOO = "Earthly hand (East's 1st discard or your 1st draw)"
EARTHLY_ON_A_DISCARD_ONLY = "Earthly hand (East's 1st discard)"


def circumstance_label(key: str, rules: str | None = None) -> str:
    """A circumstance in words; the earthly hand as the rule set `rules` has it, where one is given
    (under Malaysian rules never self-drawn)."""
    if key == "earthly" and rules in scoring.RULESET_NAMES:
        drawn_too = scoring.get_ruleset(rules).earthly_self_drawn
        return EARTHLY_AS_SELF_DRAWN_TOO if drawn_too else EARTHLY_ON_A_DISCARD_ONLY
    return CIRCUMSTANCE_LABELS.get(key, key.replace("_", " "))


# the scoring input's fields the scoring's warnings name, by the page's labels of their boxes
FIELD_LABELS = {
    "discarder_wind": "Discarded by",
    "bonus_from_deal": "Bonus tiles held from the deal",
}


def with_option_labels(message: str, rules: str = "singapore") -> str:
    """An option error or a scoring warning in the page's words under the `rules`: each option by the
    sidebar's label ("Min fan", not min_tai, under Malaysian rules), longest names first, and each
    field of the scoring input by its box's label ("Discarded by", not discarder_wind)."""
    unit_name = scoring.get_ruleset(rules).unit_name
    for spec in sorted(option_specs(scoring.Options, scoring.Options()), key=lambda s: -len(s.name)):
        message = re.sub(rf"\b(option )?{spec.name}\b", f"“{option_label(spec, unit_name)}”", message)
    for field, label in FIELD_LABELS.items():
        message = re.sub(rf"\b{field}\b", f"“{label}”", message)
    return message


def won_by_text(data: dict[str, Any]) -> str:
    """How the win is scored: a replacement tile is drawn by the winner, whatever the radio says."""
    if data["self_drawn"]:
        return "self-drawn"
    ruleset = scoring.get_ruleset(data["rules"])
    why = scoring.drawn_by_winner(data.get("bonus") or (), data.get("circumstances") or (), ruleset)
    return f"self-drawn ({why})" if why else "won on a discard"


# a hand that is no win and pays nothing for the hand: not one whose tiles or context are still to be put
# right (a count gone wrong, no winning shape, an impossible context), which may yet win, most often as
# a photo misread
NO_WIN_REASONS = ("below_minimum",)


def no_payout_words(instant: bool) -> str:
    """What a hand that is no win pays: nothing for the hand, and the instant payouts where there are
    some (a hostile test, stage 82: "nobody pays" stood over a kong's 2 from each)."""
    if instant:
        return "none for the hand, which is no win; the instant payouts below are still paid."
    return "none, no win: nobody pays for the hand."


def limit_words(data: Mapping[str, Any], result: Mapping[str, Any]) -> str | None:
    """How a limit is said beside the score: "at the limit" where the score is the cap, "limit hand"
    where a limit-type hand set it below the cap (Malaysian: 5 fan under a cap of 10, RULES.md; an
    audit read "5 fan, at the limit" under "max 10 fan" as the cap at 5), as the command line says
    it; None where no limit applies."""
    if not result.get("limit"):
        return None
    # the cap in force as the scoring read it (the rule set's default where the case gives none)
    in_force = options_from_mapping(default_options(str(result.get("rules"))), data.get("options") or {})
    return "limit hand" if int(result.get("tai") or 0) < in_force.max_tai else "at the limit"


def summary_text(data: dict[str, Any], result: dict[str, Any], ways: str | None = None) -> str:
    """A plain-text summary to paste into a chat; `ways`: what each tile that may have won the hand
    gives ("1m or 4p: 4 tai; 2m: not a win"), where the winning tile is unset and changes the score."""
    lines: list[str] = []
    rules = RULE_LABELS.get(data["rules"], data["rules"])
    unit = str(result.get("unit") or "tai")
    if ways and not result.get("valid"):
        # the page asks for the winning tile here, and calls the hand no lost one (an audit, stage 78:
        # the summary opened "Not a valid win" below that ask)
        lines.append(f"Winning tile not set: won on {ways}")
    if result.get("valid"):
        capped = f" (raw {result['raw_tai']})" if result.get("raw_tai") != result.get("tai") else ""
        # the points a Malaysian table pays by, as the page and the command line give them
        points = f" = {points_words(result['points'])}" if result.get("points") is not None else ""
        limit = f", {limit_words(data, result)}" if result.get("limit") else ""  # as the result line says it
        stands = " as it stands" if ways else ""
        lines.append(f"{result['tai']} {unit}{capped}{points}{limit}{stands}, {rules} rules")
        not_added = limits_not_added(result)
        if not_added:
            lines.append(not_added[0].upper() + not_added[1:])
        if ways:
            lines.append(f"Winning tile not set: won on {ways}")
    else:
        # plain text: the page's markdown emphasis (*How was it won?*) would show as asterisks
        said = invalid_message(result).replace("*", "")
        lines.append(f"As it stands: {said}" if ways else said)
    # in tile order: the photo's or the typing's order runs a suit together ("123m 22m" as "12322m")
    hand = scoring.format_hand(sorted_tiles(data["concealed"])) if data["concealed"] else "(no tiles)"
    # the scoring's marks, in tile order as its "Read as" line has them ([678s], not [876s])
    marks = {True: "<{}>", False: "[{}]"}
    melds = " ".join(
        marks[bool(m.get("concealed"))].format(scoring.format_hand(sorted_tiles(m["tiles"])))
        for m in data["melds"]
    )
    lines.append(
        f"Hand: {hand}"
        + (f" | melds: {melds}" if melds else "")
        + (f" | bonus: {' '.join(data['bonus'])}" if data["bonus"] else "")
        + ("  ([..] exposed, <..> concealed kong)" if melds else "")
    )
    if result.get("arrangement"):
        # the sets the score was counted on, in order: what the table checks, not the photo's order
        lines.append(f"Read as: {result['arrangement']}")
    # the place said, as the scoring read it: none on a self-draw, which completes no laid-down meld
    place_said = data.get("winning_tile_into")
    into = str(place_said) if place_said and place_said == result.get("winning_tile_into") else ""
    lines.append(
        f"Seat {data['seat_wind']}, prevailing {data['prevailing_wind']}, {won_by_text(data)}"
        + (f", winning tile {data['winning_tile']}" if data.get("winning_tile") else "")
        + (f", {PLACE_WORDS[into]}" if into in PLACE_WORDS else "")
    )
    hint = place_hint(data, result)
    if hint:
        lines.append(hint)
    circumstances = [circumstance_label(c, data.get("rules")) for c in data.get("circumstances") or ()]
    if circumstances or data.get("pay_all"):
        lines.append("; ".join([*circumstances, *(["pay-all (包)"] if data.get("pay_all") else [])]))
    if data.get("bonus_from_deal"):
        lines.append(f"Held from the deal: {' '.join(data['bonus_from_deal'])}")
    # the cap, minimum and stake too: a pasted summary of 13 tai under max 13 read as a 5-tai cap (an
    # audit, stage 81); an option not given is the rule set's default, as the scoring reads it
    rules_name = str(data["rules"])
    defaults = {
        spec.name: spec.default for spec in option_specs(scoring.Options, scoring.default_options(rules_name))
    }
    lines.append(f"Rules: {rules_words(rules_name, defaults | dict(data.get('options') or {}))}")
    for pattern in result.get("patterns") or []:
        lines.append(
            f"  {pattern['name']} {pattern.get('name_zh', '')}: {pattern['tai']}"
            f" — {pattern.get('reason', '')}"
        )
    # which flowers score nothing, as the page says it under the result (an audit, stage 81: only there)
    # where the page says it: a win, one below the minimum, or one the unset winning tile decides (`ways`)
    counts = result.get("valid") or result.get("reason") == "below_minimum" or bool(ways)
    idle = idle_bonus_note(data) if counts else None
    if idle:
        lines.append(f"  {idle}")
    # what the scoring assumed or left out ("last tile not scored: ..."), as the page shows it
    lines.extend(f"  {with_option_labels(line, rules_name)}" for line in other_reading_lines(result))
    lines.extend(f"Note: {with_option_labels(str(w), rules_name)}" for w in result.get("warnings") or [])
    payout = result.get("payout") or {}
    if result.get("valid"):
        players = payout.get("players") or []
        instant = payout.get("instant_payouts") or []
        # what each ends the hand with, as the page's column has it: the money changes hands at once (an
        # audit, stage 82: the pasted summary gave the amounts and the instant lines, not the sums)
        nets = with_instant_payouts(players, instant) if instant else [None] * len(players)
        if players:
            # headed as the page heads the table: amounts whose payer has no seat yet, or that the winning
            # tile or its place would change, are no settled payout: pasted without it, a discarder of no
            # seat read as settled
            heading = payout_heading(settle_words(bool(ways), bool(hint)), players, bool(data.get("pay_all")))
            # plain text: the bold dropped, a box's name quoted as the notes quote it (“Discarded by”)
            lines.append(re.sub(r"\*([^*]+)\*", r"“\1”", heading.replace("**", "")) + ":")
        for player, net in zip(players, nets, strict=True):
            seat = f" ({seat_label(player)})" if player.get("seat") else ""
            with_instant = f" (with instant payouts {amount_text(net)})" if net is not None else ""
            lines.append(f"  {player_label(player)}{seat}: {amount_text(player['amount'])}{with_instant}")
        if payout.get("basis"):
            lines.append(f"  ({payout['basis']})")
    elif result.get("reason") in NO_WIN_REASONS and not ways:
        lines.append(f"Payout: {no_payout_words(bool(payout.get('instant_payouts')))}")
    # paid when the tiles are shown, win or not, as the page, the case file and the CLI list them
    for item in payout.get("instant_payouts") or []:
        lines.append(f"  Instant: {instant_line(item)}")
    return "\n".join(lines)


def idle_bonus_note(data: dict[str, Any]) -> str | None:
    """Which flowers and seasons score nothing of their own, and why: the table's usual question
    ("my F1 counts!") answered. A flower or season scores for its seat (1 East ... 4 North; under
    Malaysian rules F4 and S4 for every seat too); a group held whole scores as a set instead."""
    bonus = list(data.get("bonus") or [])
    number = SEAT_NUMBER.get(str(data.get("seat_wind")), 1)
    idle: list[str] = []
    for group in ("F", "S"):
        held = [code for code in bonus if len(code) == 2 and code[0] == group and code[1].isdigit()]
        if len(set(held)) == 4:
            continue  # a complete set: it scores as one
        scoring_ranks = {number, 4} if data.get("rules") == "malaysian" else {number}
        idle += [code for code in held if int(code[1]) not in scoring_ranks]
    if not idle or len(set(bonus) & {f"{g}{k}" for g in "FS" for k in range(1, 5)}) == 8:
        return None
    own = f"F{number}, S{number}"
    wind = WIND_LABELS.get(str(data.get("seat_wind")), "the winner's seat")
    unit = scoring.get_ruleset(str(data.get("rules") or "singapore")).unit_name
    return f"{', '.join(idle)}: not {wind}'s own ({own}), so no {unit} of their own."


def invalid_message(result: dict[str, Any], reread: str | None = None) -> str:
    """The result's line for a hand that is no valid win; `reread`: the label of the button that reads
    a photo's tiles again as the rule set's, where the page offers it (`hand_view.reread_label`), named
    first for tiles the set lacks (a walkthrough: the photo's 5s, kept Singapore tiles by a correction,
    was to be corrected by hand, the one tap that reads every tile again a screen above unsaid)."""
    message = str(result.get("message") or result.get("reason") or "")
    # what scoring found, without its "Not a valid win: ... ." frame, for the lines that are no lost hand
    why = message.removeprefix("Not a valid win: ").rstrip(".")
    if result.get("reason") == "tile_not_in_set":
        # a tile the rule set's set does not hold: bad input to correct, not a hand that lost
        tiles = "tiles" if " are not in " in why else "tile"
        where = "the rule set or that option" if "option" in why else "the rule set"
        said = with_option_labels(why, str(result.get("rules") or "singapore"))
        if reread:
            return f"{said}: press *{reread}* above, correct the {tiles}, or change {where} in the sidebar."
        return f"{said}: correct the {tiles}, or change {where} in the sidebar."
    if result.get("reason") == "impossible_context":
        # the hand may well win: it is what was said of the win that cannot be
        return f"How it was won does not fit: {why}. Change it under *How was it won?*"
    return message if message.lower().startswith("not a") else f"Not a valid win: {message}"


def player_label(player: dict[str, Any]) -> str:
    if player.get("liable"):
        return "Liable player (pays all)"
    return ROLE_LABELS.get(str(player.get("role")), str(player.get("role")).capitalize())


def payer_unnamed(players: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the payout has a discarder (or a liable player) whose seat is not said: the amounts are
    each role's, but the table cannot say who pays them."""
    return any(player.get("role") == "discarder" and not player.get("seat") for player in players)


def settle_words(winning_tile_asked: bool, place_asked: bool) -> str | None:
    """What would settle the payout, where the page asks for it: the winning tile, which changes the
    score, or else where it went (`payout_heading`'s `settle`)."""
    if winning_tile_asked:
        return "set the winning tile"
    return "say where the winning tile went" if place_asked else None


def payout_heading(settle: str | None, players: Sequence[Mapping[str, Any]], pay_all: bool) -> str:
    """The payout table's heading: "Payout" where it is what is paid, by whom; "Payout as it stands"
    with what to set where it is not yet: the winning tile or its place (`settle`: the amounts may
    change), or who discarded or is liable (an audit: amounts under a Seat column of dashes were headed
    as settled, and a table could not tell who pays)."""
    asks = [f"{settle} to settle it"] if settle else []
    if payer_unnamed(players):
        box = "Liable player's seat" if pay_all else "Discarded by"
        asks.append(f"set *{box}* to name who pays")
    return f"**Payout as it stands** ({'; '.join(asks)})" if asks else "**Payout**"


def seat_label(player: dict[str, Any]) -> str:
    """The player's seat where the scoring knows it ("South"), else a dash."""
    seat = player.get("seat")
    return WIND_LABELS.get(str(seat), str(seat)) if seat else "—"


def amount_text(amount: float | Decimal) -> str:
    return format_amount(amount, signed=True)


def instant_line(item: Any) -> str:
    return instant_text(item) if isinstance(item, dict) else str(item)


def with_instant_payouts(players: Sequence[Mapping[str, Any]], instant: Sequence[Any]) -> list[Decimal]:
    """Each player's amount with the instant payouts added: the winner receives each one's `total`,
    every other player pays its `from_each` (an audit: the table showed the win alone, so no one's
    net could be read off it). Worked in decimal, as the scoring pays (0.1 + 0.2 is 0.3)."""
    items = [item for item in instant if isinstance(item, Mapping)]
    received = sum((Decimal(str(item.get("total", 0))) for item in items), Decimal(0))
    paid = sum((Decimal(str(item.get("from_each", 0))) for item in items), Decimal(0))
    return [
        Decimal(str(player["amount"])) + (received if player.get("role") == "winner" else -paid)
        for player in players
    ]


def score_words(result: dict[str, Any]) -> str:
    """The score in a few words (`**4 tai**`), for the lines that point to the full result."""
    if not result.get("valid"):
        return "not a valid win"
    return f"**{result['tai']} {result.get('unit') or 'tai'}**"


# Marks that format text wherever they stand (emphasis, code, links, formulas, strike-through, HTML), an
# underscore only at a word's edge (max_tai is no emphasis); those that do only at a line's start (a
# heading, a list, a quote); and Streamlit's own: an :emoji: or :material/icon: (matched on the text as
# written, so both its colons are escaped) and colours, :red[...].
_MARKUP = re.compile(r"([\\`*\[\]$~<>|&]|(?<![^\W_])_|_(?![^\W_]))")
_MARKUP_AT_START = re.compile(r"^(\s*)([#+\->]|\d+(?=[.)]))", re.MULTILINE)
_SHORTCODE = re.compile(r":([\w+\-/]+):")
_DIRECTIVE = re.compile(r":(?=\w+\\?\[)")
# what GitHub-flavoured Markdown links by itself: an address (`http://`, `www.`) or an e-mail's @
_AUTOLINK = re.compile(r"(?<=:)//|(?i:(?<![\w.])www)\.|@")


def plain_line(text: str) -> str:
    """An error or warning that may quote what a user gave (a file of megabytes, a pasted list) as
    one line of bounded length (`scoring.errors.brief`), shown `plain`."""
    return plain(brief(text))


def plain(text: str) -> str:
    """`text` shown as it is where Streamlit reads Markdown (a file name `hand *one* $5$.jpg` would turn
    italic, a formula, a link or an emoji): every mark that could mean something escaped."""
    escaped = _MARKUP.sub(r"\\\1", text)
    escaped = _SHORTCODE.sub(r"\\:\1\\:", escaped)
    escaped = _DIRECTIVE.sub(r"\\:", escaped)
    escaped = _AUTOLINK.sub(lambda m: "".join("\\" + c if c in "/.@" else c for c in m.group(0)), escaped)
    # a number's stop is escaped ("1\\. a.jpg"), a backslash before a digit being no escape
    return _MARKUP_AT_START.sub(
        lambda m: m.group(1) + (m.group(2) + "\\" if m.group(2).isdigit() else "\\" + m.group(2)), escaped
    )


def tile_key(faces: Collection[str]) -> str:
    """One line a new user can read at the typed fields and the tile table: the codes (RULES.md's) of
    the set's tiles (`faces`: `tile_sets.tiles_in_set`), so a Malaysian player is offered no characters, a
    Singapore one no fly, and a set without North no N."""
    suits = [
        f"1{suit}–9{suit} {words}"
        for suit, words in (("m", "萬 characters"), ("p", "筒 dots"), ("s", "索 bamboo"))
        if f"1{suit}" in faces
    ]
    winds = " ".join(wind for wind in "ESWN" if wind in faces)
    extra = [words for code, words in (("face", "face"), ("fly", "fly 飛 wild")) if code in faces]
    parts = [
        *suits,
        f"{winds} winds",
        "C 中 red, F 發 green, P 白 white dragons",
        "F1–F4 flowers",
        "S1–S4 seasons",
        "cat rat rooster centipede animals",
        *extra,
        "back face-down",
    ]
    return "Tile codes: " + " · ".join(parts)


# shown by the rules line itself (or, the table, by the payout table)
_RULES_LINE_OPTIONS = frozenset({"min_tai", "max_tai", "unit", "points_per_fan", "payout_table"})


def house_rules(rules: str, options: dict[str, Any]) -> list[str]:
    """The rule set's options set otherwise than its defaults, in the sidebar's words ("Pure green
    off"), but for those the rules line names anyway: what a table reading the score must know."""
    out: list[str] = []
    unit_name = scoring.get_ruleset(rules).unit_name
    for spec in option_specs(scoring.Options, scoring.default_options(rules)):
        if spec.name in _RULES_LINE_OPTIONS or (spec.rules and rules not in spec.rules):
            continue
        value = options.get(spec.name, spec.default)
        if value is None or value == spec.default:
            continue
        label = option_label(spec, unit_name)
        if spec.kind == "bool":
            out.append(f"{label} {'on' if value else 'off'}")
        else:
            # "(below)" points at the sidebar's table box, which the result does not sit above
            chosen = CHOICE_LABELS.get(str(value), str(value).replace("_", " ")).removesuffix(" (below)")
            out.append(f"{label}: {chosen}")
    return out


def options_set(rules: str, options: dict[str, Any]) -> list[str]:
    """Every option of the rule set set otherwise than its default, in the sidebar's words ("Max
    tai: 10", "Pure green off"): `house_rules` and those the rules line names."""
    unit_name = scoring.get_ruleset(rules).unit_name
    specs = option_specs(scoring.Options, scoring.default_options(rules))
    line = [
        f"{option_label(spec, unit_name)}: {_option_words(spec.name, spec.kind, options[spec.name])}"
        for spec in specs
        if spec.name in _RULES_LINE_OPTIONS
        and not (spec.rules and rules not in spec.rules)
        and options.get(spec.name) not in (None, spec.default)
    ]
    return line + house_rules(rules, options)


def option_value_words(name: str, kind: str, value: Any) -> str:
    """An option's value in the sidebar's words: on/off, a choice's label, an amount as typed."""
    if kind == "bool":
        return "on" if value else "off"
    if kind == "choice":
        return CHOICE_LABELS.get(str(value), str(value).replace("_", " ")).removesuffix(" (below)")
    return _option_words(name, kind, value)


def _option_words(name: str, kind: str, value: Any) -> str:
    if kind == "list":
        return format_number_list(value) if not isinstance(value, str) else value
    if name == "unit":
        return unit_text(float(value))  # every digit typed, as the rules line has it
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return format_amount(value) if number else str(value)


def _unit_as_typed(options: dict[str, Any]) -> str:
    """The unit with every digit typed (0.0000015, not rounded to 0.000002; one too small to pay,
    refused beside the line, not rounded to 0)."""
    return unit_text(float(options.get("unit", 1)))


def rules_line(rules: str, options: dict[str, Any]) -> str:
    """The rules a result is scored under, in one line, and where to change them: on a phone the
    sidebar that holds them is folded away behind a » button."""
    return (
        f"Rules: {rules_words(rules, options)} — change them in the sidebar (» at the top left on a phone)."
    )


def points_words(points: float | Decimal) -> str:
    """A Malaysian result's points as a player reads them: "1 point", "200 points"."""
    return f"{format_amount(points)} {points_word(points)}"


def rules_words(rules: str, options: dict[str, Any]) -> str:
    """The rule set, its minimum and cap, the stake and the house rules set otherwise, in the sidebar's
    words."""
    unit_name = scoring.get_ruleset(rules).unit_name
    parts = [
        RULE_LABELS.get(rules, rules),
        f"min {options.get('min_tai')} / max {options.get('max_tai')} {unit_name}",
    ]
    if rules == "malaysian":
        per_fan = options.get("points_per_fan")
        parts.append(f"{per_fan} {points_word(per_fan)} a {unit_name}")
    elif options.get("payout_scheme") == "table":
        # the table's amounts are not in units; the instant payouts, where paid, still are
        instant = options.get("instant_payouts", True)
        unit = _unit_as_typed(options)
        at_unit = f", instant payouts at unit {unit}" if instant else ""
        parts.append(f"amounts from the payout table{at_unit}")
    else:
        parts.append(f"unit {_unit_as_typed(options)}")
    house = house_rules(rules, options)
    if house:
        parts.append("house rules: " + ", ".join(house))
    return ", ".join(parts)


# what a change the reader offered and the user took says of itself (`table_edits.take_codes`)
_OFFER_WORDS = {
    "win option": " (way to a win taken)",
    "set offer": " (to keep to one set, asked)",
    "runner-up": " (the reader's second guess, taken)",
}

_CORRECTION_WORDS = {
    "change": lambda c: (
        f"#{c['tile']} {c['from']} → {c['to']}"
        + (_OFFER_WORDS.get(str(c["by"]), " (offered)") if c.get("by") else "")
    ),
    "regroup": lambda c: (
        f"#{c['tile']} {c['code']} {c['from']} → {c['to']}" + (" (as laid, asked)" if c.get("by") else "")
    ),
    "delete": lambda c: f"#{c['tile']} {c['code']} deleted",
    # numbered where it was added with its number (folded into the table); a row the table shows as
    # "new" yet, or a case saved before stage 74, by its face alone
    "add": lambda c: (
        ("" if c.get("tile") is None else f"#{c['tile']} ") + f"{c['code']} added to {c['group']}"
    ),
    "kong": lambda c: f"{c['group']} ({c['code']} kong) set {'concealed' if c['concealed'] else 'exposed'}",
}


def correction_words(change: dict[str, Any]) -> str | None:
    """One correction in words (`#15 F1 → F2`, `cat added to bonus`); None for a mark, no correction,
    or one not written as the app writes it."""
    said = _CORRECTION_WORDS.get(str(change.get("action")))
    return said(change) if said and well_formed(change) else None


def corrections_line(
    changes: list[dict[str, Any]], heading: str = "Your corrections", numbered_as: str = "the table is now"
) -> str | None:
    """The user's corrections in one line (`#15 F1 → F2`, a way to a win taken marked so), so a score
    that moved says why; None when there are none. Past a `RENUMBERED` mark the numbers are those of
    the table `numbered_as` says."""
    said: list[str] = []
    renumbered = False
    for change in changes:
        if change.get("action") == RENUMBERED:
            renumbered = bool(said)
            continue
        words = correction_words(change)
        if words is not None:
            prefix = f"then, numbered as {numbered_as}, " if renumbered else ""
            said.append(prefix + words)
            renumbered = False
    return f"{heading}: " + "; ".join(said) if said else None
