"""`python -m scoring`: exit 0 valid, 1 invalid win, 2 malformed with one line on stderr; flags override."""

from __future__ import annotations

import codecs
import io
import json
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from scoring.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
PATTERN_ROW = re.compile(r"^  \S.*\) +\d+(?=  )")  # a breakdown's pattern row, to its tai figure
HAND = {"concealed": "123m 456p 789s CCC 55p"}


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_valid_hand_exits_0_with_breakdown(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND))
    done = run_cli(str(path))
    assert done.returncode == 0, done.stderr
    assert "Dragon pong" in done.stdout and "1 tai" in done.stdout
    assert done.stderr == ""


def test_json_from_stdin_with_flags() -> None:
    hand = {"concealed": "EEE 123m 456p 789s 55p"}
    done = run_cli("-", "--json", "--seat", "S", "--prevailing", "S", stdin=json.dumps(hand))
    assert done.returncode == 1  # E is neither seat nor prevailing wind: a chicken hand
    result = json.loads(done.stdout)
    assert result["valid"] is False and result["reason"] == "below_minimum"


def test_the_vision_cli_output_scores_its_hand() -> None:
    # `python -m vision PHOTO --json | python -m scoring -`: the reading's `hand` is scored
    reading = {
        "image": {"width": 4000, "height": 3000},
        "detections": [{"code": "C", "confidence": 0.99, "box": [1.0, 2.0, 30.0, 40.0]}],
        "hand": {
            "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "C", "5p", "5p"]
        },
        "warnings": [],
    }
    done = run_cli("-", "--json", stdin=json.dumps(reading))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tai"] == 1
    # a hand file that happens to carry a field named "hand" is still read as the hand
    broken = dict(reading, concealed="123m")
    done = run_cli("-", stdin=json.dumps(broken))
    assert done.returncode == 1  # 123m alone is no win
    assert "ignored unknown fields: detections, hand, image, warnings" in done.stdout


def test_a_reading_piped_on_keeps_the_readers_warnings() -> None:
    # a score from an unsure reading must say so: the reader's lines come on as the score's warnings
    said = ["unsure tile at (583, 562): S4 or back (its reading gives them 0.30 and 0.15)"]
    reading = {
        "image": {"width": 400, "height": 300},
        "detections": [],
        "hand": {"concealed": "123m 456p 789s CCC 55p"},
        "warnings": said,
    }
    done = run_cli("-", stdin=json.dumps(reading))
    assert done.returncode == 0, done.stderr
    assert f"Warning: the photo's reading: {said[0]}" in done.stdout.splitlines()
    as_json = json.loads(run_cli("-", "--json", stdin=json.dumps(reading)).stdout)
    assert as_json["warnings"] == [f"the photo's reading: {said[0]}"]
    from scoring import score_json

    assert score_json(reading)["warnings"] == as_json["warnings"]
    # a hand file of its own with a field named "warnings" is no reading: nothing is taken from it
    alone = {"concealed": "123m 456p 789s CCC 55p", "warnings": said}
    assert "photo's reading" not in run_cli("-", stdin=json.dumps(alone)).stdout


@pytest.mark.parametrize("sample", sorted((ROOT / "samples").glob("*.json")), ids=lambda p: p.stem)
def test_a_generated_scenes_ground_truth_scores_its_hand(sample: Path) -> None:
    # samples/*.json are the generator's ground truth for the app's sample photos: their `hand` is scored
    truth = json.loads(sample.read_text())
    done = run_cli(str(sample), "--json")
    alone = run_cli("-", "--json", "--rules", truth["rules"], stdin=json.dumps(truth["hand"]))
    assert done.returncode == alone.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(alone.stdout)
    assert json.loads(done.stdout)["tai"] >= 1


@pytest.mark.parametrize("sample", sorted((ROOT / "samples").glob("*.json"))[:2], ids=lambda p: p.stem)
def test_score_json_scores_a_file_holding_its_hand_as_the_command_line_does(sample: Path) -> None:
    from scoring import score_json

    truth = json.loads(sample.read_text())
    done = run_cli(str(sample), "--json")
    printed = json.loads(done.stdout)
    assert isinstance(printed.pop("winning_tile_ways"), list)  # the command line's own: scores it again
    assert score_json(truth) == printed
    # a field beside the hand that the hand says otherwise is warned of, as on the command line
    beside = {**truth, "hand": {**truth["hand"], "bonus": ["F2"]}, "bonus": ["F1"]}
    assert score_json(beside)["warnings"] == [
        'bonus written beside "hand" is not used: the hand\'s own bonus stands (correct it inside "hand")'
    ]


def test_a_hand_that_names_its_rules_keeps_them_over_its_scenes() -> None:
    scene = {"hand": {"concealed": "123m 456p 789s EEE 22m", "rules": "singapore"}, "rules": "malaysian"}
    done = run_cli("-", "--json", stdin=json.dumps(scene))
    assert done.returncode == 0, done.stdout  # characters would be no Malaysian tiles
    assert json.loads(done.stdout)["rules"] == "singapore"


def test_fields_written_beside_a_photos_hand_are_scored() -> None:
    # the photo's JSON says the tiles; the player adds what a photo cannot show beside them
    reading = {"image": {"width": 4, "height": 3}, "hand": {"concealed": "123m 456p 789s CCC 55p"}}
    said = {**reading, "self_drawn": True, "seat_wind": "S", "options": {"unit": 5}}
    done = run_cli("-", "--json", stdin=json.dumps(said))
    result = json.loads(done.stdout)
    assert done.returncode == 0 and result["warnings"] == []
    assert [p["key"] for p in result["patterns"]] == ["dragon_pong", "fully_concealed"]
    assert {share["seat"]: share["amount"] for share in result["payout"]["players"]}["S"] == 60
    # a bonus row written beside a reading that saw none is scored; one the reading saw stands
    hand: dict[str, Any] = {"concealed": "123m 456p 789s CCC 55p", "bonus": []}
    empty_row = {"image": {}, "hand": hand, "bonus": ["F1"]}
    scored = json.loads(run_cli("-", "--json", stdin=json.dumps(empty_row)).stdout)
    assert "seat_flower" in [p["key"] for p in scored["patterns"]]
    seen_row = {**empty_row, "hand": {**hand, "bonus": ["F2"]}}
    scored = json.loads(run_cli("-", "--json", stdin=json.dumps(seen_row)).stdout)
    assert "seat_flower" not in [p["key"] for p in scored["patterns"]]
    # ... and the row written beside, not used, is warned of: a correction written there counts for nothing
    assert scored["warnings"] == [
        'bonus written beside "hand" is not used: the hand\'s own bonus stands (correct it inside "hand")'
    ]
    same_row = {**empty_row, "hand": {**hand, "bonus": ["F1"]}}  # said alike in both places: nothing to say
    assert json.loads(run_cli("-", "--json", stdin=json.dumps(same_row)).stdout)["warnings"] == []


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        pytest.param("", "the standard input is empty", id="empty"),
        pytest.param(" \n", "the standard input is empty", id="blank"),
        pytest.param("{", "not valid JSON", id="truncated"),
        pytest.param(
            '{"concealed": "123m',
            "(line 1, column 15: a text in quotes starts here and is never closed)",
            id="open-string",
        ),
        # the place json found, in plain words: not json's own "Expecting ',' delimiter" (an audit)
        pytest.param(
            '{"concealed": "123m" "bonus": []}',
            "the standard input is not valid JSON (line 1, column 22: a comma is missing)",
            id="missing-comma",
        ),
        pytest.param("[1, 2]", "JSON object", id="array"),
        pytest.param('{"concealed": "123q"}', "123q", id="unknown-tile"),
        pytest.param("[" * 100000, "", id="deep-nesting"),
        # json keeps a key's last value without a word: a dispute settled by whichever came last
        pytest.param(
            '{"concealed": "123m 456p 789s CCC 55p", "concealed": "123m 456p 789s CCC 5p 5p"}',
            'gives the key "concealed" twice',
            id="duplicate-key",
        ),
        pytest.param(
            '{"concealed": "123m 456p 789s CCC 55p", "options": {"max_tai": 5, "max_tai": 10}}',
            'gives the key "max_tai" twice',
            id="duplicate-nested-key",
        ),
    ],
)
def test_malformed_exits_2_with_one_line(stdin: str, needle: str) -> None:
    done = run_cli("-", stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert needle in lines[0]
    assert "Traceback" not in done.stderr


def test_bad_flag_is_one_line() -> None:
    done = run_cli("--frobnicate")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1


def _main(tmp_path: Path, data: object, *args: str, raw: bytes | None = None) -> int:
    path = tmp_path / "hand.json"
    if raw is None:
        path.write_text(json.dumps(data))
    else:
        path.write_bytes(raw)
    return main([str(path), *args])


@pytest.mark.parametrize(
    ("args", "code", "tai"),
    [
        pytest.param((), 0, 1, id="plain"),
        pytest.param(("--self-drawn",), 0, 2, id="self-drawn-adds-fully-concealed"),
        pytest.param(("--option", "min_tai=2"), 1, 1, id="option-min"),
        pytest.param(
            ("--option", "max_tai=10", "--option", "self_draw_tai=true", "--self-drawn"),
            0,
            3,
            id="two-options",
        ),
        pytest.param(("--winning-tile", "9m"), 1, 0, id="winning-tile-not-in-hand"),
        pytest.param(("--rules", "malaysian"), 1, 0, id="rules-flag"),
        pytest.param(("--option", "payout_scheme=shooter_pays"), 0, 1, id="text-option"),
    ],
)
def test_flags_override_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], code: int, tai: int
) -> None:
    assert _main(tmp_path, HAND, "--json", *args) == code
    assert json.loads(capsys.readouterr().out)["tai"] == tai


@pytest.mark.parametrize(
    ("data", "args", "said"),
    [
        pytest.param(
            HAND, ("--winning-tile", "5q"), "error: --winning-tile: unknown tile code '5q'", id="tile"
        ),
        pytest.param(HAND, ("--seat", "X"), "error: --seat must be one of E, S, W, N, got 'X'", id="seat"),
        pytest.param(HAND, ("--prevailing", "Q"), "error: --prevailing must be one of", id="prevailing"),
        pytest.param(HAND, ("--discarder", "Z"), "error: --discarder must be one of", id="discarder"),
        pytest.param(
            {**HAND, "seat_wind": "X"},
            ("--winning-tile", "1m"),
            "error: seat_wind must be one of",
            id="file-seat",
        ),
        pytest.param(
            {**HAND, "winning_tile": "5q"},
            ("--seat", "E"),
            "error: winning_tile: unknown tile code",
            id="file-tile",
        ),
    ],
)
def test_a_bad_value_is_named_by_the_flag_it_came_from_else_by_the_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: dict[str, object],
    args: tuple[str, ...],
    said: str,
) -> None:
    # an audit: `--winning-tile 5q` was told as "winning_tile: ...", a field the user never wrote
    assert _main(tmp_path, data, *args) == 2
    assert capsys.readouterr().err.startswith(said)


@pytest.mark.parametrize(
    ("data", "args", "said"),
    [
        pytest.param(
            HAND, ("--discarder", "E"), "Not a valid win: --discarder E is the winner's own seat.", id="flag"
        ),
        pytest.param(
            {**HAND, "discarder_wind": "E"},
            (),
            "Not a valid win: discarder_wind E is the winner's own seat.",
            id="file",
        ),
        pytest.param(
            HAND,
            ("--self-drawn", "--discarder", "S"),
            "Warning: --discarder ignored: a self-drawn win has no discarder",
            id="flag-warning",
        ),
    ],
)
def test_the_breakdown_names_a_field_a_flag_gave_by_the_flag(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: dict[str, object],
    args: tuple[str, ...],
    said: str,
) -> None:
    # an audit: `--discarder E` (the winner's seat by default) was told as "discarder_wind E ...", a
    # field the user never wrote; a file's field keeps its name, and so does the JSON
    _main(tmp_path, data, *args)
    assert said in capsys.readouterr().out.splitlines()
    _main(tmp_path, data, *args, "--json")
    assert "--discarder" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "raw"),
    [
        pytest.param(("--option", "max_tai"), None, id="option-without-value"),
        pytest.param(("--option", "bogus=1"), None, id="unknown-option"),
        pytest.param(("--seat", "Q"), None, id="bad-seat"),
        pytest.param((), b"\xff\xfe\x00garbage", id="not-utf8"),
        pytest.param(
            ("--option", "max_tai=10"),
            b'{"concealed": "123m 456p 789s CCC 55p", "options": "garbage"}',
            id="bad-options-under-an-option-flag",
        ),
        pytest.param(
            (), b'{"concealed": "123m", "melds": [{"kind": "chow", "tiles": "1m fly fly"}]}', id="bad-meld"
        ),
    ],
)
def test_main_malformed_returns_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], raw: bytes | None
) -> None:
    assert _main(tmp_path, HAND, *args, raw=raw) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1


def test_missing_file_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["/nonexistent/hand.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize(("made", "why"), [(False, "file not found"), (True, "not a file")])
def test_an_unreadable_file_is_said_in_the_words_of_python_m_vision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], made: bool, why: str
) -> None:
    # stage 78 left the two command lines saying a missing file two ways ("No such file or directory")
    from vision.imageio import ImageError, load_image

    path = tmp_path / "hand"
    if made:
        path.mkdir()
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"error: cannot read {path}: {why}"
    with pytest.raises(ImageError, match=f"^{why}$"):
        load_image(path)


class _ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_output_cut_short_by_the_reader_is_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `python -m scoring hand.json | head -1`: the pipe breaks under us; no traceback, no error line
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND))
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main([str(path)]) == 141
    assert capsys.readouterr().err == ""


def _text_of(hand: dict[str, object], *args: str) -> tuple[int, str]:
    done = run_cli("-", *args, stdin=json.dumps(hand))
    return done.returncode, done.stdout


def test_the_liable_player_of_a_pay_all_is_named_so_on_a_self_draw_too() -> None:
    hand = {**HAND, "seat_wind": "S", "self_drawn": True, "pay_all": True, "discarder_wind": "N"}
    code, text = _text_of(hand)
    assert code == 0
    assert "Payout: winner (S) +12, liable player (N) -12, loser (W) 0, loser (E) 0" in text
    assert "discarder" not in text
    _, plain = _text_of({**HAND, "seat_wind": "S", "discarder_wind": "N"})
    assert "discarder (N) -2" in plain  # no pay-all: the discarder is the discarder


def test_tiles_of_another_rule_sets_set_get_the_rules_to_give() -> None:
    code, text = _text_of({"concealed": "111p fly55p 234p 567p 99p"})
    assert code == 1 and text.rstrip().endswith(
        "the tiles are all in the Malaysian set: give --rules malaysian."
    )
    code, text = _text_of({"concealed": "111p fly55p 234p 567p 99p"}, "--rules", "malaysian")
    assert code == 0 and "give --rules" not in text
    # bamboo beside a fly: no set holds both, so no rule set is offered
    code, text = _text_of({"concealed": "111s fly55p 234p 567p 99p"})
    assert code == 1 and "fly is not in the Singapore tile set" in text and "Hint" not in text
    # an option left the tile out, not the rule set: the message says which, and no rule set is offered
    code, text = _text_of(
        {"concealed": "111p 234p 567p 99p NNN"}, "--rules", "malaysian", "--option", "north_wind=false"
    )
    assert code == 1 and "(option north_wind is off)" in text and "Hint" not in text
    # nor has such a set a North round: no win, as a North seat is none (RULES.md: a contradiction, exit 1)
    code, text = _text_of(
        {"concealed": "111p 234p 567p 888p 99p"},
        "--rules",
        "malaysian",
        "--prevailing",
        "N",
        "--option",
        "north_wind=false",
    )
    assert code == 1 and "prevailing wind N is not a round of a set without the North wind" in text
    code, text = _text_of({"concealed": "111p fly55p 234p 567p 99p"}, "--json")
    assert "Hint" not in text and json.loads(text)["reason"] == "tile_not_in_set"


class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize(("stdout", "said"), [(_FullDisk(), "No space left on device"), (None, "closed")])
def test_output_that_cannot_be_written_is_one_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdout: io.StringIO | None,
    said: str,
) -> None:
    # `python -m scoring hand.json > /dev/full`, or with its output closed (`>&-`)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND))
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: cannot write the output") and said in err


HUGE = "1" + "0" * 400  # past float; "1" + 5,000 zeros is past what Python converts to text at all


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        pytest.param(("--option", f"min_tai={HUGE}"), json.dumps(HAND), "up to 1e+12", id="huge-flag"),
        pytest.param(
            ("--option", "max_tai=1" + "0" * 5000), json.dumps(HAND), "up to 1e+12", id="past-int-text-flag"
        ),
        pytest.param(
            (),
            '{"concealed": "123m 456p 789s CCC 55p", "options": {"unit": ' + HUGE + "}}",
            "option unit must be a finite number up to 1e+12, got a larger number",
            id="huge-json",
        ),
        pytest.param(
            (), '{"concealed": "1m", "x": 1' + "0" * 5000 + "}", "a number too long", id="past-int-text"
        ),
        pytest.param(("--seat", ""), json.dumps(HAND), "--seat needs a value", id="empty-seat"),
        pytest.param(("--rules", " "), json.dumps(HAND), "--rules needs a value", id="blank-rules"),
        pytest.param(
            ("--winning-tile", ""), json.dumps(HAND), "--winning-tile needs a value", id="empty-tile"
        ),
        pytest.param(
            (),
            '{"concealed": "1m", "circumstances": [' + ",".join(["1"] * 100_000) + "]}",
            "…",
            id="long-value-cut",
        ),
    ],
)
def test_odd_values_are_one_short_line_and_exit_2(args: tuple[str, ...], stdin: str, needle: str) -> None:
    done = run_cli("-", *args, stdin=stdin)
    assert (done.returncode, done.stdout) == (2, "")
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], done.stderr
    assert len(lines[0]) <= 300  # the value quoted is cut, not a line of megabytes


def test_full_width_digits_are_read_as_the_app_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a phone's full-width keyboard types １２３ｍ: read as 123m, as the app's typed field reads it, so a
    # lone １ is offered the suit letter that is read (it had been refused with "１m", refused too)
    full_width = {"concealed": "１２３ｍ ４５６ｐ ７８９ｓ ＣＣＣ ５５ｐ"}
    assert _scored(tmp_path, capsys, full_width) == _scored(tmp_path, capsys, HAND)
    done = run_cli("-", stdin='{"concealed": "１"}')
    assert done.returncode == 2 and "e.g. 1m" in done.stderr


def test_a_closed_stdin_is_said_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "-"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        preexec_fn=lambda: __import__("os").close(0),
    )
    assert done.returncode == 2
    assert done.stderr.decode().strip() == "error: cannot read the standard input: it is closed"


def test_malformed_input_with_stderr_closed_still_exits_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "/nonexistent/hand.json"],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        timeout=60,
        preexec_fn=lambda: __import__("os").close(2),
    )
    assert (done.returncode, done.stdout) == (2, b"")


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_a_console_that_cannot_write_chinese_gets_the_names_escaped(encoding: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "samples/all_suited.json"],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        env={**__import__("os").environ, "PYTHONIOENCODING": encoding},
    )
    assert done.returncode == 0 and done.stderr == b""
    assert b"Full flush (\\u6e05\\u4e00\\u8272)" in done.stdout


def test_a_field_named_with_a_lone_surrogate_is_warned_of_escaped() -> None:
    done = run_cli("-", stdin='{"concealed": "123m 456p 789s CCC 55p", "\\ud800": 1}')
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "Warning: ignored unknown field: \\ud800" in done.stdout


def test_a_null_in_the_hand_leaves_the_value_written_beside_it() -> None:
    given = {"hand": {"concealed": "123m 456p 789s CCC 55p", "seat_wind": None}, "seat_wind": "S"}
    result = json.loads(run_cli("-", "--json", stdin=json.dumps(given)).stdout)
    assert result["warnings"] == []
    assert {share["role"] for share in result["payout"]["players"] if share.get("seat") == "S"} == {"winner"}


class _EndlessInput(io.StringIO):
    """A pipe that never ends (`yes |`, /dev/zero): only a bounded read returns."""

    def read(self, size: int | None = -1) -> str:
        if size is None or size < 0:
            raise AssertionError("an unbounded read of an endless input never returns")
        return "{" * size


def test_an_endless_standard_input_is_refused_as_too_large_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", _EndlessInput())
    assert main(["-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the standard input is too large to be a hand") and err.count("\n") == 1


class _BytesInput:
    """A standard input that yields `data` as bytes, as a pipe does."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_stdin_over_the_limit_is_too_large_even_where_the_cut_splits_a_character(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # stage 76 left this: the read cut a three-byte character and the error said "not UTF-8 text"
    import scoring.__main__ as cli

    monkeypatch.setattr(cli, "MAX_INPUT_CHARS", 10)
    monkeypatch.setattr(sys, "stdin", _BytesInput(("清" * 30).encode()))
    assert main(["-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the standard input is too large to be a hand"), err
    monkeypatch.setattr(sys, "stdin", _BytesInput(b'{"x": "\xe9"}'))
    assert main(["-"]) == 2  # a stray byte within the limit is still "not UTF-8"
    assert "is not UTF-8 text, nor UTF-16 with a byte-order mark" in capsys.readouterr().err


# the encodings a user's editor saves a hand in: UTF-8, with or without a byte-order mark, and UTF-16
# with one (Windows Notepad's "Unicode"), which was refused as "not UTF-8 text"
SAVED_AS = {
    "utf-8": b"",
    "utf-8-bom": codecs.BOM_UTF8,
    "utf-16-le": codecs.BOM_UTF16_LE,
    "utf-16-be": codecs.BOM_UTF16_BE,
}


@pytest.mark.parametrize("saved_as", list(SAVED_AS))
def test_a_hand_saved_in_an_editors_encoding_scores_as_utf_8_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, saved_as: str
) -> None:
    text = json.dumps({**HAND, "note": "東 清一色"}, ensure_ascii=False)
    raw = SAVED_AS[saved_as] + text.encode(saved_as.removesuffix("-bom"))
    assert _main(tmp_path, None, "--json", raw=raw) == 0, capsys.readouterr().err
    from_file = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", _BytesInput(raw))
    assert main(["-", "--json"]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out) == from_file
    assert from_file["tai"] == 1


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(json.dumps(HAND).encode("utf-16-le"), id="utf-16-without-its-mark"),
        pytest.param(json.dumps(HAND).encode("utf-32"), id="utf-32"),
        pytest.param(b'{"concealed": "123m 456p 789s CCC 55p", "note": "caf\xe9"}', id="latin-1"),
        pytest.param(codecs.BOM_UTF16_LE + b"{\x00{", id="utf-16-cut-mid-character"),
    ],
)
def test_a_file_in_another_encoding_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes
) -> None:
    assert _main(tmp_path, None, raw=raw) == 2
    err = capsys.readouterr().err
    assert err == f"error: {tmp_path / 'hand.json'} is not UTF-8 text, nor UTF-16 with a byte-order mark\n"


def test_a_file_over_the_input_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import scoring.__main__ as cli

    monkeypatch.setattr(cli, "MAX_INPUT_CHARS", 100)  # the real limit is megabytes: slow to write
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"concealed": "1m " * 50}))
    assert main([str(path)]) == 2
    assert f"{path} is too large to be a hand" in capsys.readouterr().err


def test_with_no_winning_tile_the_breakdown_says_which_tiles_score_what() -> None:
    # an audit: a photo's reading has no winning tile, and its sequence hand read "not a valid win"
    done = run_cli("-", stdin=json.dumps({"concealed": "123m 456p 789s 234s 55p"}))
    assert done.returncode == 1, done.stderr
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("The winning tile changes the score")]
    assert "won on 1m, 4p, 6p, 2s, 4s or 9s: 4 tai; 2m, 3m, 5p, 3s, 7s or 8s: not a win" in line, line
    given = run_cli("-", "--winning-tile", "1m", stdin=json.dumps({"concealed": "123m 456p 789s 234s 55p"}))
    assert given.returncode == 0 and "The winning tile changes" not in given.stdout


def test_json_output_carries_the_winning_tile_ways_the_breakdown_says() -> None:
    # stage 76 left this: only the text breakdown named the tiles that may have won
    hand = json.dumps({"concealed": "123m 456p 789s 234s 55p"})
    done = run_cli("-", "--json", stdin=hand)
    assert done.returncode == 1, done.stderr
    ways = json.loads(done.stdout)["winning_tile_ways"]
    assert ways == [
        {"tiles": ["1m", "4p", "6p", "2s", "4s", "9s"], "valid": True, "tai": 4},
        {"tiles": ["2m", "3m", "5p", "3s", "7s", "8s"], "valid": False, "tai": 0},
    ]
    given = run_cli("-", "--json", "--winning-tile", "1m", stdin=hand)
    assert given.returncode == 0 and json.loads(given.stdout)["winning_tile_ways"] == []
    pongs = run_cli("-", "--json", stdin=json.dumps({"concealed": "111m 222p 333s CCC 55p"}))
    assert json.loads(pongs.stdout)["winning_tile_ways"] == []  # every tile scores it alike: nothing to say


def test_the_discarder_pay_all_circumstances_and_a_discard_are_flags_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = {**HAND, "self_drawn": True}
    args = ("--json", "--discard", "--discarder", "W", "--pay-all", "--circumstance", "robbing_kong")
    assert _main(tmp_path, hand, *args, "--winning-tile", "5p") == 1  # the hand holds two 5p: none robbed
    robbed = json.loads(capsys.readouterr().out)
    assert robbed["reason"] == "impossible_context" and "fourth 5p" in robbed["message"]
    assert _main(tmp_path, hand, *args, "--winning-tile", "1m") == 0
    result = json.loads(capsys.readouterr().out)
    assert "robbing_kong" in {p["key"] for p in result["patterns"]}
    liable = [share for share in result["payout"]["players"] if share.get("liable")]
    assert [share["seat"] for share in liable] == ["W"], result["payout"]
    assert run_cli("-", "--discard", "--self-drawn", stdin="{}").returncode == 2  # one or the other


def test_a_stray_byte_on_the_standard_input_is_refused_as_a_file_s_is() -> None:
    # an audit: the same bytes were refused from a file and scored from stdin
    data = json.dumps(HAND).encode().replace(b'"concealed"', b'"concealed", "note\xe9": 1, "concealed"', 1)
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "-"], input=data, capture_output=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 2 and done.stderr.decode().strip() == (
        "error: the standard input is not UTF-8 text, nor UTF-16 with a byte-order mark"
    ), done.stderr


def test_the_tai_column_lines_up_whatever_the_chinese_names() -> None:
    # an audit: names were padded by characters, and a Chinese character takes two columns
    from scoring.__main__ import padded

    assert padded("Dragon pong (三元)", 20) == "Dragon pong (三元)  "  # 三元 takes four columns of 18
    hand = {"concealed": "123m 456m 789m 22m", "melds": [{"kind": "pong", "tiles": "CCC"}], "bonus": ["F1"]}
    done = run_cli("-", "--winning-tile", "2m", stdin=json.dumps(hand))
    rows = [m for m in map(PATTERN_ROW.match, done.stdout.splitlines()) if m]
    assert len(rows) >= 3, done.stdout
    # the console column each tai figure ends in: a Chinese character takes two
    ends = {sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in m.group(0)) for m in rows}
    assert len(ends) == 1, done.stdout


def test_help_lists_the_tile_codes_and_the_circumstances() -> None:
    said = " ".join(run_cli("--help").stdout.split())
    assert "C red, F green, P white dragons" in said and "robbing_kong" in said


def test_help_says_what_the_reading_line_s_marks_are() -> None:
    """The breakdown's Reading line marks melds ([111s] exposed, <5555s> concealed) and a fly's tile
    (456p(fly=6p)): --help says so, as a new reader met them unexplained (an audit)."""
    hand = {"concealed": "123m 456p 55p", "melds": [{"tiles": "111s"}, {"tiles": "5555s", "concealed": True}]}
    reading = run_cli("-", stdin=json.dumps(hand)).stdout.splitlines()[1]
    assert "[111s]" in reading and "<5555s>" in reading, reading
    said = " ".join(run_cli("--help").stdout.split())
    assert "[456s] a meld laid down exposed, <5555s> a concealed kong" in said
    assert "456p(fly=6p) a fly standing for 6p" in said


def test_control_characters_from_the_input_are_written_escaped_in_the_breakdown() -> None:
    # an audit (stage 77): a field named with an escape sequence coloured the console, and a line break
    # split its warning over two lines
    data = '{"concealed": "123m 456p 789s CCC 55p", "\\u001b[31mzz": 1, "a\\nb": 2}'
    done = run_cli("-", stdin=data)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("Warning: ignored unknown fields")]
    assert line == "Warning: ignored unknown fields: \\x1b[31mzz, a\\nb"


def test_a_meld_s_unknown_field_is_warned_of_as_the_hand_s_are() -> None:
    # an audit (stage 77): a misspelt "concealed" inside a meld was ignored without a word
    hand = {"concealed": "123m 456p 789s 55p", "melds": [{"kind": "pong", "tiles": "CCC", "concaled": True}]}
    done = run_cli("-", "--json", stdin=json.dumps(hand))
    assert done.returncode == 0, done.stderr
    assert "ignored unknown field in melds[0]: concaled" in json.loads(done.stdout)["warnings"]
    spelt = {**hand, "melds": [{"kind": "pong", "tiles": "CCC", "concealed": False}]}
    assert not any(
        "melds[0]" in w
        for w in json.loads(run_cli("-", "--json", stdin=json.dumps(spelt)).stdout)["warnings"]
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"concealed": [None]}, "concealed: tile codes must be text, got null"),
        ({**HAND, "prevailing_wind": ["E"]}, 'prevailing_wind must be one of E, S, W, N, got ["E"]'),
        ({**HAND, "circumstances": {"a": 1}}, 'circumstances must be a list of names, got {"a": 1}'),
        ({**HAND, "rules": 5}, "rules must be the name of a rule set (singapore or malaysian), got 5"),
        ({**HAND, "pay_all": None}, None),  # null is the default: no error
    ],
)
def test_an_error_quotes_the_value_as_the_json_wrote_it(data: dict[str, object], said: str | None) -> None:
    # an audit (stage 77): errors quoted Python's None, ['E'] and {'a': 1}, and the number 5 as '5'
    done = run_cli("-", stdin=json.dumps(data))
    if said is None:
        assert done.returncode in (0, 1), done.stderr
    else:
        assert done.returncode == 2 and done.stderr == f"error: {said}\n"


def test_a_circumstance_flag_adds_to_a_file_s_one_circumstance_given_as_a_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an audit (stage 78): the file scored, and the same file with a flag was refused as malformed
    kong = [{"kind": "kong", "tiles": "1111m"}]
    hand = {"concealed": "456p 789s CCC 55p", "melds": kong, "circumstances": "last_tile", "self_drawn": True}
    assert _main(tmp_path, hand, "--json", "--circumstance", "kong_replacement") == 0
    result = json.loads(capsys.readouterr().out)
    assert "replacement_tile" in {p["key"] for p in result["patterns"]}, result  # the flag's
    # the file's own circumstance is weighed too: a replacement draw is no last tile
    assert "last tile not scored: the last tile was a replacement draw" in result["warnings"], result


@pytest.mark.parametrize(
    ("argument", "said"),
    [
        ("oops\nsecond line", "unrecognized arguments: oops second line"),
        ("\x1b[31mRED", "unrecognized arguments: \\x1b[31mRED"),
        ("x" * 5000, "unrecognized arguments: xxx"),
    ],
    ids=["newline", "escape", "long"],
)
def test_a_stray_argument_is_refused_in_one_bounded_printable_line(argument: str, said: str) -> None:
    # an audit (stage 78): argparse's refusals skipped the escaping and cutting every other error has
    done = run_cli("-", argument, stdin=json.dumps(HAND))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and len(done.stderr) < 400 and "\x1b" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: {said}"), done.stderr


def test_an_option_nested_past_what_json_reads_is_an_option_error() -> None:
    # an audit (stage 78): it was "internal error while scoring: RecursionError"
    done = run_cli("-", "--option", "max_tai=" + "[" * 3000, stdin=json.dumps(HAND))
    assert done.returncode == 2 and done.stderr.startswith("error: option max_tai must be a number"), (
        done.stderr
    )


def test_a_limit_hands_rows_that_add_to_more_than_its_total_are_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an audit (stage 80): Pure terminals 5 and Hidden treasure 5 stood over "Total: 5 tai", no word why
    path = tmp_path / "limit.json"
    path.write_text(json.dumps({"concealed": "111m 999m 111p 999s 11s", "self_drawn": True}))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert (
        "Total: 5 tai (the rows add to 10, but a limit hand scores its highest limit, not their sum: 5 tai)"
        in out
    )
    path.write_text(json.dumps(HAND))  # an ordinary hand: its rows add to its total, nothing said
    assert main([str(path)]) == 0
    assert "a limit hand scores" not in capsys.readouterr().out


def test_the_first_line_names_the_rules_in_force() -> None:
    # stage 81 (an audit): a replayed case said only "Rules: singapore", and a table assumed the 5-tai cap
    hand = {"concealed": "123m 456p 789s CCC 55p", "winning_tile": "5p"}
    first = run_cli("-", stdin=json.dumps({**hand, "options": {"max_tai": 13, "pure_green": False}}))
    assert (
        first.stdout.splitlines()[0]
        == "Rules: singapore (min 1 / max 13 tai, unit 1, house rules: pure_green=false)"
    )
    table = {"payout_scheme": "table", "payout_table": [[2, 1], [4, 2]], "unit": 0.125}
    first = run_cli("-", stdin=json.dumps({**hand, "options": table}))
    assert first.stdout.splitlines()[0] == (
        "Rules: singapore (min 1 / max 5 tai, amounts from the payout table [[2, 1], [4, 2]], instant "
        "payouts at unit 0.125)"
    )
    # a table longer than the cap says the rows a win is paid by, not every row (an audit: 100,000 rows
    # had made the line 800 KB long)
    long = run_cli("-", stdin=json.dumps({**hand, "options": {**table, "payout_table": [[1, 1]] * 100_000}}))
    assert long.stdout.splitlines()[0] == (
        "Rules: singapore (min 1 / max 5 tai, amounts from the payout table [[1, 1], [1, 1], [1, 1], [1, 1], "
        "[1, 1]] (and 99995 rows past the cap, never paid), instant payouts at unit 0.125)"
    )
    unused = run_cli("-", stdin=json.dumps({**hand, "options": {"payout_table": [1, 2, 3]}}))
    assert unused.stdout.splitlines()[0] == "Rules: singapore (min 1 / max 5 tai, unit 1)"  # not used: unsaid
    malaysian = {
        "rules": "malaysian",
        "concealed": "123p 456p 789p EEE 22p",
        "options": {"north_wind": False},
    }
    first = run_cli("-", stdin=json.dumps({"hand": malaysian}))  # a photo's reading: its hand nested
    assert (
        first.stdout.splitlines()[0]
        == "Rules: malaysian (min 5 / max 10 fan, 20 points a fan, house rules: north_wind=false)"
    )
    # one point a fan is said in the singular (it had read "1 points a fan"), in the basis too
    one = run_cli(
        "-", stdin=json.dumps({"hand": {**malaysian, "options": {"north_wind": False, "points_per_fan": 1}}})
    )
    lines = one.stdout.splitlines()
    assert lines[0] == "Rules: malaysian (min 5 / max 10 fan, 1 point a fan, house rules: north_wind=false)"
    assert "1 points" not in one.stdout and " x 1 point per fan = " in one.stdout


@pytest.mark.parametrize(
    ("repeat", "said"), [("0", "must be at least 1, got 0"), ("-3", "at least 1, got -3")]
)
def test_the_bench_refuses_no_timed_runs_in_one_line(
    repeat: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m scoring.bench --repeat 0` had ended in a traceback (no median of no runs)."""
    from scoring.bench import main as bench_main

    with pytest.raises(SystemExit) as exit_info:
        bench_main(["--repeat", repeat])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "Traceback" not in err, err
    assert err.endswith("(see python -m scoring.bench --help)\n"), err


def test_a_saved_instant_payout_is_told_with_its_total_set_apart(tmp_path: Path) -> None:
    """A case whose saved instant payouts differ from today's says each as the CLI's own line ends it,
    "exposed kong of P: 6 in all" (it had read "exposed kong of P 6", as if a tile P6), and one written
    by hand without a name or total by its key (it had read "None None")."""
    hand = {**HAND, "concealed": "123m 456p 789s 55p", "melds": [{"tiles": "PPPP"}]}
    saved = json.loads(run_cli("-", "--json", stdin=json.dumps(hand)).stdout)
    saved["payout"]["instant_payouts"][0]["total"] = 6
    saved["payout"]["instant_payouts"].append({"key": "animal_pair"})
    path = tmp_path / "case.json"
    path.write_text(json.dumps({**hand, "result": saved}))
    done = run_cli(str(path))
    said = [line for line in done.stdout.splitlines() if "was saved as" in line]
    assert said and "instant payouts: exposed kong of P: 6 in all, animal_pair." in said[0], done.stdout
    assert "instant payouts: exposed kong of P: 3 in all." in said[0] and "None" not in said[0]


@pytest.mark.parametrize(("total", "said"), [(1e300, "1e+300"), (float("nan"), "nan"), (-1e80, "-1e+80")])
def test_a_saved_instant_total_past_what_a_payout_holds_is_said_as_the_file_gives_it(
    total: float, said: str
) -> None:
    """A hand-edited case's saved instant total of 1e300 or NaN (JSON reads both) had ended the replay
    in "internal error while scoring: InvalidOperation"."""
    from scoring.api import saved_result_change

    saved = {
        "valid": True,
        "tai": 3,
        "payout": {"instant_payouts": [{"name": "exposed kong of P", "total": total}]},
    }
    now = {
        "valid": True,
        "tai": 3,
        "payout": {"instant_payouts": [{"name": "exposed kong of P", "total": 3}]},
    }
    change = saved_result_change(saved, now)
    assert change is not None and f"exposed kong of P: {said} in all" in change, change
    assert "exposed kong of P: 3 in all" in change


def test_a_payout_naming_players_by_role_alone_says_how_to_name_their_seats() -> None:
    """An audit read "Payout: winner (E) +32, discarder -16, other -8, other -8" and could not tell who
    pays what: the breakdown ends with the flag that names every seat, and says nothing once given."""
    hint = "Hint: give --discarder SEAT (a file's discarder_wind: "
    hand: dict[str, object] = {**HAND}
    code, text = _text_of(hand)
    assert code == 0 and "discarder -2, other -1, other -1" in text and hint in text, text
    code, text = _text_of(hand, "--discarder", "S")
    assert code == 0 and "discarder (S) -2" in text and hint not in text, text
    code, text = _text_of(hand, "--self-drawn", "--pay-all")  # the liable player is the one unnamed
    assert code == 0 and "liable player -" in text and hint in text, text
    code, text = _text_of(hand, "--self-drawn")
    assert code == 0 and hint not in text, text


def test_help_and_the_docs_say_the_exit_statuses_alike() -> None:
    from scoring.__main__ import EXIT_STATUS

    assert EXIT_STATUS in " ".join(run_cli("--help").stdout.split())
    assert EXIT_STATUS in " ".join((ROOT / "docs" / "scoring.md").read_text(encoding="utf-8").split())


@pytest.mark.parametrize(
    ("raised", "status", "said"),
    [
        (RuntimeError("a bug"), 2, "on an internal error"),
        (KeyboardInterrupt(), 130, "130 interrupted (Ctrl-C)"),
        (BrokenPipeError(32, "Broken pipe"), 141, "141 when the reader of the output went away"),
    ],
)
def test_help_names_each_exit_status_main_gives(
    monkeypatch: pytest.MonkeyPatch, raised: BaseException, status: int, said: str
) -> None:
    # an audit: the scorer's 141 went unsaid, and Ctrl-C on a waiting stdin printed Python's traceback
    from scoring import __main__ as cli

    def fails(*_: object, **__: object) -> None:
        raise raised

    where = "render" if isinstance(raised, BrokenPipeError) else "_read"  # a pipe breaks as it is written
    monkeypatch.setattr(cli, where, fails)
    monkeypatch.setattr(cli, "_drop_output", lambda: None)
    assert main([str(ROOT / "samples" / "all_suited.json")]) == status
    assert said in cli.EXIT_STATUS


class _Terminal(io.TextIOWrapper):
    """A standard input that is a person's terminal, what they type already in it."""

    def isatty(self) -> bool:
        return True


def test_reading_from_a_terminal_says_what_to_type_and_a_pipe_says_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `python -m scoring -` typed alone sat silent, waiting, with no word of what it waited for
    from scoring.__main__ import TYPING_PROMPT

    typed = b'{"concealed": "123m 456p 789s CCC 55p"}'
    monkeypatch.setattr(sys, "stdin", _Terminal(io.BytesIO(typed)))
    assert main(["-"]) == 0
    captured = capsys.readouterr()
    assert captured.err == TYPING_PROMPT + "\n" and "Ctrl-D" in TYPING_PROMPT
    assert "Valid win" in captured.out
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(typed)))
    assert main(["-"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    "start",
    [
        pytest.param(b"\xff\xd8\xff\xe0\x00\x10JFIF", id="jpeg"),
        pytest.param(b"\x89PNG\r\n\x1a\n", id="png"),
        pytest.param(b"\x00\x00\x00\x1cftypheic", id="heic"),
        pytest.param(b"RIFF\x00\x00\x00\x00WEBPVP8 ", id="webp"),
    ],
)
def test_a_photo_given_as_the_hand_says_what_reads_it(
    start: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # samples/ holds each hand's photo beside its JSON: a photo given here was "not UTF-8 text, nor UTF-16
    # with a byte-order mark"
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(start + bytes(200))
    assert main([str(photo)]) == 2
    assert capsys.readouterr().err == (
        f"error: {photo} is a photo, not a hand's JSON: read its tiles with"
        f" python -m vision {photo} --json | python -m scoring -\n"
    )


def test_help_says_each_default_a_flag_lays_over() -> None:
    # `--discarder E` met "the winner's own seat" with the seat's default, E, said nowhere (an audit)
    said = " ".join(run_cli("--help").stdout.split())
    for default in (
        "(default: the file's, else singapore)",
        "default: the file's, else E)",
        "north_wind=false; default: the file's, else E)",
        "with neither flag: the file's, else a discard)",
    ):
        assert default in said, default


def _scored(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, *args: str) -> Any:
    code = _main(tmp_path, data, "--json", *args)
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return json.loads(out)


TYPED = "123m 456p 789s 55p"


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        pytest.param({"concealed": "123M 456P 789s ccc 55p"}, HAND, id="letter-case"),
        pytest.param({"concealed": f"東東東 {TYPED}"}, {"concealed": f"EEE {TYPED}"}, id="characters"),
        pytest.param(
            {"concealed": "🀇🀈🀉 456p 789s 55p", "melds": [{"tiles": "紅中紅中紅中"}], "bonus": "梅 spring"},
            {"concealed": TYPED, "melds": [{"tiles": "CCC"}], "bonus": ["F1", "S1"]},
            id="emoji-names-bonus",
        ),
        pytest.param(
            {"concealed": ["1M", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "c", "c", "c", "5p", "5p"]},
            HAND,
            id="list-items",
        ),
        pytest.param({**HAND, "winning_tile": "紅中"}, {**HAND, "winning_tile": "C"}, id="file-winning-tile"),
    ],
)
def test_a_hand_typed_as_the_app_reads_it_scores_as_its_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: dict[str, object], codes: dict[str, object]
) -> None:
    # an audit: the app's typed field took 123M, 東東東, 🀇🀈🀉 and 紅中; the command line refused them
    assert _scored(tmp_path, capsys, typed) == _scored(tmp_path, capsys, codes)


@pytest.mark.parametrize(
    ("typed", "codes"),
    [
        pytest.param(("--seat", "s"), ("--seat", "S"), id="seat-case"),
        pytest.param(("--prevailing", "south"), ("--prevailing", "S"), id="wind-name"),
        pytest.param(("--discarder", "西"), ("--discarder", "W"), id="wind-character"),
        pytest.param(("--rules", "Malaysian"), ("--rules", "malaysian"), id="rules-case"),
        pytest.param(("--winning-tile", "3M"), ("--winning-tile", "3m"), id="tile-case"),
        pytest.param(("--winning-tile", "紅中"), ("--winning-tile", "C"), id="tile-name"),
    ],
)
def test_a_flag_typed_as_the_app_reads_it_scores_as_its_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: tuple[str, ...], codes: tuple[str, ...]
) -> None:
    assert _scored(tmp_path, capsys, HAND, *typed) == _scored(tmp_path, capsys, HAND, *codes)


# a hand whose score and payouts turn on the winds: a pong of South, seat and round South, West discarded
WINDS_HAND = {"concealed": "123m 456p 789s SSS 55p"}
WINDS_CODES = {**WINDS_HAND, "seat_wind": "S", "prevailing_wind": "S", "discarder_wind": "W"}


@pytest.mark.parametrize(
    "typed",
    [
        pytest.param({"seat_wind": "s", "prevailing_wind": "s", "discarder_wind": "w"}, id="case"),
        pytest.param(
            {"seat_wind": "south", "prevailing_wind": "South", "discarder_wind": "WEST"}, id="names"
        ),
        pytest.param({"seat_wind": "南", "prevailing_wind": "南", "discarder_wind": "西"}, id="characters"),
    ],
)
def test_a_files_winds_typed_as_the_flags_read_them_score_as_their_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: dict[str, str]
) -> None:
    # an audit: `--seat south` was taken, `"seat_wind": "south"` in the file refused
    by_codes = _scored(tmp_path, capsys, WINDS_CODES)
    assert by_codes != _scored(tmp_path, capsys, WINDS_HAND)  # the winds move the score and payouts
    assert _scored(tmp_path, capsys, {**WINDS_HAND, **typed}) == by_codes


def test_a_files_rule_set_in_any_case_scores_as_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    malaysian = {"concealed": "123p 456p 789p SSS 55p", "seat_wind": "S"}
    by_name = _scored(tmp_path, capsys, {**malaysian, "rules": "malaysian"})
    assert by_name["rules"] == "malaysian"
    assert _scored(tmp_path, capsys, {**malaysian, "rules": "Malaysian"}) == by_name


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Malaysia", "malaysian"),
        ("malaysian rules", "malaysian"),
        ("ＭＹ", "malaysian"),
        ("Singaporean", "singapore"),
        ("SG", "singapore"),
        ("Singapore,", "singapore"),
    ],
)
def test_a_rule_set_as_players_name_it_scores_as_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: str, name: str
) -> None:
    # stage 89: `--rules malaysia` and `"rules": "SG"` were unknown rules
    hand = {"concealed": "123p 456p 789p SSS 55p", "seat_wind": "S"}
    by_name = _scored(tmp_path, capsys, {**hand, "rules": name})
    assert by_name["rules"] == name
    assert _scored(tmp_path, capsys, {**hand, "rules": typed}) == by_name
    assert _scored(tmp_path, capsys, hand, "--rules", typed) == by_name


@pytest.mark.parametrize("kind", ["Pong", "PONG", " pong "])
def test_a_files_meld_kind_in_any_case_scores_as_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    # stage 89, a user's file: `"kind": "Pong"` was "unknown meld kind 'Pong'", where the tiles, the winds
    # and the rule set beside it are read in any case
    hand = {"concealed": "123m 456p 789s 55p", "melds": [{"kind": "pong", "tiles": "EEE"}]}
    by_name = _scored(tmp_path, capsys, hand)
    assert by_name["valid"]
    typed = {**hand, "melds": [{"kind": kind, "tiles": "EEE"}]}
    assert _scored(tmp_path, capsys, typed) == by_name


@pytest.mark.parametrize(
    ("kind", "tiles"),
    [
        pytest.param("pung", "EEE", id="pung"),
        pytest.param("Peng", "EEE", id="peng"),
        pytest.param("碰", "EEE", id="pong-character"),
        pytest.param("ｐｏｎｇ", "EEE", id="full-width"),
        pytest.param("chi", "234s", id="chi"),
        pytest.param("CHII", "234s", id="chii"),
        pytest.param("gong", "5555s", id="gong"),
        pytest.param("Kang", "5555s", id="kang"),
        pytest.param(" quad ", "5555s", id="quad"),
        pytest.param("", "EEE", id="blank-as-left-out"),
    ],
)
def test_a_files_meld_kind_as_players_write_it_scores_as_its_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, tiles: str
) -> None:
    # stage 89: `"kind": "pung"`, `"chi"`, `"gong"` were unknown meld kinds, though players write them so
    hand = {"concealed": "123m 456p 789s 55p", "melds": [{"tiles": tiles}]}
    by_tiles = _scored(tmp_path, capsys, hand)
    typed = {**hand, "melds": [{"kind": kind, "tiles": tiles}]}
    assert _scored(tmp_path, capsys, typed) == by_tiles


def test_an_unknown_meld_kind_is_refused_by_its_place_with_the_words_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    melds = [{"kind": "pong", "tiles": "EEE"}, {"kind": "pon", "tiles": "CCC"}]
    assert _main(tmp_path, {"concealed": "123m 456p 55p", "melds": melds}) == 2
    _, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        "error: melds[1].kind: unknown meld kind 'pon': type chow (chi, chii, 吃), "
        "pong (pung, peng, 碰) or kong (gong, kang, quad, 槓, 杠)"
    ]


def test_a_meld_that_is_not_its_kind_is_named_by_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # stage 89: "a pong is three equal tiles: pong 1s 2s 4s" said no word on which of the melds it was,
    # where a tile that cannot be read is named `melds[1].tiles`
    melds = [{"kind": "pong", "tiles": "EEE"}, {"kind": "pong", "tiles": "124s"}]
    assert _main(tmp_path, {"concealed": "123m 456p 55p", "melds": melds}) == 2
    _, err = capsys.readouterr()
    assert err.strip() == "error: melds[1]: a pong is three equal tiles: pong 1s 2s 4s"


@pytest.mark.parametrize(
    "typed", ["robbing kong, last tile", "Robbing Kong、Last-Tile,", "robbing_kong,last_tile"]
)
def test_circumstances_typed_in_one_text_apart_by_commas_are_each_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    # stage 89: `"circumstances": "robbing_kong, last_tile"` was one unknown circumstance
    hand = {"concealed": "123m 456p 789s CCC 55p", "winning_tile": "1m", "self_drawn": True}
    by_codes = _scored(tmp_path, capsys, {**hand, "circumstances": ["robbing_kong", "last_tile"]})
    assert _scored(tmp_path, capsys, {**hand, "circumstances": typed}) == by_codes
    assert _scored(tmp_path, capsys, hand, "--circumstance", typed) == by_codes


def test_a_circumstance_typed_full_width_scores_as_its_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = {"concealed": "123m 456p 789s CCC 55p", "winning_tile": "1m"}
    by_code = _scored(tmp_path, capsys, {**hand, "circumstances": ["robbing_kong"]})
    assert _scored(tmp_path, capsys, {**hand, "circumstances": ["ｒｏｂｂｉｎｇ ｋｏｎｇ"]}) == by_code


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        pytest.param({"Max_Tai": 1}, {"max_tai": 1}, id="name-in-capitals"),
        pytest.param(
            {"max tai": 1, "Payout-Scheme": "Shooter Pays"},
            {"max_tai": 1, "payout_scheme": "shooter_pays"},
            id="words",
        ),
    ],
)
def test_options_typed_in_words_or_any_case_are_read_as_their_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: dict[str, Any], code: dict[str, Any]
) -> None:
    # stage 89: `--option Max_Tai=1` and `"options": {"Max_Tai": 1}` were unknown options
    hand = {"concealed": "123m 456p CCC FFF 55p"}  # two dragon pongs: 2 tai, over the limit of 1
    by_code = _scored(tmp_path, capsys, {**hand, "options": code})
    assert (by_code["tai"], by_code["limit"]) == (1, True)
    assert _scored(tmp_path, capsys, {**hand, "options": typed}) == by_code
    flags = [item for name, value in typed.items() for item in ("--option", f"{name}={value}")]
    assert _scored(tmp_path, capsys, hand, *flags) == by_code


def test_an_option_value_that_is_no_choice_is_quoted_as_typed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _main(tmp_path, {"concealed": "123m 456p 789s CCC 55p"}, "--option", "Payout_Scheme=Shooter") == 2
    _, err = capsys.readouterr()
    assert (
        err.strip()
        == "error: option payout_scheme must be one of standard, shooter_pays, table, got 'Shooter'"
    )


@pytest.mark.parametrize(
    "melds",
    [
        pytest.param("CCC 456p", id="text"),
        pytest.param("ccc, 4p5p6p", id="text-as-typed"),
        pytest.param(["CCC", "456p"], id="list-of-text"),
        pytest.param(["CCC", {"kind": "chow", "tiles": "456p"}], id="text-beside-an-object"),
    ],
)
def test_melds_written_as_the_apps_melds_field_takes_them_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], melds: object
) -> None:
    # stage 89: `"melds": "CCC 456p"` was "melds must be a list, not text"
    hand = {"concealed": "123m 789s 55p"}
    by_objects = _scored(tmp_path, capsys, {**hand, "melds": [{"tiles": "CCC"}, {"tiles": "456p"}]})
    assert by_objects["valid"]
    assert _scored(tmp_path, capsys, {**hand, "melds": melds}) == by_objects


@pytest.mark.parametrize(
    ("melds", "said"),
    [
        pytest.param("CC", "melds: meld 'CC' has 2 tiles: type each meld's tiles together", id="short"),
        pytest.param(
            ["CCC", "124s"], "melds[1]: a chow is three consecutive tiles of one suit", id="no-meld"
        ),
        pytest.param(
            ["CCC 456p"], "melds[0]: 'CCC 456p' holds 2 melds (CCC 456p): give each its own", id="two"
        ),
    ],
)
def test_melds_written_as_text_that_are_no_melds_are_refused_by_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], melds: object, said: str
) -> None:
    assert _main(tmp_path, {"concealed": "123m 789s 55p", "melds": melds}) == 2
    _, err = capsys.readouterr()
    assert err.startswith(f"error: {said}"), err


def test_a_zero_width_space_pasted_among_the_tiles_is_no_tile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # stage 89: a hand pasted from a chat, "123m\u200b 456p ...", was refused as "cannot read '\u200b'"
    hand = {"concealed": TYPED + " CCC"}
    pasted = {"concealed": "123m\u200b 456p\ufeff 789s 55p CCC"}
    assert _scored(tmp_path, capsys, pasted) == _scored(tmp_path, capsys, hand)


@pytest.mark.parametrize("typed", ["robbing kong", "Robbing-Kong", " ROBBING_KONG "])
def test_a_circumstance_typed_in_words_scores_as_its_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    # stage 89, typed as a user would: `--circumstance "robbing kong"` was an unknown circumstance
    hand = {"concealed": "123m 456p 789s CCC 55p", "winning_tile": "1m"}
    by_code = _scored(tmp_path, capsys, hand, "--circumstance", "robbing_kong")
    assert "robbing_kong" in {row["key"] for row in by_code["patterns"]}
    assert _scored(tmp_path, capsys, hand, "--circumstance", typed) == by_code
    assert _scored(tmp_path, capsys, {**hand, "circumstances": [typed]}) == by_code
    assert _scored(tmp_path, capsys, {**hand, "circumstances": typed}) == by_code


def test_a_files_wind_refused_after_reading_is_said_by_its_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {"concealed": "123p 456p 789p SSS 55p", "rules": "malaysian", "seat_wind": "north"}
    assert _main(tmp_path, {**data, "options": {"north_wind": False}}) == 1
    assert "seat wind N is not a seat in a 3-player game" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("data", "args", "said"),
    [
        pytest.param(
            {"concealed": "九九南 123m"},
            (),
            "error: concealed: cannot read '九九南': a number needs",
            id="concealed",
        ),
        pytest.param(
            {**HAND, "melds": [{"tiles": "CCC"}, {"tiles": "東東x"}]},
            (),
            "error: melds[1].tiles: cannot read '東東x'",
            id="meld",
        ),
        pytest.param(
            {"concealed": "123M 456p 789s F1S2x 11m"},
            (),
            "error: concealed: cannot read '2x' in hand group 'F1S2x'",
            id="letter-case",
        ),
        pytest.param(
            HAND, ("--seat", "中"), "error: --seat must be one of E, S, W, N, got '中'", id="not-a-wind"
        ),
        pytest.param(
            {**HAND, "seat_wind": "中"},
            (),
            "error: seat_wind must be one of E, S, W, N, got '中'",
            id="file-wind",
        ),
    ],
)
def test_a_typed_tile_that_cannot_be_read_is_named_as_typed_with_its_field(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: dict[str, object],
    args: tuple[str, ...],
    said: str,
) -> None:
    assert _main(tmp_path, data, *args) == 2
    assert capsys.readouterr().err.startswith(said)


def test_a_typed_tile_once_read_is_said_by_its_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _main(tmp_path, HAND, "--winning-tile", "9M") == 1
    assert "the winning tile 9m is not in the hand" in capsys.readouterr().out


def test_codes_run_together_are_read_as_the_scoring_always_read_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the app's reader takes `F2S4` as F, 2s and a stray 4; the scoring as F2 and S4: a file scored
    # before scores alike
    together = _scored(tmp_path, capsys, {**HAND, "bonus": "F2S4"})
    assert together == _scored(tmp_path, capsys, {**HAND, "bonus": ["F2", "S4"]})


def test_a_file_that_is_a_terminal_says_what_to_type_as_stdin_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `python -m scoring /dev/stdin` at a terminal sat silent, as `-` had; a pseudo-terminal stands for it,
    # the hand and an end typed into it
    from scoring.__main__ import TYPING_PROMPT

    leader, follower = os.openpty()
    try:
        os.write(leader, json.dumps(HAND).encode() + b"\n" + b"\x04" * 2)
        assert main([os.ttyname(follower)]) == 0
    finally:
        os.close(leader)
        os.close(follower)
    captured = capsys.readouterr()
    assert captured.err == TYPING_PROMPT + "\n" and "Valid win" in captured.out


def test_the_scoring_command_line_imports_nothing_the_photo_reader_or_the_app_needs() -> None:
    # README: `python -m scoring` needs nothing installed; it reads a typed hand with the app's reader,
    # which once lived in app_ui and pulled in numpy and the vision package with it
    probe = (
        "import sys, runpy; sys.argv = ['scoring', 'samples/all_suited.json', '--winning-tile', '２s'];"
        "\ntry:\n    runpy.run_module('scoring', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "heavy = {'numpy', 'cv2', 'vision', 'app_ui', 'streamlit'}"
        "\nheavy = sorted({m.split('.')[0] for m in sys.modules} & heavy)"
        "\nprint('heavy:', heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert "Total:" in done.stdout and "heavy: []" in done.stdout, done.stdout + done.stderr
