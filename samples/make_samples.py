"""Re-render the sample photos shipped with the app (samples/*.jpg + their ground truth *.json).

    python samples/make_samples.py

Runs the project's own generator (`python -m datasets.synth`) with sample-safe styles only
(`datasets.synth.SAMPLE_SAFE_STYLES`: procedural and open-licence fonts, no GPL art), then keeps the
scenes listed in PICKS: ones where every tile of the hand is in frame and reasonably large, no
distractors, and the hand is a valid Singapore win. The ground truth JSON is kept next to each photo,
so tests can check what the app reads.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 2026
COUNT = 200
SIZE = 1024
# scene index in the run -> sample name (shown on the app's sample buttons)
PICKS: dict[int, str] = {
    34: "concealed_kong",
    149: "flower_set",
    141: "all_pongs",
    196: "animal",
}


def main() -> int:
    sys.path.insert(0, str(HERE.parent))  # run as a script from anywhere: the repository's packages
    from datasets.synth import SAMPLE_SAFE_STYLES

    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "datasets.synth", "--out", tmp, "--n", str(COUNT),
                   "--seed", str(SEED), "--styles", ",".join(SAMPLE_SAFE_STYLES), "--size", str(SIZE)]
        print(" ".join(command[1:]))
        subprocess.run(command, check=True, cwd=HERE.parent, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        for index, name in PICKS.items():
            shutil.copyfile(Path(tmp) / "images" / f"{index:06d}.jpg", HERE / f"{name}.jpg")
            shutil.copyfile(Path(tmp) / "meta" / f"{index:06d}.json", HERE / f"{name}.json")
            print(f"samples/{name}.jpg <- scene {index}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
