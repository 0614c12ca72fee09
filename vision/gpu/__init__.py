"""Training on a lent GPU (the `device` tool): what travels with the lease and the script run there.

    bash vision/gpu/prepare.sh CKPT:NAME...   # here: fill .gpu/ (git-ignored) with what the lease needs
    END=540 bash .gpu/lease.sh                # there, in one call: render, cut, train side by side

The lent machine reaches no registry, so the wheels (ultralytics, pillow-heif), the fonts and the
art travel in `.gpu/` (under the tool's 64 MiB with the tracked tree); the fonts are cut down to the
characters the generator draws, the checkpoints carried in half precision (`slim.py`, which also
cuts the weights the lease brings back). A lease of 15 minutes is one call: `lease.sh` ends by END
seconds and copies the newest weights to $OUT every 20 s, so a call stopped at its limit still
brings them back. Never imported at run time.
"""
