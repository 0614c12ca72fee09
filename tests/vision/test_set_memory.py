"""A set memory: the tiles a user confirmed, by their looks, read the next photos of that set with them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.scenes import detector_rows, scene
from tests.vision.tinymodels import write_models
from vision.classes import CLASS_INDEX, CLASSES
from vision.lines import RECALLED
from vision.pipeline import TileReader
from vision.set_memory import (
    MOST_PER_FACE,
    NEAR,
    SetMemory,
    empty_memory,
    learned,
    recalled,
)
from vision.sidecar import ModelError, parse_config


def _unit(*values: float) -> np.ndarray:
    vector = np.array(values, np.float32)
    return vector / np.linalg.norm(vector)


def _reading(**faces: float) -> np.ndarray:
    """One tile's probabilities: `faces` as given (codes with a leading underscore for digits), the
    rest spread evenly."""
    row = np.full(len(CLASSES), 0.0, np.float32)
    given_faces = {code.lstrip("_"): p for code, p in faces.items()}
    rest = (1.0 - sum(given_faces.values())) / (len(CLASSES) - len(given_faces))
    row[:] = rest
    for code, p in given_faces.items():
        row[CLASS_INDEX[code]] = p
    return row[None]


def _taught(*pairs: tuple[np.ndarray, str]) -> SetMemory:
    return learned(empty_memory("k"), np.stack([look for look, _ in pairs]), [code for _, code in pairs])


S1_LOOK, S2_LOOK, ELSEWHERE = _unit(1, 0, 0), _unit(0.96, 0.28, 0), _unit(0, 0, 1)


def test_a_tile_that_looks_like_a_confirmed_face_is_read_as_it() -> None:
    memory = _taught((S1_LOOK, "S1"), (S2_LOOK, "S2"))
    models = _reading(S1=0.7, S2=0.25)  # the models take a summer tile for spring
    recall = recalled(memory, models, S2_LOOK[None])
    assert CLASSES[int(recall.probabilities[0].argmax())] == "S2"
    assert recall.like == ("S2",) and recall.nearness[0] == pytest.approx(1.0, abs=1e-3)
    assert recall.probabilities.sum() == pytest.approx(1.0, abs=1e-5)


def test_a_tile_near_no_confirmed_tile_is_read_as_the_models_read_it() -> None:
    memory = _taught((S1_LOOK, "S1"), (S2_LOOK, "S2"))
    models = _reading(S1=0.7, S2=0.25)
    recall = recalled(memory, models, ELSEWHERE[None])
    np.testing.assert_array_equal(recall.probabilities, models)
    assert recall.like == (None,)


def test_a_face_never_confirmed_keeps_the_chance_of_a_tile_as_near_as_near() -> None:
    # only spring was confirmed; a tile barely nearer to it than NEAR stays the bird the models are sure of
    memory = _taught((S1_LOOK, "S1"))
    barely = _unit(1.0, np.tan(np.arccos(NEAR + 0.005)), 0)  # cosine NEAR + 0.005 to spring's look
    models = _reading(_1s=0.99)
    assert CLASSES[int(recalled(memory, models, barely[None]).probabilities[0].argmax())] == "1s"
    # the same look as spring's: spring, however sure the models
    assert CLASSES[int(recalled(memory, models, S1_LOOK[None]).probabilities[0].argmax())] == "S1"


def test_an_empty_memory_or_looks_of_another_model_recall_nothing() -> None:
    models = _reading(S1=0.7)
    assert recalled(empty_memory("k"), models, S1_LOOK[None]).like == (None,)
    other_width = np.ones((1, 5), np.float32) / np.sqrt(5)
    recall = recalled(_taught((S1_LOOK, "S1")), models, other_width)
    np.testing.assert_array_equal(recall.probabilities, models)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["S1", "S2", "1s", "back"]), min_size=1, max_size=90), st.integers(1, 4))
def test_the_newest_confirmed_tiles_of_each_face_are_kept_up_to_its_bound(
    codes: list[str], photos: int
) -> None:
    memory = empty_memory("k")
    rng = np.random.default_rng(len(codes))
    looks = rng.normal(size=(len(codes), 6)).astype(np.float32)
    for part in np.array_split(np.arange(len(codes)), photos):
        memory = learned(memory, looks[part], [codes[i] for i in part])
    assert memory.photos == sum(1 for part in np.array_split(np.arange(len(codes)), photos) if len(part))
    for face in set(codes):
        taught = [i for i, code in enumerate(codes) if code == face]
        kept = [i for i, code in enumerate(memory.codes) if code == face]
        assert len(kept) == min(len(taught), MOST_PER_FACE)
        # the newest: the last looks taught of that face, in their order
        np.testing.assert_allclose(
            memory.descriptors[kept].astype(np.float32), looks[taught[-len(kept) :]], rtol=1e-2, atol=1e-2
        )


def _reader(tmp_path: Path) -> tuple[TileReader, np.ndarray]:
    sc = scene(600, 1000)
    # a classifier fairly sure of its faces (about 0.96), as the real ones are of most tiles
    models = write_models(tmp_path, detector_rows(sc, (384, 640)), features=True, cls_gain=5.0)
    return TileReader.load(models), sc.rgb


def test_a_photo_read_with_a_memory_names_the_tile_it_read_otherwise_and_why(tmp_path: Path) -> None:
    reader, rgb = _reader(tmp_path)
    first = reader.read(rgb, describe=True)
    assert first.descriptors is not None and first.descriptors.shape == (3, 3)
    assert first.recalled == () and first.detections.codes == ["1m", "1p", "1s"]
    # the user confirmed the red tile as S2 (this set paints its summer red)
    red = first.detections.codes.index("1m")
    memory = learned(empty_memory(reader.classifier.look_key), first.descriptors[[red]], ["S2"])
    again = reader.read(rgb, memory=memory)
    assert again.detections.codes[red] == "S2"
    assert again.recalled == (red,)
    line = next(line for line in again.lines if line.about == RECALLED)
    assert line.tiles == (red,)
    assert line.numbered({red: 7}) == (
        "tile 7 read as S2, not 1m: it looks like the S2 tiles taught from earlier photos of this set"
    )
    assert line.text.startswith("tile at (") and "read as S2, not 1m" in line.text
    # the other tiles look like nothing confirmed: read as before
    assert [c for i, c in enumerate(again.detections.codes) if i != red] == ["1p", "1s"]
    # settled again (another rule set) with the memory, the reading is the same
    assert again.seen is not None
    assert reader.settle(again.seen, memory=memory).detections.codes == again.detections.codes


def test_a_reader_whose_classifier_gives_no_features_reads_as_before_with_a_memory(tmp_path: Path) -> None:
    sc = scene(600, 1000)
    reader = TileReader.load(write_models(tmp_path, detector_rows(sc, (384, 640))))
    assert not reader.classifier.describes and reader.classifier.look_key == ""
    memory = _taught((_unit(1, 0, 0), "S2"))
    reading = reader.read(sc.rgb, memory=memory)
    assert reading.detections.codes == ["1m", "1p", "1s"] and reading.descriptors is None


def test_the_key_names_the_classifier_file(tmp_path: Path) -> None:
    reader, _ = _reader(tmp_path / "a")
    same, _ = _reader(tmp_path / "b")
    assert reader.classifier.look_key == same.classifier.look_key  # the same bytes
    sc = scene(600, 1000)
    other = write_models(tmp_path / "c", detector_rows(sc, (384, 640)), features=True, cls_gain=6.0)
    assert TileReader.load(other).classifier.look_key != reader.classifier.look_key


def test_the_sidecar_names_the_feature_outputs_and_a_missing_one_is_refused(tmp_path: Path) -> None:
    models = write_models(tmp_path, detector_rows(scene(600, 1000), (384, 640)), features=True)
    sidecar = json.loads((models / "models.json").read_text())
    for bad in ("features", [""], [3]):
        with pytest.raises(ModelError, match="'features' must be a list of output names"):
            parse_config({**sidecar, "classifier": {**sidecar["classifier"], "features": bad}})
    sidecar["classifier"]["features"] = ["pooled"]
    (models / "models.json").write_text(json.dumps(sidecar))
    with pytest.raises(ModelError, match="classifier has no output pooled"):
        TileReader.load(models)


def test_the_recalled_line_names_the_face_the_models_read_within_the_set(tmp_path: Path) -> None:
    reader, rgb = _reader(tmp_path)
    first = reader.read(rgb, describe=True)
    red = first.detections.codes.index("1m")
    assert first.descriptors is not None
    memory = learned(empty_memory(reader.classifier.look_key), first.descriptors[[red]], ["S2"])
    # a set without 1m: the models alone read the red tile as one of the set's faces, never 1m
    faces = frozenset(CLASSES) - {"1m"}
    alone = reader.read(rgb, faces=faces).detections.codes[red]
    assert alone != "1m"
    again = reader.read(rgb, faces=faces, memory=memory)
    assert again.detections.codes[red] == "S2" and again.recalled == (red,)
    line = next(line for line in again.lines if line.about == RECALLED)
    assert f"read as S2, not {alone}:" in line.text


def test_memories_compare_by_what_they_hold_not_elementwise() -> None:
    memory = _taught((S1_LOOK, "S1"), (S2_LOOK, "S2"))
    assert memory == _taught((S1_LOOK, "S1"), (S2_LOOK, "S2"))  # == on its arrays had raised
    assert memory != _taught((S1_LOOK, "S1"))
