"""Building the rank look (`vision.rank_look`) at training time: corner windows of the flowers and
seasons the generator draws, labelled with the rank their number shows (or none), a small network
trained on them (torch) and exported to ONNX. Needs the `train` extra; the windows alone need only
the generator (the tests cut some).

    python -m vision.train rank-look --out DIR [--variants N --seed S --epochs E]

The generator knows where each numbered set prints its number (`Layout.bonus_number_box`, the
seasons' `season_number_box`), so every window is labelled exactly: the rank where the number's box
lies inside the window, none where it lies outside (windows that cut it are left out). Each face is
first made to look as the look will see it in a photo: set on a tile's rim, cut from a box a little
off and turned a few degrees (a detection and `vision.deskew` are never exact), shrunk to a photo's
tile size, blurred, noised and compressed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from datasets.faces import (
    BONUS_CODES,
    FACE_H,
    FACE_W,
    FaceRecipe,
    StyleUnavailableError,
    bonus_number_box,
    render_face,
)
from datasets.randomized import installed_fonts, random_recipe
from datasets.styles import style_faces
from vision.glyphs import WINDOW_WIDTH, face_windows
from vision.rank_look import RANKS, window_input
from vision.sidecar import RankLookConfig

if TYPE_CHECKING:  # torch is imported only at training time (the `train` extra)
    import torch

# a window shows a rank where this share of the number's box lies inside it, none where at most
# NONE_INSIDE does; the windows between are left out (half a number is neither)
RANK_INSIDE = 0.75
NONE_INSIDE = 0.1
# the face's height in the photo, in pixels (log-uniform): from a far hand to a close-up
FACE_PX = (30.0, 240.0)
# a number less tall than this in the window the look reads (its side scaled to the look's size)
# is labelled neither way: nothing can read it, and a blur called a rank teaches the look to guess
LEGIBLE_PX = 7.0
# the colours a face's rim and the tile's side show in the box: ivory and the usual backs
RIMS = ((236, 232, 214), (210, 205, 190), (60, 120, 80), (50, 90, 160), (200, 170, 60))
# windows without a number outnumber those with one four to one: this share of them is kept
NONE_KEPT = 0.5
# fixed training styles whose flowers and seasons print no number: their pictures and framed names
# are what the look must learn to leave be (the randomised sets alone left it reading a tree as 4);
# kmahjongg_traditional's winter carries a 4, so it is left out
UNNUMBERED: dict[str, tuple[str, ...]] = {
    "kmahjongg_classic": BONUS_CODES,
    "gnome_smooth": BONUS_CODES,
    "gnome_postmodern": BONUS_CODES,
    "kmahjongg_traditional": tuple(code for code in BONUS_CODES if code != "S4"),
}
ALL_TURNS = (0, 1, 2, 3)
VARIANT_BASE = 500_000  # training sets' variants, away from the scenes' (0-65535)
INPUT, OUTPUT, OPSET = "images", "probs", 12
RANK_FILE = "tile_rank_look.onnx"


@dataclass(frozen=True)
class WindowCut:
    """How a face's corner windows are cut for the look: at the face's quarter `turns`, each
    `share_wide` of the face wide (`RankLookConfig.window_width`), scaled to `size` square."""

    size: int = 32
    turns: tuple[int, ...] = ALL_TURNS
    share_wide: float = WINDOW_WIDTH


class RankLookError(ValueError):
    """Training settings or windows that cannot make a rank look (one line)."""


def number_box_px(recipe: FaceRecipe, code: str) -> tuple[float, float, float, float] | None:
    """Where face `code` of `recipe` prints its number, in the rendered face's pixels; None if unnumbered."""
    layout = recipe.layout
    if code not in BONUS_CODES or not layout.bonus_numbers:
        return None
    box = bonus_number_box(layout, code)
    inset_w, inset_h = layout.art_inset
    left, top = FACE_W * (1.0 - inset_w) / 2.0, FACE_H * (1.0 - inset_h) / 2.0
    return (
        left + box[0] * FACE_W * inset_w,
        top + box[1] * FACE_H * inset_h,
        left + box[2] * FACE_W * inset_w,
        top + box[3] * FACE_H * inset_h,
    )


def photo_face(
    face_rgba: np.ndarray, box: tuple[float, float, float, float] | None, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """`face_rgba` as a deskewed face cut from a photo: (h, w, 3) uint8 RGB, and the number box's
    mask (h, w) float32 in 0..1 carried through the same warp (all zero when `box` is None)."""
    pad = round(rng.uniform(0.04, 0.12) * FACE_W)
    rim = np.clip(np.array(RIMS[int(rng.integers(len(RIMS)))]) + rng.normal(0, 12, 3), 0, 255)
    canvas = np.empty((FACE_H + 2 * pad, FACE_W + 2 * pad, 3), np.float32)
    canvas[:] = rim
    alpha = face_rgba[..., 3:4].astype(np.float32) / 255.0
    inner = canvas[pad : pad + FACE_H, pad : pad + FACE_W]
    canvas[pad : pad + FACE_H, pad : pad + FACE_W] = alpha * face_rgba[..., :3] + (1 - alpha) * inner
    mask = np.zeros(canvas.shape[:2], np.float32)
    if box is not None:
        x0, y0, x1, y1 = (round(v) + pad for v in box)
        mask[y0:y1, x0:x1] = 1.0
    out_h = round(np.exp(rng.uniform(*np.log(FACE_PX))))
    out_w = max(8, round(out_h * FACE_W / FACE_H * rng.uniform(0.92, 1.08)))
    # the face's own rectangle, cut a little off: shrunk as the look shrinks the box, scaled,
    # shifted and turned as a detection and the deskew leave it
    shrink = 0.03 + rng.uniform(-0.04, 0.04)
    scale = rng.uniform(0.93, 1.07)
    angle = np.radians(float(np.clip(rng.normal(0.0, 2.0), -6.0, 6.0)))
    src_w, src_h = FACE_W * (1 - 2 * shrink) * scale, FACE_H * (1 - 2 * shrink) * scale
    centre = np.array([pad + FACE_W / 2, pad + FACE_H / 2]) + rng.uniform(-0.05, 0.05, 2) * [FACE_W, FACE_H]
    c, s = np.cos(angle), np.sin(angle)
    # output (u, v) -> canvas: centre + R diag(src / out) ((u, v) - out / 2)
    linear = np.array([[c, -s], [s, c]]) @ np.diag([src_w / out_w, src_h / out_h])
    to_canvas = np.hstack([linear, (centre - linear @ np.array([out_w / 2, out_h / 2]))[:, None]])
    flags = cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
    face = cv2.warpAffine(canvas, to_canvas, (out_w, out_h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    mask_out = cv2.warpAffine(mask, to_canvas, (out_w, out_h), flags=flags, borderValue=0.0)
    # light, blur, noise and the photo's compression
    face = face * rng.uniform(0.7, 1.15) + rng.uniform(-25, 25) + rng.normal(0, 8, 3)
    sigma = rng.uniform(0.0, 1.0)
    if sigma > 0.3:
        face = cv2.GaussianBlur(face, (0, 0), sigma)
    face = face + rng.normal(0, rng.uniform(0, 7), face.shape)
    face_u8 = np.clip(face, 0, 255).astype(np.uint8)
    quality = int(rng.integers(35, 96))
    ok, jpeg = cv2.imencode(".jpg", face_u8[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR) if ok else None
    if decoded is not None:
        face_u8 = np.asarray(decoded, np.uint8)[..., ::-1]
    return np.ascontiguousarray(face_u8), mask_out


def labelled_windows(
    face: np.ndarray, mask: np.ndarray, rank: int, cut: WindowCut
) -> Iterator[tuple[np.ndarray, int]]:
    """The corner windows of `face`, cut as `cut` says, each with its label: `rank` where
    RANK_INSIDE of the number's `mask` lies inside it (and it is LEGIBLE_PX tall there, at the
    look's size), 0 where at most NONE_INSIDE does."""
    total = float(mask.sum())
    size = cut.size
    for turn in cut.turns:
        windows = face_windows(np.rot90(face, turn), cut.share_wide)
        masks = face_windows(np.rot90(mask, turn)[..., None], cut.share_wide)
        for window, window_mask in zip(windows, masks, strict=True):
            inside = float(window_mask.sum()) / total if total > 0 else 0.0
            if inside >= RANK_INSIDE:
                if number_px(window_mask[..., 0], size) >= LEGIBLE_PX:
                    yield window_input(window, size), rank
            elif inside <= NONE_INSIDE:
                yield window_input(window, size), 0


def number_px(window_mask: np.ndarray, size: int) -> float:
    """How many pixels the number's short side spans once its window is scaled to `size` square."""
    rows = np.flatnonzero(window_mask.max(axis=1) > 0.5)
    columns = np.flatnonzero(window_mask.max(axis=0) > 0.5)
    if not rows.size or not columns.size:
        return 0.0
    height, width = window_mask.shape
    return min(len(rows) * size / height, len(columns) * size / width)


def variant_windows(variant: int, seed: int, cut: WindowCut) -> tuple[np.ndarray, np.ndarray]:
    """Every labelled window of the eight bonus faces of randomised set `variant`, cut as `cut` says."""
    rng = np.random.default_rng([seed, variant])
    recipe = random_recipe(variant, _fonts())
    windows, labels = [], []
    for code in BONUS_CODES:
        box = number_box_px(recipe, code)
        face, mask = photo_face(render_face(recipe, code), box, rng)
        for window, label in labelled_windows(face, mask, int(code[1]), cut):
            if label or rng.random() < NONE_KEPT:
                windows.append(window)
                labels.append(label)
    return np.stack(windows), np.array(labels, np.int64)


def unnumbered_windows(round_: int, seed: int, cut: WindowCut) -> tuple[np.ndarray, np.ndarray]:
    """Windows (all labelled 0) of the UNNUMBERED styles' flowers and seasons, each face made to look
    as in a photo anew in each round; styles whose art is not installed are passed over."""
    rng = np.random.default_rng([seed, 7, round_])
    windows: list[np.ndarray] = []
    for style, codes in UNNUMBERED.items():
        try:
            faces = style_faces(style)
        except StyleUnavailableError:
            continue
        for code in codes:
            face, mask = photo_face(faces[code], None, rng)
            windows += [w for w, _ in labelled_windows(face, mask, 0, cut) if rng.random() < NONE_KEPT]
    if not windows:
        return np.zeros((0, cut.size, cut.size, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(windows), np.zeros(len(windows), np.int64)


_FONTS: tuple[tuple[str, int], ...] | None = None


def _fonts() -> tuple[tuple[str, int], ...]:
    global _FONTS  # one scan of the fonts per process
    if _FONTS is None:
        _FONTS = installed_fonts()
    return _FONTS


def _windows_star(args: tuple[bool, int, int, WindowCut]) -> tuple[np.ndarray, np.ndarray]:
    fixed, number, seed, cut = args
    return unnumbered_windows(number, seed, cut) if fixed else variant_windows(number, seed, cut)


def window_set(
    variants: Sequence[int], seed: int, cut: WindowCut, workers: int, fixed_rounds: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """(N, size, size, 3) uint8 windows and (N,) labels of the given randomised sets, and of
    `fixed_rounds` rounds of the unnumbered fixed styles' flowers and seasons, cut as `cut` says."""
    jobs = [(False, variant, seed, cut) for variant in variants]
    jobs += [(True, round_, seed, cut) for round_ in range(fixed_rounds)]
    if workers <= 1:
        parts = [_windows_star(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_windows_star, jobs, chunksize=8))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


@dataclass(frozen=True)
class RankTraining:
    variants: int = 2000
    val_variants: int = 150
    fixed_rounds: int = 0  # rounds of the unnumbered fixed styles' faces (UNNUMBERED) among the empty windows
    seed: int = 0
    epochs: int = 6
    batch: int = 256
    lr: float = 2e-3
    size: int = 32
    workers: int = 2
    # the quarter turns of each upright face its windows are cut at: all four teaches the look to
    # read a number lying sideways too, which it meets only on faces of no clear upright (square)
    turns: tuple[int, ...] = ALL_TURNS
    # each corner window's share of the face's width (`RankLookConfig.window_width`)
    window_width: float = WINDOW_WIDTH

    def cut(self) -> WindowCut:
        return WindowCut(self.size, self.turns, self.window_width)


def build_network() -> torch.nn.Module:
    import torch.nn as nn

    def block(cin: int, cout: int) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    return nn.Sequential(
        *block(3, 24), *block(24, 24), nn.MaxPool2d(2),
        *block(24, 48), *block(48, 48), nn.MaxPool2d(2),
        *block(48, 96), *block(96, 96), nn.AdaptiveAvgPool2d(1),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(96, RANKS + 1),
    )  # fmt: skip


def train_rank_look(settings: RankTraining, out_dir: Path, log: Path | None = None) -> dict[str, float]:
    """Cut the windows, train the network, export `RANK_FILE` into `out_dir`; returns val figures."""
    import torch
    import torch.nn.functional as F

    if settings.variants < 1 or settings.val_variants < 1 or settings.epochs < 1:
        raise RankLookError("rank-look: --variants, --val-variants and --epochs must be at least 1")
    torch.manual_seed(settings.seed)
    torch.set_num_threads(max(1, settings.workers))
    start = time.time()
    train_ids = range(VARIANT_BASE, VARIANT_BASE + settings.variants)
    val_ids = range(
        VARIANT_BASE + settings.variants, VARIANT_BASE + settings.variants + settings.val_variants
    )
    cut = settings.cut()
    x_train, y_train = window_set(train_ids, settings.seed, cut, settings.workers, settings.fixed_rounds)
    # val: unseen randomised sets only (the fixed styles' faces are the same art in every round)
    x_val, y_val = window_set(val_ids, settings.seed + 1, cut, settings.workers)
    cut_s = time.time() - start
    net = build_network()
    steps = settings.epochs * int(np.ceil(len(x_train) / settings.batch))
    optimiser = torch.optim.AdamW(net.parameters(), lr=settings.lr, weight_decay=0.05)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=settings.lr, total_steps=steps)
    rng = np.random.default_rng(settings.seed)
    figures: dict[str, float] = {}
    for epoch in range(settings.epochs):
        net.train()
        order = rng.permutation(len(x_train))
        for first in range(0, len(order), settings.batch):
            rows = order[first : first + settings.batch]
            loss = F.cross_entropy(
                net(_batch(x_train[rows])), torch.from_numpy(y_train[rows]), label_smoothing=0.05
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
        figures = evaluate(net, x_val, y_val)
        line = f"epoch {epoch + 1}/{settings.epochs}: " + ", ".join(
            f"{k} {v:.4f}" for k, v in figures.items()
        )
        print(line, flush=True)
        if log is not None:
            with log.open("a") as handle:
                handle.write(line + "\n")
    export_network(net, out_dir / RANK_FILE, settings.size)
    figures.update(train_windows=float(len(x_train)), val_windows=float(len(x_val)), cut_s=cut_s)
    figures["wall_s"] = time.time() - start
    return figures


def _batch(windows: np.ndarray) -> torch.Tensor:
    """(B, S, S, 3) uint8 windows as the network's (B, 3, S, S) float input, 0..1."""
    import torch

    return torch.from_numpy(windows).permute(0, 3, 1, 2).float() / 255.0


def evaluate(net: torch.nn.Module, x_val: np.ndarray, y_val: np.ndarray) -> dict[str, float]:
    import torch

    net.eval()
    with torch.no_grad():
        probs = torch.cat(
            [
                torch.softmax(
                    net(torch.from_numpy(x_val[i : i + 1024]).permute(0, 3, 1, 2).float() / 255.0), 1
                )
                for i in range(0, len(x_val), 1024)
            ]
        ).numpy()
    guess = probs.argmax(1)
    numbered = y_val > 0
    sure = probs[:, 1:].max(1) >= 0.5
    return {
        "accuracy": float((guess == y_val).mean()),
        "rank_recall": float((guess[numbered] == y_val[numbered]).mean()) if numbered.any() else 0.0,
        # windows without a number read as one at 0.5 or more: what could mislead the classifier
        "false_rank": float(sure[~numbered].mean()) if (~numbered).any() else 0.0,
    }


def export_network(net: torch.nn.Module, path: Path, size: int) -> None:
    import torch

    class WithSoftmax(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, images: torch.Tensor) -> torch.Tensor:
            return torch.softmax(self.inner(images), dim=1)

    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        WithSoftmax(net),
        (torch.zeros(1, 3, size, size),),
        str(path),
        input_names=[INPUT],
        output_names=[OUTPUT],
        dynamic_axes={INPUT: {0: "batch"}, OUTPUT: {0: "batch"}},
        opset_version=OPSET,
        dynamo=False,
    )


def sidecar_section(settings: RankTraining, config: RankLookConfig) -> dict[str, object]:
    """The sidecar's "rank_look" section for a network trained with `settings`."""
    section = asdict(config)
    section.update(file=RANK_FILE, imgsz=settings.size, window_width=settings.window_width)
    return section


def write_sidecar(models_json: Path, section: dict[str, object]) -> None:
    """Set the "rank_look" section of an existing models.json, keeping the rest as it is."""
    data = json.loads(models_json.read_text(encoding="utf-8"))
    data["rank_look"] = section
    models_json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
