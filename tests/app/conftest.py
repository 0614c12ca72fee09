"""Fixtures for the app tests: AppTest on app.py with a fake tile reader (no model needed)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import vision
from tests.app.fakes import FakeReader, pipeline_module

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"


def _load_bench_load_test() -> ModuleType:
    """bench/load_test.py (a script, not a package): the server and browser helpers live there once."""
    spec = importlib.util.spec_from_file_location("load_test", ROOT / "bench" / "load_test.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_test"] = module
    spec.loader.exec_module(module)
    return module


load_test = _load_bench_load_test()


def pressable(at: AppTest, key: str) -> bool:
    """Whether the button `key` is there and not greyed out (the undo buttons are drawn from the start,
    greyed out until there is something to undo)."""
    return any(button.key == key and not button.disabled for button in at.button)


def captions(at: AppTest) -> list[str]:
    """The page's captions, in the order drawn (several test modules read them)."""
    return [str(caption.value) for caption in at.caption]


@pytest.fixture(autouse=True)
def _own_case_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # each test keeps its cases for a reload in a folder of its own (app_ui.kept_case)
    folder = tmp_path / "kept-cases"
    monkeypatch.setenv("MAHJONG_CASE_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    # The reader is cached per process by st.cache_resource: each test installs its own.
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


@pytest.fixture
def install(monkeypatch: pytest.MonkeyPatch) -> Callable[[FakeReader | None], None]:
    """Replace `vision.pipeline` with a fake whose TileReader.load() gives the reader (None: no model)."""

    def install(reader: FakeReader | None) -> None:
        fake = pipeline_module(reader)
        monkeypatch.setitem(sys.modules, "vision.pipeline", fake)
        monkeypatch.setattr(vision, "pipeline", fake, raising=False)
        st.cache_resource.clear()

    return install


@pytest.fixture
def app() -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at
