"""Running the shared tile reader for a session: through a bounded pool, with a time limit.

Every session of the server shares one reader (st.cache_resource) and one pool; this module holds the
part of that path that needs no Streamlit, so it can be tested from many threads at once.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import Executor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from app_ui.case import Base, MeldOffer, TileRow, win_ways_line
from app_ui.meld_offer import offer_line
from app_ui.photo_rows import BoxKey, kept_numbers, rows_from_reading, tile_numbers
from app_ui.set_lessons import describes
from vision.classes import CLASSES
from vision.lines import (
    MELD_RIVAL,
    OTHER_SET,
    PHOTO,
    SECOND_HAND,
    TILE,
    TILE_READINGS,
    Line,
    count_of,
    lines_saying,
)


def moved_faces(
    detections: Any, probabilities: Any | None, among: Sequence[int] | None = None
) -> list[tuple[str, str]]:
    """(read as, first choice) for each tile read off its first choice, of the tiles `among` (default all)."""
    if probabilities is None or len(probabilities) != len(detections):
        return []
    first = np.asarray(probabilities).argmax(axis=1)
    now = np.asarray(detections.class_id)
    indices = range(len(now)) if among is None else among
    return [(CLASSES[int(now[i])], CLASSES[int(first[i])]) for i in indices if first[i] != now[i]]


def _face_pairs(moved: list[tuple[str, str]]) -> str:
    return ", ".join(f"{now} (not {was})" for now, was in moved)


def reader_lines(reading: Any) -> tuple[Line, ...]:
    """The reader's warnings as facts (`vision.pipeline.Reading.lines`); for a reading made without them,
    or whose lines do not say its warnings (by hand, or a stand-in), each of its warnings as a line
    naming nothing: the warnings are what the page says."""
    lines = getattr(reading, "lines", ()) or ()
    return lines_saying(lines, (str(w) for w in getattr(reading, "warnings", ()) or ()), TILE)


def _on_the_page(line: Line, number: Mapping[int, int]) -> str:
    """The reader's `line` as the page says it: the tiles it names by their numbers (`number`: each
    detection's), where it says so and every one has a number (a whited face: an audit's page said "a
    tile" beside "Please check tile 13"); else without its pixel places, which the photo shows far
    better (a glare spot white, the boxes left out dashed: stage 71's "at (445, 199)" told a user
    nothing); a question whether the photo is of another set's tiles says where to choose one."""
    if line.about == OTHER_SET:
        return (
            # short: where tiles were corrected, the page offers the re-read with a button, and says so then
            f"{line.text} If so, choose that rule set in the sidebar (or the house rule that keeps those"
            " tiles) to read them again as its tiles."
        )
    named = line.numbered(number)
    if named is not None:
        return named
    if line.left_out:
        return f"{line.without_places()}: dashed grey on the photo"
    return line.without_places()


def app_warnings(
    lines: Sequence[Line],
    moved: list[tuple[str, str]] | None = None,
    won: list[tuple[str, str]] | None = None,
    win_options: str | None = None,
    number: Mapping[int, int] | None = None,
) -> tuple[str, ...]:
    """The reader's warnings (`lines`) as the app shows them: by tile, not by pixel.

    The app names unsure tiles by their number (with the alternative) itself, so the reader's
    lines on a tile's reading (`vision.lines.TILE_READINGS`, by pixel position) go; the tiles read as their
    second choice because a set holds only so many of a face (`moved`) get one line saying which
    faces and why; so do the tiles read as a runner-up because only that makes the photo a win (`won`),
    and the ways about as likely that would make it one (`win_options`, from `win_ways_line`); a line
    naming tiles by place names them by number where `number` (each detection's) numbers them.
    """
    ours = [win_options] if win_options else []
    # the ? marks are on the photo, above these lines (a walkthrough: "marked ? below" sent a phone's
    # user scrolling down past the tile pictures, which mark nothing)
    if won:
        ours.insert(
            0,
            f"{_tiles(len(won), 'unsure tile')} read as a likely runner-up, because only so do the "
            f"tiles make a winning hand: {_face_pairs(won)}. Check them: they are marked ? on the photo.",
        )
    if moved:
        ours.insert(
            0,
            f"{_tiles(len(moved), 'tile')} read as another face than the reader's first choice, because "
            f"one set holds one of each flower, season and animal and four of any other tile, "
            f"and surer tiles took those: {_face_pairs(moved)}. They are marked ? on the photo.",
        )
    # the page's own lines on tiles stand first among the lines on tiles
    ranked = [(_TILE_RANK, said) for said in ours]
    ranked += [
        (_line_rank(line), _on_the_page(line, number or {}))
        for line in lines
        if line.about not in TILE_READINGS
    ]
    return tuple(said for _, said in sorted(ranked, key=lambda rank_said: rank_said[0]))


def _tiles(count: int, noun: str) -> str:
    """`count` tiles in words a player reads ("1 tile", "2 unsure tiles"), not "2 tile(s)"."""
    return count_of(count, noun)


# the lines on tiles and the layout's: after a second hand (0) and the photo's faults (1)
_TILE_RANK = 2


def _line_rank(line: Line) -> int:
    """Where a reader's line stands on the page: a second hand in the photo first, as it puts every
    other line in doubt (a set's copies are shared, the hand scored may be the other; an audit found it
    fourth of four, stage 83); then the photo's own faults (`vision.lines.PHOTO`), before the lines on
    tiles they may explain (a shaken photo's line stood under the ways to a win it had blurred, stage
    84); then the rest."""
    if line.about == SECOND_HAND:
        return 0
    return 1 if line.kind == PHOTO else _TILE_RANK


class ReadTimeoutError(TimeoutError):
    """The reader did not answer within the limit; the message is one line for the user."""


@dataclass(frozen=True)
class PhotoRead:
    rows: tuple[TileRow, ...]
    meld_concealed: dict[str, bool]
    layout_hand: dict[str, Any] | None
    warnings: tuple[str, ...]
    timings_ms: dict[str, float] = field(default_factory=dict)
    win_ways: tuple[tuple[tuple[int, str], ...], ...] = ()
    # What the models saw (`vision.pipeline.Seen`), to read the tiles again as another set's faces.
    seen: Any = field(default=None, compare=False)
    meld_offer: MeldOffer | None = None
    recalled: tuple[int, ...] = ()  # the numbers of the tiles the set's lessons read (`Base.recalled`)


def with_reading(base: Base, read: PhotoRead, tile_set: str) -> Base:
    """`base` holding a photo's reading as the set `tile_set`'s tiles (`tile_sets.set_name`): its rows,
    groups, warnings, ways to a win and what the models saw."""
    return replace(
        base,
        rows=read.rows,
        meld_concealed=read.meld_concealed,
        layout_hand=read.layout_hand,
        warnings=read.warnings,
        timings=read.timings_ms,
        win_ways=read.win_ways,
        read_as=tile_set,
        seen=read.seen,
        meld_offer=read.meld_offer,
        recalled=read.recalled,
    )


def read_tiles(
    reader: Any,
    rgb: np.ndarray,
    executor: Executor,
    timeout_s: float,
    faces: Collection[str] | None = None,
    numbered_as: Mapping[BoxKey, int] | None = None,
    after: int = 0,
    memory: Any | None = None,
) -> PhotoRead:
    """Read one photo with the shared reader, each tile as one of `faces` (a rule set's tiles; None:
    any face), each tile numbered as `numbered_as` (by box) numbered it where given, a tile not read
    before numbered after them and after `after` (the case's highest number); raises
    ReadTimeoutError past `timeout_s`. A reader that gives the tiles' looks keeps them (to be taught
    the set once the user has checked the hand: `app_ui.set_lessons`) and reads with `memory`, what
    it was taught (`vision.set_memory.SetMemory`; None: the models alone).

    The pool bounds how many photos are read at once (the CPU is the limit, not the sessions);
    a photo that takes too long is abandoned for the user, and its worker finishes in the background.
    """
    started = time.perf_counter()
    looks = {"memory": memory, "describe": True} if describes(reader) else {}
    future = executor.submit(reader.read, rgb, 1.0, faces, **looks)
    try:
        reading = future.result(timeout=timeout_s)
    except FutureTimeout as exc:
        future.cancel()
        raise ReadTimeoutError(
            f"reading the tiles took longer than {timeout_s:g} s; try a smaller or sharper photo"
        ) from exc
    return photo_read(reading, started, numbered_as, after)


def read_again(
    reader: Any,
    seen: Any,
    faces: Collection[str] | None,
    timings_ms: Mapping[str, float],
    numbered_as: Mapping[BoxKey, int] | None = None,
    after: int = 0,
    memory: Any | None = None,
) -> PhotoRead:
    """The tiles the models saw in a photo read again as one of `faces` each (no model runs: a rule set
    switched after the photo was read), each numbered as `numbered_as` (by box) numbered it, a tile
    not read before numbered after them and after `after` (the case's highest number), with `memory`
    where given (as `read_tiles`); the photo's timings kept."""
    settled = reader.settle(seen, faces) if memory is None else reader.settle(seen, faces, memory=memory)
    read = photo_read(settled, time.perf_counter(), numbered_as, after)
    return replace(read, timings_ms=dict(timings_ms))


def photo_read(
    reading: Any, started: float, numbered_as: Mapping[BoxKey, int] | None = None, after: int = 0
) -> PhotoRead:
    """The app's rows, groups and warnings of a `vision.pipeline.Reading` (`started`: perf_counter
    when the app began reading, for its total time), its tiles numbered in reading order, or as
    `numbered_as` (by box: `photo_rows.numbers_by_box`) numbered them where given, a new tile after
    them and after `after`."""
    probabilities = getattr(reading, "probabilities", None)
    won = tuple(getattr(reading, "win_moved", ()) or ())
    others = [i for i in range(len(reading.detections)) if i not in won]
    number = tile_numbers(reading.detections, reading.layout)
    if numbered_as is not None:
        number = kept_numbers(number, reading.detections.xyxy, numbered_as, after)
    rows, meld_concealed = rows_from_reading(
        reading.detections, reading.layout, probabilities, None if numbered_as is None else number
    )
    options = tuple(
        tuple((number[i], CLASSES[j]) for i, j in way) for way in (getattr(reading, "win_options", ()) or ())
    )
    layout_hand = getattr(reading.layout, "hand", None)
    timings = dict(getattr(reading, "timings_ms", None) or {})
    timings["app_total"] = round((time.perf_counter() - started) * 1000.0, 1)
    offer = meld_offer_of(getattr(reading.layout, "rival", None), number)
    return PhotoRead(
        rows=tuple(rows),
        meld_concealed=meld_concealed,
        layout_hand=dict(layout_hand) if layout_hand else None,
        warnings=app_warnings(
            tuple(offered(reader_lines(reading), offer)),
            moved_faces(reading.detections, probabilities, others),
            moved_faces(reading.detections, probabilities, won),
            win_ways_line(options),
            number,
        ),
        timings_ms=timings,
        win_ways=options if len(options) > 1 else (),
        seen=getattr(reading, "seen", None),
        meld_offer=offer,
        recalled=tuple(number[i] for i in getattr(reading, "recalled", ()) or ()),
    )


def meld_offer_of(rival: Any | None, number: Mapping[int, int]) -> MeldOffer | None:
    """The layout's melds read either way (`vision.layout.MeldRival`) by tile number, with its line as
    the app says it (by number, pointing at the button); None where a tile of them has no number."""
    if rival is None or any(i not in number for g in rival.melds for i in g.indices):
        return None
    offer = MeldOffer(
        laid=bool(rival.laid),
        melds=tuple(tuple(number[i] for i in g.indices) for g in rival.melds),
        kinds=tuple(str(g.meld) for g in rival.melds),
    )
    return replace(offer, line=offer_line(offer, [g.codes for g in rival.melds]))


def offered(lines: Sequence[Line], offer: MeldOffer | None) -> list[Line]:
    """`lines` with the reader's line on the melds read either way (`vision.lines.MELD_RIVAL`) said as
    the `offer` says it (by tile number, pointing at its button); as they are where none is offered."""
    if offer is None:
        return list(lines)
    return [replace(line, text=offer.line) if line.about == MELD_RIVAL else line for line in lines]
