"""`python -m scoring.bench [--repeat N]`: median time to score typical and worst-case hands.

Targets (issue 2): under 1 ms for a typical hand, under 20 ms for the worst fly-heavy Malaysian hand.
Each hand is timed cold (decomposition cache cleared before every run) and warm (cache kept).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from scoring.api import score_json
from scoring.console import OneLineParser
from scoring.decompose import _split

HANDS: dict[str, dict[str, Any]] = {
    "typical singapore (dragon pong)": {"concealed": "123m 456p 789s CCC 55p", "bonus": ["F1"]},
    "singapore sequence hand, wait check": {"concealed": "234m 567m 234p 678s 55p", "winning_tile": "2m"},
    "singapore full flush, many readings": {
        "concealed": "11122233344455m",
        "winning_tile": "5m",
        "options": {"max_tai": 10},
    },
    "singapore with melds": {
        "concealed": "234p 55p",
        "bonus": ["cat", "rat"],
        "melds": [
            {"kind": "pong", "tiles": "CCC"},
            {"kind": "chow", "tiles": "345m"},
            {"kind": "kong", "tiles": "9999s"},
        ],
    },
    "typical malaysian": {
        "rules": "malaysian",
        "concealed": "123p 456p 789p 55p",
        "bonus": ["F1", "cat"],
        "melds": [{"kind": "pong", "tiles": "111p"}],
    },
    "malaysian three fly": {"rules": "malaysian", "concealed": "fly fly fly 1234p 5678p 999p"},
    "malaysian four fly": {"rules": "malaysian", "concealed": "fly fly fly fly 12345p 6p 7p 8p 99p"},
    # The most readings among 5000 random fly-heavy hands (329 arrangements after de-duplication).
    "malaysian four fly (worst found)": {"rules": "malaysian", "concealed": "fly fly fly fly 2345667788p"},
    "malaysian three fly (worst found)": {"rules": "malaysian", "concealed": "fly fly fly 33344556678p"},
    "malaysian four fly, nine single dots": {
        "rules": "malaysian",
        "concealed": "fly fly fly fly 1p 2p 3p 4p 5p 6p 7p 8p 9p 9p",
    },
}


def time_hand(data: dict[str, Any], repeat: int, cold: bool) -> float:
    """Median seconds to score `data`, with the decomposition cache cleared before each run if `cold`."""
    samples = []
    for _ in range(repeat):
        if cold:
            _split.cache_clear()
        start = time.perf_counter()
        score_json(data)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def repeat_count(text: str) -> int:
    """`--repeat`'s value: a median needs one timed run at least (0 had ended in a traceback)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of runs, got {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {count}")
    return count


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(prog="python -m scoring.bench", description=__doc__)
    parser.add_argument(
        "--repeat", type=repeat_count, default=50, help="timed runs per hand, 1 or more (median reported)"
    )
    args = parser.parse_args(argv)
    print(f"{'hand':<42} {'cold ms':>9} {'warm ms':>9}  result")
    for name, data in HANDS.items():
        result = score_json(data)
        cold = time_hand(data, args.repeat, cold=True) * 1000
        warm = time_hand(data, args.repeat, cold=False) * 1000
        verdict = f"{result['tai']} {result['unit']}" if result["valid"] else result["reason"]
        print(f"{name:<42} {cold:>9.3f} {warm:>9.3f}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
