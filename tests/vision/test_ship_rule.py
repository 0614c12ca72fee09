"""The ship rule: held-out F1 sum up 0.01 with no fewer exact hands, and the real photos' veto."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from vision.ship_rule import MIN_F1_GAIN, SetFigures, ShipRuleError, figures_from_json, main, verdict


def _set(f1: float, hands: int = 10, photos: int = 20, name: str = "synthetic") -> SetFigures:
    return SetFigures(name, f1, photos, hands)


SHIPPED = [_set(0.8508, 27, 46), _set(0.7933, 8, 27)]


def test_a_gain_of_the_rule_with_no_fewer_hands_ships() -> None:
    result = verdict(SHIPPED, [_set(0.8589, 29), _set(0.8083, 9)])
    assert result.ships and result.lines[-1] == "passes: it may ship"
    assert "+0.0231" in result.lines[0]


def test_a_gain_of_exactly_the_rule_ships() -> None:
    assert verdict([_set(0.84), _set(0.80)], [_set(0.84 + MIN_F1_GAIN), _set(0.80)]).ships


@pytest.mark.parametrize(
    ("candidate", "why"),
    [
        ([_set(0.8520, 27), _set(0.7995, 9)], "F1 gain under the rule"),
        ([_set(0.8700, 26), _set(0.8100, 8)], "a hand fewer"),
    ],
)
def test_short_of_the_rule_keeps_what_ships(candidate: list[SetFigures], why: str) -> None:
    result = verdict(SHIPPED, candidate)
    assert not result.ships, why
    assert "short of the rule: keep what ships" in result.lines


@pytest.mark.parametrize(("f1", "photos"), [(0.919, 9), (0.960, 8)])
def test_real_photos_read_worse_veto_a_pass(f1: float, photos: int) -> None:
    passing = [_set(0.8589, 29), _set(0.8083, 9)]
    real = _set(0.960, photos=9, name="real")
    result = verdict(SHIPPED, passing, real, _set(f1, photos=photos, name="real"))
    assert not result.ships and result.lines[-1] == "the real photos read worse: vetoed"
    assert verdict(SHIPPED, passing, real, _set(0.964, photos=9, name="real")).ships


def test_real_photos_never_lift_a_candidate_short_of_the_rule() -> None:
    real = _set(0.960, photos=9, name="real")
    assert not verdict(SHIPPED, SHIPPED, real, _set(1.0, photos=12, name="real")).ships


def test_mismatched_inputs_are_refused() -> None:
    with pytest.raises(ShipRuleError, match="same held-out sets"):
        verdict(SHIPPED, SHIPPED[:1])
    with pytest.raises(ShipRuleError, match="both or for neither"):
        verdict(SHIPPED, SHIPPED, _set(0.96), None)


def test_files_of_one_set_measured_on_other_scenes_are_refused() -> None:
    # stage 70: HELDOUT3 rendered before and after c4a2d14 holds 3,577 tiles either way, not the same
    kinds = (("characters", 482), ("face and fly", 185))
    here = replace(SHIPPED[0], photos=200, true_tiles=kinds)
    there = replace(here, true_tiles=(("characters", 539), ("face and fly", 128)))
    with pytest.raises(
        ShipRuleError, match="held-out set 1: true tiles characters 482 against 539: not the same scenes"
    ):
        verdict([here, SHIPPED[1]], [there, SHIPPED[1]])
    with pytest.raises(ShipRuleError, match="real photos: 12 photos against 11"):
        real = _set(0.96, name="real")
        verdict(SHIPPED, SHIPPED, replace(real, photos=12), replace(real, photos=11))
    assert verdict([here, SHIPPED[1]], [replace(here, f1=0.9), SHIPPED[1]]).ships  # the same scenes
    # an older file that names no kinds is compared on what both name
    kept = verdict([here, SHIPPED[1]], [replace(there, true_tiles=None), SHIPPED[1]])
    assert kept.lines[0].startswith("held-out F1 sum") and not kept.ships


def test_sets_given_in_another_order_or_another_render_are_told_by_their_digest() -> None:
    # stage 71: HELDOUT3 and HELDOUT_D hold the same hands, so the same counts of every kind: only the
    # digest of their truth tells them apart, given in swapped order
    kinds = (("characters", 480), ("face and fly", 128))
    h3 = replace(SHIPPED[0], photos=200, true_tiles=kinds, scenes="3e1a")
    hd = replace(SHIPPED[1], photos=200, true_tiles=kinds, scenes="d07c")
    with pytest.raises(ShipRuleError, match="held-out set 1: scenes 3e1a against d07c: not the same scenes"):
        verdict([h3, hd], [replace(hd, f1=0.95), replace(h3, f1=0.95)])
    assert verdict([h3, hd], [replace(h3, f1=0.9), replace(hd, f1=0.9)]).ships
    # a file from before stage 71 carries none: compared on the counts alone
    assert verdict([h3, hd], [replace(h3, f1=0.9, scenes=None), replace(hd, f1=0.9)]).ships


def test_bench_json_is_read_and_bad_files_are_named() -> None:
    text = json.dumps(
        [{"name": "real", "f1": 0.96, "exact_photos": 9, "exact_hands": None}, {"name": "stages"}]
    )
    assert figures_from_json(text, "r.json") == SetFigures("real", 0.96, 9, 0)
    kinds = [["characters", 26, 27], ["dots", 27, 27]]
    text = json.dumps(
        [{"name": "real", "f1": 0.96, "exact_photos": 9, "photos": 12, "kinds": kinds, "scenes": "ab12"}]
    )
    expected = SetFigures(
        "real", 0.96, 9, 0, photos=12, true_tiles=(("characters", 27), ("dots", 27)), scenes="ab12"
    )
    assert figures_from_json(text, "r.json") == expected
    for bad, needle in (("{", "not JSON"), ("{}", "not a vision.bench"), ('[{"name": "x"}]', "'f1'")):
        with pytest.raises(ShipRuleError, match=needle):
            figures_from_json(bad, "b.json")


def _write(path: Path, f1: float, photos: int, hands: int) -> Path:
    path.write_text(
        json.dumps([{"name": "synthetic", "f1": f1, "exact_photos": photos, "exact_hands": hands}])
    )
    return path


def test_the_cli_exits_by_the_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = [_write(tmp_path / "s1.json", 0.85, 46, 27), _write(tmp_path / "s2.json", 0.79, 27, 8)]
    better = [_write(tmp_path / "c1.json", 0.86, 48, 28), _write(tmp_path / "c2.json", 0.80, 27, 8)]
    args = ["--shipped", *map(str, shipped), "--candidate", *map(str, better)]
    assert main(args) == 0 and "passes" in capsys.readouterr().out
    worse_real = [_write(tmp_path / "r.json", 0.96, 9, 0), _write(tmp_path / "rc.json", 0.95, 9, 0)]
    assert main([*args, "--real-shipped", str(worse_real[0]), "--real-candidate", str(worse_real[1])]) == 1
    assert "vetoed" in capsys.readouterr().out
    assert main(["--shipped", str(shipped[0]), "--candidate", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "missing.json" in err and err.count("\n") == 1
