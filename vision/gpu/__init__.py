"""Training on a lent GPU (the `device` tool): what travels with the lease and the scripts run there.

    bash vision/gpu/prepare.sh CKPT...   # here: fill .gpu/ (git-ignored) with what the lease needs
    bash .gpu/lease.sh                   # there, detached: render, cut crops, train side by side
    bash .gpu/poll.sh SECONDS            # there: wait, then copy the newest weights to $OUT

The lent machine reaches no registry, so the wheels, the fonts and the art travel in `.gpu/`
(under the tool's 64 MiB); the fonts are cut down to the characters the generator draws.
Never imported at run time.
"""
