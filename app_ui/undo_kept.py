"""Undo steps kept for a reloaded page: the undo list (`app_ui.undo`) as plain JSON and back.

A reload is a new session: the steps are kept beside its case (`kept_case.UNDO`) as plain JSON, and
brought back where they are steps of the case it reopens. Their file is written again at each change
the user makes, so what the steps share is written once: a base however many steps
hold it (the steps of one table do), a tile row however many bases hold it (a correction changes one
row of twenty), and a value the bases share (a correction folded into each base after it, a reading's
warnings, a reopened case's record). 50 steps of a photo corrected each time take about 30 kB, not
300. What the models saw of a photo (`Base.seen`, arrays) is not written at all: the reloaded page
reads the photo again and lends its own.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app_ui.case import GROUPS, TILE_CODES, AsRead, Base, MeldOffer, TableState, TileRow
from app_ui.case_file import codes_and_groups, rows_to_json
from app_ui.undo import UNDO_AT_MOST

STEPS_FORMAT = 1


class StepError(ValueError):
    """A step that cannot be written as plain JSON, or read back as one."""


@dataclass
class _Pool:
    """Values written once each, named by their place: those of one `key` are one value."""

    items: list[Any] = dataclasses.field(default_factory=list)
    places: dict[object, int] = dataclasses.field(default_factory=dict)

    def add(self, key: object, write: Callable[[], Any]) -> int:
        if key not in self.places:
            self.items.append(write())  # a value that cannot be written takes no place
            self.places[key] = len(self.items) - 1
        return self.places[key]


@dataclass(frozen=True)
class _Written:
    """The pools `steps_json` fills. Bases and the values they share are keyed by the object (alive
    while the steps are written): the steps share the very objects, as `dataclasses.replace` keeps
    them; rows by what they hold, as a fold makes each afresh."""

    rows: _Pool = dataclasses.field(default_factory=_Pool)
    values: _Pool = dataclasses.field(default_factory=_Pool)
    bases: _Pool = dataclasses.field(default_factory=_Pool)

    def row(self, row: TileRow) -> int:
        key = (row.code, row.group, row.confidence, row.box, row.alternative, row.number)
        return self.rows.add(key, lambda: _row_json(row))

    def mapping(self, value: Mapping[str, Any]) -> int:
        """A plain mapping written once however many bases hold it."""
        return self.values.add(id(value), lambda: _plain(dict(value)))

    def texts(self, value: tuple[str, ...]) -> int:
        return self.values.add(id(value), lambda: [_text(line) for line in value])

    def base(self, base: Base) -> int:
        return self.bases.add(id(base), lambda: _base_json(base, self))


@dataclass(frozen=True)
class _Stored:
    """The pools of a file's steps (`steps_json`), each base and row read once, when first named."""

    rows: list[Any]
    values: list[Any]
    bases: list[Any]
    rows_read: dict[int, TileRow] = dataclasses.field(default_factory=dict)
    bases_read: dict[int, Base] = dataclasses.field(default_factory=dict)

    def row(self, place: object) -> TileRow:
        at = _place(place, self.rows)
        if at not in self.rows_read:
            self.rows_read[at] = _row_from_json(self.rows[at])
        return self.rows_read[at]

    def value(self, place: object) -> Any:
        return self.values[_place(place, self.values)]

    def mapping(self, place: object) -> dict[str, Any]:
        return dict(_mapping(self.value(place)))

    def base(self, place: object) -> Base:
        at = _place(place, self.bases)
        if at not in self.bases_read:
            self.bases_read[at] = _base_from_json(self.bases[at], self)
        return self.bases_read[at]


def steps_json(steps: Sequence[TableState]) -> dict[str, Any]:
    """The undo list as plain JSON (`steps_from_json` reads it back), newest last. A step holding
    anything but plain values (none the app makes) is left out, and every older one with it: stepping
    back must pass each step in turn."""
    written = _Written()
    out: list[dict[str, Any]] = []
    for state in reversed(steps):
        try:
            step: dict[str, Any] = {
                "base": written.base(state.base),
                "edits": _edits_json(state.edits),
                "ticks": _ticks_json(state.meld_concealed),
            }
            if state.winning_tile is not None:
                chosen, aside = state.winning_tile
                step["winning_tile"] = [_text(chosen), None if aside is None else _text(aside)]
        except (StepError, TypeError, ValueError, RecursionError):
            break
        out.append(step)
    return {
        "format": STEPS_FORMAT,
        "rows": written.rows.items,
        "values": written.values.items,
        "bases": written.bases.items,
        "steps": out[::-1],
    }


def steps_from_json(data: object, at_most: int = UNDO_AT_MOST) -> list[TableState]:
    """The steps `steps_json` wrote, newest last, at most `at_most`; from a file of another format,
    none. A step that does not read back (a file cut short or written by hand) ends the list there:
    the steps newer than it stay, the older go."""
    if not isinstance(data, Mapping) or data.get("format") != STEPS_FORMAT:
        return []
    pools = [data.get(name) for name in ("rows", "values", "bases")]
    steps = data.get("steps")
    if not all(isinstance(pool, list) for pool in pools) or not isinstance(steps, list):
        return []
    stored = _Stored(*pools)  # type: ignore[arg-type]  # lists, as checked
    out: list[TableState] = []
    for item in reversed(steps[-at_most:]):
        try:
            out.append(_step_from_json(item, stored))
        except (StepError, RecursionError):
            break
    return out[::-1]


def steps_for_case(
    steps: Sequence[TableState], case: Base, kept: Mapping[str, Any] | None
) -> list[TableState]:
    """The steps a reloaded page brings back for the case it reopened (`case`, and `kept`: the record
    its kept file holds, `Base.history` as opened): the newest, while each is a step of that case (the
    same source, read as the same tile set into the same tiles, `case_record`). A photo's step takes
    what the models saw of the photo reopened, and goes where the photo did not come back (no reading
    here to return to). The first that is not ends the list, the older ones with it: stepping back
    must pass each step in turn."""
    want = None if kept is None else record_of(kept)
    out: list[TableState] = []
    for state in reversed(steps):
        base = state.base
        if want is None or case_record(base) != want:
            break
        if base.source == "photo":
            if case.source != "photo":
                break
            state = dataclasses.replace(state, base=dataclasses.replace(base, seen=case.seen))
        out.append(state)
    return out[::-1]


def case_record(base: Base) -> tuple[object, ...]:
    """Where the hand of `base` came from, as its case file says it (`case_file.case_json`'s `source`
    and `photo_tiles`), the reading's confidences and boxes aside."""
    history = base.history
    own = {"kind": base.source, "name": base.name, "sha256": base.sha256, "read_as": base.read_as}
    source = history.get("source") if base.restored and history is not None else own
    if history is not None:
        tiles = history.get("photo_tiles")
    else:
        tiles = rows_to_json(base.photo_rows) if base.source == "photo" else []
    return _record(source, tiles)


def record_of(kept: Mapping[str, Any]) -> tuple[object, ...]:
    """Where a kept case's hand came from (`kept`: its record, `Base.history` as opened), as
    `case_record` says it of a base."""
    return _record(kept.get("source"), kept.get("photo_tiles"))


def _record(source: object, photo_tiles: object) -> tuple[object, ...]:
    said = source if isinstance(source, Mapping) else {}
    # an absent read_as and an empty one are the same (a typed hand's)
    return (
        *(said.get(key) or None for key in ("kind", "name", "sha256", "read_as")),
        codes_and_groups(photo_tiles),
    )


def _base_json(base: Base, written: _Written) -> dict[str, Any]:
    """`base` as plain JSON, its rows and the values it shares by their place (`_Written`), its
    defaults left out; what the models saw never."""
    out: dict[str, Any] = {"rows": [written.row(row) for row in base.rows], "source": _text(base.source)}
    if base.name:
        out["name"] = _text(base.name)
    if base.sha256:
        out["sha256"] = _text(base.sha256)
    if base.size is not None:
        out["size"] = [int(base.size[0]), int(base.size[1])]
    if base.meld_concealed:
        out["meld_concealed"] = _ticks_json(base.meld_concealed)
    if base.layout_hand is not None:
        out["layout_hand"] = written.mapping(base.layout_hand)
    if base.warnings:
        out["warnings"] = written.texts(base.warnings)
    if base.timings:
        out["timings"] = written.mapping(base.timings)
    if base.win_ways:
        out["win_ways"] = [[[int(n), _text(code)] for n, code in way] for way in base.win_ways]
    if base.as_read is not None:
        read = base.as_read
        out["as_read"] = {"rows": [written.row(row) for row in read.rows]}
        out["as_read"]["meld_concealed"] = _ticks_json(read.meld_concealed)
    if base.earlier:
        out["earlier"] = [written.mapping(change) for change in base.earlier]
    if base.ways_closed:
        out["ways_closed"] = True
    if base.history is not None:
        out["history"] = written.mapping(base.history)
    if base.restored:
        out["restored"] = True
    if base.read_as:
        out["read_as"] = _text(base.read_as)
    if base.numbered_up_to:
        out["numbered_up_to"] = _whole(base.numbered_up_to)
    if base.recalled:
        out["recalled"] = [_whole(n) for n in base.recalled]
    if base.meld_offer is not None:
        offer = base.meld_offer
        out["meld_offer"] = {
            "laid": bool(offer.laid),
            "melds": [[int(n) for n in meld] for meld in offer.melds],
            "kinds": [_text(kind) for kind in offer.kinds],
            "line": _text(offer.line),
        }
    return out


def _base_from_json(data: object, stored: _Stored) -> Base:
    base = _mapping(data)
    size, as_read, offer = base.get("size"), base.get("as_read"), base.get("meld_offer")
    layout_hand, history = base.get("layout_hand"), base.get("history")
    return Base(
        rows=tuple(map(stored.row, _list(base.get("rows")))),
        source=_text(base.get("source")),
        name=_text(base.get("name", "")),
        sha256=_text(base.get("sha256", "")),
        size=None if size is None else _pair(size),
        meld_concealed=_ticks(base.get("meld_concealed", {})),
        layout_hand=None if layout_hand is None else stored.mapping(layout_hand),
        warnings=()
        if "warnings" not in base
        else tuple(_text(w) for w in _list(stored.value(base["warnings"]))),
        timings={}
        if "timings" not in base
        else {k: _number(v) for k, v in stored.mapping(base["timings"]).items()},
        win_ways=tuple(
            tuple((_whole(n), _text(code)) for n, code in map(_pair_of, _list(way)))
            for way in _list(base.get("win_ways", []))
        ),
        as_read=None
        if as_read is None
        else AsRead(
            tuple(map(stored.row, _list(_mapping(as_read).get("rows")))),
            _ticks(_mapping(as_read).get("meld_concealed", {})),
        ),
        earlier=tuple(map(stored.mapping, _list(base.get("earlier", [])))),
        ways_closed=_flag(base.get("ways_closed", False)),
        history=None if history is None else stored.mapping(history),
        restored=_flag(base.get("restored", False)),
        read_as=_text(base.get("read_as", "")),
        meld_offer=None if offer is None else _offer_from_json(offer),
        # a count below 0 (a file edited by hand) gives no number: read as none given, not as #-5
        numbered_up_to=max(0, _whole(base.get("numbered_up_to", 0))),
        recalled=tuple(_whole(n) for n in _list(base.get("recalled", []))),
    )


def _offer_from_json(data: object) -> MeldOffer:
    offer = _mapping(data)
    return MeldOffer(
        laid=_flag(offer.get("laid")),
        melds=tuple(tuple(_whole(n) for n in _list(meld)) for meld in _list(offer.get("melds"))),
        kinds=tuple(_text(kind) for kind in _list(offer.get("kinds"))),
        line=_text(offer.get("line", "")),
    )


def _row_json(row: TileRow) -> dict[str, Any]:
    out: dict[str, Any] = {"code": _text(row.code), "group": _text(row.group)}
    if row.confidence is not None:
        out["confidence"] = _finite(row.confidence)
    if row.box is not None:
        out["box"] = [_finite(v) for v in row.box]
    if row.alternative is not None:
        out["alternative"] = _text(row.alternative)
    if row.number is not None:
        out["number"] = int(row.number)
    return out


def _row_from_json(data: object) -> TileRow:
    row = _mapping(data)
    code, group, alternative = row.get("code"), row.get("group"), row.get("alternative")
    # a row feeds the table and the scoring: only the codes and groups the table offers
    if code not in TILE_CODES or group not in GROUPS or alternative not in (None, *TILE_CODES):
        raise StepError(f"not a tile row: {row!r:.80}")
    box, number, confidence = row.get("box"), row.get("number"), row.get("confidence")
    corners: tuple[float, float, float, float] | None = None
    if box is not None:
        if len(_list(box)) != 4:
            raise StepError(f"not a box: {box!r:.80}")
        x1, y1, x2, y2 = (_number(v) for v in box)
        corners = (x1, y1, x2, y2)
    return TileRow(
        code=str(code),
        group=str(group),
        confidence=None if confidence is None else _number(confidence),
        box=corners,
        alternative=None if alternative is None else str(alternative),
        number=None if number is None else _whole(number),
    )


def _edits_json(edits: Mapping[str, Any]) -> dict[str, Any]:
    """The table's edit state as plain JSON: its rows' keys (ints in Python, strings where the page
    sent them so) as pairs, for each to come back as it was."""
    out = {str(k): _plain(v) for k, v in edits.items() if k != "edited_rows"}
    if "edited_rows" in edits:
        rows = edits["edited_rows"]
        if not isinstance(rows, Mapping):
            raise StepError("edited_rows is no mapping")
        out["edited_rows"] = [[_key(k), _plain(dict(v))] for k, v in rows.items()]
    return out


def _edits_from_json(data: object) -> dict[str, Any]:
    """The table's edit state `_edits_json` wrote, each cell one value (what the table reads of it)."""
    edits = dict(_mapping(data))
    if "edited_rows" in edits:
        edits["edited_rows"] = {
            _key(key): _cells(change) for key, change in map(_pair_of, _list(edits["edited_rows"]))
        }
    for added in _list(edits.get("added_rows", [])):
        _cells(added)
    for key in _list(edits.get("deleted_rows", [])):
        _key(key)
    return edits


def _cells(value: object) -> dict[str, Any]:
    cells = dict(_mapping(value))
    if not all(isinstance(v, str | int | float | bool) or v is None for v in cells.values()):
        raise StepError(f"not a row's cells: {cells!r:.80}")
    return cells


def _step_from_json(item: object, stored: _Stored) -> TableState:
    step = _mapping(item)
    base = stored.base(step.get("base"))
    winning = step.get("winning_tile")
    chosen, aside = (None, None) if winning is None else _pair_of(winning)
    if winning is not None and (not isinstance(chosen, str) or not isinstance(aside, str | None)):
        raise StepError(f"not a winning tile: {winning!r:.80}")
    return TableState(
        base,
        _edits_from_json(step.get("edits")),
        _ticks(step.get("ticks", {})),
        None if winning is None else (str(chosen), aside),
    )


def _place(value: object, items: list[Any]) -> int:
    """A place in `items` that a step or a base names."""
    place = _whole(value)
    if not 0 <= place < len(items):
        raise StepError(f"nothing at {place}")
    return place


def _plain(value: Any) -> Any:
    """`value` where it is plain JSON (objects keyed by text, lists, text, finite numbers, true,
    false, null), which a round trip gives back as it was; StepError where it is not (a tuple would
    come back a list)."""
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        return _finite(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: _plain(v) for k, v in value.items()}
    raise StepError(f"not plain JSON: {type(value).__name__}")


def _finite(value: object) -> float:
    number = _number(value)
    if not math.isfinite(number):
        raise StepError(f"not a finite number: {value!r}")
    return number


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StepError(f"not a number: {value!r:.80}")
    try:
        return float(value)
    except OverflowError:
        raise StepError("a number too large") from None


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StepError(f"not a whole number: {value!r:.80}")
    return value


def _key(value: object) -> int | str:
    """A table row's key: an int, or its text (the data editor gives either)."""
    return value if isinstance(value, str) else _whole(value)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise StepError(f"not text: {value!r:.80}")
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise StepError(f"not true or false: {value!r:.80}")
    return value


def _mapping(value: object) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise StepError(f"not an object: {value!r:.80}")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise StepError(f"not a list: {value!r:.80}")
    return value


def _pair_of(value: object) -> tuple[Any, Any]:
    items = _list(value)
    if len(items) != 2:
        raise StepError(f"not a pair: {value!r:.80}")
    return items[0], items[1]


def _pair(value: object) -> tuple[int, int]:
    first, second = _pair_of(value)
    return _whole(first), _whole(second)


def _ticks_json(ticks: Mapping[str, bool]) -> dict[str, bool]:
    return {_text(group): bool(ticked) for group, ticked in ticks.items()}


def _ticks(value: object) -> dict[str, bool]:
    return {str(group): _flag(ticked) for group, ticked in _mapping(value).items()}
