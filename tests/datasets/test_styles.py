"""The tile-face library: every class in every style, distinct faces, licences, class names."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from datasets.faces import FACE_H, FACE_W
from datasets.styles import STYLES, style_faces
from datasets.synth import SAMPLE_SAFE_STYLES, list_styles
from vision.classes import BACK, CLASSES

RULES = Path(__file__).resolve().parents[3] / "shared" / "RULES.md"


def _style_params() -> list[object]:
    params: list[object] = []
    for name, style in STYLES.items():
        reason = style.missing()
        marks = [pytest.mark.skip(reason=reason)] if reason else []
        params.append(pytest.param(name, marks=marks, id=name))
    return params


@pytest.mark.parametrize("name", _style_params())
def test_every_class_has_a_face(name: str) -> None:
    faces = style_faces(name)
    assert sorted(faces) == sorted(CLASSES)
    for code, face in faces.items():
        assert face.shape == (FACE_H, FACE_W, 4), code
        assert face.dtype == np.uint8, code
        # rounded corners are transparent, the middle is opaque
        assert face[0, 0, 3] < 128 and face[FACE_H // 2, FACE_W // 2, 3] == 255, code


@pytest.mark.parametrize("name", _style_params())
def test_faces_are_drawn_and_distinct(name: str) -> None:
    faces = style_faces(name)
    # the white dragon may be a blank face in some sets; a back is one flat colour
    codes = [c for c in CLASSES if c not in ("P", BACK)]
    small = {c: faces[c][::4, ::4, :3].astype(np.int16) for c in CLASSES}
    for code in codes:
        ink = np.abs(small[code] - small[code][2, small[code].shape[1] // 2]).max(axis=2) > 60
        assert ink.mean() > 0.01, f"{name}: face {code} looks blank"
    for i, a in enumerate(CLASSES):
        for b in CLASSES[i + 1 :]:
            changed = (np.abs(small[a] - small[b]).max(axis=2) > 60).mean()
            assert changed > 0.01, f"{name}: faces {a} and {b} are nearly identical"


def test_the_font_free_style_is_always_available() -> None:
    # tests, CI and the app's sample photos rely on a style that needs nothing installed
    assert "procedural" in list_styles()
    assert "procedural" in SAMPLE_SAFE_STYLES


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in SAMPLE_SAFE_STYLES])
def test_sample_safe_styles_are_not_gpl(name: str) -> None:
    assert not re.search(r"\bGPL", STYLES[name].licence), STYLES[name].licence


def test_every_style_records_a_licence() -> None:
    for name, style in STYLES.items():
        assert style.licence.strip(), name


@pytest.mark.skipif(not RULES.exists(), reason="../shared/RULES.md not present")
def test_class_names_are_the_rules_codes() -> None:
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index("## Tile codes") : text.index("## Singapore")]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    codes: list[str] = []
    for cell in re.findall(r"`([^`]+)`", table):
        if "…" in cell:
            continue
        codes.append(cell)
    ranged = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    expected = set(ranged) | set(codes)
    assert set(CLASSES) == expected
    assert BACK in CLASSES and len(CLASSES) == 49
