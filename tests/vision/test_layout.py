"""Layout on hand-made arrangements: the tricky cases of issue 5, at every photo rotation."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.layout_sim import place
from vision.detections import Detections
from vision.layout import Layout, layout_hand
from vision.layout_melds import read_meld

# Right angles (photo from any seat) and a spread of odd ones (a tilted phone).
ANGLES = [0.0, 90.0, 180.0, 270.0, 12.0, 37.0, 45.0, 71.0, 133.0, 208.0, 301.0]


def canonical(hand: dict) -> tuple:
    """A hand up to tile order: the scoring engine does not care about order."""
    melds = sorted((m["kind"], tuple(sorted(m["tiles"])), m["concealed"]) for m in hand["melds"])
    return (tuple(sorted(hand["concealed"])), tuple(melds), tuple(sorted(hand["bonus"])))


def hand(concealed: str, melds: list[tuple[str, str, bool]] = (), bonus: str = "") -> tuple:  # type: ignore[assignment]
    return canonical(
        {
            "concealed": concealed.split(),
            "melds": [{"kind": k, "tiles": t.split(), "concealed": c} for k, t, c in melds],
            "bonus": bonus.split(),
        }
    )


CASES = [
    pytest.param(
        [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["C C C"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("pong", "C C C", False)]),
        id="pong-in-second-row",
    ),
    pytest.param(
        [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["back 9p 9p back"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("kong", "9p 9p 9p 9p", True)]),
        id="concealed-kong-with-backs",
    ),
    pytest.param(
        [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["W W W W"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("kong", "W W W W", False)]),
        id="kong-of-four",
    ),
    pytest.param(
        [["1m 2m 3m 7s 8s 9s E E"], ["C C C 4p 5p 6p"]],
        hand("1m 2m 3m 7s 8s 9s E E", [("pong", "C C C", False), ("chow", "4p 5p 6p", False)]),
        id="two-adjacent-melds-no-gap",
    ),
    pytest.param(
        [["1m 2m F1 3m 4p 5p 6p cat 7s 8s 9s E E"], ["C C C"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("pong", "C C C", False)], "F1 cat"),
        id="bonus-tiles-mixed-into-hand-row",
    ),
    pytest.param(
        [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["C C* C"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("pong", "C C C", False)]),
        id="rotated-claimed-tile",
    ),
    pytest.param(
        [["1m 2m 3m 7s 8s 9s E E"], ["4p* 3p 5p", "N N* N"]],
        hand("1m 2m 3m 7s 8s 9s E E", [("chow", "3p 4p 5p", False), ("pong", "N N N", False)]),
        id="claimed-tiles-in-two-melds",
    ),
    pytest.param(
        [["1m 2m 3m 4m 5m 6m 7s 8s 9s E E C C C"]],
        hand("1m 2m 3m 4m 5m 6m 7s 8s 9s E E C C C"),
        id="single-row-no-gaps",
    ),
    pytest.param(
        [["1m 2m 3m 4p 5p 6p 7s 8s", "C C C", "S S S S"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s", [("pong", "C C C", False), ("kong", "S S S S", False)]),
        id="melds-in-the-hand-row-after-gaps",
    ),
    pytest.param(
        [["E E"], ["1m 2m 3m", "P P P", "back back back back", "7s 7s 7s"], ["F2 S3 rooster"]],
        hand(
            "E E",
            [("chow", "1m 2m 3m", False), ("pong", "P P P", False), ("pong", "7s 7s 7s", False)],
            "F2 S3 rooster",
        ),
        id="four-backs-kong-unknown-face",
    ),
    pytest.param(
        [["1p 1p 2p 3p 4p 5p 6p 7p 8p 9p 9p"], ["F1 fly S2"]],
        hand("1p 1p 2p 3p 4p 5p 6p 7p 8p 9p 9p", [], "F1 fly S2"),
        id="fly-in-bonus-row",
    ),
    pytest.param(
        [["1p 2p 3p 4p 5p 6p 7p 8p 9p E E"], ["C C fly"]],
        hand("1p 2p 3p 4p 5p 6p 7p 8p 9p E E", [("pong", "C C fly", False)]),
        id="fly-in-exposed-pong",
    ),
    pytest.param(
        [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["C F P"]],
        hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E C F P"),
        id="invalid-three-goes-to-hand",
    ),
    pytest.param(
        [["1m 1m"], ["2s 2s 2s", "3p 4p 5p", "6m 7m 8m", "N N N"]],
        hand(
            "1m 1m",
            [
                ("pong", "2s 2s 2s", False),
                ("chow", "3p 4p 5p", False),
                ("chow", "6m 7m 8m", False),
                ("pong", "N N N", False),
            ],
        ),
        id="four-melds-pair-left",
    ),
]


@pytest.mark.parametrize("angle", ANGLES, ids=[f"{a:g}deg" for a in ANGLES])
@pytest.mark.parametrize(("table", "expected"), CASES)
def test_layout_cases(table: list[list[str]], expected: tuple, angle: float) -> None:
    layout = layout_hand(place(table, angle).detections())
    assert canonical(layout.hand) == expected


def test_empty_detections() -> None:
    layout = layout_hand(Detections.empty())
    assert layout.hand == {"concealed": [], "melds": [], "bonus": []}
    assert layout.groups == ()
    assert layout.warnings


def test_measured_angles_travel_with_the_detections_they_belong_to() -> None:
    det = Detections.from_codes(["1m", "F1", "C"], [[0, 0, 10, 14], [20, 0, 30, 14], [40, 0, 50, 14]])
    assert det.angle is None and det[[0, 2]].angle is None
    measured = det.with_angle([1.0, float("nan"), -30.0])
    picked = measured[[2, 1]]
    assert picked.codes == ["C", "F1"] and picked.angle is not None
    assert picked.angle[0] == -30.0 and np.isnan(picked.angle[1])
    with pytest.raises(ValueError, match="angle must have shape"):
        Detections(det.xyxy, det.confidence, det.class_id, angle=np.zeros(2, np.float32))


def test_single_tile() -> None:
    layout = layout_hand(place([["5m"]]).detections())
    assert layout.hand["concealed"] == ["5m"]


def test_only_bonus_tiles() -> None:
    layout = layout_hand(place([["F1 F2 cat"]]).detections())
    assert canonical(layout.hand) == hand("", [], "F1 F2 cat")
    assert [g.kind for g in layout.groups] == ["bonus"]


def test_single_row_warns() -> None:
    layout = layout_hand(place([["1m 2m 3m 4m 5m 6m 7s 8s 9s E E C C C"]]).detections())
    assert any("no gaps" in w for w in layout.warnings)


def test_four_backs_warns_and_keeps_group() -> None:
    table = [["E E"], ["1m 2m 3m", "P P P", "back back back back", "7s 7s 7s"]]
    layout = layout_hand(place(table, 90).detections())
    kongs = [g for g in layout.groups if g.meld == "kong"]
    assert len(kongs) == 1 and kongs[0].concealed and kongs[0].codes == ("back",) * 4
    assert any("face down" in w for w in layout.warnings)


def test_stray_back_not_counted() -> None:
    layout = layout_hand(place([["1m 2m 3m back 5p 6p 7s 8s 9s E E"]]).detections())
    assert "back" not in layout.hand["concealed"]
    assert [g.kind for g in layout.groups] == ["concealed", "unused"]
    assert any("face-down" in w for w in layout.warnings)


@pytest.mark.parametrize("angle", [0.0, 90.0, 45.0, 200.0], ids=["0deg", "90deg", "45deg", "200deg"])
def test_duplicates_merged(angle: float) -> None:
    placed = place([["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["C C C"]], angle)
    det = placed.detections()
    # The same tiles again, slightly shifted and less confident, one with a wrong class.
    dup = det[[0, 5, 12]]
    shifted = Detections(dup.xyxy + 2.0, np.full(3, 0.4, np.float32), dup.class_id.copy())
    shifted.class_id[1] = 0
    both = Detections(
        np.concatenate([det.xyxy, shifted.xyxy]),
        np.concatenate([np.full(len(det), 0.9, np.float32), shifted.confidence]),
        np.concatenate([det.class_id, shifted.class_id]),
    )
    layout = layout_hand(both)
    assert canonical(layout.hand) == hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("pong", "C C C", False)])
    used = [i for g in layout.groups for i in g.indices]
    assert sorted(used) == list(range(len(det)))
    assert any("two detections" in w for w in layout.warnings)


def test_groups_cover_each_tile_once_and_boxes_contain_tiles() -> None:
    table = [["1m 2m F1 3m 4p 5p 6p 7s 8s"], ["C C* C", "back 9s 9s back", "2s 3s* 4s"]]
    det = place(table, 30).detections()
    layout = layout_hand(det)
    used = sorted(i for g in layout.groups for i in g.indices)
    assert used == list(range(len(det)))
    for group in layout.groups:
        boxes = det.xyxy[list(group.indices)]
        assert group.box[0] <= boxes[:, 0].min() and group.box[2] >= boxes[:, 2].max()
        assert group.codes == tuple(det.codes[i] for i in group.indices)


def test_concealed_reading_order_follows_the_row() -> None:
    codes = "1m 2m 3m 4p 5p 6p 7s 8s 9s E E"
    for angle in ANGLES:
        layout = layout_hand(place([[codes], ["C C C"]], angle).detections())
        assert layout.hand["concealed"] in (codes.split(), codes.split()[::-1]), angle


def test_to_json_round_trips_through_json() -> None:
    layout = layout_hand(place([["1m 2m 3m 7s 8s 9s E E"], ["C C C 4p 5p 6p"]], 17).detections())
    data = json.loads(json.dumps(layout.to_json()))
    assert data["hand"] == layout.hand
    assert [g["kind"] for g in data["groups"]] == [g.kind for g in layout.groups]
    assert isinstance(layout, Layout)


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        pytest.param("", None, id="empty"),
        pytest.param("C C", None, id="two"),
        pytest.param("C C C", ("pong", False, "C C C"), id="pong"),
        pytest.param("5s 3s 4s", ("chow", False, "3s 4s 5s"), id="chow-any-order"),
        pytest.param("8m 9m 1m", None, id="no-wraparound"),
        pytest.param("E S W", None, id="honour-run"),
        pytest.param("3m 4p 5s", None, id="mixed-suits"),
        pytest.param("C C C C", ("kong", False, "C C C C"), id="kong"),
        pytest.param("back C C back", ("kong", True, "C C C C"), id="concealed-kong"),
        pytest.param("back back back back", ("kong", True, None), id="blind-kong"),
        pytest.param("C C fly C", None, id="no-fly-in-kong"),
        pytest.param("4p fly 6p", ("chow", False, "4p 6p fly"), id="fly-in-chow"),
        pytest.param("fly fly 6p", ("pong", False, "fly fly 6p"), id="two-flies-read-as-pong"),
        pytest.param("fly 4p fly 5p", None, id="four-with-fly"),
        pytest.param("back C C", None, id="back-in-three"),
    ],
)
def test_read_meld(codes: str, expected: tuple | None) -> None:
    meld = read_meld(codes.split())
    if expected is None:
        assert meld is None
        return
    assert meld is not None
    kind, concealed, tiles = expected
    assert (meld.kind, meld.concealed) == (kind, concealed)
    assert meld.tiles == (tuple(tiles.split()) if tiles else None)


@settings(max_examples=40, deadline=None)
@given(angle=st.floats(0, 360), gap=st.floats(0.45, 2.0), row_gap=st.floats(0.4, 2.0))
def test_structure_survives_any_angle_and_spacing(angle: float, gap: float, row_gap: float) -> None:
    table = [["1m 2m F1 3m 7s 7s"], ["C C* C", "back 9s 9s back", "2s 3s* 4s"]]
    layout = layout_hand(place(table, angle, gap=gap, row_gap=row_gap).detections())
    assert canonical(layout.hand) == hand(
        "1m 2m 3m 7s 7s",
        [("pong", "C C C", False), ("kong", "9s 9s 9s 9s", True), ("chow", "2s 3s 4s", False)],
        "F1",
    )


@settings(max_examples=40, deadline=None)
@given(angle=st.floats(0, 360), order=st.permutations(list(range(15))))
def test_layout_does_not_depend_on_detection_order(angle: float, order: list[int]) -> None:
    table = [["1m 2m F1 3m 4p 5p 6p 7s 8s"], ["C C* C", "2s 3s* 4s"]]
    det = place(table, angle).detections()
    shuffled = det[np.array(order)]
    assert canonical(layout_hand(shuffled).hand) == canonical(layout_hand(det).hand)


def test_never_invents_tiles() -> None:
    table = [["1m 2m F1 3m 7s 7s"], ["C C* C", "back 9s 9s back", "2s 3s* 4s"]]
    det = place(table, 63).detections()
    layout = layout_hand(det)
    faces = Counter(c for c in det.codes if c != "back")
    read = Counter(layout.hand["concealed"] + layout.hand["bonus"])
    for meld in layout.hand["melds"]:
        read.update(meld["tiles"])
    # Only a concealed kong's face-down tiles may be filled in, from its face-up tiles.
    assert read - faces == Counter({"9s": 2})


def _concat(*dets: Detections) -> Detections:
    return Detections(
        np.concatenate([d.xyxy for d in dets]),
        np.concatenate([d.confidence for d in dets]),
        np.concatenate([d.class_id for d in dets]),
    )


@pytest.mark.parametrize("angle", [0.0, 90.0, 180.0, 57.0], ids=["0deg", "90deg", "180deg", "57deg"])
def test_far_tiles_are_unused(angle: float) -> None:
    table = [["1m 2m 3m 4p 5p 6p 7s 8s 9s E E"], ["C C C"]]
    hand_det = place(table, angle, centre=(400.0, 300.0)).detections()
    # Discards lying far off on the table, in a row of their own.
    far = place([["3s", "N", "9m 5p"]], angle + 90, gap=1.5, centre=(1000.0, 800.0)).detections()
    layout = layout_hand(_concat(hand_det, far))
    assert canonical(layout.hand) == hand("1m 2m 3m 4p 5p 6p 7s 8s 9s E E", [("pong", "C C C", False)])
    unused = [g for g in layout.groups if g.kind == "unused"]
    assert sorted(i for g in unused for i in g.indices) == list(range(len(hand_det), len(hand_det) + 4))


@settings(max_examples=30, deadline=None)
@given(
    angle=st.floats(0, 360),
    scale=st.floats(0.3, 3.0),
    shift=st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
)
def test_layout_does_not_depend_on_image_scale_or_position(
    angle: float, scale: float, shift: tuple[float, float]
) -> None:
    table = [["1m 2m F1 3m 7s 7s"], ["C C* C", "back 9s 9s back", "2s 3s* 4s"]]
    det = place(table, angle).detections()
    offset = np.array([*shift, *shift], np.float32)
    moved = Detections(det.xyxy * scale + offset, det.confidence, det.class_id)
    assert canonical(layout_hand(moved).hand) == canonical(layout_hand(det).hand)


TILE_CODES = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
TILE_CODES += ["E", "S", "W", "N", "C", "F", "P", "back", "F1", "cat"]
GROUPS = st.lists(st.sampled_from(TILE_CODES), min_size=1, max_size=5)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.lists(GROUPS, min_size=1, max_size=4), min_size=1, max_size=3),
    angle=st.floats(0, 360),
)
def test_never_invents_tiles_on_any_arrangement(rows: list[list[list[str]]], angle: float) -> None:
    """Whatever lies on the table, every face read is a face detected (backs only fill kongs),
    and every detection is in at most one group."""
    table = [[" ".join(group) for group in row] for row in rows]
    det = place(table, angle).detections()
    layout = layout_hand(det)
    read = Counter(layout.hand["concealed"] + layout.hand["bonus"])
    for meld in layout.hand["melds"]:
        read.update(meld["tiles"])
    extra = read - Counter(c for c in det.codes if c != "back")
    kong_faces = Counter(
        code
        for m in layout.hand["melds"]
        if m["kind"] == "kong" and m["concealed"]
        for code in m["tiles"][:2]
    )
    assert not extra - kong_faces
    used = [i for g in layout.groups for i in g.indices]
    assert len(used) == len(set(used)) and set(used) <= set(range(len(det)))


@pytest.mark.parametrize("angle", [0.0, 90.0, 200.0, 313.0], ids=["0deg", "90deg", "200deg", "313deg"])
def test_melds_come_in_reading_order(angle: float) -> None:
    table = [["1m 2m 3m 7s 7s"], ["C C C", "5s 6s 7s", "W W W W"]]
    layout = layout_hand(place(table, angle).detections())
    order = [g.meld for g in layout.groups if g.kind == "meld"]
    assert order in (["pong", "chow", "kong"], ["kong", "chow", "pong"])
    # `place` numbers tiles along the row, so reading order is monotonic in either direction.
    for group in layout.groups:
        assert list(group.indices) in (sorted(group.indices), sorted(group.indices, reverse=True))
