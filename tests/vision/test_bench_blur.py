"""The blur bench's blurs: kernels that keep brightness, a shake that smears one way, a defocus every
way, and a clear refusal of a folder without photos."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.test_sharpness import _photo, _read_as
from vision.bench_blur import as_phone_saves, blurred_by, disk_kernel, main, motion_kernel
from vision.sharpness import BLURRED_BELOW, photo_sharpness


@pytest.mark.parametrize("kernel", [motion_kernel(15, 20.0), motion_kernel(9, 0.0), disk_kernel(5)])
def test_kernels_keep_the_photo_as_bright(kernel: np.ndarray) -> None:
    assert kernel.dtype == np.float32
    assert float(kernel.sum()) == pytest.approx(1.0, abs=1e-5)
    assert (kernel >= 0).all()


def test_a_level_motion_kernel_smears_along_its_row_only() -> None:
    kernel = motion_kernel(9, 0.0)
    assert np.count_nonzero(kernel[4]) == 9
    assert np.count_nonzero(np.delete(kernel, 4, axis=0)) == 0


def test_the_disk_is_round() -> None:
    kernel = disk_kernel(5)
    assert kernel[5, 5] > 0 and kernel[0, 5] > 0 and kernel[5, 0] > 0
    assert kernel[0, 0] == 0 and kernel[10, 10] == 0


def test_a_phone_save_keeps_size_and_near_colours() -> None:
    rgb, _ = _photo()
    saved = as_phone_saves(rgb)
    assert saved.shape == rgb.shape and saved.dtype == np.uint8
    assert float(np.abs(saved.astype(int) - rgb.astype(int)).mean()) < 3.0


@pytest.mark.parametrize("kernel", [motion_kernel(15, 20.0), disk_kernel(5)])
def test_the_bench_blurs_take_a_sharp_photo_under_the_threshold(kernel: np.ndarray) -> None:
    rgb, boxes = _photo()
    sure = _read_as("5s", len(boxes))
    assert (photo_sharpness(rgb, boxes, sure) or 0.0) >= BLURRED_BELOW
    assert (photo_sharpness(blurred_by(kernel)(rgb), boxes, sure) or 1.0) < BLURRED_BELOW


def test_a_folder_without_photos_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--synthetic", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no photos" in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        pytest.param(["--limit", "0"], "--limit must be at least 1, got 0", id="limit"),
        pytest.param(["--blurred", "-1"], "--blurred must be 0 or more, got -1", id="blurred"),
        pytest.param(["--limit", "abc"], "argument --limit: invalid int value: 'abc'", id="not-a-number"),
    ],
)
def test_bad_input_is_one_line_naming_the_flag(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --limit 0 was said as "no photos in DIR/images"; argparse's usage block stood above its errors
    with pytest.raises(SystemExit) as stopped:
        main(["--synthetic", str(tmp_path), *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {says}") and err.count("\n") == 1
