"""The case on screen kept on the server under a random name the page's address carries (`?case=...`),
so a page the browser reloads (a phone does so on its own when it frees memory) opens it again.

One small JSON file per browser tab, the very bytes the page offers for download, and beside it the
photo that hand was read from, as uploaded (to show it again and read it as the models did); files
untouched for a day are removed. Whoever has the page's address can open its case and photo, as
whoever has a downloaded case file and the photo can."""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, TypeGuard

QUERY_KEY = "case"
MAX_AGE_S = 24 * 3600
_NAME = re.compile(r"[0-9a-f]{32}")


def store_dir() -> Path:
    """Where cases are kept: `MAHJONG_CASE_DIR`, or a folder in the system's temporary folder."""
    return Path(os.environ.get("MAHJONG_CASE_DIR") or Path(tempfile.gettempdir()) / "mahjong-scorer-cases")


def new_name() -> str:
    return uuid.uuid4().hex


def is_name(text: object) -> TypeGuard[str]:
    """Whether `text` is a name `new_name` gives (an address's value is the user's to type)."""
    return isinstance(text, str) and _NAME.fullmatch(text) is not None


CASE, PHOTO = ".json", ".photo"
# what the page holds beside the case that the case file does not say (a discarder a self-draw hides):
# the case file is what `python -m scoring` replays, and a field of the page's own would be unknown there
PAGE = ".page"
# the steps of *Undo the last tile change* (`app_ui.undo_kept.steps_json`, up to UNDO_AT_MOST tables): a file
# of their own, written as they change, where the page's file is written again on every run
UNDO = ".undo"
# what the tab taught the reader of the set on the table (`app_ui.set_lessons`): the tab's, not a hand's,
# so kept when the page holds no hand
LESSONS = ".set"
# the lessons the kept photo was read with (`app_ui.teach.keep_read_with`): the tab's may change while
# its reading stands (forgotten, or taught more, while the user's corrections keep it as read), and a
# reload read it with the tab's: it read otherwise, and the photo was lost (a helper, stage 87)
READ_WITH = ".read"


def _path(name: str, kind: str = CASE) -> Path:
    if not is_name(name):
        raise ValueError(f"not a kept case's name: {name!r}")
    return store_dir() / f"{name}{kind}"


def save(name: str, data: bytes, kind: str = CASE) -> None:
    """Keep `data` under `name` as its case (or `kind` PHOTO: its photo; PAGE, UNDO: what the page holds
    beside it), whole or not at all (a reload while it is written reads the last one). A folder that
    cannot be written keeps nothing: the page works on, as it did before."""
    path = _path(name, kind)
    try:
        # the system's temporary folder is shared: only this user reads the cases kept there
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        partial = path.with_name(f"{name}.{os.getpid()}{kind}.part")
        partial.write_bytes(data)
        partial.replace(path)
    except OSError:
        return


def share_photo(name: str, new_name: str, data: bytes) -> None:
    """Keep the photo kept under `name` (`data`) under `new_name` too, as one file where the folder
    allows (a reloaded page keeps its own copy of its case, and a photo may be 25 MB)."""
    try:
        target = _path(new_name, PHOTO)
        target.unlink(missing_ok=True)
        os.link(_path(name, PHOTO), target)
    except OSError:
        save(new_name, data, PHOTO)


def load(name: str, kind: str = CASE) -> bytes | None:
    """The case (or photo) kept under `name`, or None (never kept, removed, or not a name we give)."""
    if not is_name(name):
        return None
    try:
        return _path(name, kind).read_bytes()
    except OSError:
        return None


def load_json(name: str, kind: str) -> dict[str, Any]:
    """The JSON object kept under `name` as `kind` (PAGE, UNDO), or nothing where none was kept (a case
    kept by an older app) or it does not read (a file cut short, or not ours)."""
    data = load(name, kind)
    try:
        kept = json.loads(data) if data is not None else {}
    except (ValueError, RecursionError):  # RecursionError: nested too deep to be ours
        return {}
    return kept if isinstance(kept, dict) else {}


def forget(name: str, kinds: tuple[str, ...] = (CASE, PHOTO, READ_WITH, PAGE, UNDO)) -> None:
    """Remove what is kept under `name`: its case and photo (the page holds no hand now), or `kinds`."""
    if not is_name(name):
        return
    for kind in kinds:
        with contextlib.suppress(OSError):  # a file another process removed, a folder made read-only
            _path(name, kind).unlink(missing_ok=True)


def prune(now: float | None = None, max_age_s: float = MAX_AGE_S) -> int:
    """Remove the kept cases (and parts of them a stopped write left) untouched for `max_age_s`; how
    many were removed. Only files named as this module names them: the folder may be a user's own."""
    now = time.time() if now is None else now
    removed = 0
    try:
        paths = [path for path in store_dir().iterdir() if is_name(path.name.split(".")[0])]
    except OSError:
        return 0
    for path in paths:
        if path.suffix not in (CASE, PHOTO, PAGE, UNDO, LESSONS, READ_WITH, ".part"):
            continue
        try:
            if now - path.stat().st_mtime > max_age_s:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed
