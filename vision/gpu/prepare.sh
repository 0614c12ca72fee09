#!/usr/bin/env bash
# Fill .gpu/ (git-ignored) with what a lent-GPU lease needs: the ultralytics wheels (the lent image
# has torch but no ultralytics, and reaches no registry), the generator's fonts cut to the characters
# it draws, the game art, the checkpoints to start from, and the scripts run there.
#   bash vision/gpu/prepare.sh ~/.cache/mahjong-train/cls19/weights/last.pt:cls19.pt ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gpu="$root/.gpu"
mkdir -p "$gpu/whl" "$gpu/fonts" "$gpu/weights" "$gpu/art" "$root/.git/info"
grep -qx "/.gpu/" "$root/.git/info/exclude" 2>/dev/null || echo "/.gpu/" >> "$root/.git/info/exclude"
version="$(python3 -c 'import importlib.metadata as m; print(m.version("ultralytics"))')"
thop="$(python3 -c 'import importlib.metadata as m; print(m.version("ultralytics-thop"))')"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_17_x86_64 -d "$gpu/whl" "ultralytics==$version" "ultralytics-thop==$thop"
(cd "$root" && python3 -m vision.gpu.subset_fonts "$gpu/fonts")
cp -r "$root/datasets/art/cache" "$root/datasets/art/pkgs" "$gpu/art/"
for pair in "$@"; do cp "${pair%%:*}" "$gpu/weights/${pair##*:}"; done
cp "$root/vision/gpu/lease.sh" "$root/vision/gpu/poll.sh" "$gpu/"
du -sh "$gpu"
