"""The tile rows built into the scoring input: the concealed tiles, each group's meld (named as the
engine names it), the bonus row, and what stops the hand being built.

Kept apart from the table's edits (`app_ui.table_edits`): this turns rows into a hand, whatever made
the rows (a photo, a typed hand, a case file).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app_ui.case import BONUS, HAND, MAX_MELDS, MELD_GROUPS, Context, HandBuild, TileRow
from scoring import get_ruleset
from scoring.hand import meld_kind
from scoring.winning_tiles import hand_tile_choices

# the scoring's own reading, named here too, as the page's modules have always called it
from scoring.winning_tiles import scored_as_self_drawn as scored_as_self_drawn
from vision.classes import BONUS_CODES


def resolve_backs(codes: list[str]) -> list[str]:
    """A concealed kong shows two faces and two backs: the backs are copies of the face-up tile."""
    faces = [c for c in codes if c != "back"]
    if faces and len(set(faces)) == 1:
        return [faces[0] if c == "back" else c for c in codes]
    return codes


def build_hand(rows: Sequence[TileRow], meld_concealed: Mapping[str, bool]) -> HandBuild:
    """Turn tile rows into the scoring input fields `concealed`, `melds`, `bonus`, or say what is wrong."""
    problems: list[str] = []
    concealed = [r.code for r in rows if r.group == HAND]
    bonus = [r.code for r in rows if r.group == BONUS]
    if "back" in concealed:
        problems.append("A face-down tile is in the hand: set its face in the tile table, or delete it.")
    wrong_bonus = [c for c in bonus if c not in BONUS_CODES and c != "fly"]
    if wrong_bonus:
        problems.append(f"{', '.join(wrong_bonus)} cannot be a bonus tile: move it to the hand or a meld.")
    melds: list[dict[str, Any]] = []
    meld_groups: list[str] = []
    unfinished: list[tuple[str, ...]] = []
    face_down: list[str] = []
    for group in MELD_GROUPS:
        laid = [r.code for r in rows if r.group == group]
        if "back" in laid:
            face_down.append(group)
        codes = resolve_backs(laid)
        if not codes:
            continue
        if "back" in codes:
            problems.append(f"{group.capitalize()} is face-down: set one of its tiles to the kong's tile.")
            unfinished.append(tuple(laid))
            continue
        kind, why = meld_kind(codes)
        if kind is None:
            problems.append(
                f"{group.capitalize()} ({' '.join(codes)}) is not a chow, pong or kong ({why}): "
                "change a tile or move it to another group."
            )
            unfinished.append(tuple(laid))
            continue
        melds.append(
            {
                "kind": kind,
                "tiles": codes,
                # a tile laid face down is a concealed kong's (an exposed kong lies face up), unless
                # the user says otherwise
                "concealed": bool(meld_concealed.get(group, "back" in laid)) and kind == "kong",
            }
        )
        meld_groups.append(group)
    # bonus tiles alone are a hand to score: eight flowers wins whatever the rest (RULES.md)
    if not concealed and not melds and not bonus:
        problems.append("No tiles in the hand yet: upload a photo, try a sample, or type a hand.")
    return HandBuild(
        hand={"concealed": concealed, "melds": melds, "bonus": bonus},
        problems=tuple(problems),
        face_down_groups=tuple(face_down),
        meld_groups=tuple(meld_groups),
        unfinished=tuple(unfinished),
    )


def winning_tile_choices(
    hand: Mapping[str, Any], self_drawn: bool, chosen: Iterable[str | None]
) -> list[str]:
    """The winning-tile box's tiles (`hand_tile_choices`), keeping a tile the user `chosen` that only a
    discard could have brought: switching to a self-draw leaves the choice standing, and the result
    says why it is then no win, rather than the box dropping it unsaid."""
    from scoring.tiles import sorted_tiles

    offered = hand_tile_choices(hand, self_drawn)
    on_discard = hand_tile_choices(hand) if self_drawn else offered
    kept = [tile for tile in chosen if tile in on_discard and tile not in offered]
    return sorted_tiles([*offered, *dict.fromkeys(kept)]) if kept else offered


def goes_either_way(hand: Mapping[str, Any], winning: str, circumstances: Iterable[str] = ()) -> bool:
    """Whether a winning discard of `winning` may have gone into the concealed tiles (or a set given as
    concealed) and also into an exposed chow or pong laid down with it, as the scoring reads the hand
    (`scoring.hand.winning_tile_homes`): where the page asks which. Not of a first-turn hand, which the
    scoring reads with the tile in its one laid-down set, nor of tiles that make no hand yet."""
    from scoring.errors import MalformedHandError
    from scoring.hand import FIRST_TURN, hand_from_json, winning_tile_homes

    if FIRST_TURN & set(circumstances):
        return False
    try:
        tiles, _ = hand_from_json(
            {"concealed": list(hand.get("concealed") or []), "melds": hand.get("melds") or []}
        )
    except MalformedHandError:
        return False
    in_hand, in_exposed = winning_tile_homes(tiles, winning)
    return bool(in_hand) and bool(in_exposed)


def scoring_input(
    hand: Mapping[str, Any], context: Context, rules: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The scoring JSON input (issue 2 fields), in the order a reader expects."""
    data: dict[str, Any] = {
        "rules": rules,
        "options": dict(options),
        "concealed": list(hand.get("concealed") or []),
        "melds": [dict(m) for m in hand.get("melds") or []],
        "bonus": list(hand.get("bonus") or []),
        "self_drawn": context.self_drawn,
        "seat_wind": context.seat_wind,
        "prevailing_wind": context.prevailing_wind,
        "circumstances": list(context.circumstances),
        "pay_all": context.pay_all,
    }
    if context.winning_tile:
        data["winning_tile"] = context.winning_tile
    if context.discarder_wind:
        data["discarder_wind"] = context.discarder_wind
    if context.winning_tile_into:
        data["winning_tile_into"] = context.winning_tile_into
    held = [code for code in context.bonus_from_deal if code in data["bonus"]]
    if held:
        data["bonus_from_deal"] = held
    return data


def rows_from_hand_strings(
    concealed: Sequence[str], melds: Sequence[Sequence[str]], bonus: Sequence[str]
) -> list[TileRow]:
    """Rows for a typed hand: concealed tiles, then each meld in its own group, then bonus tiles."""
    rows = [TileRow(code=c, group=HAND) for c in concealed]
    for index, meld in enumerate(melds[:MAX_MELDS]):
        rows.extend(TileRow(code=c, group=MELD_GROUPS[index]) for c in meld)
    rows.extend(TileRow(code=c, group=BONUS) for c in bonus)
    return rows


def not_winning_why(tile: str, melds: Sequence[Sequence[str]]) -> str:
    """Why `tile`, not among a hand's winning-tile choices (`hand_tile_choices`), cannot be its winning
    tile, as a clause after "which": a hand whose `melds` (their tiles) hold it holds it only in a kong,
    or, a `fly`, laid in a meld beside the tile the claimed discard was."""
    return _laid_why(tile, melds) or "the hand does not hold"


def set_aside_reason(tile: str, melds: Sequence[Sequence[str]]) -> str:
    """`not_winning_why` as a sentence of its own, for a winning tile the page set aside."""
    why = _laid_why(tile, melds)
    return f"it {why}" if why else "the hand no longer holds it"


def _laid_why(tile: str, melds: Sequence[Sequence[str]]) -> str | None:
    """Why `tile`, laid in `melds`, cannot be the winning tile there, or None where nothing laid says."""
    laid = [meld for meld in melds if tile in meld]
    if any(len(meld) == 4 for meld in laid):
        return "lies only in a kong, and no win completes a kong"
    if tile == "fly" and laid:
        return "lies only in a laid-out meld, beside the tile claimed for it"
    return None


def impossible_count(scoring_in: Mapping[str, Any]) -> str | None:
    """Why no table could hold these tiles (more copies of a face than a set has), or None. Such a hand
    is refused where it comes in (a typed hand, a case file), keeping the hand on screen; tiles the
    user corrects into it are scored and the reason shown, as the table is theirs to fix."""
    import scoring

    result = scoring.score_json(dict(scoring_in))
    if result.get("reason") != "too_many_copies":
        return None
    return str(result.get("message") or "").removeprefix("Not a valid win: ").rstrip(".")


def circumstances_lacking(
    hand: Mapping[str, Any], self_drawn: bool, seat_wind: str | None = None, rules: str = "singapore"
) -> dict[str, str]:
    """The special circumstances this hand cannot have been won under, each with what it needs, as RULES.md
    says it ("Circumstances must be possible for the hand": a replacement tile needs a kong or a bonus
    tile, kong on kong two kongs, robbing the kong a discard win, the last tile a self-draw, a heavenly
    hand a self-draw by the East seat, an earthly or humanly hand a seat other than East, a humanly hand a
    discard, and under rules whose earthly hand is never self-drawn, that one a discard too);
    `self_drawn`: the win as scored (a replacement tile's is a self-draw); `seat_wind`: the winner's seat
    (None: the hand's needs alone). Not offered while so: an audit was offered *Won on a kong's
    replacement tile* for a hand with no kong, and a walkthrough *Heavenly hand* to a South seat's discard
    win, which the result then said could not fit. A tick already given stays shown
    (`circumstances_shown`), as a seat or *Won by* set after the circumstance may leave it lacking. The
    last tile needs a self-draw, as the heavenly hand does (stage 89: it alone of those had stayed offered
    on a discard win, which the result then refused as an impossible context)."""
    kongs = sum(1 for meld in hand.get("melds") or () if meld.get("kind") == "kong")
    lacking: dict[str, str] = {}
    if not kongs and not hand.get("bonus"):
        lacking["replacement_tile"] = "needs a kong or a bonus tile in the hand"
    if not kongs:
        lacking["kong_replacement"] = "needs a kong in the hand"
    if kongs < 2:
        lacking["kong_on_kong"] = "needs two kongs in the hand"
    if self_drawn:
        lacking["robbing_kong"] = "needs a win on another player's tile, not a self-draw"
    else:
        lacking["last_tile"] = "needs a self-draw (the wall's last tile drawn)"
    if seat_wind is not None:
        lacking.update(_first_turn_lacking(self_drawn, seat_wind, rules))
    return lacking


def _first_turn_lacking(self_drawn: bool, seat_wind: str, rules: str) -> dict[str, str]:
    """The first-turn hands (heavenly, earthly, humanly) the winner's seat and the win rule out, each
    with what it needs (RULES.md, Context checks)."""
    east = seat_wind == "E"
    lacking: dict[str, str] = {}
    if not east:
        lacking["heavenly"] = (
            "needs the East seat (the dealer)" if self_drawn else "needs a self-draw by the East seat"
        )
    elif not self_drawn:
        lacking["heavenly"] = "needs a self-draw"
    if east:
        lacking["earthly"] = "needs a seat other than East"
        on_discard = ", and a win on a discard" if self_drawn else ""
        lacking["humanly"] = f"needs a seat other than East{on_discard}"
    else:
        if self_drawn and not get_ruleset(rules).earthly_self_drawn:
            lacking["earthly"] = "needs a win on East's first discard, not a self-draw"
        if self_drawn:
            lacking["humanly"] = "needs a win on a discard, not a self-draw"
    return lacking


def circumstances_shown(offered: Iterable[str], lacking: Iterable[str], ticked: Iterable[str]) -> list[str]:
    """The circumstances the box shows: those `offered` the hand can have (not `lacking`), and any
    already `ticked`, so that a tick given before a kong went (or by an opened case) stays, and the
    result says why it does not fit (Streamlit drops a choice its box no longer offers, and the tick
    would be gone when the kong came back)."""
    left_out, kept = set(lacking), set(ticked)
    return [name for name in offered if name not in left_out or name in kept]
