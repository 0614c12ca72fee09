"""Readings built for the settle rules' tests (`pipeline.kept_boxes`): boxes of touching tiles turned
any way, and a placed hand's tiles read surely beside one extra box the models saw."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

import cv2
import numpy as np

from tests.vision.layout_sim import place
from vision.classes import CLASSES
from vision.lines import SPAN_DASH
from vision.pipeline import Seen


def turned_row_boxes(n: int, angle: float, width: float = 40.0, height: float = 56.0) -> np.ndarray:
    """(n, 4) the upright boxes of a row of `n` touching tiles turned `angle` degrees: each overlaps its
    neighbours' (a third of it at most, at 45 degrees)."""
    step = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))]) * width
    boxes = []
    for k in range(n):
        corners = cv2.boxPoints(((200 + k * step[0], 200 + k * step[1]), (width, height), angle))
        boxes.append([*corners.min(axis=0), *corners.max(axis=0)])
    return np.array(boxes, np.float32)


def hand_with_extra_box(
    hand: str, extra: Callable[[np.ndarray], np.ndarray], faces: Mapping[str, float]
) -> tuple[Seen, int]:
    """A reading of `hand` (placed in a row, each tile read surely, scored 0.9) and, last, one more box
    `extra(tiles)` (of the tiles' (n, 4) boxes) scored 0.6 and read as `faces` (the rest of its
    probability spread over the other codes); and n, the hand's tile count."""
    placed = place([[hand]])
    tiles = np.concatenate([placed.corners.min(axis=1), placed.corners.max(axis=1)], axis=1)
    n = len(tiles)
    probabilities = np.full((n + 1, len(CLASSES)), 1e-4)
    for i, code in enumerate(placed.codes):
        probabilities[i, CLASSES.index(code)] = 1.0
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    probabilities[n] = (1.0 - sum(faces.values())) / (len(CLASSES) - len(faces))
    for code, probability in faces.items():
        probabilities[n, CLASSES.index(code)] = probability
    seen = Seen(
        np.concatenate([tiles, extra(tiles)[None]]).astype(np.float32),
        np.array([0.9] * n + [0.6], np.float32),
        probabilities.astype(np.float32),
        np.zeros(n + 1, np.float32),
        np.zeros((0, 4), np.float32),
        image_hw=(960, 1280),
    )
    return seen, n


def table_read_surely(table: Sequence[Sequence[str]], row_gap: float = 0.8) -> Seen:
    """A reading of the tiles of `table` (rows of groups, laid out by `layout_sim.place`), each read
    surely and scored 0.9, in a 960x1280 photo."""
    placed = place(table, row_gap=row_gap)
    tiles = np.concatenate([placed.corners.min(axis=1), placed.corners.max(axis=1)], axis=1)
    probabilities = np.full((len(tiles), len(CLASSES)), 1e-4)
    probabilities[np.arange(len(tiles)), [CLASSES.index(code) for code in placed.codes]] = 1.0
    probabilities /= probabilities.sum(axis=1, keepdims=True)
    return Seen(
        tiles.astype(np.float32),
        np.full(len(tiles), 0.9, np.float32),
        probabilities.astype(np.float32),
        np.zeros(len(tiles), np.float32),
        np.zeros((0, 4), np.float32),
        image_hw=(960, 1280),
    )


def spotted_and_blurred(hand: str) -> tuple[Seen, Seen]:
    """`hand` read surely (and a second box on its fifth tile, which the settling drops:
    `hand_with_extra_box`) with a glare spot beside it, and the same hand blurred, as `glare_look` and
    `photo_blur` would see them."""

    def double(tiles: np.ndarray) -> np.ndarray:
        return tiles[4] + np.array([0.2, 0, 0.2, 0]) * (tiles[4, 2] - tiles[4, 0])

    seen = hand_with_extra_box(hand, double, {"5p": 0.6})[0]
    right = float(seen.xyxy[:, 2].max())
    return (
        dataclasses.replace(seen, glare=((right + 60.0, 300.0),)),
        dataclasses.replace(seen, sharpness=0.05, evenness=0.8),
    )


def plain(text: str | None) -> str:
    """A page's words (none: "") with a run's dash as the eye reads it, its word joiners dropped
    (`vision.lines.SPAN_DASH`), so a test says "12–19" as a user sees it."""
    return (text or "").replace(SPAN_DASH, "–")
