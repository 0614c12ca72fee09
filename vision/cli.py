"""`python -m vision PHOTO [--json] [--annotate OUT.png] [--models DIR] [--rules singapore|malaysian|any]
[--option north_wind=false] [--lessons FILE]`.

Exit 0 with the tiles (and the grouped hand) read; exit 2 with one line on stderr when the
photo or the models cannot be used; exit 1 with one line on an internal error (a bug); never a
traceback. `EXIT_STATUS` is what `--help` and docs/vision.md say of them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from scoring import RULESET_NAMES, OptionError, RulesetError, console
from scoring.console import escape_what_cannot_print, file_error_words, is_terminal, names_a_terminal, say
from scoring.errors import printable
from scoring.options import option_assignments, read_by
from scoring.tiles import TILE_CODES_HELP
from vision.annotate import annotate, save_png, try_writing
from vision.detections import UNSURE_BELOW
from vision.exposure import with_gain
from vision.imageio import MAX_BYTES, ImageError, LoadedImage, read_image
from vision.layout import TileGroup
from vision.lines import OTHER_SET, SECOND_HAND, TILE, Line, count_of, lines_saying
from vision.pipeline import Reading, TileReader
from vision.set_lessons import MOST_BYTES, LessonsError, memory_for, read_lessons
from vision.set_memory import SetMemory
from vision.sidecar import ModelError
from vision.tile_set import rule_set_faces

PROG = "python -m vision"
SCORER = "python -m scoring"  # what reads a hand's JSON
STDIN = "-"  # the photo argument that reads the photo from the standard input
EMPTY_HAND: dict[str, list[Any]] = {"concealed": [], "melds": [], "bonus": []}
# the image formats OpenCV writes everywhere it is built (cv2.imwrite picks one by the extension)
ANY_FACE = "any"  # --rules: no rule set's tiles, every face the reader knows
ANNOTATE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")


class OneLineParser(console.OneLineParser):
    """`scoring.console.OneLineParser`, its one line named by its `prog` (`python -m vision` and
    `python -m vision.bench`), as the reader's other errors are."""

    def lead(self) -> str:
        return self.prog


# each exit status `run` gives, as --help says them (an audit: exit 1 went unsaid, and `python -m scoring`,
# fed this output, exits 1 on a hand that is no win and 2 on an internal error too)
EXIT_STATUS = (
    "Exit status: 0 read; 2 with one line on stderr when the photo, the models, the --lessons file or"
    " --annotate's file cannot be used, the command line is wrong, or a run-time dependency is not installed"
    " (the line says how to set it up); 1 with one line on an internal error"
    " (a bug, never a traceback); 130 interrupted (Ctrl-C); 141 when the reader of the output went away"
    " (`| head`)."
)


def parser() -> argparse.ArgumentParser:
    p = OneLineParser(
        prog=PROG,
        description="Read the mahjong tiles in a photo.",
        epilog="--json prints {image: {width, height}, detections: [{code, confidence, box}], hand,"
        " warnings}; boxes and the places warnings name are in pixels of the photo turned upright by its EXIF"
        " orientation. The hand is the input of `python -m scoring` (which also takes this whole output). "
        + f"{TILE_CODES_HELP[0].upper()}{TILE_CODES_HELP[1:]} "
        + EXIT_STATUS,
    )
    p.add_argument("photo", help="JPEG, PNG, HEIC, WebP, ... photo of the hand (- reads it from stdin)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument(
        "--annotate",
        metavar="OUT.png",
        help=f"write the photo with labelled boxes here ({', '.join(ANNOTATE_SUFFIXES)})",
    )
    p.add_argument("--models", metavar="DIR", help="models folder (default: the repository's models/)")
    p.add_argument(
        "--rules",
        type=str.lower,  # as python -m scoring reads it, whose flag the reader's another-set line names
        choices=(*RULESET_NAMES, ANY_FACE),
        default=RULESET_NAMES[0],
        help="read each tile as one of this rule set's tiles, in any case: singapore (the default, as"
        " `python -m scoring`"
        " scores; no face or fly), malaysian (dots, honours, bonus tiles, face and fly), or any tile the"
        " reader knows",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the rule set, as `python -m scoring` takes it: north_wind=false reads a Malaysian"
        " set without the North wind (repeatable; options that leave the set as it is change nothing here)",
    )
    p.add_argument(
        "--lessons",
        metavar="FILE",
        help='read with what the app was taught of this set (a file of its "Save this set\'s lessons"):'
        " a tile that looks like one taught is read as it, and a warning says which",
    )
    return p


def lessons_memory(given: str, reader: TileReader) -> SetMemory | None:
    """The memory of the lessons file `given` for `reader`'s classifier. Raises LessonsError, one line,
    where the file cannot be read or used."""
    if not reader.classifier.describes:
        raise LessonsError(f"cannot read with {given}: this classifier gives no looks to compare them with")
    try:
        with open(given, "rb") as file:  # a lessons file is small: a larger one is no lessons file
            data = file.read(MOST_BYTES + 1)
    except OSError as error:
        raise LessonsError(f"cannot read {given}: {file_error_words(error)}") from None
    try:
        return memory_for(read_lessons(data, reader.classifier.look_key), reader.classifier.look_key)
    except LessonsError as error:
        raise LessonsError(f"cannot read with {given}: {error}") from None


def faces_wanted(rules: str, option_items: Sequence[str]) -> frozenset[str] | None:
    """The faces the tiles are read as: the rule set's set under the `--option` items; None for any
    face. Raises ValueError (one line) on a bad option, or an option given with `--rules any`."""
    if rules == ANY_FACE:
        if option_items:
            raise ValueError(f"--option needs a rule set: give --rules {' or --rules '.join(RULESET_NAMES)}")
        return None
    try:
        return rule_set_faces(rules, option_assignments(option_items))
    except (OptionError, RulesetError) as error:
        raise ValueError(str(error)) from None


def unread_options(rules: str, option_items: Sequence[str]) -> list[str]:
    """The `--option` names the rule set `rules` does not read, said as `python -m scoring` says them
    (an audit: `--option north_wind=false` under Singapore rules did nothing and said nothing)."""
    if rules == ANY_FACE:
        return []
    names = option_assignments(option_items)
    return [
        f"option {name} is not part of {rules} rules; ignored" for name in names if not read_by(rules, name)
    ]


def source_box(loaded: LoadedImage, xyxy: Sequence[float]) -> list[float]:
    """A box read on `loaded.rgb` in pixels of the file as stored (EXIF-rotated), within it: a large
    photo is read shrunk, and its width and height are each rounded to whole pixels on their own."""
    height, width = loaded.rgb.shape[:2]
    sides = (loaded.source_width, loaded.source_height) * 2  # x1, y1, x2, y2: each along its own side
    read = (width, height) * 2
    return [
        round(min(max(float(v) * (side / seen), 0.0), side), 1)
        for v, side, seen in zip(xyxy, sides, read, strict=True)
    ]


def to_json(loaded: LoadedImage, reading: Reading) -> dict[str, Any]:
    """The CLI's JSON: boxes in pixels of the EXIF-rotated file (undoing any downscale)."""
    det = reading.detections
    detections = [
        {"code": code, "confidence": round(float(conf), 4), "box": source_box(loaded, box)}
        for code, conf, box in zip(det.codes, det.confidence, det.xyxy, strict=True)
    ]
    return {
        "image": {"width": loaded.source_width, "height": loaded.source_height},
        "detections": detections,
        "hand": reading.hand if reading.hand is not None else dict(EMPTY_HAND),
        "warnings": list(reading.warnings),
    }


def with_rules_advice(
    line: Line, rules: str, options_left_out: Collection[str] = (), strangers: Collection[str] = ()
) -> str:
    """The reader's `line` as said here: its question whether the photo is of another rule set's tiles
    (`vision.lines.OTHER_SET`) with how to say so here (other `--option` values too, where the options
    left out of the rule set's set a face the photo's tiles look like: the reading's `strangers`)."""
    warning = line.text
    if line.about != OTHER_SET:
        return warning
    others = [f"--rules {name}" for name in RULESET_NAMES if name != rules]
    if set(strangers) & set(options_left_out):
        others.append("other --option values")
    return f"{warning} If so, give {' or '.join(others)}, here and to python -m scoring."


def warning_rank(line: Line) -> int:
    """Where the reader's `line` stands among the warnings: a second hand in the photo first, as the
    app's page puts it (every other line is in doubt); then the question whether the photo is of
    another rule set's tiles, with the --rules to give, as each tile line after it speaks of tiles read
    in this set (an audit missed it for samples/malaysian.jpg, sixth of seven, under three lines on
    unsure tiles); then the rest in the reader's order (the sort keeps it)."""
    return 0 if line.about == SECOND_HAND else 1 if line.about == OTHER_SET else 2


def _hand_text(hand: dict[str, Any]) -> list[str]:
    lines = []
    if hand.get("concealed"):
        lines.append("  concealed: " + " ".join(hand["concealed"]))
    for meld in hand.get("melds", []):
        # named as the tiles' section above names it ("concealed kong"), not "kong (concealed)"
        hidden = "concealed " if meld.get("concealed") else ""
        lines.append(f"  {hidden}{meld['kind']}: " + " ".join(meld["tiles"]))
    if hand.get("bonus"):
        lines.append("  bonus: " + " ".join(hand["bonus"]))
    return lines


def tile_sections(groups: Sequence[TileGroup], count: int) -> list[tuple[str, tuple[int, ...]]]:
    """The tiles' indices as the layout grouped them, each group named (`concealed`, `pong`, `bonus`,
    `away from the hand` ...), in the layout's reading order; tiles no group holds last. Each meld has
    a heading of its own, as the hand's lines below list it; the bonus tiles have one, where the layout
    found them in runs apart (two rows of four), as the hand's one `bonus:` line has them all (an
    audit met two `bonus:` headings one under the other, and could not tell them apart)."""
    sections: list[tuple[str, tuple[int, ...]]] = []
    for group in groups:
        name = _group_name(group)
        joined = next((k for k, (title, _) in enumerate(sections) if title == name), None)
        if group.kind == "meld" or joined is None:
            sections.append((name, group.indices))
        else:
            sections[joined] = (name, sections[joined][1] + group.indices)
    grouped = {index for _, indices in sections for index in indices}
    rest = tuple(index for index in range(count) if index not in grouped)
    return [*sections, ("not grouped", rest)] if rest else sections


def _group_name(group: TileGroup) -> str:
    if group.kind == "meld":
        return f"concealed {group.meld}" if group.concealed else str(group.meld)
    return "away from the hand" if group.kind == "unused" else group.kind


# What a tile's line in the text holds, said above the tiles: its figures have no heading of their own.
# (docs/vision.md, Confidence: an unsure tile's warning quotes the face's probability alone)
TILE_LINE_KEY = (
    f"each tile: code, confidence (box score x face probability; unsure under {UNSURE_BELOW}), "
    "box [left, top, right, bottom] in px"
)


def write_text(
    name: str, data: dict[str, Any], out: TextIO, sections: Sequence[tuple[str, Sequence[int]]] = ()
) -> None:
    """The reading as text: each tile under the group it lies in (`sections`, else in the JSON's
    order), marked where unsure; then the hand as scored and the warnings."""
    tiles = data["detections"]
    image = data["image"]
    print(f"{name}: {image['width']} x {image['height']}, {count_of(len(tiles), 'tile')}", file=out)
    if tiles:
        # the figures of each tile's line named once (an audit: a new reader could not tell the two)
        print(f"  {TILE_LINE_KEY}", file=out)
    # no section where no tile was read (an audit saw an empty "tiles:" above "no tiles found")
    for title, indices in sections or ([("tiles", range(len(tiles)))] if tiles else []):
        print(f"  {title}:", file=out)
        for index in indices:
            tile = tiles[index]
            box = ", ".join(f"{v:.0f}" for v in tile["box"])
            unsure = "  unsure" if tile["confidence"] < UNSURE_BELOW else ""
            print(f"    {tile['code']:<9} {tile['confidence']:.2f}  [{box}]{unsure}", file=out)
    hand_lines = _hand_text(data["hand"])
    if hand_lines:
        print("hand:", file=out)
        for line in hand_lines:
            print(line, file=out)
    for warning in data["warnings"]:
        print(f"warning: {warning}", file=out)


def empty_name_problem(photo: str, lessons: str | None, models: str | None) -> str | None:
    """An empty name (a shell variable left unset, `python -m vision "$PHOTO"`) said as one, or None:
    read as it stands, it said "cannot read : not a file" and "cannot read : No such file or directory"
    (an audit), and `--models ""` looked for the models in the current folder."""
    if not photo.strip():
        return f"no photo named: give a photo's path, or {STDIN} to read it from the standard input"
    if lessons is not None and not lessons.strip():
        return "--lessons needs a file name, e.g. --lessons set.mjset"
    if models is not None and not models.strip():
        return "--models needs a folder, e.g. --models models"
    return None


def annotate_problem(given: str, photo: Path) -> str | None:
    """Why the annotated photo cannot be written to the path `given`, checked before the photo is
    read (so a slow reading is not thrown away), or None."""
    out = Path(given)
    if not given.strip():
        return "--annotate needs a file name, e.g. --annotate out.png"
    if given.endswith(("/", os.sep)):  # Path() drops the slash: "out.png/" names a folder, never a file
        return f"cannot write {given}: a name ending in / is a folder"
    with contextlib.suppress(OSError):  # a folder named without an extension was told to add one (an audit)
        if out.is_dir():
            return f"cannot write {out}: it is a folder"
    if out.suffix.lower() not in ANNOTATE_SUFFIXES:
        return f"cannot write {out}: give it one of the extensions {', '.join(ANNOTATE_SUFFIXES)}"
    try:
        return _folder_problem(out, photo)
    except OSError as error:  # a name too long, a loop of links: the system's own words say it
        return f"cannot write {out}: {error.strerror or error}"


def _folder_problem(out: Path, photo: Path) -> str | None:
    if out.is_dir():
        return f"cannot write {out}: it is a folder"
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        return f"cannot write {out}: there is no folder {folder}"
    if not os.access(folder, os.W_OK):
        return f"cannot write {out}: the folder {folder} is not writable"
    if out.is_symlink() and not out.exists() and not out.resolve().parent.is_dir():
        return f"cannot write {out}: it is a link into a folder that does not exist"
    if out.exists() and not os.access(out, os.W_OK):
        return f"cannot write {out}: the file is not writable"
    with contextlib.suppress(OSError):
        if out.exists() and out.samefile(photo):
            return f"cannot write {out}: it is the photo being read"
    try_writing(str(out))  # what no permission tells: a folder that takes no file (/proc), a full disk
    return None


# the most pixels a side a picture of each format holds (libwebp's 16383, JPEG's 65535); the other formats
# written hold any photo read. Past it OpenCV logged two lines of its own and the CLI said "no image
# format for that extension" after the whole reading (an audit: a 1000 x 20000 photo, --annotate out.webp)
ANNOTATE_MOST_SIDE = {".webp": 16383, ".jpg": 65535, ".jpeg": 65535}


def annotate_size_problem(given: str, width: int, height: int) -> str | None:
    """Why the photo as read (`width` x `height`: a large one shrunk), drawn on, cannot be written in
    the file `given`'s format, or None. Asked once the photo is decoded, before it is read."""
    suffix = Path(given).suffix.lower()
    most = ANNOTATE_MOST_SIDE.get(suffix)
    if most is None or max(width, height) <= most:
        return None
    return (
        f"cannot write {given}: a {suffix} picture holds at most {most} pixels a side, and this one"
        f" would be {width} x {height}; give a .png name"
    )


# a photo asked of a person's terminal: refused, not waited for
AT_A_TERMINAL = f"it is a terminal, not a photo: pipe one in, e.g. {PROG} - < photo.jpg"


def _photo_source(given: str) -> bytes | Path:
    """The photo named on the command line: `-` is the standard input's bytes (`cat photo.jpg |`)."""
    if given != STDIN:
        # `/dev/stdin` typed at a terminal waited for the keyboard, as `-` had (an audit)
        if names_a_terminal(given):
            raise ImageError(AT_A_TERMINAL)
        return Path(given)
    if sys.stdin is None:
        raise ImageError("it is closed")
    if is_terminal(sys.stdin):  # `python -m vision -` typed alone sat silent, waiting for a photo's bytes
        raise ImageError(AT_A_TERMINAL)
    try:
        return sys.stdin.buffer.read(MAX_BYTES + 1)  # one byte over the limit tells a file too large
    except (OSError, ValueError) as error:
        raise ImageError(f"cannot read it: {error}") from None


def is_json(given: str) -> bool:
    """Whether the file named as the photo holds JSON (samples/ holds each hand's JSON beside its photo:
    an audit gave this the JSON and was told only "not a supported image file")."""
    if given == STDIN or names_a_terminal(given):  # a terminal read would wait for the keyboard
        return False
    try:
        with open(given, "rb") as file:
            return file.read(64).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{")
    except OSError:
        return False


def _photo_name(given: str) -> str:
    return "the standard input" if given == STDIN else printable(given)


@contextlib.contextmanager
def native_stderr_quiet() -> Iterator[None]:
    """Standard error closed to C libraries while a photo decodes: libtiff writes its own lines on a
    damaged TIFF ("LZWDecode: Strip 30 not terminated") straight to file descriptor 2, above our one
    line (an audit, stage 78); Python's own writes are flushed first. Only where that descriptor can be
    had (a command line, one thread)."""
    try:
        sys.stderr.flush()
        saved: int | None = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no descriptor 2 (closed), or stderr None
        saved = None
    if saved is None:
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _fail(message: str) -> int:
    say(f"{PROG}: {message}")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    escape_what_cannot_print()
    args = parser().parse_args(argv)
    empty = empty_name_problem(args.photo, args.lessons, args.models)
    if empty:
        return _fail(empty)
    try:
        faces = faces_wanted(args.rules, args.option)
    except ValueError as error:
        return _fail(str(error))
    if args.annotate is not None:  # "" too: an empty name is a mistake to say, not a flag left out
        problem = annotate_problem(args.annotate, Path(args.photo))
        if problem:
            return _fail(problem)
    try:
        with native_stderr_quiet():
            loaded = read_image(_photo_source(args.photo))
    except ImageError as error:
        name = _photo_name(args.photo)
        if is_json(args.photo):
            return _fail(
                f"cannot read {name}: it is JSON, not a photo (a hand's JSON: python -m scoring {name})"
            )
        return _fail(f"cannot read {name}: {error}")
    if args.annotate is not None:
        too_large = annotate_size_problem(args.annotate, loaded.rgb.shape[1], loaded.rgb.shape[0])
        if too_large:
            return _fail(too_large)
    try:
        reader = TileReader.load(args.models)
        memory = None if args.lessons is None else lessons_memory(args.lessons, reader)
        reading = reader.read(loaded.rgb, loaded.scale, faces, memory=memory)
    except LessonsError as error:
        return _fail(printable(str(error)))
    except ModelError as error:  # a model file that proves wrong only when run is said as one that loads so
        return _fail(str(error))
    data = to_json(loaded, reading)
    left_out = rule_set_faces(args.rules) - faces if faces is not None else frozenset()
    # a reading made otherwise than by the reader (none so far) says its warnings as lines naming nothing
    lines = sorted(lines_saying(reading.lines, reading.warnings, TILE), key=warning_rank)
    data["warnings"] = [
        with_rules_advice(line, args.rules, left_out, reading.strangers) for line in lines
    ] + unread_options(args.rules, args.option)
    # the reading first: a picture that cannot be written after all (a full disk) does not lose it;
    # and a reader of the output that went away (`| head`) does not lose the picture
    gone: BrokenPipeError | None = None
    try:
        if sys.stdout is None:  # started with its output closed (`>&-`)
            raise OSError("standard output is closed")
        if args.json:
            json.dump(data, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            groups = reading.layout.groups if reading.layout is not None else ()
            write_text(
                _photo_name(args.photo), data, sys.stdout, tile_sections(groups, len(data["detections"]))
            )
        sys.stdout.flush()
    except BrokenPipeError as error:
        gone = error
    except OSError as error:
        return _fail(f"cannot write the output: {error.strerror or error}")
    if args.annotate is not None:
        groups = reading.layout.groups if reading.layout is not None else ()
        try:
            # a dark photo drawn as it was read, its tiles visible
            shown = with_gain(loaded.rgb, reading.seen.gain if reading.seen is not None else 1.0)
            drawn = annotate(shown, reading.detections, groups, rejected_xyxy=reading.rejected_xyxy)
            save_png(drawn, args.annotate)
        except OSError as error:
            return _fail(f"cannot write {args.annotate}: {error}")
    if gone is not None:
        raise gone
    return 0


def run(argv: Sequence[str] | None = None) -> int:
    """main() with a last line of defence: a bug prints one line, not a traceback."""
    try:
        return main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader of our output went away (`| head`): stop quietly, as other command-line tools do
        # Python would otherwise complain again when it flushes stdout at exit
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:  # the promise to the user is "never a traceback"
        say(f"{PROG}: internal error ({type(error).__name__}): {error}".splitlines()[0])
        return 1
