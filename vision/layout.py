"""Layout: from detected tiles to the hand as it lies on the table.

`layout_hand(detections)` finds the rows the tiles lie in (at any photo rotation, from the
tiles themselves), cuts the rows into runs of touching tiles, and reads each run: bonus
tiles go to `bonus` wherever they lie, runs that form melds become melds, and the
longest run that does not is the concealed hand. See docs/layout.md for the rules and
their limits.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from vision.classes import BACK, BONUS_CODES
from vision.detections import UNSURE_BELOW, Detections
from vision.layout_geometry import (
    SIDEWAYS_MARGIN,
    Frame,
    TileShape,
    duplicate_of,
    row_angle,
    row_gaps,
    rows,
    segments,
    tile_shapes,
)
from vision.layout_melds import FLY, MeldKind, MeldRead
from vision.layout_read import (
    HAND_SIZE,
    Reading,
    Row,
    all_readings,
    end_meld_rival,
    hand_tiles,
    moved_melds,
)
from vision.lines import LAYOUT, MELD_RIVAL, SECOND_HAND, About, Line, count_of, lines_of, texts, tiles_slot

# Bonus tiles are laid down next to the hand or its melds; a bonus tile farther than this
# (in tile sizes a + b) from both lies elsewhere on the table (another player's, a discard).
BONUS_NEAR_SPANS = 1.1
# ... but a row of touching bonus tiles is laid down (scattered tiles never touch): farther.
BONUS_ROW_NEAR_SPANS = 1.3

# A lone bonus tile whose box differs from its upright neighbours' by more than this
# (sum of |log| width and height ratios) lies askew: dropped there, not laid down.
ASKEW_BOX = 0.15
# Where the tiles' angles were measured (`Detections.angle`), a lone bonus tile turned by more
# than ASKEW_DEGREES (up to a quarter turn) from its upright neighbours lies askew, and so does one
# whose box says it is turned where the angle does not (`_box_says_turned`, by ASKEW_BOX_MEASURED).
ASKEW_DEGREES = 16.0
ASKEW_BOX_MEASURED = 0.25

GroupKind = Literal["concealed", "meld", "bonus", "unused"]


@dataclass(frozen=True)
class TileGroup:
    """Tiles that belong together, with `indices` into the detections in reading order.

    `box` is the union of the tiles' boxes (x1, y1, x2, y2), for drawing the group.
    """

    kind: GroupKind
    meld: MeldKind | None
    concealed: bool
    indices: tuple[int, ...]
    codes: tuple[str, ...]
    box: tuple[float, float, float, float]

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "meld": self.meld,
            "concealed": self.concealed,
            "indices": list(self.indices),
            "codes": list(self.codes),
            "box": [round(v, 1) for v in self.box],
        }


@dataclass(frozen=True)
class MeldRival:
    """Melds at an end of the hand that the layout could as well read the other way (`end_meld_rival`).

    `laid`: the layout reads these tiles as concealed, and the rival reading lays them out as exposed
    melds; False: the layout reads them as exposed melds, and the rival as part of the concealed hand.
    `melds`: each meld's tiles (detection indices, kind), `cost`: how much less likely the rival is."""

    laid: bool
    melds: tuple[TileGroup, ...]
    cost: float

    def to_json(self) -> dict[str, object]:
        return {"laid": self.laid, "melds": [g.to_json() for g in self.melds], "cost": round(self.cost, 3)}


def rival_warning(rival: MeldRival) -> str:
    """The reader's line asking the user how the tiles at the hand's end were laid."""
    named = ", ".join(f"{' '.join(g.codes)} ({g.meld})" for g in rival.melds)
    one = len(rival.melds) == 1
    lie, it_was, it_is = ("lies", "it was", "it is") if one else ("lie", "they were", "they are")
    groups = "its group" if one else "their groups"
    if rival.laid:
        return (
            f"{named} at one end of the hand {lie} a little apart from it: read as concealed; if {it_was} "
            f"laid down as exposed, set {groups} to {'a meld' if one else 'melds'}"
        )
    return (
        f"{named} {lie} close to one end of the hand: read as exposed; if {it_is} part of the concealed "
        f"hand, set {groups} to hand"
    )


@dataclass(frozen=True)
class Layout:
    """The hand as it lies: `hand` is the scoring JSON input (`concealed`, `melds`, `bonus`)."""

    hand: dict[str, list] = field(default_factory=lambda: {"concealed": [], "melds": [], "bonus": []})
    groups: tuple[TileGroup, ...] = ()
    warnings: tuple[str, ...] = ()
    angle: float = 0.0  # the row direction found, degrees counter-clockwise in the image
    # detection indices read as face-down on weak evidence (a lone back among face-up tiles, or a
    # blind kong read unsurely): the reader marks them unsure, as a covered tile reads as a back
    doubtful: tuple[int, ...] = ()
    # melds at the hand's end about as likely read the other way (the user is asked), or None
    rival: MeldRival | None = None
    # `warnings` as facts (`vision.lines.Line`, LAYOUT): what a line is about where a UI says it its own
    # way (a second hand, the melds read either way); none in a layout made by hand
    lines: tuple[Line, ...] = ()

    def __post_init__(self) -> None:
        if self.lines and texts(self.lines) != tuple(self.warnings):
            raise ValueError("a layout's lines must say its warnings, one for each, in their order")

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "hand": self.hand,
            "groups": [g.to_json() for g in self.groups],
            "warnings": list(self.warnings),
            "row_angle": round(self.angle, 1),
        }
        if self.rival is not None:
            out["rival"] = self.rival.to_json()
        return out


def _group(
    kind: GroupKind, indices: tuple[int, ...], det: Detections, meld: MeldRead | None = None
) -> TileGroup:
    boxes = det.xyxy[list(indices)].astype(np.float64)
    x1, y1 = boxes[:, :2].min(axis=0)
    x2, y2 = boxes[:, 2:].max(axis=0)
    box = (float(x1), float(y1), float(x2), float(y2))
    codes = det.codes
    return TileGroup(
        kind=kind,
        meld=meld.kind if meld else None,
        concealed=meld.concealed if meld else kind == "concealed",
        indices=indices,
        codes=tuple(codes[i] for i in indices),
        box=box,
    )


def _fly_as_bonus(run: list[int], codes: list[str]) -> bool:
    """`fly` is a bonus tile when nothing but bonus tiles and flies share its run (the bonus
    row); elsewhere it is the Malaysian wild tile and stays in the hand."""
    core = [i for i in run if codes[i] not in BONUS_CODES]
    return bool(core) and all(codes[i] == FLY for i in core)


def edge_fly_options(runs: list[list[int]], codes: list[str]) -> list[frozenset[int]]:
    """Flies that may be the bonus row's rather than the wild tile of the meld beside them: those
    ending a run together with bonus tiles, beyond its other tiles (`C C C fly face`: a bonus row laid
    close against a meld joins its run). Each option takes the first one, two ... of them from the
    run's end; `layout_hand` reads the tiles each way."""
    options: list[frozenset[int]] = []
    for run in runs:
        for end in (run, run[::-1]):  # each run is ordered along the row
            stretch = list(itertools.takewhile(lambda i: codes[i] in BONUS_CODES or codes[i] == FLY, end))
            if len(stretch) == len(run) or not any(codes[i] in BONUS_CODES for i in stretch):
                continue
            flies = [i for i in stretch if codes[i] == FLY]
            options.extend(frozenset(flies[:count]) for count in range(1, len(flies) + 1))
    return options


def _build_rows(
    runs: list[list[int]],
    row_of: list[int],
    codes: list[str],
    centres: np.ndarray,
    shape: TileShape,
    frame: Frame,
    anchors: np.ndarray,
    flies_as_bonus: frozenset[int] = frozenset(),
) -> list[Row]:
    """Rows in reading order, each with its hand tiles, their gaps, and its bonus tiles (`flies_as_bonus`:
    flies taken for bonus tiles whatever their run holds).

    Gaps are measured between `anchors` (see `layout_hand`) rather than box centres.
    """
    along = centres @ frame.along
    run_id = {i: k for k, run in enumerate(runs) for i in run}
    # Most tiles of a row stand upright in it: when most look sideways, perspective widened
    # them all and none is a claimed tile.
    sideways = shape.sideways.copy()
    for number in set(row_of):
        members = sorted(
            (i for k, run in enumerate(runs) if row_of[k] == number for i in run), key=lambda i: along[i]
        )
        if len(members) >= 2 and sideways[members].mean() >= 0.5:
            sideways[members] = False
        if len(members) >= 5 and shape.stretch[members].std() > 0:
            # A claimed tile stands out from its neighbours; perspective changes the boxes
            # of a row only gradually.
            for k, i in enumerate(members):
                near = [j for j in members[max(0, k - 3) : k + 4] if j != i]
                sideways[i] = shape.stretch[i] - float(np.median(shape.stretch[near])) > SIDEWAYS_MARGIN
    shape = TileShape(span=shape.span, along=shape.along, sideways=sideways, stretch=shape.stretch)
    bonus_tiles = {i for run in runs if _fly_as_bonus(run, codes) for i in run}
    bonus_tiles |= {i for run in runs for i in run if codes[i] in BONUS_CODES} | flies_as_bonus
    out: list[Row] = []
    for number in sorted(set(row_of)):
        tiles = sorted(
            (i for k, run in enumerate(runs) if row_of[k] == number for i in run), key=lambda i: along[i]
        )
        gaps = row_gaps(tiles, anchors, shape, frame)
        core: list[int] = []
        core_gaps: list[float] = []
        pending = -np.inf
        for k, i in enumerate(tiles):
            if i in bonus_tiles:
                # A bonus tile between hand tiles: the gap across it is the wider of its two.
                if k and core:
                    pending = max(pending, gaps[k - 1])
                continue
            if core:
                core_gaps.append(float(max(pending, gaps[k - 1])))
            core.append(i)
            pending = -np.inf
        # Bonus tiles grouped by run, each with how many hand tiles come before it and the hand
        # tiles of its touching run (whether it lies among loose tiles depends on what they form).
        bonus: list[tuple[int, ...]] = []
        bonus_at: list[int] = []
        beside: list[tuple[int, ...]] = []
        before = 0
        for k, i in enumerate(tiles):
            if i not in bonus_tiles:
                before += 1
                continue
            if k and tiles[k - 1] in bonus_tiles and run_id[tiles[k - 1]] == run_id[i]:
                bonus[-1] += (i,)
            else:
                bonus.append((i,))
                bonus_at.append(before)
                beside.append(tuple(j for j in runs[run_id[i]] if j not in bonus_tiles))
        touching = tuple(run_id[p] == run_id[q] for p, q in itertools.pairwise(core))
        flags = tuple(bool(shape.sideways[i]) for i in core)
        out.append(
            Row(tuple(core), tuple(core_gaps), tuple(bonus), flags, touching, tuple(bonus_at), tuple(beside))
        )
    return out


def quarter_turn_gap(a: float, b: float) -> float:
    """Degrees between two directions known up to a quarter turn, in [0, 45]."""
    gap = (a - b) % 90.0
    return float(min(gap, 90.0 - gap))


def _quarter_mean(degrees: np.ndarray) -> float:
    """The mean of directions known up to a quarter turn (each angle taken four times around)."""
    turned = np.radians(degrees * 4.0)
    return float(np.degrees(np.arctan2(np.sin(turned).sum(), np.cos(turned).sum())) / 4.0)


def _askew(
    tile: int, upright: Sequence[int], centres: np.ndarray, boxes: np.ndarray, angles: np.ndarray | None
) -> bool:
    """Whether a lone tile lies at an angle to the rows (dropped on the table, not laid down).

    It is compared with the nearest upright tiles of the hand: by the angle of its sides where the
    angles were measured (neighbours, not the row, so that perspective turns both alike), else by
    its box, as a tile turned away from the rows has a box of another width and height.
    """
    refs = [i for i in upright if i != tile]
    if len(refs) < 3:
        return False
    near = np.asarray(refs)[np.argsort(np.linalg.norm(centres[refs] - centres[tile], axis=1))[:3]]
    size = boxes[:, 2:] - boxes[:, :2]
    dev = float(np.abs(np.log(size[tile] / np.median(size[near], axis=0))).sum())
    if angles is not None and np.isfinite(angles[[tile, *near]]).all():
        turned = quarter_turn_gap(float(angles[tile]), _quarter_mean(angles[near]))
        return turned > ASKEW_DEGREES or _box_says_turned(size[tile], np.median(size[near], axis=0))
    return dev > ASKEW_BOX


def _box_says_turned(tile: np.ndarray, beside: np.ndarray) -> bool:
    """Whether a tile's box (width, height) says it is turned from its neighbours' (`beside`) where its
    measured angle does not: turned a quarter, which an angle known up to a quarter turn cannot tell, it
    has their box with width and height swapped, so its shape (log width over height) lies nearer the
    swapped one than theirs, by more than ASKEW_BOX_MEASURED from theirs (near 45 degrees the two meet
    and nothing is told); turned a little more than a small tile's angle is measured to, its box grows
    both ways, by more than ASKEW_BOX_MEASURED in summed |log| ratio. Other boxes unlike theirs are no
    turn: smaller (farther from the camera) or off in one side alone (a tile cut by the frame's edge).
    An audit (`datasets.synth --seed 8900` and `--seed 8920`, 300 scenes each, 247 hands): the summed
    ratio alone had left 5 hands' lone bonus tiles, laid straight, out; none lost, and the 70 hands of
    `--seed 8950`, looked at only after, read the same."""
    ratio = np.log(tile / beside)
    if float(ratio.min()) >= 0.0 and float(np.abs(ratio).sum()) > ASKEW_BOX_MEASURED:
        return True
    shape, theirs = float(ratio[0] - ratio[1]), float(np.log(beside[0] / beside[1]))
    own = abs(shape)  # the tile's shape against theirs
    swapped = abs(shape + 2.0 * theirs)  # against theirs with width and height swapped
    return own > ASKEW_BOX_MEASURED and swapped < own


def _nearer(tile: int, these: Sequence[int], than: Sequence[int], centres: np.ndarray) -> bool:
    """Whether `tile` lies nearer one of `these` than any of `than` (centre to centre): a lone bonus tile
    among the tiles left away from the hand lies with them, not in the player's bonus row."""
    if not these or not than:
        return False
    near, far = (float(np.linalg.norm(centres[list(g)] - centres[tile], axis=1).min()) for g in (these, than))
    return near < far


def _distance(a: Sequence[int], b: Sequence[int], centres: np.ndarray, span: np.ndarray) -> float:
    """Distance between the nearest tiles of two sets, in tile sizes (a + b)."""
    dist = np.linalg.norm(centres[list(a)][:, None] - centres[list(b)][None, :], axis=2).min()
    return float(dist / np.median(span[list(a) + list(b)]))


def _row_distance(rows_: list[Row], centres: np.ndarray, span: np.ndarray) -> np.ndarray:
    """(R, R) distance between the nearest tiles of two rows, in tile sizes (a + b)."""
    members = [list(row.core) + [i for run in row.bonus for i in run] for row in rows_]
    tile_dist = np.linalg.norm(centres[:, None] - centres[None, :], axis=2)
    # The median size of two rows together, approximated by the mean of their medians
    # (exact enough for a threshold, and cheap with many rows).
    size = np.array([float(np.median(span[m])) if m else 1.0 for m in members])
    out = np.zeros((len(rows_), len(rows_)))
    for p in range(len(rows_)):
        for q in range(p + 1, len(rows_)):
            dist = tile_dist[np.ix_(members[p], members[q])].min() if members[p] and members[q] else np.inf
            out[p, q] = out[q, p] = dist / ((size[p] + size[q]) / 2)
    return out


def tiles_named(codes: Sequence[str], most: int = 6) -> str:
    """Tiles named for a warning, so that the user can find them: each code (`3p 3p`), or, past
    `most` tiles (a stretch of the wall), the `most` commonest codes with their counts, then `...`."""
    if len(codes) <= most:
        return " ".join(codes)
    counted = Counter(codes).most_common()
    named = [f"{code} x{n}" if n > 1 else code for code, n in counted[:most]]
    return ", ".join(named + (["..."] if len(counted) > most else []))


def _face_up_concealed(reading: Reading, codes: Sequence[str]) -> tuple[int, ...]:
    """The concealed tiles a reading counts: its concealed and stray tiles but the face-down ones."""
    return tuple(i for i in reading.concealed + reading.stray if codes[i] != BACK)


# As many face-up tiles as this left away from the hand (a hand holds 13 to 18, its melds counted)
# are another hand: in an audit's 12 generated photos of two hands, 6 left 10 to 19 away (the rest
# fewer: the layout took tiles of both into one reading), and the same scenes alone at most 7.
ANOTHER_HAND_AT_LEAST = 10

# One to three backs lying together outside a kong are asked about, and marked doubtful; more are a
# stretch of the wall, face down indeed.
KONG_HINT_MOST = 3


def lone_backs(hidden: Sequence[int], runs: Sequence[Sequence[int]], codes: Sequence[str]) -> list[int]:
    """The tiles of `hidden` with no back beside them in their run of touching tiles. Players lay
    face-down tiles together (a concealed kong, the wall); a back alone among face-up tiles is more
    often a face-up tile covered by a finger or misread in odd light (an audit's photos)."""
    beside: dict[int, set[int]] = {}
    for run in runs:
        for a, b in itertools.pairwise(run):
            beside.setdefault(a, set()).add(b)
            beside.setdefault(b, set()).add(a)
    return [i for i in hidden if not any(codes[j] == BACK for j in beside.get(i, ()))]


def _check(count: int) -> str:
    """What a line by number asks of `count` tiles read as backs: a back the reader saw may be a face-up
    tile covered or in odd light (an audit's photos)."""
    return f"covered or unclear? check {'it' if count == 1 else 'them'}"


def face_down_lines(lone: Sequence[int], together: Sequence[int]) -> list[Line]:
    """The lines for the backs outside a kong: `lone` with no back beside them, `together` the rest
    (detection indices, which a UI names by number: `Line.by_number`)."""
    out = []
    if lone:
        unclear = "a covered or unclear tile" if len(lone) == 1 else "covered or unclear tiles"
        rest = f"read as face-down: not counted; {unclear}? check {'it' if len(lone) == 1 else 'them'}"
        out.append(
            Line(
                f"{count_of(len(lone), 'lone tile')} {rest}",
                LAYOUT,
                tiles=tuple(lone),
                by_number=f"lone {tiles_slot(len(lone))} read as face-down: not counted; {_check(len(lone))}",
            )
        )
    if 0 < len(together) <= KONG_HINT_MOST:
        # one to three backs may be a concealed kong shown with its backs on one side (read_meld), or
        # face-up tiles in odd light (an audit's warm-lit pong of P read as three backs)
        they, them = ("it is", "it") if len(together) == 1 else ("they are", "them")
        rest = (
            f"read as face-down outside a kong: not counted; where {they} a concealed kong's, set it by "
            f"hand, else check {them} (a covered or unclear tile reads so too)"
        )
        out.append(
            Line(
                f"{count_of(len(together), 'tile')} {rest}",
                LAYOUT,
                tiles=tuple(together),
                by_number=f"{tiles_slot(len(together))} read as face-down outside a kong: not counted; "
                f"part of a concealed kong? set it by hand; else {_check(len(together))}",
            )
        )
    elif together:
        # more than a kong's worth lying together is most often the wall: "enter them by hand" had told a
        # user to type the wall in; only the hand's tiles, turned down, are added, by their faces
        rest = "outside a kong: not counted (the wall?); if they are the hand's, add their faces by hand"
        out.append(
            Line(
                f"{count_of(len(together), 'face-down tile')} {rest}",
                LAYOUT,
                tiles=tuple(together),
                by_number=f"face-down {tiles_slot(len(together))} {rest}",
            )
        )
    return out


def blind_kong_lines(sure: Sequence[Sequence[int]], unsure: Sequence[Sequence[int]]) -> list[Line]:
    """The lines for kongs of four backs (each its detection indices): `sure` read surely, `unsure` with a
    back read unsurely (an arm or a shadow across the table reads as a row of backs: those are not said
    to be kongs)."""
    out = []
    if sure:
        # one line for them all: two alike lines would be merged into one, and a kong lost unsaid
        tiles = tuple(i for kong in sure for i in kong)
        said, rest = (
            ("concealed kong with all four tiles face down", ": set its tile by hand")
            if len(sure) == 1
            else (f"{len(sure)} concealed kongs with all four tiles face down", ": set their tiles by hand")
        )
        kongs = (
            "a concealed kong laid face down"
            if len(sure) == 1
            else f"{len(sure)} concealed kongs laid face down"
        )
        out.append(
            Line(
                f"{said}{rest}", LAYOUT, tiles=tiles, by_number=f"{tiles_slot(len(tiles))} are {kongs}{rest}"
            )
        )
    if unsure:
        tiles = tuple(i for row in unsure for i in row)
        said = f"{count_of(len(unsure), 'row')} of four tiles read unsurely as face-down"
        rest = (
            ": not counted; a concealed kong, or covered or unclear tiles? check them (set a kong's tile by "
            "hand)"
        )
        out.append(
            Line(
                f"{said}{rest}",
                LAYOUT,
                tiles=tiles,
                by_number=f"{tiles_slot(len(tiles))} read unsurely as face-down{rest}",
            )
        )
    return out


def another_hand_lines(away: Sequence[int], codes: Sequence[str]) -> list[Line]:
    """A line when the tiles left away from the hand (`away`, indices of `codes`) are as many as a hand's:
    the photo seems to hold two. Backs (the wall) and bonus tiles are not counted: a hand's wall lies
    beside it. It names the face-up ones (`Line.tiles`): the other hand a user moves out of the photo."""
    face_up = tuple(i for i in away if codes[i] != BACK and codes[i] not in BONUS_CODES)
    if len(face_up) < ANOTHER_HAND_AT_LEAST:
        return []
    rest = "away from the one read): take each hand in a photo of its own"
    return [
        Line(
            f"{ANOTHER_HAND} ({len(face_up)} face-up tiles {rest}",
            LAYOUT,
            tiles=face_up,
            # the numbers name the face-up tiles alone: "face-up" and the count go
            by_number=f"the photo seems to hold another hand ({tiles_slot(len(face_up))}): take each hand in "
            "a photo of its own",
            about=SECOND_HAND,
        )
    ]


ANOTHER_HAND = "the photo seems to hold more than one hand"


def hand_size_line(size: int, left_away: Sequence[int] = (), by_number: bool = True) -> Line:
    """The line for a hand of `size` tiles (a kong counted as three), not HAND_SIZE. Short, it says what
    hides a tile from the reader: an audit's photos with a finger, a phone or glare over the hand were
    told the count alone (stage 83), and a tile under a finger is read as no tile, not as unsure. Where
    face-up tiles were found away from the hand (`left_away`, their detection indices, named by number
    where a UI numbers them, unless `by_number` is off), one of them may be the hand's: moved in, not added
    again (a review, stage 83: "add it by hand" would have made it two)."""
    count = f"{size} hand tiles (a kong counts as three); a winning hand has {HAND_SIZE}"
    if size >= HAND_SIZE:
        return Line(count, LAYOUT)
    hidden = "a tile hidden from the camera (under a finger, a phone, glare or another tile) is not read"
    if left_away:
        rest = (
            "may be the hand's: move it into the hand; or "
            f"{hidden}: add it by hand, or take the photo again with the whole hand in view"
        )
        away = f"{count}: a tile left away from the hand"
        one = tiles_slot(1) if len(left_away) == 1 else f"one of {tiles_slot(len(left_away))}"
        if not by_number:
            return Line(f"{away} (not counted) {rest}", LAYOUT)
        return Line(
            f"{away} (not counted) {rest}",
            LAYOUT,
            tiles=tuple(left_away),
            # the page's line on the tiles away, just above, says they lie away and are not counted
            by_number=f"{count}: {one} may be the hand's: move it in; else a tile may "
            "be hidden (under a finger, a phone, glare or another tile): add it by hand, or take the photo "
            "again with the whole hand in view",
        )
    return Line(
        f"{count}: {hidden}; add it by hand, or take the photo again with the whole hand in view", LAYOUT
    )


def _reads_better(one: Reading, other: Reading, codes: Sequence[str]) -> bool:
    """Whether reading `one` of the photo's tiles beats `other`: a hand of the winning size first
    (a fly taken from the bonus row into a meld leaves one tile over), then the lower cost."""

    def whole(reading: Reading) -> bool:
        return hand_tiles(len(_face_up_concealed(reading, codes)), len(reading.melds)) == HAND_SIZE

    if whole(one) != whole(other):
        return whole(one)
    return one.cost < other.cost


def layout_hand(detections: Detections) -> Layout:
    """Read the hand from detected tiles (see the module docstring)."""
    lines: list[Line] = []

    def say(*said: str, about: About | None = None) -> None:
        lines.extend(lines_of(said, LAYOUT, about))

    codes = detections.codes
    owner = duplicate_of(detections.xyxy, detections.confidence)
    kept = [i for i in range(len(detections)) if owner[i] == i]
    for i in range(len(detections)):
        if owner[i] != i and codes[i] != codes[owner[i]]:
            say(
                f"two detections of one tile ({codes[owner[i]]} {detections.confidence[owner[i]]:.2f}, "
                f"{codes[i]} {detections.confidence[i]:.2f}): kept {codes[owner[i]]}"
            )
        elif owner[i] != i and codes[i] != BACK:
            # the reader leaves no two boxes of one tile: alike boxes this close are a tile laid on
            # another, as a kong's fourth tile often is
            say(
                f"two {codes[i]} tiles lie one on the other: read as one (where a kong's fourth tile lies "
                "on top, set the kong by hand)"
            )
    if not kept:
        return Layout(warnings=("no tiles found",), lines=tuple(lines_of(["no tiles found"], LAYOUT)))

    sub = detections[kept]
    sub_codes = sub.codes
    centres = sub.centers.astype(np.float64)
    boxes = sub.xyxy.astype(np.float64)
    frame = Frame(row_angle(centres, boxes))
    shape = tile_shapes(boxes, frame)
    run_lists = segments(centres, shape, frame)
    row_of = rows(centres, shape, frame, run_lists)
    # A tile nearer the camera hides the lower part of the one behind it, which moves that
    # box's centre; the top edge of a box is never hidden that way (nearer is lower in a
    # photo), so gaps are measured between the boxes' top-centre points.
    anchors = np.stack([centres[:, 0], boxes[:, 1]], axis=1)
    table = _build_rows(run_lists, row_of, sub_codes, centres, shape, frame, anchors)
    readings = all_readings(table, _row_distance(table, centres, shape.span), sub_codes)
    reading = readings[0] if readings else None
    for flies in edge_fly_options(run_lists, sub_codes) if reading is not None else []:
        # a fly ending a run beside bonus tiles: the bonus row's, where that reads the hand better
        other = _build_rows(run_lists, row_of, sub_codes, centres, shape, frame, anchors, flies)
        read_other = all_readings(other, _row_distance(other, centres, shape.span), sub_codes)
        read_so = read_other[0] if read_other else None
        if read_so is not None and reading is not None and _reads_better(read_so, reading, sub_codes):
            table, reading, readings = other, read_so, read_other

    def orig(indices: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(kept[i] for i in indices)

    groups: list[TileGroup] = []
    hand: dict[str, list] = {"concealed": [], "melds": [], "bonus": []}
    unused: list[int] = []
    if reading is None:
        # Nothing but bonus tiles.
        for row in table:
            for run in row.bonus:
                groups.append(_group("bonus", orig(run), detections))
                hand["bonus"].extend(sub_codes[i] for i in run)
        return Layout(
            hand=hand,
            groups=tuple(groups),
            warnings=texts(lines),
            lines=tuple(lines),
            angle=float(-np.degrees(frame.angle)),
        )
    hidden = [i for i in reading.concealed + reading.stray if sub_codes[i] == BACK]
    concealed = _face_up_concealed(reading, sub_codes)
    unused.extend(hidden)
    lone = lone_backs(hidden, run_lists, sub_codes)
    lines.extend(face_down_lines(orig(tuple(lone)), orig(tuple(i for i in hidden if i not in lone))))
    doubtful = hidden if len(hidden) - len(lone) <= KONG_HINT_MOST else list(lone)
    stray_face_up = tuple(i for i in reading.stray if sub_codes[i] != BACK)
    if stray_face_up:
        # stray backs are not counted, and have their own line: none face up, nothing to say here
        named = " ".join(sub_codes[i] for i in stray_face_up)
        form = "forms" if len(stray_face_up) == 1 else "form"
        lines.append(
            Line(
                f"tiles near the hand that form no meld ({named}): counted as concealed",
                LAYOUT,
                tiles=orig(stray_face_up),
                by_number=f"{tiles_slot(len(stray_face_up))} near the hand {form} no meld: counted as "
                "concealed",
            )
        )
    if concealed:
        groups.append(_group("concealed", orig(concealed), detections))
        hand["concealed"] = [sub_codes[i] for i in concealed]
    blind: list[tuple[int, ...]] = []
    unsure_rows: list[tuple[int, ...]] = []
    for indices, meld in reading.melds:
        groups.append(_group("meld", orig(indices), detections, meld))
        if meld.tiles is not None:
            hand["melds"].append({"kind": meld.kind, "tiles": list(meld.tiles), "concealed": meld.concealed})
        elif any(sub.confidence[i] < UNSURE_BELOW for i in indices):
            unsure_rows.append(orig(indices))
            doubtful.extend(indices)
        else:
            blind.append(orig(indices))
    lines.extend(blind_kong_lines(blind, unsure_rows))
    unsure_blind = len(unsure_rows)
    placed = list(concealed) + [i for tiles, _ in reading.melds for i in tiles]
    alone = {run[0] for run in run_lists if len(run) == 1}
    laid = placed + [i for t in reading.bonus if len(t) > 1 for i in t]
    upright = [i for i in laid if not shape.sideways[i]]
    # the tiles left away from the hand (discards, another player's), bonus tiles aside
    strays = [i for i in reading.ignored if sub_codes[i] not in BONUS_CODES]
    near = _near_bonus(reading.bonus, placed, centres, shape.span)
    far_bonus: list[int] = []
    for tiles in reading.bonus:
        single = len(tiles) == 1 and tiles[0] in alone
        if tiles not in near or (
            single
            and (
                _askew(tiles[0], upright, centres, boxes, sub.angle)
                or _nearer(tiles[0], strays, placed, centres)
            )
        ):
            far_bonus.extend(tiles)
            continue
        groups.append(_group("bonus", orig(tiles), detections))
        hand["bonus"].extend(sub_codes[i] for i in tiles)
    away = reading.ignored + reading.ignored_bonus + tuple(far_bonus)
    second_hand: list[Line] = []
    if away:
        unused.extend(away)
        rest = f"away from the hand and its melds ({tiles_named([sub_codes[i] for i in away])}): not counted"
        # by number the table shows each tile's face: the faces' list (which cut off at seven) goes
        lie = "lies" if len(away) == 1 else "lie"
        lines.append(
            Line(
                f"{count_of(len(away), 'tile')} {rest}",
                LAYOUT,
                tiles=orig(away),
                by_number=f"{tiles_slot(len(away))} {lie} away from the hand and its melds: not counted",
            )
        )
        second_hand = another_hand_lines(orig(away), codes)
        lines.extend(second_hand)
    if (
        not reading.melds
        # a row of one or two tiles, or of face-down ones alone, says nothing of melds laid out
        and len(concealed) >= 3
        and sum(1 for row in table if row.core) == 1
        and max((max(row.gaps, default=0.0) for row in table if row.core), default=0.0) < 0.25
    ):
        say("one row of tiles with no gaps: read as one concealed hand; mark exposed melds by hand")
    size = hand_tiles(len(concealed), len(reading.melds))
    counted = hand_tiles(len(concealed), len(reading.melds) - unsure_blind)
    # a row of backs read unsurely is not counted (an arm, a striped cloth) or is a concealed kong: the
    # hand is whole either way it is taken (a probe, stage 84: a cloth's four backs told "16 hand tiles");
    # short, the line tells the tiles counted, as the hand and its score do (an audit: a photo whose one
    # such row was its only group told "3 hand tiles" of a hand of none)
    if HAND_SIZE not in (size, counted):
        left_away = orig(tuple(i for i in strays if sub_codes[i] != BACK))
        # beside another hand, the tiles away are its, and a dozen numbers as the one "may be the hand's"
        # crowd a phone's screen (an audit: "one of tiles 16–25, 28–31"): the size line names none
        lines.append(hand_size_line(counted, left_away, by_number=not second_hand))
    rival = _meld_rival(reading, end_meld_rival(readings, sub_codes), orig, detections)
    if rival is not None:
        say(rival_warning(rival), about=MELD_RIVAL)
    if unused:
        groups.append(_group("unused", orig(tuple(unused)), detections))
    return Layout(
        hand=hand,
        groups=tuple(groups),
        warnings=texts(lines),
        lines=tuple(lines),
        angle=float(-np.degrees(frame.angle)),
        doubtful=orig(tuple(doubtful)),
        rival=rival,
    )


def _near_bonus(
    runs: Sequence[tuple[int, ...]], placed: Sequence[int], centres: np.ndarray, span: np.ndarray
) -> list[tuple[int, ...]]:
    """The runs of bonus tiles laid by the hand: near its tiles and melds, or near a run laid so. A row
    of bonus tiles one of which the detector missed (under glare or a finger) is two runs, and the far
    one had been measured against the hand alone and left out (an audit, stage 83: a winning hand then
    scored 1 tai for 3, or no win). Nothing placed: every run."""
    if not placed:
        return list(runs)
    near: list[tuple[int, ...]] = []
    laid = list(placed)
    grew = True
    while grew:
        grew = False
        for tiles in runs:
            reach = BONUS_NEAR_SPANS if len(tiles) == 1 else BONUS_ROW_NEAR_SPANS
            if tiles not in near and _distance(tiles, laid, centres, span) <= reach:
                near.append(tiles)
                laid.extend(tiles)
                grew = True
    return near


def _meld_rival(
    reading: Reading,
    rival: Reading | None,
    orig: Callable[[tuple[int, ...]], tuple[int, ...]],
    detections: Detections,
) -> MeldRival | None:
    """The melds `rival` reads the other way from `reading`, as groups of the photo's detections."""
    if rival is None:
        return None
    laid, taken_in = moved_melds(reading, rival)
    moved = laid or taken_in
    melds = tuple(_group("meld", orig(tiles), detections, meld) for tiles, meld in moved)
    return MeldRival(laid=bool(laid), melds=melds, cost=rival.cost - reading.cost)
