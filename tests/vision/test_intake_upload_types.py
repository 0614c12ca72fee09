"""The app's uploader takes a file by each extension the reader's formats go by, and by no other."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import streamlit as st
from PIL import Image
from streamlit.testing.v1 import AppTest

import vision
from app_ui.photo_tab import UPLOAD_TYPES
from tests.app.fakes import FakeReader, photo_bytes, pipeline_module, scene
from vision.imageio import FORMATS, HEIC_READER

ROOT = Path(__file__).resolve().parents[2]


def _extensions_read() -> set[str]:
    """The extensions Pillow (and pillow-heif, registered by `vision.imageio`) name its formats by."""
    return {ext.lstrip(".") for ext, fmt in Image.registered_extensions().items() if fmt in FORMATS}


@pytest.mark.parametrize("ext", ["jfif", "jpe", "hif", "heic", "jpg"])
def test_a_photo_named_as_windows_or_a_camera_names_it_is_taken(ext: str) -> None:
    # a .jfif (a JPEG saved from the web on Windows) and a .hif (a camera's HEIF) were refused unread
    assert ext in UPLOAD_TYPES


def test_every_extension_of_a_format_read_is_taken() -> None:
    assert _extensions_read() - set(UPLOAD_TYPES) == set()


@pytest.mark.skipif(not HEIC_READER, reason="pillow-heif names the HEIF extensions")
def test_no_extension_of_a_format_not_read_is_taken() -> None:
    # e.g. .ico or .jp2: the browser's refusal beside the uploader is quicker than ours
    assert set(UPLOAD_TYPES) - _extensions_read() == set()
    assert len(set(UPLOAD_TYPES)) == len(UPLOAD_TYPES)


@pytest.mark.parametrize(("name", "fmt"), [("hand.jfif", "JPEG"), ("hand.hif", "HEIF")])
def test_the_app_reads_a_photo_so_named(
    name: str, fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if fmt == "HEIF" and not HEIC_READER:
        pytest.skip("pillow-heif reads HEIF")
    monkeypatch.setenv("MAHJONG_CASE_DIR", str(tmp_path / "kept-cases"))
    fake = pipeline_module(FakeReader({90: scene()}))  # the photo's tiles, by its colour
    monkeypatch.setitem(sys.modules, "vision.pipeline", fake)
    monkeypatch.setattr(vision, "pipeline", fake, raising=False)
    st.cache_resource.clear()
    try:
        app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
        # the browser's refusal is the server's too: a name of another type raised here
        app.file_uploader(key="upload").upload(name, photo_bytes(fmt=fmt), "image/jpeg")
        app.run()
        assert not app.exception, [e.value for e in app.exception]
        assert app.session_state["base"].source == "photo" and app.session_state["base"].name == name
        assert not app.session_state["photo_error"]
    finally:
        st.cache_resource.clear()
