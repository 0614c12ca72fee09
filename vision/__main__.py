"""`python -m vision PHOTO [--json] [--annotate OUT.png] [--models DIR]` (see vision/cli.py)."""

from __future__ import annotations

import sys

from vision.cli import run

if __name__ == "__main__":
    sys.exit(run())
