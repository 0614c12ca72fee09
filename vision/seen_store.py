"""A photo's `Seen` (what the models made of it) kept on disk, to be settled again without the models.

`python -m vision.bench --save-seen DIR` keeps each photo's as DIR/NAME.npz; `--from-seen DIR` reads
them back and runs only the steps after the models (`TileReader.settle`: the one-set reading, the win
check, the layout), so a change to those steps is measured on a whole set in seconds where the
models take minutes (stages 24 and 70 each built such a cache for one round).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from vision.pipeline import Seen

ARRAYS = ("xyxy", "det_score", "probabilities", "angle", "rejected_xyxy")  # saved as they are
SCALARS = ("gain", "white", "filled")
# floats that may be None, saved as NaN (`_optional` reads them back; those saved later may be missing)
OPTIONAL_FLOATS = ("sharpness", "evenness", "whole_sharpness", "whole_evenness")
SAVED_WITH = "saved_with.json"  # the bench's command line that saved a folder's readings


class SeenStoreError(ValueError):
    """A saved reading that is missing or cannot be read back."""


def seen_path(folder: Path, photo: Path) -> Path:
    """Where a photo's reading is kept in `folder` (one folder per set: photos are named by stem)."""
    return folder / f"{photo.stem}.npz"


def save_seen(path: Path, seen: Seen, factor: float) -> None:
    """Keep `seen` and `factor` (the photo file's pixels to the reading's, as the bench maps boxes)."""
    fields: dict[str, Any] = {name: getattr(seen, name) for name in ARRAYS}
    fields.update({name: np.float64(getattr(seen, name)) for name in SCALARS})
    fields["image_hw"] = np.array(seen.image_hw if seen.image_hw is not None else (), np.int64)
    for name in OPTIONAL_FLOATS:
        value = getattr(seen, name)
        fields[name] = np.float64(np.nan if value is None else value)
    fields["factor"] = np.float64(factor)
    fields["content_xyxy"] = np.array(seen.content_xyxy if seen.content_xyxy is not None else (), np.int64)
    fields["glare"] = np.array(seen.glare, np.float64).reshape(-1, 2)
    fields["whited"] = np.array(seen.whited, np.int64)
    if seen.descriptors is not None:  # kept where the photo was described (`vision.set_memory`)
        fields["descriptors"] = np.asarray(seen.descriptors, np.float16)
    np.savez_compressed(path, **fields)


def load_seen(path: Path) -> tuple[Seen, float]:
    """A reading kept by `save_seen`, and its factor; SeenStoreError where it is missing or unreadable."""
    if not path.is_file():
        raise SeenStoreError(f"no saved reading {path.name} in {path.parent} (saved with --save-seen?)")
    try:
        with np.load(path) as data:
            hw = tuple(int(v) for v in data["image_hw"])
            seen = Seen(
                xyxy=data["xyxy"],
                det_score=data["det_score"],
                probabilities=data["probabilities"],
                angle=data["angle"],
                rejected_xyxy=data["rejected_xyxy"],
                image_hw=(hw[0], hw[1]) if len(hw) == 2 else None,
                gain=float(data["gain"]),
                white=float(data["white"]),
                filled=float(data["filled"]),
                sharpness=_none_if_nan(float(data["sharpness"])),  # kept since the store began
                # a reading saved before the shake line holds none: judged by its sharpness alone
                evenness=_optional(data, "evenness"),
                # nor one saved before the whole photo's blur was judged: none told, as then
                whole_sharpness=_optional(data, "whole_sharpness"),
                whole_evenness=_optional(data, "whole_evenness"),
                # a reading saved before stage 79 holds none: read whole, as it was
                content_xyxy=_content(data["content_xyxy"]) if "content_xyxy" in data else None,
                # nor one saved before glare spots were looked for: none told, as then
                glare=_spots(data["glare"]) if "glare" in data else (),
                # nor one saved before whited-out faces were: none told
                whited=tuple(int(i) for i in data["whited"]) if "whited" in data else (),
                # nor one saved before stage 86, or not described: described again where needed
                descriptors=np.asarray(data["descriptors"], np.float32) if "descriptors" in data else None,
            )
            return seen, float(data["factor"])
    except (OSError, ValueError, KeyError) as error:
        raise SeenStoreError(f"{path}: not a saved reading ({error})") from None


def _content(saved: np.ndarray) -> tuple[int, int, int, int] | None:
    values = [int(v) for v in saved]
    return (values[0], values[1], values[2], values[3]) if len(values) == 4 else None


def _spots(saved: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(saved, np.float64).reshape(-1, 2))


def write_saved_with(folder: Path, argv: list[str]) -> None:
    (folder / SAVED_WITH).write_text(json.dumps({"argv": argv}) + "\n")


def saved_with(folder: Path) -> str:
    """The command line that saved `folder`'s readings, as one line ("unknown" where not kept)."""
    try:
        return " ".join(json.loads((folder / SAVED_WITH).read_text())["argv"])
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"


def _optional(data: Any, name: str) -> float | None:
    """A saved float that may be NaN (none) or missing (saved before it was kept)."""
    return None if name not in data else _none_if_nan(float(data[name]))


def _none_if_nan(value: float) -> float | None:
    return None if math.isnan(value) else value
