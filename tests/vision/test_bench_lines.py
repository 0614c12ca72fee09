"""The bench counts the photos raising each of the reader's lines, by what each is about (`Line.about`): a
set's false alarms, counted without a probe of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.vision.scenes import detector_rows, scene
from tests.vision.seen_sim import spotted_and_blurred
from tests.vision.tinymodels import write_models
from vision.bench import PhotoResult, format_summary, line_tally, main, reading_abouts, summarise
from vision.bench_match import TileCounts
from vision.lines import BLURRED, GLARE, PHOTO_FAULTS, SHAKEN, TILE_ABOUTS
from vision.pipeline import TileReader
from vision.seen_store import save_seen, seen_path

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E W W"


def test_the_tally_counts_the_photos_raising_each_line_once_each() -> None:
    tally = line_tally([{GLARE, BLURRED}, {GLARE}, set()])
    assert list(tally) == [*PHOTO_FAULTS, *TILE_ABOUTS]  # every fault listed, fired or not
    assert (tally[GLARE], tally[BLURRED], tally[SHAKEN]) == (2, 1, 0)
    assert line_tally([]) == dict.fromkeys((*PHOTO_FAULTS, *TILE_ABOUTS), 0)


def test_settled_readings_tally_a_glare_spot_and_a_blur_in_the_summary(tmp_path: Path) -> None:
    reader = TileReader.load(write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640))))
    results = [
        PhotoResult(name, TileCounts(14, 0, 0), None, 1.0, abouts=reading_abouts(reader.settle(seen)))
        for name, seen in zip(("spotted", "blurred"), spotted_and_blurred(HAND), strict=True)
    ]
    raised = summarise("synthetic", results).lines_raised
    assert {about: n for about, n in raised.items() if about in PHOTO_FAULTS and n} == {GLARE: 1, BLURRED: 1}
    printed = format_summary(summarise("synthetic", results))
    assert (
        "  photo lines (photos raising each): damaged 0, dark 0, face glare 0, glare 1, blurred 1," in printed
    )
    assert "  tile and layout lines (photos raising each): unsure " in printed
    # a photo that could not be read raised no line
    failed = PhotoResult("x", TileCounts(0, 0, 3), None, 0.0, error="file is empty (0 bytes)")
    assert summarise("s", [*results, failed]).lines_raised == raised


@pytest.fixture
def settled_set(tmp_path: Path) -> tuple[Path, Path]:
    """A synthetic set of two scenes and their saved readings: one with a glare spot, one blurred."""
    root, kept = tmp_path / "synth", tmp_path / "kept"
    (root / "meta").mkdir(parents=True)
    kept.mkdir()
    for number, seen in enumerate(spotted_and_blurred(HAND), 1):
        image = Path(f"images/{number:06d}.png")  # settled from its reading: the file is not read
        tiles = [
            {"code": code, "xyxy": box.tolist()} for code, box in zip(HAND.split(), seen.xyxy, strict=False)
        ]
        meta = {"image": str(image), "width": 1280, "height": 960, "tiles": tiles}
        (root / "meta" / f"{number:06d}.json").write_text(json.dumps(meta))
        save_seen(seen_path(kept, image), seen, 1.0)
    return root, kept


def test_the_bench_writes_the_tally_of_settled_readings_in_its_json(
    settled_set: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, kept = settled_set
    out = tmp_path / "bench.json"
    assert main(["--synthetic", str(root), "--from-seen", str(kept), "--json", str(out)]) == 0
    assert (
        "photo lines (photos raising each): damaged 0, dark 0, face glare 0, glare 1, blurred 1, shaken 0"
        in (capsys.readouterr().out)
    )
    (summary,) = json.loads(out.read_text())
    assert list(summary["lines_raised"]) == [*PHOTO_FAULTS, *TILE_ABOUTS]
    assert (summary["lines_raised"][GLARE], summary["lines_raised"][BLURRED]) == (1, 1)
    assert summary["photos"] == 2 and summary["f1"] == 1.0  # the figures as before, beside the tally
