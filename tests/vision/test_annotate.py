"""`vision.annotate`: each tile's label stays within its room, and the groups' names stay in the picture."""

from __future__ import annotations

import numpy as np

from vision.annotate import GROUP_COLOURS, _text_size, annotate, fitted_scale, label_room
from vision.detections import Detections


def test_labels_of_slanted_tiles_get_the_room_between_their_centres() -> None:
    # boxes of tiles laid at a slant overlap; a label as wide as its box would cover its neighbour's
    row = np.array([[0, 0, 60, 80], [40, 5, 100, 85], [80, 0, 140, 80]], dtype=float)
    apart = np.array([[0, 200, 60, 280]], dtype=float)  # another row: no neighbour of the first
    room = label_room(np.vstack([row, apart]))
    assert room.tolist() == [40.0, 40.0, 40.0, 60.0]


def test_a_fitted_label_fits_unless_that_would_be_unreadable() -> None:
    scale = fitted_scale(["5p", "0.42"], 40, 2.0)
    assert max(_text_size(text, scale)[0] for text in ["5p", "0.42"]) <= 40
    assert fitted_scale(["centipede"], 5, 2.0) == 0.3  # the smallest that reads, not smaller
    assert fitted_scale(["5p"], 10_000, 0.8) == 0.8  # never above the photo's own size


class Group:
    def __init__(self, kind: str, box: tuple[float, float, float, float]) -> None:
        self.kind, self.meld, self.box = kind, None, box


def test_a_group_at_the_bottom_edge_has_its_name_above_it() -> None:
    rgb = np.full((200, 300, 3), 255, np.uint8)
    tiles = Detections.from_codes(["1m"], [[100, 150, 140, 198]], [0.95])
    drawn = annotate(rgb, tiles, [Group("bonus", (100, 150, 140, 198))])
    name_colour = np.all(drawn == GROUP_COLOURS["bonus"], axis=2)
    rows = np.nonzero(name_colour.sum(axis=1) > 20)[0]  # the filled box behind the name
    assert rows.size and rows.max() < 150  # above the tiles, not cut off below the photo


def test_a_groups_name_is_no_taller_than_half_a_small_tile() -> None:
    from vision.annotate import SMALLEST_GROUP_FONT, _text_size, group_name_scale

    middling = np.array([[0, 0, 46, 60], [46, 0, 92, 60], [92, 0, 138, 60]], np.float64)  # 46 px wide
    scale = group_name_scale(middling, 0.8)
    assert SMALLEST_GROUP_FONT < scale < 0.8 and _text_size("Ag", scale)[1] <= 46 / 2
    assert _text_size("Ag", scale / 0.95)[1] > 46 / 2  # no smaller than it needs
    tiny = middling / 4  # a name as small as that would not read: the floor holds
    assert group_name_scale(tiny, 0.8) == SMALLEST_GROUP_FONT
    large = middling * 4
    assert group_name_scale(large, 0.8) == 0.8  # large tiles: the photo's own size, as before
    assert group_name_scale(np.zeros((0, 4)), 0.8) == 0.8
