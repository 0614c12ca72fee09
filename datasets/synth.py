"""Synthetic phone photos of mahjong hands, with YOLO labels and ground-truth hand JSON.

    python -m datasets.synth --out data/synth --n 20000 --seed 1 [--styles procedural,font_kai] [--size 1280]

Writes OUT/images/NAME.jpg, OUT/labels/NAME.txt, OUT/meta/NAME.json, OUT/data.yaml (see
ARCHITECTURE.md) and OUT/made_with.json (what drew the set: `made_with`). Scene k of a run is
`render_scene(scene_seed(seed, k), styles=the run's styles)`, so any image can be re-rendered alone
from its meta JSON (`rerender_scene`: its `seed`, and `style_pool` where the style was drawn from
several) by the same generator (its commit is in made_with.json).
"""

from __future__ import annotations

import sys

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python -m datasets.synth", "datasets.synth"))

import json
import math
import platform
import shutil
import signal
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.backgrounds import KINDS as SURFACES
from datasets.backgrounds import background
from datasets.clutter import DEFAULT_KINDS as CLUTTER_DEFAULT
from datasets.clutter import KINDS as CLUTTER_KINDS
from datasets.clutter import clutter_rng, draw_clutter
from datasets.faces import StyleUnavailableError, render_back
from datasets.ghosts import draw_ghosts, ghost_rng
from datasets.hands import (
    Dims,
    Group,
    Hand,
    Placed,
    add_distractors,
    lay_arbitrary,
    lay_hand,
    sample_hand,
)
from datasets.props import draw_props, draw_under_glass, prop_rng, under_glass_rng
from datasets.render import (
    Camera,
    Label,
    camera_effects,
    draw_shadows,
    draw_tiles,
    lighting,
    look_at,
    tile_geometry,
)
from datasets.styles import ART_DIR, STYLES, available_styles, style_faces
from scoring.console import OneLineParser
from vision.classes import BACK, BONUS_CODES, CLASS_INDEX, CLASSES, FLOWERS, SEASONS
from vision.lines import count_of
from vision.tile_set import rule_set_faces

SAMPLE_SAFE_STYLES: tuple[str, ...] = tuple(name for name, s in STYLES.items() if s.sample_safe)
MIP_HEIGHTS = (256, 128, 64, 32, 16)

# How often each class is drawn for arbitrary rows and distractors: winning hands already show
# suited tiles and honours a lot, so the rare classes (bonus tiles, backs, face, fly) get more.
_RARE = BONUS_CODES | {"fly", BACK}
CLASS_WEIGHTS = np.array([1.0 if code == BACK else 4.0 if code in _RARE else 1.0 for code in CLASSES])
CLASS_WEIGHTS /= CLASS_WEIGHTS.sum()

# What a scene is about: "hands" (winning hands and arbitrary rows, the detector's and classifier's
# data) or "bonus": close-ups of flowers and seasons among a few other tiles. Their corner numbers
# and names are the smallest marks a reader must make out; in "hands" scenes most are a few pixels
# tall or blurred away, so the second look (vision.train second-look-data) learns from these.
FOCUSES = ("hands", "bonus")
# "player": most photos from the player's side, the phone level; "any": the camera at any angle round
# the table and any roll, so the rows run every way across the frame as often as along it
AIMS = ("player", "any")
BONUS_WEIGHTS = np.array([12.0 if c in FLOWERS + SEASONS else 0.0 if c == BACK else 1.0 for c in CLASSES])
BONUS_WEIGHTS /= BONUS_WEIGHTS.sum()


class SynthError(ValueError):
    """Bad generator input (unknown style, bad size): one line for the user."""


@dataclass(frozen=True)
class SceneOptions:
    """What a scene is asked to be besides its seed and style: the longest side in px, the styles
    the style is drawn from (None: every installed one), `focus` (one of FOCUSES), the table top
    (`surface`, one of backgrounds.KINDS; None: drawn), `aim` (one of AIMS), the share of scenes
    given clutter and the kinds of clutter drawn (datasets/clutter.py)."""

    size: int = 1280
    styles: tuple[str, ...] | None = None
    focus: str = "hands"
    surface: str | None = None
    aim: str = "player"
    clutter: float = 0.0
    clutter_kinds: tuple[str, ...] = CLUTTER_DEFAULT

    def check(self, flags: str = "") -> None:
        """Raise SynthError, one line, on the first option a scene cannot be drawn with (the command
        line checks before any scene is drawn; `flags` "--" names its options)."""
        if not 160 <= self.size <= 8192:
            raise SynthError(f"{flags}size must be 160..8192 px, got {self.size}")
        if self.focus not in FOCUSES:
            raise SynthError(f"unknown focus {self.focus!r}; known: {', '.join(FOCUSES)}")
        if self.surface is not None and self.surface not in SURFACES:
            raise SynthError(f"unknown surface {self.surface!r}; known: {', '.join(SURFACES)}")
        if self.aim not in AIMS:
            raise SynthError(f"unknown aim {self.aim!r}; known: {', '.join(AIMS)}")
        if not 0.0 <= self.clutter <= 1.0:
            raise SynthError(f"{flags}clutter is a share of scenes, 0..1, got {self.clutter}")
        unknown = [k for k in self.clutter_kinds if k not in CLUTTER_KINDS]
        if not self.clutter_kinds or unknown:
            raise SynthError(
                f"{_unknown('clutter kind', unknown) if unknown else 'no clutter kind named'}; "
                f"known: {', '.join(CLUTTER_KINDS)}"
            )

    def meta_fields(self) -> dict[str, Any]:
        """The options a scene's meta records, each only where it is not the default, so that the
        metas of scenes drawn before an option existed read the same."""
        fields: dict[str, Any] = {}
        if self.focus != "hands":
            fields["focus"] = self.focus
        if self.surface is not None:
            fields["surface"] = self.surface
        if self.aim != "player":
            fields["aim"] = self.aim
        if self.clutter > 0:
            fields["clutter"] = self.clutter
            if self.clutter_kinds != CLUTTER_DEFAULT:
                fields["clutter_kinds"] = list(self.clutter_kinds)
        return fields

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> SceneOptions:
        """The options a scene's meta JSON was drawn with (`meta_fields`, its size and `style_pool`)."""
        pool = meta.get("style_pool")
        return cls(
            size=max(int(meta["width"]), int(meta["height"])),
            styles=tuple(pool) if pool else None,
            focus=str(meta.get("focus", "hands")),
            surface=meta.get("surface"),
            aim=str(meta.get("aim", "player")),
            clutter=float(meta.get("clutter", 0.0)),
            clutter_kinds=tuple(meta.get("clutter_kinds", CLUTTER_DEFAULT)),
        )


def _unknown(noun: str, names: Sequence[str]) -> str:
    """ "unknown style foo" / "unknown styles foo, bar": as a player reads it, not "style(s)"."""
    return f"unknown {noun if len(names) == 1 else noun + 's'} {', '.join(names)}"


def list_styles() -> list[str]:
    """The styles whose art is installed on this machine."""
    return available_styles()


def scene_seed(seed: int, index: int) -> int:
    """The seed of scene `index` of a run started with `seed` (independent streams per scene)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, dtype=np.uint32)[0])


@lru_cache(maxsize=48)  # 13 MB each; a randomized set is rarely drawn twice, so few are kept
def _mips(style: str, variant: int = 0) -> dict[str, list[np.ndarray]]:
    """Each face pre-shrunk to MIP_HEIGHTS, so warping never samples a sprite far bigger than the tile."""
    out: dict[str, list[np.ndarray]] = {}
    for code, face in style_faces(style, variant).items():
        levels = []
        for h in MIP_HEIGHTS:
            w = max(1, round(face.shape[1] * h / face.shape[0]))
            levels.append(
                face if h == face.shape[0] else cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA)
            )
        out[code] = levels
    return out


@lru_cache(maxsize=64)
def _back_mips(colour: tuple[int, int, int]) -> list[np.ndarray]:
    face = render_back(colour)
    return [
        cv2.resize(face, (round(face.shape[1] * h / face.shape[0]), h), interpolation=cv2.INTER_AREA)
        for h in MIP_HEIGHTS
    ]


def _close_tile_px(rng: np.random.Generator) -> float:
    """Median tile height of a close-up: 80-300 px, as when a player photographs a few tiles."""
    return float(math.exp(rng.uniform(math.log(80), math.log(300))))


def _tile_px(rng: np.random.Generator) -> float:
    """Median tile height on screen: mostly 45-130 px, with tails to 20 px and to 360 px.

    The large tail is the close-up: players often photograph a few tiles filling the frame,
    and a detector that never saw tiles that big splits them into parts.
    """
    r = rng.random()
    lo, hi = (45, 130) if r < 0.5 else ((20, 45) if r < 0.7 else (110, 360))
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _jitter(colour: Sequence[int], rng: np.random.Generator, amount: float) -> np.ndarray:
    return np.clip(np.array(colour, np.float32) * rng.uniform(1 - amount, 1 + amount, 3), 0, 255)


def _angle(quad: np.ndarray) -> float:
    """In-plane angle (deg, counter-clockwise, 0 = upright) of a face quad TL, TR, BR, BL."""
    up = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
    a = math.degrees(math.atan2(-up[1], up[0])) - 90.0
    return float((a + 180.0) % 360.0 - 180.0)


def _resolve_style(
    style: str | None, rng: np.random.Generator, choices: Sequence[str] | None
) -> tuple[str, list[str] | None]:
    """The scene's style, and the pool it was drawn from (None where `style` was given: no draw)."""
    if style is not None:
        if style not in STYLES:
            raise SynthError(f"unknown style {style!r}; known styles: {', '.join(STYLES)}")
        return style, None
    pool = list(choices) if choices else list_styles()
    if not pool:
        raise SynthError("no art style is installed; run `bash datasets/install_art.sh`")
    return str(pool[int(rng.integers(len(pool)))]), pool


def _frame_size(rng: np.random.Generator, size: int) -> tuple[int, int]:
    """(width, height): 4:3 mostly, some 16:9 and square; a third portrait."""
    portrait = rng.random() < 0.35
    aspect = float(rng.choice([4 / 3, 4 / 3, 16 / 9, 1.0]))
    w, h = size, round(size / aspect)
    return (h, w) if portrait else (w, h)


def _lay_table(
    rng: np.random.Generator, focus: str = "hands"
) -> tuple[Dims, Hand | None, list[Placed], list[Group]]:
    """Tile size, then a laid-out winning hand with distractors (72 %) or arbitrary tiles; for
    `focus` "bonus", rows and heaps of mostly flowers and seasons."""
    tw = rng.uniform(24, 30)
    dims = Dims(
        w=tw, h=tw * rng.uniform(1.22, 1.5), t=tw * rng.uniform(0.55, 0.8), ivory=rng.uniform(0.45, 0.85)
    )
    hand: Hand | None = None
    if focus == "bonus":
        builder = lay_arbitrary(rng, dims, list(CLASSES), BONUS_WEIGHTS)
    elif rng.random() < 0.72:
        hand = sample_hand(rng)
        builder = lay_hand(hand, rng, dims)
        # the discards around a hand are of its game's set: no face or fly beside a Singapore hand
        in_set = rule_set_faces(hand.rules) | {BACK}
        add_distractors(builder, rng, list(CLASSES), CLASS_WEIGHTS * [c in in_set for c in CLASSES])
    else:
        builder = lay_arbitrary(rng, dims, list(CLASSES), CLASS_WEIGHTS)
    return dims, hand, builder.tiles, builder.groups


def _aim_camera(
    rng: np.random.Generator,
    tiles: list[Placed],
    dims: Dims,
    w: int,
    h: int,
    close: bool = False,
    aim: str = "player",
) -> tuple[Camera, np.ndarray]:
    """A phone camera aimed at the tiles (sometimes off-centre, so rows run out of the frame)."""
    xs = np.array([t.x for t in tiles])
    ys = np.array([t.y for t in tiles])
    span = np.array([np.ptp(xs) + dims.w, np.ptp(ys) + dims.h])
    target = np.array([(xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2, 0.0])
    target[:2] += rng.normal(0, 0.12, 2) * span
    f = rng.uniform(0.7, 1.05) * max(w, h)
    tilt = math.radians(rng.uniform(0, 40) if rng.random() < 0.85 else rng.uniform(0, 12))
    want_px = _close_tile_px(rng) if close else _tile_px(rng)
    dist = f * dims.h / want_px
    if aim == "any":
        azimuth = rng.uniform(-math.pi, math.pi)
        roll = rng.uniform(-math.pi, math.pi)
    else:  # mostly from the player's side of the table; otherwise from anywhere
        r = rng.random()
        azimuth = math.pi / 2 + (rng.normal(0, 0.3) if r < 0.6 else rng.uniform(-math.pi, math.pi))
        r = rng.random()
        if r < 0.6:
            roll = rng.normal(0, 0.08)
        elif r < 0.85:
            roll = rng.uniform(-math.pi, math.pi)
        else:  # the phone held sideways
            roll = float(rng.choice([-1, 1])) * math.pi / 2 + rng.normal(0, 0.05)
    cam = look_at(target, tilt, azimuth, dist, roll, f, w, h)
    # zoom so the median tile (its whole silhouette) is `want_px` tall on screen, whatever the tilt
    heights = [np.ptp(tile_geometry(t, dims, cam).rings[:, :, 1]) for t in tiles]
    zoom = want_px / max(float(np.median(heights)), 1e-6)
    return look_at(target, tilt, azimuth, dist, roll, f * zoom, w, h), target


def render_scene(
    seed: int,
    style: str | None = None,
    size: int = 1280,
    styles: Sequence[str] | None = None,
    focus: str = "hands",
    surface: str | None = None,
    aim: str = "player",
    clutter: float = 0.0,
    clutter_kinds: Sequence[str] = CLUTTER_DEFAULT,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Render one scene: (H, W, 3) uint8 RGB photo and its meta dict (ARCHITECTURE.md).

    `style` fixes the art; otherwise one of `styles` (default: every installed style) is drawn
    from the seed. The rest are `SceneOptions`' (clutter kinds by default chrome, bags and paper).
    Same seed, style and options give the same image.
    """
    options = SceneOptions(
        size, tuple(styles) if styles else None, focus, surface, aim, clutter, tuple(clutter_kinds)
    )
    return render_with(seed, style, options)


def render_with(seed: int, style: str | None, options: SceneOptions) -> tuple[np.ndarray, dict[str, Any]]:
    """`render_scene` with its options as one value; raises SynthError on options it cannot draw."""
    options.check()
    size, focus, aim = options.size, options.focus, options.aim
    rng = np.random.default_rng(seed)
    style, pool = _resolve_style(style, rng, options.styles)
    spec = STYLES[style]
    # drawn only for style families, so single-set styles keep their scenes seed for seed
    variant = int(rng.integers(spec.variants)) if spec.variants > 1 else 0
    try:
        mips = _mips(style, variant)
    except StyleUnavailableError as exc:
        raise SynthError(str(exc)) from exc

    w, h = _frame_size(rng, size)
    dims, hand, tiles, groups = _lay_table(rng, focus)
    cam, target = _aim_camera(rng, tiles, dims, w, h, close=focus == "bonus", aim=aim)
    geoms = [tile_geometry(t, dims, cam) for t in tiles]
    # a standing tile seen from behind shows its back: that is what gets labelled
    # (its face is unknown to a reader, so the hand is not complete in the picture)
    behind = {i for i, g in enumerate(geoms) if not g.top_visible}
    tiles = [replace(t, code=BACK) if i in behind else t for i, t in enumerate(tiles)]

    img, bg_kind = background(rng, h, w, options.surface)
    tile_px = _tile_size_px(geoms)
    props = draw_under_glass(img, bg_kind, under_glass_rng(seed), tile_px)
    props += draw_props(img, prop_rng(seed), tile_px)
    props += draw_clutter(img, bg_kind, clutter_rng(seed), tile_px, options.clutter, options.clutter_kinds)
    light = rng.uniform(-math.pi, math.pi)
    # the shadow falls away from the light: that table direction, seen through the camera
    ends, _ = cam.project(np.array([target, target + 30 * np.array([-math.cos(light), -math.sin(light), 0])]))
    away = ends[1] - ends[0]
    draw_shadows(img, geoms, rng, away / max(float(np.linalg.norm(away)), 1e-6))
    back_colour = tuple(int(c) for c in spec.backs[int(rng.integers(len(spec.backs)))])
    body = _jitter(spec.body[int(rng.integers(len(spec.body)))], rng, 0.04)
    before_tiles = img.copy()
    labels = draw_tiles(
        img,
        tiles,
        geoms,
        mips,
        _back_mips(back_colour),
        body,
        np.array(back_colour, np.float32),
        rng,
        light,
    )
    props += draw_ghosts(img, before_tiles, bg_kind, ghost_rng(seed), tile_px)
    lighting(img, rng)
    photo = camera_effects(img, rng)

    meta = _meta(seed, style, w, h, tiles, groups, labels, hand, behind)
    meta["background"] = bg_kind
    meta["props"] = [{"kind": p.kind, "xyxy": [round(v, 1) for v in p.xyxy]} for p in props]
    if spec.variants > 1:
        meta["variant"] = variant
    meta.update(options.meta_fields())
    if pool is not None:
        # the draw of the style moves the seed's stream: the pool it was drawn from is part of the scene
        meta["style_pool"] = pool
    return photo, meta


def rerender_scene(meta: Mapping[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
    """A scene rendered again from its meta JSON alone: its seed, style (or the pool it was drawn from),
    size, focus, surface, aim, clutter and its kinds. The art installed must be the same."""
    options = SceneOptions.from_meta(meta)
    return render_with(int(meta["seed"]), None if options.styles else str(meta["style"]), options)


def _tile_size_px(geoms: Sequence[Any]) -> float:
    """The median long side of the tiles' faces as the camera sees them (props are sized by it)."""
    if not geoms:
        return 100.0
    spans = [float((g.top.max(axis=0) - g.top.min(axis=0)).max()) for g in geoms]
    return max(8.0, float(np.median(spans)))


def _meta(
    seed: int,
    style: str,
    w: int,
    h: int,
    tiles: list[Placed],
    groups: Iterable[Any],
    labels: list[Any],
    hand: Hand | None,
    behind: set[int] | None = None,
) -> dict[str, Any]:
    behind = behind or set()
    new_index = {lab.index: k for k, lab in enumerate(labels)}
    out_tiles = []
    for lab in labels:
        t = tiles[lab.index]
        quad = lab.quad
        out_tiles.append(
            {
                "code": t.code,
                "xyxy": [round(v, 1) for v in lab.xyxy],
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
                "angle": round(_angle(quad), 1),
                "face_up": t.face_up and t.code != BACK,
                "claimed": t.claimed,
                "group": -1,
                "visible": round(lab.visible, 3),
                "standing": t.standing,
            }
        )
    out_groups: list[dict[str, Any]] = []
    complete = True
    for grp in groups:
        members = [new_index[i] for i in grp.tiles if i in new_index]
        if grp.kind != "distractor" and len(members) < len([i for i in grp.tiles if not tiles[i].hidden]):
            complete = False
        if grp.kind != "distractor" and behind & set(grp.tiles):
            complete = False
        if not members:
            continue
        for m in members:
            out_tiles[m]["group"] = len(out_groups)
        out_groups.append({"kind": grp.kind, "meld": grp.meld, "concealed": grp.concealed, "tiles": members})
    return {
        "image": "",
        "width": w,
        "height": h,
        "style": style,
        "seed": seed,
        "tiles": out_tiles,
        "groups": out_groups,
        "hand": hand.as_json() if hand is not None else None,
        "rules": hand.rules if hand is not None else None,
        # True when every tile of the hand is labelled and readable (none cut off by the frame,
        # none standing with its back to the camera)
        "complete": complete and hand is not None,
    }


def yolo_lines(meta: dict[str, Any]) -> list[str]:
    w, h = meta["width"], meta["height"]
    lines = []
    for t in meta["tiles"]:
        x0, y0, x1, y1 = t["xyxy"]
        lines.append(
            f"{CLASS_INDEX[t['code']]} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} "
            f"{(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        )
    return lines


def write_scene(out: Path, name: str, photo: np.ndarray, meta: dict[str, Any]) -> None:
    meta = dict(meta, image=f"images/{name}.jpg")
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95])
    if not ok:
        raise SynthError(f"could not encode {name}.jpg")
    (out / "images" / f"{name}.jpg").write_bytes(buf.tobytes())
    (out / "labels" / f"{name}.txt").write_text("".join(line + "\n" for line in yolo_lines(meta)))
    (out / "meta" / f"{name}.json").write_text(json.dumps(meta, ensure_ascii=False))


def write_data_yaml(out: Path, names: list[str], val_every: int) -> None:
    val = [n for k, n in enumerate(names) if val_every and k % val_every == 0]
    in_val = set(val)
    train = [n for n in names if n not in in_val] or names
    (out / "train.txt").write_text("".join(f"./images/{n}.jpg\n" for n in train))
    (out / "val.txt").write_text("".join(f"./images/{n}.jpg\n" for n in (val or train)))
    names_yaml = "".join(f"  {i}: {json.dumps(c)}\n" for i, c in enumerate(CLASSES))
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: train.txt\nval: val.txt\nnc: {len(CLASSES)}\nnames:\n{names_yaml}"
    )


# What a seed's scene depends on besides the command: the generator's code (stage 70: HELDOUT3
# rendered before c4a2d14 held other hands than after it, and a run's figures were compared across
# the two) and, by a pixel here and there, the drawing packages (OpenCV 4.14 and 5.1 put one ghost
# tile's box of twelve scenes a pixel apart). So a set says what drew it.
DRAWING_PACKAGES = ("numpy", "opencv-python", "pillow")
REPOSITORY = Path(__file__).resolve().parent.parent


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def installed_fonts() -> list[str]:
    """The Debian font packages installed, `name version` each (empty where there is no dpkg)."""
    dpkg_query = shutil.which("dpkg-query")
    if dpkg_query is None:
        return []
    listed = subprocess.run(
        [dpkg_query, "-W", "-f", "${db:Status-Abbrev} ${Package} ${Version}\n", "fonts-*"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return sorted(" ".join(line.split()[1:]) for line in listed.splitlines() if line.startswith("ii"))


def generator_commit() -> str | None:
    """The commit the generator's code is at, `+` where datasets/ has changes beside it; None outside
    a git checkout."""
    git = shutil.which("git")
    if git is None:
        return None
    head = subprocess.run([git, "-C", str(REPOSITORY), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return None
    changed = subprocess.run(
        [git, "-C", str(REPOSITORY), "status", "--porcelain", "--", "datasets"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return head.stdout.strip() + ("+" if changed else "")


def made_with(art_dir: Path | None = None) -> dict[str, Any]:
    """The generator's commit, Python's and the drawing packages' versions, the art packages unpacked
    in `art_dir` (the names of its .deb and .whl files carry their versions) and the font packages
    installed, so that two renders of one command can be compared."""
    art = [] if art_dir is None else [*art_dir.glob("debs/*.deb"), *art_dir.glob("wheels/*.whl")]
    return {
        "commit": generator_commit(),
        "python": platform.python_version(),
        "packages": {name: _version(name) for name in DRAWING_PACKAGES},
        "art": sorted(path.name for path in art),
        "fonts": installed_fonts(),
    }


def _progress(n: int) -> Any:
    try:
        from tqdm import tqdm

        return tqdm(total=n, unit="img", file=sys.stderr)
    except ImportError:  # tqdm is only in the train extra
        return None


def draw_boxes(photo: np.ndarray, meta: dict[str, Any]) -> np.ndarray:
    """The photo with each label's box, code and face outline drawn on (to check labels by eye)."""
    out = photo.copy()
    colours = {"concealed": (255, 60, 60), "meld": (60, 200, 255), "bonus": (255, 220, 0)}
    for t in meta["tiles"]:
        kind = meta["groups"][t["group"]]["kind"] if t["group"] >= 0 else "distractor"
        colour = colours.get(kind, (200, 200, 200))
        x0, y0, x1, y1 = (round(v) for v in t["xyxy"])
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 1)
        cv2.polylines(out, [np.round(np.array(t["quad"])).astype(np.int32)], True, (0, 255, 0), 1)
        cv2.putText(out, t["code"], (x0 + 2, y0 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1)
    return out


def _render_one(job: tuple[Path, int, int, bool, SceneOptions]) -> str:
    out, seed, k, preview, options = job
    name = f"{k:06d}"
    photo, meta = render_with(scene_seed(seed, k), None, options)
    write_scene(out, name, photo, meta)
    if preview:
        (out / "preview").mkdir(exist_ok=True)
        marked = cv2.cvtColor(draw_boxes(photo, meta), cv2.COLOR_RGB2BGR)
        cv2.imwrite(str(out / "preview" / f"{name}.jpg"), marked, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return name


def worker_pool(workers: int) -> Any:
    """The processes that render a run's scenes, each leaving Ctrl-C to the parent."""
    import multiprocessing

    return multiprocessing.get_context("spawn").Pool(workers, initializer=leave_ctrl_c_to_the_parent)


def leave_ctrl_c_to_the_parent() -> None:
    """A worker's start: Ctrl-C reaches every process of the terminal's group, and each worker printed
    its own KeyboardInterrupt traceback above the run's one line; the parent stops them instead."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _render_all(jobs: list[tuple[Path, int, int, bool, SceneOptions]], workers: int, bar: Any) -> list[str]:
    names = []
    if workers > 1:
        with worker_pool(workers) as pool:
            for name in pool.imap_unordered(_render_one, jobs, chunksize=4):
                names.append(name)
                if bar is not None:
                    bar.update(1)
    for job in jobs if workers <= 1 else []:
        names.append(_render_one(job))
        if bar is not None:
            bar.update(1)
    return names


def generate(
    out: Path,
    n: int,
    seed: int,
    options: SceneOptions,
    start: int = 0,
    val_every: int = 10,
    workers: int = 1,
    preview: bool = False,
) -> list[str]:
    """Render scenes start..start+n-1 into `out` (each scene's seed depends only on seed and index)."""
    for sub in ("images", "labels", "meta"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    bar = _progress(n)
    jobs = [(out, seed, k, preview, options) for k in range(start, start + n)]
    try:
        names = _render_all(jobs, workers, bar)
    finally:  # the bar's line ended, so that a Ctrl-C's line stands on its own
        if bar is not None:
            bar.close()
    all_names = sorted(p.stem for p in (out / "images").glob("*.jpg"))
    write_data_yaml(out, all_names, val_every)
    (out / "made_with.json").write_text(json.dumps(made_with(ART_DIR), indent=1) + "\n")
    return names


def parse_styles(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:  # `--styles ""` (a variable left empty) is no request for every style
        raise SynthError("--styles names no style; leave it out for every installed style")
    unknown = [s for s in names if s not in STYLES]
    if unknown:
        raise SynthError(f"{_unknown('style', unknown)}; known: {', '.join(STYLES)}")
    missing = [STYLES[s].missing() for s in names if STYLES[s].missing()]
    if missing:
        raise SynthError(str(missing[0]))
    return names


# what --help and docs/datasets.md say of the exit (an audit: a user could not tell a run cut short)
EXIT_STATUS = (
    "Exit status: 0 written (one line on stdout says where); 2 with one line on stderr when the command"
    " line is wrong, a style is not installed or the folder cannot be written; 130 interrupted (Ctrl-C)."
)


def out_folder(given: str | None) -> Path:
    """The folder `--out` names. Raises SynthError, one line, where it names none or a file: an empty
    name (a shell variable left unset) wrote a whole set into the current folder (an audit: into the
    repository itself)."""
    if given is None:
        raise SynthError("--out DIR is required")
    if not given.strip():
        raise SynthError("--out names no folder (an empty name would write into the current folder)")
    out = Path(given)
    if out.exists() and not out.is_dir():
        raise SynthError(f"--out {given} is a file, not a folder")
    return out


def count_problem(n: int, start: int, seed: int) -> str | None:
    """The one flag of `--n`, `--start` and `--seed` that is out of range, named with its value (an
    audit: one line listing all three left the user to find which was wrong), or None."""
    if n < 1:
        return f"--n must be >= 1, got {n}"
    for flag, value in (("--start", start), ("--seed", seed)):
        if value < 0:
            return f"{flag} must be >= 0, got {value}"
    return None


def os_error_line(error: OSError) -> str:
    """A file-system error as the user's one line, its file named, not Python's `[Errno 20] ...`."""
    if error.filename is not None and error.strerror:
        return f"cannot write {error.filename}: {error.strerror}"
    return f"cannot write the set: {error.strerror or error}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = OneLineParser(
        prog="python -m datasets.synth", description=__doc__.split("\n")[0], epilog=EXIT_STATUS
    )
    parser.add_argument("--out", metavar="DIR", help="output folder (created; required)")
    parser.add_argument("--n", type=int, default=100, help="number of images (default 100)")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the run: the same seed draws the same scenes (default 0)"
    )
    parser.add_argument(
        "--styles", help="comma-separated art styles (default: all installed; --list-styles lists them)"
    )
    parser.add_argument(
        "--size", type=int, default=1280, help="longest image side in px, 160..8192 (default 1280)"
    )
    parser.add_argument(
        "--start", type=int, default=0, help="index of the first image (to extend a set; default 0)"
    )
    parser.add_argument(
        "--val-every",
        type=int,
        default=10,
        help="every k-th image goes to val.txt (default 10; 0: no val split, val.txt lists the training"
        " images)",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes rendering in parallel (default 1)")
    parser.add_argument("--preview", action="store_true", help="also write OUT/preview/ with boxes drawn")
    parser.add_argument("--list-styles", action="store_true", help="print installed styles and exit")
    parser.add_argument(
        "--focus",
        default="hands",
        help="hands (default) or bonus: close-ups of mostly flowers and seasons, for the second look",
    )
    parser.add_argument("--surface", help=f"table top of every scene (default: drawn): {', '.join(SURFACES)}")
    parser.add_argument(
        "--aim",
        default="player",
        help="player (default: mostly from the player's side, the phone level) or any (any angle and roll)",
    )
    parser.add_argument(
        "--clutter",
        type=float,
        default=0.0,
        help="share of scenes (0..1, default 0) given clutter of --clutter-kinds",
    )
    parser.add_argument(
        "--clutter-kinds",
        default=",".join(CLUTTER_DEFAULT),
        help=f"comma-separated kinds of clutter drawn (default {','.join(CLUTTER_DEFAULT)}; "
        f"known: {', '.join(CLUTTER_KINDS)})",
    )
    args = parser.parse_args(argv)
    try:
        if args.list_styles:
            for name in STYLES:
                s = STYLES[name]
                state = "installed" if s.missing() is None else "missing"
                print(f"{name}\t{state}\tsample_safe={s.sample_safe}\t{s.licence}")
            return 0
        out = out_folder(args.out)
        problem = count_problem(args.n, args.start, args.seed)
        if problem:
            raise SynthError(problem)
        if args.val_every < 0:
            raise SynthError(f"--val-every must be >= 0 (0: no val split), got {args.val_every}")
        styles = parse_styles(args.styles)
        options = SceneOptions(
            size=args.size,
            styles=tuple(styles) if styles else None,
            focus=args.focus,
            surface=args.surface,
            aim=args.aim,
            clutter=args.clutter,
            clutter_kinds=tuple(k.strip() for k in args.clutter_kinds.split(",") if k.strip()),
        )
        options.check("--")
        if not 1 <= args.workers <= 256:
            raise SynthError(f"--workers must be 1..256, got {args.workers}")
        names = generate(
            out, args.n, args.seed, options, args.start, args.val_every, args.workers, args.preview
        )
    except SynthError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {os_error_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # a long run stopped by hand: one line, not a traceback
        print(
            f"stopped (Ctrl-C): the scenes written so far are in {args.out};"
            " data.yaml is written when a run ends",
            file=sys.stderr,
        )
        return 130
    # without tqdm (the train extra) a run said nothing at all: where the set went, said once
    print(f"wrote {count_of(len(names), 'scene')} to {out}: images/, labels/, meta/ and data.yaml")
    return 0


def render_placed(
    tiles: list[Placed],
    dims: Dims,
    cam: Camera,
    style: str,
    width: int,
    height: int,
    background_rgb: tuple[int, int, int] = (40, 90, 60),
    seed: int = 0,
) -> tuple[np.ndarray, list[Label]]:
    """Draw given tiles on a plain table, no shadows or camera effects (tests compare boxes with pixels)."""
    rng = np.random.default_rng(seed)
    spec = STYLES[style]
    img = np.empty((height, width, 3), np.float32)
    img[:] = background_rgb
    geoms = [tile_geometry(t, dims, cam) for t in tiles]
    back = tuple(int(c) for c in spec.backs[0])
    labels = draw_tiles(
        img,
        tiles,
        geoms,
        _mips(style),
        _back_mips(back),
        np.array(spec.body[0], np.float32),
        np.array(back, np.float32),
        rng,
    )
    return np.clip(img, 0, 255).astype(np.uint8), labels
