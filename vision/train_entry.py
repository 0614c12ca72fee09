"""`python -m vision.train` started: its dependencies checked before they load, so that a machine
without them is told so in one line, not a traceback (README.md: training needs the `train` extra).
Standard library and `scoring.console` only, so that it loads where nothing else is installed."""

from __future__ import annotations

from scoring.console import missing_module_line, say

PROG = "python -m vision.train"
# the modules only the `train` extra installs (pyproject.toml), by their import names
TRAIN_EXTRA_MODULES = frozenset(
    {"torch", "torchvision", "ultralytics", "onnx", "onnxslim", "yaml", "tqdm", "fontTools", "onnx2torch"}
)


def missing_line(error: ModuleNotFoundError) -> tuple[str, int]:
    """The one line and exit status for a module `vision.train` needs and cannot import: the train
    extra's named as such (`./run app` does not install them, so it is not advised) and a run-time
    one as the other command lines name it, exit 2; one of ours is a bug, said as one, exit 1."""
    top = (error.name or "").split(".")[0]
    if top in TRAIN_EXTRA_MODULES:
        return f"{PROG}: the module {top} is not installed (the train extra): pip install -e '.[train]'", 2
    line = missing_module_line(PROG, error)
    if line is None:
        return f"{PROG}: internal error (ModuleNotFoundError): {error}", 1
    return line, 2


def run() -> int:
    """`vision.train.main()`, or one line where a module it loads cannot be imported."""
    try:
        from vision.train import main
    except ModuleNotFoundError as error:
        line, status = missing_line(error)
        say(line)
        return status
    main()
    return 0
