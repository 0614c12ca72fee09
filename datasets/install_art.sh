#!/usr/bin/env bash
# Install the art sources of the synthetic-data generator (issue 3) from Debian apt and PyPI,
# and unpack the game tilesets into a cache OUTSIDE git (default datasets/art/, gitignored).
# Nothing installed here is ever committed: several sources are GPL.
#
#   bash datasets/install_art.sh            # needs root for apt-get install (fonts)
#   MAHJONG_ART_DIR=~/.cache/mahjong-art bash datasets/install_art.sh
#   MAHJONG_ART_SKIP_APT=1 bash datasets/install_art.sh   # fonts already there: no apt install
set -euo pipefail

# it takes no arguments: --help is answered, and anything else refused, before apt or a download runs
case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: bash datasets/install_art.sh (no arguments; the settings are MAHJONG_ART_DIR and MAHJONG_ART_SKIP_APT: --help)" >&2; exit 2 ;;
esac

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
art="${MAHJONG_ART_DIR:-$here/art}"
mkdir -p "$art/debs" "$art/pkgs"

sudo_cmd=""
if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi

# Fonts are installed system-wide (fontconfig finds them); the game packages are only unpacked,
# so their GTK/KDE dependencies are never pulled in.
# The second line feeds the randomised style (datasets/randomized.py): more hands for the characters.
fonts=(fonts-noto-cjk fonts-arphic-ukai fonts-arphic-uming fonts-symbola fonts-noto-color-emoji
       fonts-cwtex-kai
       fonts-arphic-bkai00mp fonts-ipafont-mincho fonts-ipafont-gothic fonts-hanazono fonts-lxgw-wenkai
       fonts-arphic-bsmi00lp)
games=(kdegames-mahjongg-data-kf5 gnome-mahjongg xmahjongg)

if [ -z "${MAHJONG_ART_SKIP_APT:-}" ]; then
  $sudo_cmd apt-get update -qq
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      -o DPkg::Lock::Timeout=300 "${fonts[@]}" librsvg2-bin >/dev/null
fi

(
  cd "$art/debs"
  for pkg in "${games[@]}"; do
    if ! ls "${pkg}"_*.deb >/dev/null 2>&1; then apt-get download "$pkg" >/dev/null; fi
  done
)
for deb in "$art"/debs/*.deb; do
  name="$(basename "$deb" | cut -d_ -f1)"
  if [ ! -d "$art/pkgs/$name" ]; then dpkg-deb -x "$deb" "$art/pkgs/$name"; fi
done

# CC0 tile PNGs (riichi set) shipped inside the PyPI package mahjong-learner: fetched as a wheel,
# never installed; only its tiles_img/ folder is unpacked into the cache.
if [ ! -d "$art/pkgs/mahjong-learner/tiles_img" ]; then
  python3 -m pip download --no-deps --only-binary=:all: -q -d "$art/wheels" mahjong-learner || \
    echo "install_art: mahjong-learner wheel not available; its style is skipped" >&2
  for whl in "$art"/wheels/mahjong_learner-*.whl; do
    [ -f "$whl" ] && python3 - "$whl" "$art/pkgs/mahjong-learner" <<'PY'
import sys, zipfile
from pathlib import Path
whl, dest = sys.argv[1], Path(sys.argv[2])
with zipfile.ZipFile(whl) as z:
    for name in z.namelist():
        if "/tiles_img/" in name and name.endswith(".png"):
            target = dest / "tiles_img" / Path(name).name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(name))
PY
  done
fi

cd "$here/.."
# The styles can only be listed once the project's own dependencies are installed (a fresh machine
# runs this script first): say so rather than end on an import error.
if python3 -c "import cv2, numpy, PIL" >/dev/null 2>&1; then
  echo "install_art: done. Styles:"
  python3 -m datasets.synth --list-styles
else
  echo "install_art: done. To list the styles, install the project first (pip install -e .)," \
    "then run: python3 -m datasets.synth --list-styles"
fi
