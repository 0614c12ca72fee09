"""What the command lines (`python -m scoring`, `python -m vision`, the benches) share about their
console: an error is one bounded line on stderr, a character the console cannot write is escaped, and a
dependency not installed is said in one line (`run_main`)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import io
import os
import stat
import sys
from collections.abc import Collection
from pathlib import Path
from types import ModuleType
from typing import NoReturn, TextIO

from scoring.errors import brief


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, `LEAD: ... (see PROG --help)`, LEAD "error"
    (`python -m scoring` and `python -m scoring.bench`; `vision.cli.OneLineParser` leads with its
    `prog`)."""

    def lead(self) -> str:
        """What the one line starts with."""
        return "error"

    def error(self, message: str) -> NoReturn:
        # One line, not argparse's usage block: the CLI contract is exit 2 with one line on stderr; the
        # message quotes the argument, which may hold a newline, an escape or thousands of characters (an
        # audit, stage 78)
        self.exit(2, f"{self.lead()}: {brief(message)} (see {self.prog} --help)\n")


def say(line: str) -> None:
    """`line` on stderr as one line of bounded length (`brief`), where there is a stderr: a run
    started with it closed (`2>&-`) still exits with its own code, not an error of writing."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(brief(line), file=sys.stderr)


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a person's terminal (not a pipe or a file): `-` read from it waits for them
    to type, which a command line says rather than sitting silent."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # no isatty, or closed
        return False


def names_a_terminal(path: str) -> bool:
    """Whether the file `path` names is a person's terminal (`/dev/stdin` typed at one, `/dev/tty`):
    read as a file it waits for them to type, as `-` from a terminal would. A character device alone
    is opened to ask (not blocking, nor taken as the process's terminal): a named pipe is not, as
    opening it would wait for a writer."""
    try:
        if not stat.S_ISCHR(os.stat(path).st_mode):
            return False
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):  # no such file, not ours to open, a NUL in the name
        return False
    try:
        return os.isatty(handle)
    finally:
        os.close(handle)


def file_error_words(error: OSError) -> str:
    """Why a file named on a command line cannot be read, in the words `python -m vision` gives for a
    photo (`vision.imageio`: "file not found", "not a file"), for a hand's file and a lessons file alike:
    the command lines had said a missing file in the system's words too ("No such file or directory")."""
    if isinstance(error, FileNotFoundError):
        return "file not found"
    if isinstance(error, IsADirectoryError):
        return "not a file"
    if isinstance(error, PermissionError):
        return "permission denied"
    return str(error.strerror or error)


def escape_what_cannot_print() -> None:
    """A character the console cannot write (a field named with a lone surrogate, the patterns'
    Chinese names on a Latin-1 console) is written escaped (`\\u5c71`), not a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")


# where the run-time dependencies are: `./run app` installs them into .venv (outside a virtual
# environment), which a shell does not use until told to
SET_UP = (
    "run ./run app once (it installs them into .venv), then use .venv/bin/python (or `. .venv/bin/activate`)"
)
TEST_SET_UP = (
    "run ./run test once (it installs them into .venv), then use .venv/bin/python (or `. .venv/bin/activate`)"
)
OURS = ("scoring", "vision", "datasets", "app_ui")
# the test extra's modules, which `./run app` does not install (bench/load_test.py drives a browser)
TEST_ONLY = ("playwright", "pytest", "hypothesis")


def missing_module_line(
    prog: str, error: ModuleNotFoundError, train_only: Collection[str] = ()
) -> str | None:
    """The one line for a command line started outside the environment its dependencies are in
    (`python -m vision` showed ModuleNotFoundError's traceback for cv2: an audit), or None where the
    module missing is one of ours (a bug, said as one). The package is named, which is what installs
    (`playwright`, where `playwright.async_api` was imported); `train_only`: the modules the command
    takes from the `train` extra, which neither `./run app` nor `./run test` installs."""
    name = error.name or ""
    top = name.split(".")[0]
    if not name or top in OURS:
        return None
    if top in train_only:
        return f"{prog}: the module {top} is not installed (the train extra): pip install -e '.[train]'"
    if top in TEST_ONLY:
        return f"{prog}: the module {top} is not installed (a test dependency): {TEST_SET_UP}"
    return f"{prog}: the module {top} is not installed (a run-time dependency): {SET_UP}"


def run_main(prog: str, where: str, entry: str = "main", train_only: Collection[str] = ()) -> int:
    """`where`'s `entry()` (`where` a module's dotted name, or a script's path: bench/*.py), or one line
    where a module it needs is not installed where this Python looks, exit 2: `python -m datasets.synth`,
    `vision.bench` and the bench scripts, started outside the .venv `./run app` installs into, showed
    ModuleNotFoundError's traceback (as `python -m vision` did). A module started as `__main__` calls
    this before its own imports, which load again here, under the module's own name."""
    try:
        main = getattr(_load(where), entry)
        return int(main())
    except ModuleNotFoundError as error:  # at import, or imported late (bench/load_test.py's browser)
        line = missing_module_line(prog, error, train_only)
        if line is None:  # one of ours missing: a bug, said as one
            say(f"{prog}: internal error (ModuleNotFoundError): {error}")
            return 1
        say(line)
        return 2


def _load(where: str) -> ModuleType:
    """The module `where` names, or the script at the path `where` (not a package's: bench/*.py),
    registered under its stem so that its dataclasses find their module."""
    if not where.endswith(".py"):
        return importlib.import_module(where)
    name = f"_script_{Path(where).stem}"
    spec = importlib.util.spec_from_file_location(name, where)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {where}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
