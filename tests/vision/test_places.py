"""The reader's lines name places alike: in the user's pixels, at most three, then ", ..."."""

from __future__ import annotations

import numpy as np

from vision.places import box_place, first_places, point_place


def test_a_point_and_a_box_are_named_in_the_users_pixels() -> None:
    assert point_place(880.6, 745.2, scale=0.5) == "(1761, 1490)"
    assert box_place(np.array([10.0, 20.0, 31.0, 41.0], np.float32)) == "(20, 30)"
    assert box_place([10.0, 20.0, 30.0, 40.0], scale=0.5) == "(40, 60)"


def test_three_places_are_named_and_more_are_left_to_an_ellipsis() -> None:
    assert first_places([]) == ""
    assert first_places(["(1, 2)", "(3, 4)", "(5, 6)"]) == "(1, 2), (3, 4), (5, 6)"
    assert first_places(["(1, 2)"] * 4) == "(1, 2), (1, 2), (1, 2), ..."
