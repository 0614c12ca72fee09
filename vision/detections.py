"""Detections: one typed value of parallel arrays (boxes, confidences, classes)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.classes import CLASS_INDEX, CLASSES

# A tile read with a confidence (its box's score times its reading's probability) under this is marked
# unsure for the user to check (the app's orange boxes, `--annotate`'s). Stage 47, chosen on 150 fresh
# scenes of the training styles (seed 4702): 0.5 marked 3.5 tiles a photo holding 67% of the misread
# boxes, 0.6 4.4 holding 76% (`python -m vision.bench` prints both figures for its sets).
UNSURE_BELOW = 0.6


@dataclass(frozen=True)
class Detections:
    """Tiles found in one image.

    `xyxy` is (N, 4) float32 in pixel coordinates of the EXIF-rotated image,
    `confidence` (N,) float32 in [0, 1], `class_id` (N,) int64 indexing `CLASSES`;
    `angle`, when measured, (N,) float32 degrees in [-45, 45): the direction of each tile's sides
    in the image up to a quarter turn (`vision.deskew.tile_angle`), NaN where unknown.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    angle: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.class_id)
        if self.xyxy.shape != (n, 4):
            raise ValueError(f"xyxy must have shape ({n}, 4), got {self.xyxy.shape}")
        if self.confidence.shape != (n,):
            raise ValueError(f"confidence must have shape ({n},), got {self.confidence.shape}")
        if n and (self.class_id.min() < 0 or self.class_id.max() >= len(CLASSES)):
            raise ValueError(f"class_id out of range 0..{len(CLASSES) - 1}")
        if self.angle is not None and self.angle.shape != (n,):
            raise ValueError(f"angle must have shape ({n},), got {self.angle.shape}")

    @classmethod
    def empty(cls) -> Detections:
        return cls(
            xyxy=np.zeros((0, 4), np.float32),
            confidence=np.zeros((0,), np.float32),
            class_id=np.zeros((0,), np.int64),
        )

    @classmethod
    def from_codes(
        cls,
        codes: Sequence[str],
        xyxy: Sequence[Sequence[float]],
        confidence: Sequence[float] | None = None,
    ) -> Detections:
        """Build from tile codes (e.g. `["3m", "back"]`); unknown codes raise ValueError."""
        unknown = [code for code in codes if code not in CLASS_INDEX]
        if unknown:
            raise ValueError(f"unknown tile code{'' if len(unknown) == 1 else 's'}: {', '.join(unknown)}")
        if confidence is None:
            confidence = [1.0] * len(codes)
        if not codes:
            return cls.empty()
        return cls(
            xyxy=np.asarray(xyxy, np.float32).reshape(-1, 4),
            confidence=np.asarray(confidence, np.float32),
            class_id=np.asarray([CLASS_INDEX[code] for code in codes], np.int64),
        )

    def __len__(self) -> int:
        return len(self.class_id)

    def __getitem__(self, index: int | slice | np.ndarray | list[int]) -> Detections:
        """Select detections by index, slice, boolean mask or index list; always returns Detections."""
        if isinstance(index, int):
            index = [index]
        return Detections(
            xyxy=self.xyxy[index].reshape(-1, 4),
            confidence=self.confidence[index].reshape(-1),
            class_id=self.class_id[index].reshape(-1),
            angle=None if self.angle is None else self.angle[index].reshape(-1),
        )

    def with_angle(self, angle: Sequence[float] | np.ndarray) -> Detections:
        """The same detections with each tile's measured angle (degrees, up to a quarter turn)."""
        return dataclasses.replace(self, angle=np.asarray(angle, np.float32).reshape(-1))

    @property
    def codes(self) -> list[str]:
        return [CLASSES[int(i)] for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        """(N, 2) box centres."""
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2.0

    def to_json(self) -> list[dict[str, object]]:
        return [
            {"code": code, "confidence": round(float(conf), 4), "box": [round(float(v), 1) for v in box]}
            for code, conf, box in zip(self.codes, self.confidence, self.xyxy, strict=True)
        ]
