"""The line that says what a change did to the score: "4 tai -> 2 tai after: seat wind East -> South".

At a table in dispute, one player changes the seat or the winning tile and the result redraws: the
numbers alone do not say that they moved, nor why. The scoring input of the run before and of this
run are compared, field by field, and where the score or the payout moved, the line names both.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import scoring
from app_ui.options import option_label, option_specs
from app_ui.summary import (
    RULE_LABELS,
    WIND_LABELS,
    circumstance_label,
    correction_words,
    option_value_words,
)
from app_ui.table_edits import RENUMBERED, net_corrections, tile_number, well_formed
from app_ui.winning_hint import Outcome, result_words, wants_winning_tile
from scoring.api import PLACE_WORDS
from scoring.winning_tiles import input_scored_as_self_drawn

# the scoring input's fields a user sets, in the order the page asks them, with their words
FIELD_WORDS = {
    "rules": "rule set",
    "seat_wind": "seat wind",
    "prevailing_wind": "prevailing wind",
    "self_drawn": "won by",
    "winning_tile": "winning tile",
    "winning_tile_into": "where the winning tile went",
    "circumstances": "special circumstances",
    "pay_all": "pay-all",
    "discarder_wind": "who discarded",
    "bonus_from_deal": "bonus tiles held from the deal",
    "options": "house rules",
}
TILE_FIELDS = ("concealed", "melds", "bonus")
# the tile table's correction records (`session.table_corrections`), compared to say which were made
Record = Mapping[str, Any]
Records = Sequence[Record]
# The result of a run that scored nothing (a meld left unfinished, a house rule out of range): the next
# score is told against it, not against the score before it, which the page no longer showed.
NOT_SCORED: dict[str, Any] = {"valid": False, "reason": "not_scored"}


def change_note(
    before: Mapping[str, Any],
    before_result: Mapping[str, Any],
    now: Mapping[str, Any],
    result: Mapping[str, Any],
    corrected: tuple[Records, Records] = ((), ()),
    ways: tuple[Sequence[Outcome], Sequence[Outcome]] = ((), ()),
    told: Collection[str] = (),
) -> str | None:
    """What moved the score between two scorings (`before` and `now`: the scoring inputs; their
    results beside them; `corrected`: the tile table's correction records, before and now; `ways`:
    what each tile that may have won the hand gives, before and now, where the winning tile is unset),
    or None where the score, the payouts and the patterns are as they were, or nothing the user sets
    changed; the fields `told` (said beside it: a toast's note) left out, where another changed too."""
    # a hand that wants its winning tile, before and after, shows what each tile gives, not why it is no
    # win as it stands: that is what moves (the review of stage 78's fix: a minimum raised said "still not
    # a valid win, now for another reason", a cap lowered from 4 to 3 tai by the tile said nothing)
    asking = wants_winning_tile(before_result, list(ways[0])) and wants_winning_tile(result, list(ways[1]))
    same_ways = _ways(ways[0]) == _ways(ways[1])
    if asking:
        if same_ways and _instant(before_result) == _instant(result):
            return None
    elif _outcome(before_result) == _outcome(result) and same_ways:
        # a valid hand's unset winning tile may give other scores with the score as it stands unmoved
        return None
    changes = changed_fields(before, now, corrected)
    if not changes:
        return None
    changes = changed_fields(before, now, corrected, told) or changes
    was, is_now = _words(before_result, ways[0]), _words(result, ways[1])
    if asking and was == is_now:
        moved = f"{is_now}, " + (
            "the instant payouts changed" if same_ways else "the score by winning tile changed"
        )
    elif was == is_now and _outcome(before_result)[:3] != _outcome(result)[:3] and not result.get("valid"):
        # no win either side: no payout moved, only why it is no win (said just below the line)
        moved = "still not a valid win, now for another reason"
    elif was != is_now:
        moved = f"{was} → {is_now}"
    elif _outcome(before_result) == _outcome(result) and not (ways[0] and ways[1]):
        # the winning tile set where the hand scores so on it as well, or unset again: the score stayed (an
        # audit, stage 81, read "4 tai as it stands, the score by winning tile changed" as if it had moved)
        moved = f"still {is_now}"
    elif _outcome(before_result) == _outcome(result):
        moved = f"{is_now} as it stands; what each winning tile would give changed"
    else:
        moved = f"{is_now}, {_what_moved(before_result, result)}"
    return f"{moved} after: {'; '.join(changes)}."


def changed_fields(
    before: Mapping[str, Any],
    now: Mapping[str, Any],
    corrected: tuple[Records, Records] = ((), ()),
    told: Collection[str] = (),
) -> list[str]:
    """Each field the user sets that differs between two scoring inputs, in words ("seat wind East ->
    South"), each house rule by name and value ("Unit 1 → 0.5"), and the tiles by the corrections made
    or undone (`corrected`: the table's records, before and now; "the tiles" where none says it); the
    fields (`FIELD_WORDS`' keys) `told` left out."""
    rules = str(now.get("rules") or "singapore")
    # under pay-all the seat is the liable player's, as its box says
    fields = {**FIELD_WORDS, **({"discarder_wind": "liable player"} if now.get("pay_all") else {})}
    drawn_now, drawn_before = input_scored_as_self_drawn(now), input_scored_as_self_drawn(before)
    if drawn_now and not drawn_before and not now.get("pay_all"):
        # a self-draw (a replacement tile's win too) has no discarder: the seat is kept for a discard
        # again, not taken away (an audit read "who discarded South → not said" beside "won by
        # discard → self-drawn"; a review, the same on ticking a replacement tile)
        del fields["discarder_wind"]
    said = [
        f"{words} {_value(key, before.get(key), rules)} → {_value(key, now.get(key), rules)}"
        for key, words in fields.items()
        if key != "options" and key not in told and _given(before.get(key)) != _given(now.get(key))
    ]
    # another rule set brings its own defaults: no house rule the user changed
    if before.get("rules") == now.get("rules") and before.get("options") != now.get("options"):
        options = option_changes(rules, before.get("options") or {}, now.get("options") or {})
        said.extend(options or ["house rules"])
    if any(before.get(key) != now.get(key) for key in TILE_FIELDS):
        # a photo is read again as another rule set's tiles: no correction of the user's says why
        read_again = before.get("rules") != now.get("rules")
        steps = correction_changes(*corrected, kongs=(_kong_codes(before), _kong_codes(now)))
        said.extend(steps or ["the tiles read again" if read_again else "the tiles"])
    return said


def option_changes(rules: str, before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """Each option of the rule set set otherwise now, by the sidebar's label, from and to ("Unit 1 →
    0.5"): "house rules" alone left a table guessing which (stage 55)."""
    unit_name = scoring.get_ruleset(rules).unit_name
    out = []
    for spec in option_specs(scoring.Options, scoring.default_options(rules)):
        if spec.rules and rules not in spec.rules:
            continue
        was, is_now = before.get(spec.name, spec.default), now.get(spec.name, spec.default)
        if was != is_now:
            words = [option_value_words(spec.name, spec.kind, value) for value in (was, is_now)]
            if words[0] != words[1]:  # a default given as a list or a tuple is no change to say
                out.append(f"{option_label(spec, unit_name)} {words[0]} → {words[1]}")
    return out


def correction_changes(
    before: Records, now: Records, kongs: tuple[Collection[str], Collection[str]] | None = None
) -> list[str]:
    """The corrections made since and those undone, in the corrections line's words, from the table's
    correction records before and now (`session.table_corrections`: each tile's net change since the
    photo's reading). A tile corrected again is told by its last step ("#5 5p → 4m", then "#5 5p → 4s",
    is "#5 4m → 4s"), a tile deleted by its deletion alone. The steps made come first, in the order of
    the list now, then those undone, in the order of the list before. The rows added without a number
    and the records of a form not known here are compared by their words, each as often as it was made or
    undone (two tiles of 3m added read alike); a kong's tick is told as the tick the user set
    (`kong_tick_steps`, `kongs`: the faces of the hand's kongs before and now, where known), after the
    tiles' steps."""
    was, is_now = _read(before), _read(now)
    loose_made = Counter(is_now.loose) - Counter(was.loose)
    loose_undone = Counter(was.loose) - Counter(is_now.loose)
    made: dict[_Key, list[dict[str, Any]]] = {}
    undone: dict[_Key, list[dict[str, Any]]] = {}
    for key in dict.fromkeys([*is_now.tiles, *was.tiles]):
        earlier, tile = was.tiles.get(key), is_now.tiles.get(key)
        if earlier is None and tile is not None and _taken(loose_undone, _unnumbered(tile)):
            earlier = tile  # a row added, then numbered as it was folded into the table: no step
        made[key], undone[key] = _steps(earlier, tile)
    said = _tiles_added_counted(_walk(is_now.order, loose_made, made), made)
    ticks = kong_tick_steps(was.ticks, is_now.ticks, kongs)
    return [*said, *ticks, *(f"{words} undone" for words in _walk(was.order, loose_undone, undone))]


def _tiles_added_counted(said: list[str], made: Mapping[_Key, list[dict[str, Any]]]) -> list[str]:
    """`said` with the tiles added in one change (*Or type several*, `made`'s additions) told by their
    count, at the first one's place ("4 tiles added, listed in Your corrections"): each was listed in the
    toast, under the result and again in the corrections line over the table, which stays (an audit).
    A tile added alone is named, as any one correction is."""
    additions = [record for records in made.values() for record in records if record.get("action") == "add"]
    added = set(_in_words(additions)) & set(said)
    if len(added) < 2:
        return said
    first = next(index for index, words in enumerate(said) if words in added)
    rest = [words for words in said if words not in added]
    return [*rest[:first], f"{len(added)} tiles added, listed in Your corrections", *rest[first:]]


def kong_tick_steps(
    before: Mapping[str, Record],
    now: Mapping[str, Record],
    kongs: tuple[Collection[str], Collection[str]] | None = None,
) -> list[str]:
    """What the user did to the kongs' ticks between two lists of corrections (each list's kong records,
    by group: a tick set otherwise than the hand has it), as the tick they set: "meld 1 (5s kong) set
    exposed undone" left a user who had just ticked the box guessing what was done; a tick set back as
    the hand has it is said so ("again"). Where the kong itself went or came back (`kongs`: the faces of
    the hand's kongs before and now), no tick was set: its correction is said undone, or made, in the
    corrections line's words (a tile of a kong ticked exposed deleted had read "marked the 5s kong
    concealed again"). A tick that stands as it stood while the kong's four tiles took another face is
    no tick set: the tiles' steps say the change (it had read "marked the 6s kong exposed" as a change of
    its tiles was undone)."""
    kongs_before, kongs_now = kongs if kongs is not None else (None, None)
    said: list[str] = []
    for group in dict.fromkeys([*now, *before]):
        tick, was = now.get(group), before.get(group)
        if tick is not None and was is not None and bool(tick["concealed"]) == bool(was["concealed"]):
            continue  # the same tick on the same group: only its face moved, with the tiles
        if tick is not None and tick != was:
            if was is None and kongs_before is not None and tick["code"] not in kongs_before:
                said.extend(_in_words([tick]))  # the kong is back, as the user had ticked it
            else:
                said.append(kong_tick_words(str(tick["code"]), bool(tick["concealed"])))
        elif tick is None and was is not None:
            if kongs_now is not None and was["code"] not in kongs_now:
                said.extend(f"{words} undone" for words in _in_words([was]))  # the kong is gone
            else:
                said.append(kong_tick_words(str(was["code"]), not was["concealed"]) + " again")
    return said


def _kong_codes(scoring_input: Mapping[str, Any]) -> set[str]:
    """The faces of the kongs in a scoring input's melds."""
    melds = scoring_input.get("melds") or []
    return {
        str(meld["tiles"][0])
        for meld in melds
        if isinstance(meld, Mapping) and meld.get("kind") == "kong" and meld.get("tiles")
    }


def kong_tick_words(code: str, concealed: bool) -> str:
    """A kong's tick as the user set it: "marked the 5p kong concealed" (a set holds one kong of a face,
    so the face names it)."""
    return f"marked the {code} kong {'concealed' if concealed else 'exposed'}"


# A tile in a list of corrections: the stretch between `RENUMBERED` marks (past one, the numbers are
# another table's), its number, and how many tiles that number named before it in the stretch (a case
# saved before stage 74 gave a deleted tile's number again: `table_edits.net_corrections` has it so).
_Key = tuple[int, int, int]


@dataclasses.dataclass(frozen=True)
class _Set:
    """A tile's face or group as the photo read it (a tile added: as its addition names it) and as it
    is now, and who set it so (`by`: an offer of the reader's taken, "win option"; None: the user)."""

    read: str
    now: str
    by: Any = None


@dataclasses.dataclass(frozen=True)
class _Tile:
    """One tile as a list of net corrections leaves it: its face; its group where a regroup or its
    addition names it; whether the user added it (named as it is now: its addition gives `face` and
    `group`); and the face its deletion names (None: not deleted)."""

    number: int
    face: _Set
    group: _Set | None = None
    added: bool = False
    deleted: str | None = None


@dataclasses.dataclass(frozen=True)
class _Corrections:
    """A list of corrections as the note compares it: each tile by its key, the other records in
    words, and the order of both in the list (a tile's key at its first record)."""

    tiles: Mapping[_Key, _Tile]
    order: tuple[_Key | str, ...]
    ticks: Mapping[str, Record] = dataclasses.field(default_factory=dict)  # kong records, by group

    @property
    def loose(self) -> list[str]:
        """The words of the records that are no numbered tile's."""
        return [entry for entry in self.order if isinstance(entry, str)]


def _read(records: Records) -> _Corrections:
    """The tiles a list of corrections names, each as it leaves it, and the rest in words (a mark has
    none). Netted first (`table_edits.net_corrections`; the page's lists are net already, and a net
    list is its own net), so that a tile has one change and one regroup, or its deletion last."""
    tiles: dict[_Key, _Tile] = {}
    order: list[_Key | str] = []
    stretch = 0
    live: dict[int, _Key] = {}  # the tile each number names in this stretch, until it is deleted
    given: Counter[int] = Counter()  # how many tiles each number has named in this stretch
    ticks: dict[str, Record] = {}
    for record in net_corrections(records):
        number = tile_number(record)
        if record.get("action") == RENUMBERED:
            stretch, live, given = stretch + 1, {}, Counter()
        elif record.get("action") == "kong" and well_formed(record):
            ticks[str(record["group"])] = record  # the net list holds one a group, the last tick
        elif number is None:
            order.extend(_in_words([record]))
        else:
            key = live.get(number)
            if key is None:
                key = live[number] = (stretch, number, given[number])
                given[number] += 1
                order.append(key)
            tiles[key] = _with(tiles.get(key), number, record)
            if record["action"] == "delete":
                del live[number]  # the number given again later names another tile
    return _Corrections(tiles, tuple(order), ticks)


def _with(tile: _Tile | None, number: int, record: Mapping[str, Any]) -> _Tile:
    """`tile` (None: not named yet) with one more of its net corrections, `record`."""
    action, by = record["action"], record.get("by")
    if action == "add":  # numbered as it was added: a tile of its own, as if read so
        code, group = str(record["code"]), str(record["group"])
        return _Tile(number, _Set(code, code), _Set(group, group), added=True)
    if tile is None:
        read = str(record["from"] if action == "change" else record["code"])
        tile = _Tile(number, _Set(read, read))
    if action == "change":
        return dataclasses.replace(tile, face=_Set(tile.face.read, str(record["to"]), by))
    if action == "regroup":
        read = str(record["from"]) if tile.group is None else tile.group.read
        return dataclasses.replace(tile, group=_Set(read, str(record["to"]), by))
    return dataclasses.replace(tile, deleted=str(record["code"]))


_Steps = tuple[list[dict[str, Any]], list[dict[str, Any]]]  # records: the steps made, those undone


def _steps(before: _Tile | None, now: _Tile | None) -> _Steps:
    """One tile's corrections between two lists (None: a list that does not name it)."""
    if now is None:
        return [], [] if before is None else _records(before)
    if now.deleted is not None:
        # a tile deleted is told by its deletion alone: its change, regroup or addition went with it
        same = before is not None and before.deleted == now.deleted
        return [] if same else _deletion(now), []
    if before is None:
        return _records(now), []
    if before.added != now.added:  # not one tile (a list edited by hand): each said as it stands
        return _records(now), _records(before)
    # a tile back from its deletion: the deletion undone, and what it is now told against what it was
    undone = _deletion(before)
    if now.added:
        # a tile added is named as it is now ("#16 4m added to hand"): the step is from its addition
        # before ("#16 3m → 4m")
        return [*_face_step(now, before.face), *_group_step(now, before.group)], undone
    face_made, face_undone = _face_steps(before, now)
    group_made, group_undone = _group_steps(before, now)
    return [*face_made, *group_made], [*face_undone, *group_undone, *undone]


def _face_steps(before: _Tile, now: _Tile) -> _Steps:
    """A read tile's face changed before and now: the step between them where both changed it from
    the same reading; else the change made, and the one before undone (a face set back as read is
    "#5 5p → 4m undone", not a step back)."""
    if _from_one_reading(before.face, now.face):
        return _face_step(now, before.face), []
    return _face_change(now), _face_change(before)


def _group_steps(before: _Tile, now: _Tile) -> _Steps:
    """`_face_steps` of a read tile's group."""
    if _from_one_reading(before.group, now.group):
        return _group_step(now, before.group), []
    return _regrouping(now), _regrouping(before)


def _from_one_reading(was: _Set | None, now: _Set | None) -> bool:
    """Whether a face (or group) was set otherwise than read both before and now, from one reading."""
    if was is None or now is None:
        return False
    return was.now != was.read and now.now != now.read and was.read == now.read


def _face_step(now: _Tile, was: _Set) -> list[dict[str, Any]]:
    """The step of a tile's face from the face it had (`was`) to the one it has: "#5 4m → 4s"; the
    same face set now by another (a way to a win taken where the user had set it) is said as it
    stands ("#5 5p → 4s (way to a win taken)")."""
    face = now.face
    if was == face:
        return []
    return [_change(now.number, was.now if was.now != face.now else face.read, face)]


def _group_step(now: _Tile, was: _Set | None) -> list[dict[str, Any]]:
    """The step of a tile's group from the group it had (`was`): "#5 4m meld 1 → meld 2"; none where
    its group stands (a regroup's words that moved only by the tile's face: the face's step says it)."""
    group = now.group
    if was is None or group is None or was.now == group.now:
        return []
    return [_regroup(now, was.now, group)]


def _records(tile: _Tile) -> list[dict[str, Any]]:
    """A tile's net corrections as `table_edits.net_corrections` gives them: its addition (as it is
    now), its change and regroup, or its deletion."""
    if tile.added:
        group = "" if tile.group is None else tile.group.now
        add = {"action": "add", "tile": tile.number, "code": tile.face.now, "group": group}
        return [add, *_deletion(tile)]
    return _deletion(tile) or [*_face_change(tile), *_regrouping(tile)]


def _face_change(tile: _Tile) -> list[dict[str, Any]]:
    """A read tile's change, where its face is not as read."""
    face = tile.face
    return [] if face.now == face.read else [_change(tile.number, face.read, face)]


def _regrouping(tile: _Tile) -> list[dict[str, Any]]:
    """A read tile's regroup, where its group is not as read."""
    group = tile.group
    if group is None or group.now == group.read:
        return []
    return [_regroup(tile, group.read, group)]


def _deletion(tile: _Tile) -> list[dict[str, Any]]:
    return [] if tile.deleted is None else [{"action": "delete", "tile": tile.number, "code": tile.deleted}]


def _change(number: int, was: str, face: _Set) -> dict[str, Any]:
    """A change record from the face `was` to `face` as it is now, with who set it."""
    change = {"action": "change", "tile": number, "from": was, "to": face.now}
    return change | ({"by": face.by} if face.by else {})


def _regroup(tile: _Tile, was: str, group: _Set) -> dict[str, Any]:
    """A regroup record of `tile` (named by its face now) from the group `was` to `group` now."""
    regroup = {"action": "regroup", "tile": tile.number, "code": tile.face.now, "from": was, "to": group.now}
    return regroup | ({"by": group.by} if group.by else {})


def _unnumbered(tile: _Tile) -> str | None:
    """The words of a tile added as the table named it before it was folded in, by its face alone
    ("3m added to hand"); None for a tile not added, or deleted."""
    if not tile.added or tile.deleted is not None or tile.group is None:
        return None
    return correction_words({"action": "add", "code": tile.face.now, "group": tile.group.now})


def _taken(counts: Counter[str], words: str | None) -> bool:
    """Whether `words` are among `counts`, then taken from them: each record pairs once."""
    if words is None or counts[words] <= 0:
        return False
    counts[words] -= 1
    return True


def _walk(
    order: Sequence[_Key | str], loose: Counter[str], tiles: Mapping[_Key, list[dict[str, Any]]]
) -> list[str]:
    """The words of a list's entries in its order: each tile's records (`tiles`); each other record's
    words at their first place, as often as they are among `loose` (those alike said together)."""
    said: list[str] = []
    for entry in order:
        if isinstance(entry, str):
            said.extend([entry] * loose.pop(entry, 0))
        else:
            said.extend(_in_words(tiles[entry]))
    return said


def _in_words(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Records in the corrections line's words (`summary.correction_words`); a mark has none."""
    return [words for words in map(correction_words, map(dict, records)) if words is not None]


def _outcome(result: Mapping[str, Any]) -> tuple[Any, ...]:
    if not result.get("valid"):
        # a hand that is no win pays nothing whatever the rule set's players: why it is no win counts,
        # and the instant payouts (a kong's), which are paid win or not
        return (False, result.get("reason"), result.get("message"), _instant(result))
    payout = result.get("payout") or {}
    players = payout.get("players") or []
    return (
        bool(result.get("valid")),
        result.get("tai"),
        tuple(p.get("amount") for p in players),
        _instant(result),
        _patterns(result),
    )


def _ways(ways: Sequence[Outcome]) -> tuple[tuple[tuple[str, ...], bool, int], ...]:
    """What each tile that may have won the hand gives, as compared between two scorings."""
    return tuple((way.tiles, way.valid, way.tai) for way in ways)


def _instant(result: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(
        (item.get("name"), item.get("from_each"), item.get("total"))
        for item in (result.get("payout") or {}).get("instant_payouts") or []
    )


def _patterns(result: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(sorted(str(p.get("name")) for p in result.get("patterns") or []))


def _words(result: Mapping[str, Any], ways: Sequence[Outcome] = ()) -> str:
    if result.get("reason") == NOT_SCORED["reason"]:
        return "not scored"
    return result_words(dict(result), ways).replace("*", "")


def _what_moved(before: Mapping[str, Any], now: Mapping[str, Any]) -> str:
    """What moved where the score's words stand: the payout, the instant payouts, or the patterns (a
    West seat's pong for a prevailing wind's, the total the same)."""
    if _outcome(before)[:3] != _outcome(now)[:3]:
        return "the payout changed"
    if _instant(before) != _instant(now):
        return "the instant payouts changed"
    gone = [p for p in _patterns(before) if p not in _patterns(now)]
    new = [p for p in _patterns(now) if p not in _patterns(before)]
    return f"the patterns changed ({', '.join(gone) or 'none'} → {', '.join(new) or 'none'})"


def _given(value: Any) -> Any:
    """A field's value with "not given" said one way: absent, None, false, an empty list alike."""
    return value or None


def _value(key: str, value: Any, rules: str) -> str:
    if key in ("seat_wind", "prevailing_wind", "discarder_wind"):
        return WIND_LABELS.get(str(value), "not said") if value else "not said"
    if key == "self_drawn":
        return "self-draw" if value else "discard"
    if key == "pay_all":
        return "on" if value else "off"
    if key == "rules":
        return RULE_LABELS.get(str(value), str(value))
    if key == "circumstances":
        return ", ".join(circumstance_label(str(c), rules) for c in value) if value else "none"
    if key == "bonus_from_deal":
        return " ".join(map(str, value)) if value else "none"
    if key == "winning_tile_into":
        return PLACE_WORDS.get(str(value), "not said")
    return str(value) if value else "not set"
