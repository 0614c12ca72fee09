#!/usr/bin/env bash
# Fill .gpu/ (git-ignored) with what a lent-GPU lease needs: the ultralytics wheels (the lent image
# has torch but no ultralytics, and reaches no registry), the generator's fonts cut to the characters
# it draws, the game art, the checkpoints to start from, and the scripts run there.
#   bash vision/gpu/prepare.sh ~/.cache/mj/s25/cls31r.pt:cls31r.pt ~/.cache/mj/s25/det8r.pt:det8r.pt
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gpu="$root/.gpu"
mkdir -p "$gpu/whl" "$gpu/fonts" "$gpu/weights" "$gpu/art" "$root/.git/info"
grep -qx "/.gpu/" "$root/.git/info/exclude" 2>/dev/null || echo "/.gpu/" >> "$root/.git/info/exclude"
version="$(python3 -c 'import importlib.metadata as m; print(m.version("ultralytics"))')"
thop="$(python3 -c 'import importlib.metadata as m; print(m.version("ultralytics-thop"))')"
# the lent image has torch, numpy, opencv and Pillow, but not these; pillow_heif (5.7 MB, which vision.imageio
# imports) is left for a stub there: training reads no HEIC photo, and the tool carries 64 MiB in all
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 -d "$gpu/whl" \
    "ultralytics==$version" "ultralytics-thop==$thop"
(cd "$root" && python3 -m vision.gpu.subset_fonts "$gpu/fonts")
cp -r "$root/datasets/art/cache" "$root/datasets/art/pkgs" "$gpu/art/"
# the packages' manuals, translations and programs are no art: the tool carries 64 MiB in all
find "$gpu/art/pkgs" -depth -type d \( -path '*/share/help' -o -path '*/share/locale' -o -path '*/share/doc' \
    -o -path '*/share/man' -o -path '*/usr/games' \) -exec rm -rf {} +
for pair in "$@"; do  # half precision, as ultralytics saves its own checkpoints: half the bytes to carry
  (cd "$root" && python3 -m vision.gpu.slim "${pair%%:*}" "$gpu/weights/${pair##*:}")
done
cp "$root/vision/gpu/lease.sh" "$gpu/"
du -sh "$gpu"
# the tool carries the tracked tree too: over 64 MiB together, the call is refused (stage 63: 45 + 23 MB),
# so say what to set aside for it (the lease reads no model file)
tracked=$(cd "$root" && git ls-files -z | xargs -0 du -cb | tail -n 1 | cut -f 1)
packed=$(du -sb "$gpu" | cut -f 1)
if [ $((tracked + packed)) -gt $((64 * 1024 * 1024)) ]; then
  echo "tree $((tracked / 1000000)) MB + .gpu $((packed / 1000000)) MB is over the tool's 64 MiB: move models/*.onnx aside for the device call, then back"
fi
