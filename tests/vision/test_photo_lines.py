"""Each of the reader's lines on the photo itself names its fault (`Line.about`, `vision.lines.PHOTO_FAULTS`),
so that a UI or the bench tells them apart without reading the words, which stay as they were."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from tests.vision.scenes import detector_rows, scene
from tests.vision.seen_sim import spotted_and_blurred
from tests.vision.tinymodels import write_models
from vision.glare import face_glare_lines, glare_lines
from vision.lines import (
    BLURRED,
    DAMAGED,
    DARK,
    EDGE,
    FACE_GLARE,
    GLARE,
    PHOTO,
    SHAKEN,
    SMALL_PHOTO,
    SMALL_TILES,
    WHOLE_BLURRED,
    WHOLE_SHAKEN,
)
from vision.pipeline import TileReader
from vision.sharpness import (
    BLURRED_LINE,
    SHAKEN_LINE,
    WHOLE_BLURRED_LINE,
    WHOLE_SHAKEN_LINE,
    blur_lines,
    whole_blur_lines,
)

HAND = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E W W"


def test_a_blur_or_a_shake_is_named_on_its_line_in_the_words_it_had() -> None:
    assert [(line.text, line.kind, line.about) for line in blur_lines(0.05, 0.8)] == [
        (BLURRED_LINE, PHOTO, BLURRED)
    ]
    assert [(line.text, line.about) for line in blur_lines(0.1, 0.4)] == [(SHAKEN_LINE, SHAKEN)]
    assert blur_lines(0.3, 0.1) == [] and [line.text for line in blur_lines(0.1, 0.4)] == [SHAKEN_LINE]
    assert [(line.text, line.about) for line in whole_blur_lines(0.3)] == [
        (WHOLE_BLURRED_LINE, WHOLE_BLURRED)
    ]
    assert [(line.text, line.about) for line in whole_blur_lines(0.3, 0.3)] == [
        (WHOLE_SHAKEN_LINE, WHOLE_SHAKEN)
    ]
    assert [line.text for line in whole_blur_lines(1.2, 0.3)] == [WHOLE_SHAKEN_LINE]
    assert whole_blur_lines(2.0, 0.3) == []


def test_a_glare_spot_and_a_whited_face_are_named_on_their_lines() -> None:
    (spot,) = glare_lines([(10.0, 20.0)])
    assert spot.about == GLARE and spot.text.startswith("a glare spot whites out part of the photo at ")
    (face,) = face_glare_lines(np.array([[0, 0, 40, 56]], np.float32), (0,))
    assert face.about == FACE_GLARE and face.text.startswith("glare whites out the face of a tile at ")


def test_every_photo_line_of_a_settled_reading_names_its_fault(tmp_path: Path) -> None:
    reader = TileReader.load(write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640))))
    spotted, blurred = spotted_and_blurred(HAND)
    # a small, dark photo, part of its file grey, blurred, with a glare spot
    faulty = dataclasses.replace(blurred, glare=spotted.glare, gain=1.6, filled=0.5, image_hw=(480, 600))
    lines = [line for line in reader.settle(faulty).lines if line.kind == PHOTO]
    assert [line.about for line in lines] == [DAMAGED, DARK, GLARE, BLURRED, SMALL_PHOTO, EDGE]
    # the tiles small in a large photo
    far = reader.settle(dataclasses.replace(spotted, glare=(), image_hw=(6000, 8000))).lines
    assert [line.about for line in far if line.kind == PHOTO] == [SMALL_TILES]
    # the hand alone, with its glare spot: that line alone is on the photo
    assert [line.about for line in reader.settle(spotted).lines if line.kind == PHOTO] == [GLARE]


def test_lines_that_say_the_warnings_are_kept_and_warnings_alone_become_lines_naming_nothing() -> None:
    from vision.lines import LAYOUT, MELD_RIVAL, Line, lines_saying

    own = (Line("melds read either way", LAYOUT, tiles=(3, 4, 5), about=MELD_RIVAL),)
    assert lines_saying(own, ["melds read either way"], LAYOUT) == own
    # a layout made by hand (its warnings alone), or lines that say other words: each warning, plain
    assert lines_saying((), ["6 tiles away"], LAYOUT) == (Line("6 tiles away", LAYOUT),)
    assert lines_saying(own, ["reworded"], PHOTO) == (Line("reworded", PHOTO),)
    assert lines_saying((), (), LAYOUT) == ()
