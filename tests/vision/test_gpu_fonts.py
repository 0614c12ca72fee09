"""`python -m vision.gpu.subset_fonts`: fonts cut to the characters the generator draws, so they
travel to a lent GPU."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from datasets.randomized import FACE_TEXT
from datasets.styles import STYLES, Style
from vision.gpu.subset_fonts import (
    DATASETS_DIR,
    HELD_OUT_STYLES,
    drawn_characters,
    style_fonts,
    subset_file,
    training_fonts,
)


def _a_font() -> Path:
    for root in (Path("/usr/share/fonts"), Path("/usr/local/share/fonts")):
        for path in sorted(root.rglob("*.ttf")) if root.is_dir() else []:
            if "emoji" not in path.name.lower():
                return path
    pytest.skip("no TrueType font installed")


def test_every_character_a_face_prints_is_kept() -> None:
    text = drawn_characters(sorted(DATASETS_DIR.glob("*.py")))
    assert set(FACE_TEXT) <= set(text)
    assert set("0123456789ABCxyz") <= set(text)


def test_characters_come_from_the_sources_given(tmp_path: Path) -> None:
    source = tmp_path / "faces.py"
    source.write_text('TEXT = "梅蘭"\n', encoding="utf-8")
    text = drawn_characters([source])
    assert "梅" in text and "蘭" in text and "菊" not in text


def test_a_subset_font_keeps_only_the_text_and_shrinks(tmp_path: Path) -> None:
    font = _a_font()
    out = tmp_path / font.name
    subset_file(font, out, "AB")
    kept = set(TTFont(str(out)).getBestCmap())
    assert {ord("A"), ord("B")} <= kept
    assert ord("Z") not in kept
    assert out.stat().st_size < font.stat().st_size


def _style(name: str, needs: tuple[str, ...]) -> Style:
    return Style(name, "GPL", False, name, build=lambda: {}, needs=needs)


def test_the_fonts_a_style_needs_travel_and_its_art_does_not() -> None:
    styles = [
        _style("a", ("/usr/share/fonts/truetype/cwtex/cwkai.ttf",)),
        _style("b", ("pkgs/xmahjongg/usr/share/games/xmahjongg/tiles/real.gif", "/fonts/x.TTC")),
        _style("c", ()),
    ]
    assert style_fonts(styles) == {"cwkai.ttf", "x.TTC"}


def test_every_font_style_of_the_registry_names_its_font() -> None:
    fonts = style_fonts(STYLES.values())
    assert {"cwkai.ttf", "ukai.ttc", "uming.ttc"} <= fonts


def test_the_held_out_styles_fonts_stay_behind() -> None:
    assert set(HELD_OUT_STYLES) <= set(STYLES)
    held_out = style_fonts(STYLES[name] for name in HELD_OUT_STYLES)
    assert "Symbola_hint.ttf" in held_out
    assert not held_out & training_fonts()
    assert "cwkai.ttf" in training_fonts()


def test_help_is_answered_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from vision.gpu.subset_fonts import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "OUT_DIR" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # it once made a folder named --help and cut the fonts into it


def test_a_file_for_the_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    from vision.gpu.subset_fonts import main

    taken = tmp_path / "fonts"
    taken.write_text("")
    with pytest.raises(SystemExit, match="is a file"):
        main([str(taken)])
