"""Shared by the text look's tests: brush-stroke faces (no font needed) and a made-up head."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.faces import FaceRecipe, render_face
from vision.classes import CLASSES
from vision.text_look_train import Head


def made_up_head(width: int, hidden: int = 8, favour: int | None = None, seed: int = 0) -> Head:
    rng = np.random.default_rng(seed)
    out_bias = rng.normal(size=len(CLASSES))
    if favour is not None:
        out_bias[favour] = 40.0  # whatever the face, the head reads this class
    return Head(
        mean=rng.normal(size=width),
        scale=rng.uniform(0.5, 2.0, width),
        hidden_weight=rng.normal(size=(width, hidden)) * 0.05,
        hidden_bias=rng.normal(size=hidden),
        out_weight=rng.normal(size=(hidden, len(CLASSES))),
        out_bias=out_bias,
    )


def brush_faces(codes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Brush-stroke faces (no font needed) side by side on a dark table, and their boxes."""
    faces = [render_face(FaceRecipe(), code)[..., :3] for code in codes]
    height, width = faces[0].shape[:2]
    photo = np.full((height + 40, len(faces) * (width + 20) + 20, 3), 50, np.uint8)
    boxes = []
    for i, face in enumerate(faces):
        left = 20 + i * (width + 20)
        photo[20 : 20 + height, left : left + width] = face
        boxes.append([left, 20, left + width, 20 + height])
    return photo, np.array(boxes, np.float32)


def scene_folder(folder: Path, codes: tuple[str, ...]) -> Path:
    """A one-scene folder as `datasets.synth` writes it (images/, meta/) of `brush_faces(codes)`."""
    photo, boxes = brush_faces(codes)
    (folder / "meta").mkdir(parents=True)
    (folder / "images").mkdir()
    Image.fromarray(photo).save(folder / "images" / "000000.png")
    tiles = [{"code": c, "xyxy": b.tolist(), "face_up": True} for c, b in zip(codes, boxes, strict=True)]
    (folder / "meta" / "000000.json").write_text(json.dumps({"image": "images/000000.png", "tiles": tiles}))
    return folder
