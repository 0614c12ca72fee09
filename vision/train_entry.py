"""`python -m vision.train` started: its dependencies checked before they load, so that a machine
without them is told so in one line, not a traceback (README.md: training needs the `train` extra).
Standard library and `scoring.console` only, so that it loads where nothing else is installed."""

from __future__ import annotations

from scoring.console import run_main

PROG = "python -m vision.train"
# the modules only the `train` extra installs (pyproject.toml), by their import names
TRAIN_EXTRA_MODULES = frozenset(
    {"torch", "torchvision", "ultralytics", "onnx", "onnxslim", "yaml", "tqdm", "fontTools", "onnx2torch"}
)


def run() -> int:
    """`vision.train.main()`, or one line where a module it loads cannot be imported: the train extra's
    named as such (`./run app` does not install them), a run-time one as the other command lines name
    it, exit 2; one of ours is a bug, said as one, exit 1 (`scoring.console.run_main`)."""
    return run_main(PROG, "vision.train", train_only=TRAIN_EXTRA_MODULES)
