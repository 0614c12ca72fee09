"""The tile model every session of the server shares: loaded once (st.cache_resource), or the one
line saying why photos cannot be read; and the small pool its runs go through, with their time limit.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import streamlit as st


def read_timeout_s() -> float:
    """The time the model must answer within (MAHJONG_READ_TIMEOUT_S, in seconds); past it the user gets a
    message instead of a hung page. Read at each use, as the page's script read it at each run."""
    return float(os.environ.get("MAHJONG_READ_TIMEOUT_S", "30"))


@dataclasses.dataclass(frozen=True)
class ReaderSlot:
    """The shared tile reader, or why there is none (no model shipped, or it failed to load)."""

    reader: Any | None
    message: str = ""


@st.cache_resource(show_spinner="Loading the tile model…")
def get_reader() -> ReaderSlot:
    """Load the detector once per server process; every session shares it (the reader is thread-safe)."""
    try:
        pipeline = importlib.import_module("vision.pipeline")
    except Exception as exc:  # vision missing or broken: the photo path says so, typing still works
        return ReaderSlot(None, f"Photo reading is not available ({exc}). Type the hand instead.")
    model_error: type[Exception] = pipeline.ModelError
    try:
        # MAHJONG_MODELS_DIR points the app at another model folder (a candidate model, test models).
        models_dir = os.environ.get("MAHJONG_MODELS_DIR") or None
        return ReaderSlot(pipeline.TileReader.load(models_dir) if models_dir else pipeline.TileReader.load())
    except model_error as exc:
        return ReaderSlot(
            None,
            f"No tile model is installed, so photos cannot be read ({exc}). "
            "Type the hand in the other tab instead.",
        )
    except Exception as exc:
        return ReaderSlot(None, f"The tile model could not be loaded ({exc}). Type the hand instead.")


@st.cache_resource
def get_executor() -> ThreadPoolExecutor:
    """Model runs go through a small pool so a slow photo is cut off at `read_timeout_s()`."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="tile-reader")
