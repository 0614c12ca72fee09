"""Many sessions share one tile reader and one read pool: the same answers as serial use.

Uses the real `vision.pipeline.TileReader` on tiny ONNX models (tests/vision/tinymodels.py), so the
onnxruntime sessions really are shared. AppTest itself is not thread-safe, so the parallel part runs
the app's reading path (`app_ui.reading.read_tiles`, what every session calls) from many threads;
the AppTest part checks that sessions share one loaded model.
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from streamlit.testing.v1 import AppTest

from app_ui.reading import ReadTimeoutError, read_tiles
from tests.app.conftest import APP
from tests.app.fakes import FakeReader

pytest.importorskip("onnx", reason="the tiny test models are built with the onnx package")

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models

CLIENTS = 8


def _tiny_reader(tmp_path: Path) -> tuple[object, np.ndarray]:
    import vision.pipeline as pipeline

    sc = scene(600, 1000)
    return pipeline.TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640)))), sc.rgb


def test_parallel_reads_match_serial(tmp_path: Path) -> None:
    reader, rgb = _tiny_reader(tmp_path)
    with ThreadPoolExecutor(max_workers=2) as app_pool:
        serial = read_tiles(reader, rgb, app_pool, timeout_s=60)
        assert sorted(r.code for r in serial.rows) == ["1m", "1p", "1s"]
        # CLIENTS sessions at once, all going through the app's one bounded pool.
        with ThreadPoolExecutor(max_workers=CLIENTS) as clients:
            results = list(
                clients.map(lambda _: read_tiles(reader, rgb, app_pool, timeout_s=60), range(CLIENTS))
            )
    for result in results:
        assert result.rows == serial.rows
        assert result.meld_concealed == serial.meld_concealed
        assert result.layout_hand == serial.layout_hand


def test_slow_read_times_out_with_message() -> None:
    reader = FakeReader(delay_s=1.0)
    with (
        ThreadPoolExecutor(max_workers=1) as pool,
        pytest.raises(ReadTimeoutError, match=r"longer than 0\.2 s"),
    ):
        read_tiles(reader, np.zeros((50, 50, 3), np.uint8), pool, timeout_s=0.2)


def test_sessions_share_one_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.pipeline as pipeline

    reader, rgb = _tiny_reader(tmp_path)
    loads: list[int] = []

    def load(cls: type, *args: object, **kwargs: object) -> object:
        loads.append(1)
        return reader

    monkeypatch.setattr(pipeline.TileReader, "load", classmethod(load))
    out = io.BytesIO()
    Image.fromarray(rgb).save(out, format="PNG")
    cases = []
    for _ in range(2):
        at = AppTest.from_file(str(APP), default_timeout=120).run()
        at.file_uploader(key="upload").upload("scene.png", out.getvalue(), "image/png")
        at.run()
        assert not at.exception
        cases.append(at.session_state["case_json"])
    assert len(loads) == 1
    assert cases[0]["tiles"] == cases[1]["tiles"]
    assert len(cases[0]["tiles"]) == 3
