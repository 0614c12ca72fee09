"""The sample photos shipped in samples/: each one, through the sample button, gives the right score.

The reader here answers with the sample's own ground truth (samples/NAME.json, written by the
generator), so this checks the app's path sample button -> layout -> table -> scoring, and that the
shipped samples are valid winning hands. With a shipped model, the last test reads them for real.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import scoring
from app_ui.tile_sets import tiles_in_set
from tests.app.conftest import APP
from tests.app.fakes import FakeReading
from vision.detections import Detections
from vision.imageio import load_image
from vision.layout import layout_hand

SAMPLES = sorted((APP.parent / "samples").glob("*.jpg"))


class GroundTruthReader:
    """Answers with the ground truth of whichever sample photo it is given (matched by pixels)."""

    def __init__(self, samples: list[Path]) -> None:
        self.faces_asked: list[object] = []
        self.truth: list[tuple[np.ndarray, Detections]] = []
        for path in samples:
            meta = json.loads(path.with_suffix(".json").read_text())
            detections = Detections.from_codes(
                [t["code"] for t in meta["tiles"]], [t["xyxy"] for t in meta["tiles"]]
            )
            self.truth.append((load_image(path.read_bytes())[::16, ::16].copy(), detections))

    def read(self, rgb: np.ndarray, source_scale: float = 1.0, faces: object = None) -> FakeReading:
        self.faces_asked.append(faces)
        thumb = rgb[::16, ::16]
        for pixels, detections in self.truth:
            if pixels.shape == thumb.shape and np.array_equal(pixels, thumb):
                return self.settle(detections, faces)
        raise AssertionError("not a sample photo")

    def settle(self, seen: Detections, faces: object = None) -> FakeReading:
        """The ground truth again, whatever the set (a sample holds its own set's tiles)."""
        layout = layout_hand(seen)
        return FakeReading(seen, layout, tuple(layout.warnings), seen=seen)


def test_samples_are_shipped() -> None:
    assert len(SAMPLES) >= 3
    for path in SAMPLES:
        assert path.stat().st_size < 400_000, f"{path.name} is too big to ship"
        meta = json.loads(path.with_suffix(".json").read_text())
        assert scoring.score_json(_scoring_input(meta))["valid"], path.name
    # a hand of each rule set's game, so a sample shows each
    rules = {json.loads(path.with_suffix(".json").read_text())["rules"] for path in SAMPLES}
    assert rules == set(scoring.RULESET_NAMES)


def _scoring_input(meta: dict) -> dict:
    return {**meta["hand"], "rules": meta.get("rules", "singapore")}


@pytest.mark.parametrize("sample", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_sample_button_scores_the_sample(sample: Path, app: AppTest, install: object) -> None:
    reader = GroundTruthReader(SAMPLES)
    install(reader)  # type: ignore[operator]
    app.button(key=f"sample_{sample.stem}").click().run()
    assert not app.exception, [e.value for e in app.exception]
    meta = json.loads(sample.with_suffix(".json").read_text())
    expected = scoring.score_json(_scoring_input(meta))
    # a sample of the Malaysian game switches the rule set first, and is read as its set's tiles
    assert app.session_state["rules"] == meta["rules"]
    assert app.session_state["base"].read_as == meta["rules"]
    assert reader.faces_asked == [tiles_in_set(meta["rules"])]
    case = app.session_state["case_json"]
    assert case["source"]["name"] == sample.name
    assert case["result"]["valid"], case["result"]["message"]
    assert case["result"]["tai"] == expected["tai"]
    unit = scoring.get_ruleset(meta["rules"]).unit_name
    assert any(f"{expected['tai']} {unit}" in str(s.value) for s in app.success)
    # nothing said of reading the last photo again: the sample replaced it
    assert not any("read again" in str(i.value) for i in app.info)
    assert app.image, "the annotated photo is not shown"
    # with a hand on the page the samples fold away, so the photo read is on a phone's first screen
    # (stage 81); before one, they are open
    assert [e.label for e in app.expander if e.label == "Try a sample photo"] == ["Try a sample photo"]
    assert not [
        e
        for e in AppTest.from_file(str(APP), default_timeout=60).run().expander
        if e.label == "Try a sample photo"
    ]


def test_a_sample_of_another_game_replaces_the_photo_on_screen_without_a_note_on_it(
    app: AppTest, install: object
) -> None:
    malaysian = next(
        p for p in SAMPLES if json.loads(p.with_suffix(".json").read_text())["rules"] == "malaysian"
    )
    singapore = next(p for p in SAMPLES if p != malaysian)
    reader = GroundTruthReader(SAMPLES)
    install(reader)  # type: ignore[operator]
    app.button(key=f"sample_{singapore.stem}").click().run()
    app.button(key=f"sample_{malaysian.stem}").click().run()
    assert not app.exception, [e.value for e in app.exception]
    assert app.session_state["base"].name == malaysian.name
    infos = [str(i.value) for i in app.info]
    assert any("Rule set now Malaysian" in t for t in infos), infos
    assert not any("read again" in t for t in infos), infos


@pytest.mark.parametrize("answer", ["keep", "replace"])
def test_another_games_sample_asks_first_where_tiles_are_corrected_and_keeps_the_rule_set_if_refused(
    app: AppTest, install: object, answer: str
) -> None:
    rules = {p: json.loads(p.with_suffix(".json").read_text())["rules"] for p in SAMPLES}
    malaysian = next(p for p in SAMPLES if rules[p] == "malaysian")
    singapore = next(p for p in SAMPLES if p != malaysian)
    install(GroundTruthReader(SAMPLES))  # type: ignore[operator]
    app.button(key=f"sample_{singapore.stem}").click().run()
    app.session_state[f"tiles_{app.session_state['version']}"] = {
        "edited_rows": {"0": {"tile": "9m"}},
        "added_rows": [],
        "deleted_rows": [],
    }
    app.run()
    app.button(key=f"sample_{malaysian.stem}").click().run()
    assert not app.exception, [e.value for e in app.exception]
    # nothing changed until the user answers: the rule set neither
    assert app.session_state["rules"] == "singapore"
    assert app.session_state["base"].name == singapore.name
    app.button(key=f"pending_{answer}").click().run()
    assert not app.exception, [e.value for e in app.exception]
    if answer == "keep":
        assert app.session_state["rules"] == "singapore"
        assert app.session_state["base"].name == singapore.name
    else:
        assert app.session_state["rules"] == "malaysian"
        assert app.session_state["base"].name == malaysian.name
        assert app.session_state["base"].read_as == "malaysian"


def test_a_self_draw_offers_no_winning_tile_only_in_an_exposed_chow(app: AppTest, install: object) -> None:
    # an audit: the high-score sample, self-drawn, offered 6s 7s 8s (only in its exposed 678s chow), and
    # 7s picked was "not a valid win"
    install(GroundTruthReader(SAMPLES))  # type: ignore[operator]
    app.button(key="sample_high_score").click().run()
    offered = app.selectbox(key="winning_tile").options
    assert {"6s", "7s", "8s"} <= set(offered)  # on a discard the chow may be the set it completed
    app.selectbox(key="winning_tile").set_value("7s").run()
    app.radio(key="won_by").set_value("self-drawn").run()
    assert not app.exception, [e.value for e in app.exception]
    # the choice the user made stands, and the result says why it is no win
    assert app.selectbox(key="winning_tile").value == "7s"
    assert "claimed from a discard" in app.session_state["case_json"]["result"]["message"]
    app.selectbox(key="winning_tile").set_value("2m").run()
    offered = app.selectbox(key="winning_tile").options
    assert not {"6s", "7s", "8s"} & set(offered) and "2m" in offered, offered
    assert app.session_state["case_json"]["result"]["valid"]


def test_the_payout_table_adds_the_instant_payouts_to_each_players_amount(
    app: AppTest, install: object
) -> None:
    # an audit: the high-score sample's own flower and season (2 from each) were listed apart, so no
    # one's net for the hand could be read off the table
    install(GroundTruthReader(SAMPLES))  # type: ignore[operator]
    app.button(key="sample_high_score").click().run()
    assert not app.exception, [e.value for e in app.exception]
    result = app.session_state["case_json"]["result"]
    instant = result["payout"]["instant_payouts"]
    assert result["valid"] and instant, result
    frame = [t.value for t in app.table if "Amount" in list(t.value.columns)][-1]
    amounts = [float(a) for a in frame["Amount"]]
    net = [float(a) for a in frame["With instant payouts"]]
    from_each = sum(item["from_each"] for item in instant)
    roles = [p["role"] for p in result["payout"]["players"]]
    for role, amount, total in zip(roles, amounts, net, strict=True):
        assert total == amount + (3 * from_each if role == "winner" else -from_each), (role, amount, total)
    assert sum(net) == 0
