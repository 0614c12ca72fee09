"""Rerun cost: how long the page takes to rerun on each kind of click, driven by streamlit.testing.

    python bench/app_rerun.py [--rounds 5] [--sample high_score] [--fake] [--profile KIND] [--json OUT]

Streamlit reruns the whole script on every click, so each interaction pays for everything the page
computes. Each round opens a fresh page (AppTest on app.py, in this process), reads a sample photo
(`samples/high_score.jpg`: 14 tiles in hand and an exposed chow, four bonus tiles) with its button,
then makes the clicks of a realistic session: a tile code changed in the table, the seat wind,
self-drawn, a winning tile picked and cleared, the sidebar's max tai, *Undo the last tile change*, a kong
ticked... Each click's rerun is timed (wall clock around `AppTest.run`, script and widget handling
together; no browser, no network). Prints per kind of click the median and max ms over all rounds,
and the number of times the tile reader ran (once per photo: a click must not read the photo again).

--fake reads the photo with the app tests' fake reader (tests/app/fakes.py: a known 15-tile scene
with a kong and a flower), for a machine without the models. --profile KIND runs cProfile on the
first rerun of that kind (e.g. `seat wind`) in the last round and prints its top functions by
cumulative time. --dump FILE writes what the page shows after each click (texts, tables, boxes,
the case file), to compare two versions of the app. Figures only: nothing here asserts a timing.
Exit 1 if the page raised or the reader ran more than once per photo.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python bench/app_rerun.py", __file__))

from streamlit.testing.v1 import AppTest  # noqa: E402
from streamlit.testing.v1.local_script_runner import LocalScriptRunner  # noqa: E402

APP = ROOT / "app.py"

Step = tuple[str, Callable[[AppTest], None]]


class Counter:
    """How many times the tile reader ran (patched onto the reader's class)."""

    calls = 0


def _count_reads(reader_class: Any) -> None:
    read = reader_class.read

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        Counter.calls += 1
        return read(self, *args, **kwargs)

    reader_class.read = counted


def _use_fake_reader() -> None:
    """Install the app tests' fake `vision.pipeline` (no model runs): a scene with a kong and a flower."""
    import vision
    from tests.app.fakes import FakeReader, pipeline_module, scene

    reader = FakeReader({90: scene(meld=["C", "C", "C", "C"], bonus=["F1", "S1", "cat"])})
    fake = pipeline_module(reader)
    sys.modules["vision.pipeline"] = fake
    vision.pipeline = fake
    _count_reads(FakeReader)


def _table_key(at: AppTest) -> str:
    return f"tiles_{at.session_state['version']}"


def _edit(first_row_code: str) -> Callable[[AppTest], None]:
    """Change the first tile's code in the table, as the browser's data editor does."""

    def edit(at: AppTest) -> None:
        at.session_state[_table_key(at)] = {
            "edited_rows": {"0": {"tile": first_row_code}},
            "added_rows": [],
            "deleted_rows": [],
        }

    return edit


def _kong_key(at: AppTest) -> str | None:
    prefix = f"concealed_{at.session_state['version']}_"
    keys = [c.key for c in at.checkbox if c.key and c.key.startswith(prefix)]
    return keys[0] if keys else None


def _tick_kong(at: AppTest) -> None:
    key = _kong_key(at)
    if key is not None:
        box = at.checkbox(key=key)
        box.set_value(not box.value)


def _pick_winning_tile(at: AppTest) -> None:
    box = at.selectbox(key="winning_tile")
    tiles = [o for o in box.options if o != box.options[0]]
    box.set_value(tiles[len(tiles) // 2])


def _clear_winning_tile(at: AppTest) -> None:
    box = at.selectbox(key="winning_tile")
    box.set_value(box.options[0])


def session_steps(sample: str, fake: bool) -> list[Step]:
    """The clicks of one session, each with the kind of interaction it is reported under."""
    if fake:
        from tests.app.fakes import photo_bytes

        def photo(at: AppTest) -> None:
            at.file_uploader(key="upload").upload("hand.jpg", photo_bytes(), "image/jpeg")
    else:

        def photo(at: AppTest) -> None:
            at.button(key=f"sample_{sample}").click()

    return [
        ("photo read", photo),
        ("tile edit", _edit("9m")),
        ("seat wind", lambda at: at.selectbox(key="seat_wind").set_value("S")),
        ("self-drawn", lambda at: at.radio(key="won_by").set_value("self-drawn")),
        ("winning tile", _pick_winning_tile),
        ("winning tile cleared", _clear_winning_tile),
        ("max tai", lambda at: at.number_input(key="opt_singapore_max_tai").set_value(7)),
        ("undo last", lambda at: at.button(key="undo_last").click()),
        ("seat wind", lambda at: at.selectbox(key="seat_wind").set_value("E")),
        ("tile edit", _edit("1p")),
        ("kong tick", _tick_kong),
        ("pay-all", lambda at: at.checkbox(key="pay_all").check()),
        ("self-drawn", lambda at: at.radio(key="won_by").set_value("discard")),
        ("undo last", lambda at: at.button(key="undo_last").click()),
    ]


def run_session(
    steps: list[Step],
    timings: dict[str, list[float]],
    profile_kind: str | None,
    pages: list[dict[str, Any]] | None = None,
) -> tuple[list[str], str | None]:
    """One fresh page through `steps`; each rerun's ms appended to `timings`. Returns the page's
    exceptions and, where `profile_kind` is given, the profile of that kind's first rerun; `pages`, where
    given, gets what the page shows after each click."""
    at = AppTest.from_file(str(APP), default_timeout=120)
    started = time.perf_counter()
    at.run()
    timings.setdefault("first page", []).append((time.perf_counter() - started) * 1000)
    problems = [str(e.value) for e in at.exception]
    report = None
    for kind, act in steps:
        act(at)
        profiler = cProfile.Profile() if kind == profile_kind and report is None else None
        if profiler is not None:
            _profile_script_thread(profiler)
        started = time.perf_counter()
        at.run()
        timings.setdefault(kind, []).append((time.perf_counter() - started) * 1000)
        if profiler is not None:
            _profile_script_thread(None)
            out = io.StringIO()
            pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
            report = out.getvalue()
        problems += [f"{kind}: {e.value}" for e in at.exception]
        if pages is not None:
            pages.append({"after": kind, "page": page_text(at)})
    return problems, report


# the elements whose text a page shows, as AppTest names them
SHOWN = ("title", "subheader", "markdown", "caption", "info", "success", "warning", "error", "code", "toast")


def page_text(at: AppTest) -> dict[str, Any]:
    """What the page shows, for comparing two versions of the app click by click (--dump): every text,
    the tables, the boxes' values and choices, and the case offered for download. The reading time
    ("Read 14 tiles in 0.17 s") is left out: it is a measurement."""
    shown: dict[str, Any] = {
        kind: [str(e.value) for e in getattr(at, kind) if not str(e.value).startswith("Read ")]
        for kind in SHOWN
    }
    shown["table"] = [e.value.to_dict() for e in at.table]
    shown["dataframe"] = [e.value.to_dict() for e in at.dataframe]
    shown["boxes"] = [
        (e.key, str(e.value), [str(o) for o in getattr(e, "options", [])])
        for kind in ("selectbox", "radio", "checkbox", "number_input", "multiselect", "toggle", "text_input")
        for e in getattr(at, kind)
    ]
    shown["buttons"] = [(e.key, e.label, e.disabled) for e in at.button]
    # a picture's address names its bytes (Streamlit's media files are named by their content's hash)
    shown["images"] = [str(e.proto) for e in at.get("image")]
    try:
        shown["case_json"] = at.session_state["case_json"]
    except KeyError:  # no hand yet: no case offered
        shown["case_json"] = None
    return shown


_RUN_SCRIPT_THREAD = LocalScriptRunner._run_script_thread


def _profile_script_thread(profiler: cProfile.Profile | None) -> None:
    """Profile the script's own thread (AppTest runs the page in a thread of its own) on the next run."""
    if profiler is None:
        LocalScriptRunner._run_script_thread = _RUN_SCRIPT_THREAD  # type: ignore[method-assign]
        return

    def profiled(self: LocalScriptRunner) -> None:
        profiler.enable()
        try:
            _RUN_SCRIPT_THREAD(self)
        finally:
            profiler.disable()

    LocalScriptRunner._run_script_thread = profiled  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python bench/app_rerun.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rounds", type=int, default=5, help="fresh sessions to run (1..50)")
    parser.add_argument("--sample", default="high_score", help="sample photo (samples/NAME.jpg)")
    parser.add_argument("--fake", action="store_true", help="the tests' fake reader instead of the models")
    parser.add_argument("--profile", metavar="KIND", help="cProfile the first rerun of KIND (last round)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--dump", type=Path, help="write what the page shows after each click (first round)")
    args = parser.parse_args(argv)
    if not 1 <= args.rounds <= 50:
        parser.error("--rounds must be 1..50")
    if args.fake:
        _use_fake_reader()
    else:
        if not (ROOT / "samples" / f"{args.sample}.jpg").is_file():
            parser.error(f"no sample photo samples/{args.sample}.jpg")
        from vision.pipeline import TileReader

        _count_reads(TileReader)
    steps = session_steps(args.sample, args.fake)
    kinds = list(dict.fromkeys(kind for kind, _ in steps))
    if args.profile is not None and args.profile not in kinds:
        parser.error(f"--profile takes one of: {', '.join(kinds)}")
    timings: dict[str, list[float]] = {}
    problems: list[str] = []
    report = None
    for round_no in range(args.rounds):
        last = round_no == args.rounds - 1
        pages: list[dict[str, Any]] | None = [] if args.dump and round_no == 0 else None
        found, profiled = run_session(steps, timings, args.profile if last else None, pages)
        if args.dump and pages is not None:
            args.dump.write_text(json.dumps(pages, indent=1, sort_keys=True, default=str) + "\n")
        problems += found
        report = profiled or report
    reads_per_round = Counter.calls / args.rounds
    clicks = [t for kind, ts in timings.items() if kind not in ("first page", "photo read") for t in ts]
    print(f"app rerun: {args.rounds} rounds, photo {'fake reader' if args.fake else args.sample + '.jpg'}")
    print(f"{'interaction':<22}{'n':>4}{'median ms':>11}{'max ms':>9}")
    figures: dict[str, Any] = {}
    for kind in ["first page", *kinds]:
        ts = timings.get(kind, [])
        if not ts:
            continue
        figures[kind] = {
            "n": len(ts),
            "median_ms": round(statistics.median(ts), 1),
            "max_ms": round(max(ts), 1),
        }
        print(f"{kind:<22}{len(ts):>4}{statistics.median(ts):>11.0f}{max(ts):>9.0f}")
    print(f"{'all clicks':<22}{len(clicks):>4}{statistics.median(clicks):>11.0f}{max(clicks):>9.0f}")
    print(f"tile reader runs per session: {reads_per_round:g} (one photo read each)")
    for problem in problems:
        print(f"page exception: {problem}")
    if report:
        print(f"\ncProfile of the first '{args.profile}' rerun (last round), by cumulative time:")
        print(report)
    if args.json:
        figures["all clicks"] = {"n": len(clicks), "median_ms": round(statistics.median(clicks), 1)}
        figures["reader_runs_per_session"] = reads_per_round
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 1 if problems or reads_per_round != 1 else 0
