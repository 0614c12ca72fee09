"""`python -m vision PHOTO [--json] [--annotate OUT.png] [--models DIR]` (see vision/cli.py)."""

from __future__ import annotations

import sys

from scoring.console import run_main

PROG = "python -m vision"


def main() -> int:
    """`vision.cli.run`, or one line where its dependencies are not installed where this Python looks
    (the README's `python -m vision` typed outside .venv, which `./run app` installs into)."""
    return run_main(PROG, "vision.cli", "run")


if __name__ == "__main__":
    sys.exit(main())
