"""Cut the generator's fonts down to the characters it draws, so they travel to a lent GPU.

    python -m vision.gpu.subset_fonts OUT_DIR

Each font keeps its file name (the generator finds fonts by name, `datasets.styles.find_font`) and,
for a collection, every face at its index. Fonts that are not installed are skipped with a line.
"""

from __future__ import annotations

import argparse
import string
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from datasets.randomized import FONT_CHOICES
from datasets.styles import STYLES, Style, StyleUnavailableError, find_font

DATASETS_DIR = Path(__file__).resolve().parent.parent.parent / "datasets"
# the font styles draw the animals with this one, when it is there
EMOJI_FONT = "NotoColorEmoji.ttf"
FONT_SUFFIXES = {".ttf", ".ttc", ".otf"}
# the styles the benchmarks hold out (HELDOUT3, HELDOUT_D): no training machine needs their fonts
HELD_OUT_STYLES = ("unicode_symbola", "xmahjongg_dorothys")


def drawn_characters(sources: Iterable[Path]) -> str:
    """Printable ASCII and every other character written in the generator's source files: each
    face's text is a literal there, so a font keeping these draws every face it drew before."""
    chars = set(string.printable)
    for source in sources:
        chars |= {c for c in source.read_text(encoding="utf-8") if ord(c) > 127}
    return "".join(sorted(chars))


def _subset(font: TTFont, text: str) -> TTFont:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    return font


def style_fonts(styles: Iterable[Style]) -> set[str]:
    """The font files the font styles need (`Style.needs`), by name: a lease that lacked one lost
    every scene of the styles mixed with it (stage 25's lease lacked cwkai.ttf)."""
    return {
        Path(need).name
        for style in styles
        for need in style.needs
        if Path(need).suffix.lower() in FONT_SUFFIXES
    }


def training_fonts() -> set[str]:
    """Every font a training scene may draw with: the randomised sets', the font styles' (the
    held-out styles' left behind) and the emoji font the animals are drawn with."""
    trained = (style for name, style in STYLES.items() if name not in HELD_OUT_STYLES)
    return {name for name, _ in FONT_CHOICES} | style_fonts(trained) | {EMOJI_FONT}


def subset_file(path: Path, out: Path, text: str) -> None:
    """`path` with only the glyphs of `text`, written to `out` (a collection stays a collection)."""
    if path.suffix.lower() == ".ttc":
        collection = TTCollection()
        count = len(TTCollection(str(path)).fonts)
        collection.fonts = [_subset(TTFont(str(path), fontNumber=i), text) for i in range(count)]
        collection.save(str(out))
    else:
        _subset(TTFont(str(path)), text).save(str(out))


def main(argv: list[str] | None = None) -> None:
    # argparse, so that --help is answered rather than taken for the folder to write into
    parser = argparse.ArgumentParser(
        prog="python -m vision.gpu.subset_fonts",
        description="Cut the generator's fonts down to the characters it draws, so they travel to a "
        "lent GPU (vision/gpu/prepare.sh). Fonts that are not installed are skipped with a line.",
    )
    parser.add_argument("out", type=Path, metavar="OUT_DIR", help="the folder to write the cut fonts into")
    out = parser.parse_args(argv).out
    if out.exists() and not out.is_dir():
        sys.exit(f"subset_fonts: {out} is a file (OUT_DIR names the folder to write into)")
    out.mkdir(parents=True, exist_ok=True)
    text = drawn_characters(sorted(DATASETS_DIR.glob("*.py")))
    for filename in sorted(training_fonts()):
        try:
            path = Path(find_font(filename))
        except StyleUnavailableError:
            print(f"subset_fonts: {filename} not installed, skipped")
            continue
        subset_file(path, out / filename, text)
        print(
            f"{filename}: {path.stat().st_size // 1024} KiB -> {(out / filename).stat().st_size // 1024} KiB"
        )


if __name__ == "__main__":
    main()
