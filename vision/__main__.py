"""`python -m vision PHOTO [--json] [--annotate OUT.png] [--models DIR]` (see vision/cli.py)."""

from __future__ import annotations

import sys

from scoring.console import missing_module_line, say

PROG = "python -m vision"


def main() -> int:
    """`vision.cli.run`, or one line where its dependencies are not installed where this Python looks
    (the README's `python -m vision` typed outside .venv, which `./run app` installs into)."""
    try:
        from vision.cli import run
    except ModuleNotFoundError as error:
        line = missing_module_line(PROG, error)
        if line is None:  # one of ours missing: a bug, said as cli.run says one
            say(f"{PROG}: internal error (ModuleNotFoundError): {error}")
            return 1
        say(line)
        return 2
    return run()


if __name__ == "__main__":
    sys.exit(main())
