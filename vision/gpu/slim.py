"""A training checkpoint cut to what a lease needs to carry or bring back, for the `device` tool's limits.

    python -m vision.gpu.slim SRC DST

The weights in half precision (as ultralytics saves its own `ema`) and no optimiser state: a
detector's `last.pt` mid-run is about 21 MB with it, over the 16 MiB a file the tool brings back, and
5.4 MB without. DST is written whole or not at all (a copier may read it at any time). Needs torch.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


class UnreadableCheckpoint(Exception):
    """SRC cannot be read whole (a copier caught ultralytics mid-write)."""


def slim(source: Path, target: Path) -> None:
    import pickle

    import torch

    try:
        checkpoint = torch.load(source, map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, EOFError, pickle.UnpicklingError) as error:
        raise UnreadableCheckpoint(f"{source}: {str(error).splitlines()[0][:120]}") from None
    for key in ("model", "ema"):
        if checkpoint.get(key) is not None:
            checkpoint[key] = checkpoint[key].half()
    checkpoint.pop("optimizer", None)
    partial = target.with_name(target.name + ".tmp")
    torch.save(checkpoint, partial)
    os.replace(partial, target)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        sys.exit("usage: python -m vision.gpu.slim SRC DST")
    try:
        slim(Path(args[0]), Path(args[1]))
    except UnreadableCheckpoint as error:
        # the lease's copier tries again 20 s later: a line in its log, DST left as it was
        sys.exit(f"slim: cannot read {error}; {args[1]} left as it was")


if __name__ == "__main__":
    main()
