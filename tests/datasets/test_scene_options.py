"""`SceneOptions`: what a scene's meta records of them gives them back, and bad ones are refused in a line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.backgrounds import KINDS as SURFACES
from datasets.clutter import DEFAULT_KINDS, KINDS
from datasets.styles import STYLES
from datasets.synth import AIMS, FOCUSES, SceneOptions, SynthError

options = st.builds(
    SceneOptions,
    size=st.integers(160, 8192),
    styles=st.none() | st.lists(st.sampled_from(sorted(STYLES)), min_size=1, max_size=4).map(tuple),
    focus=st.sampled_from(FOCUSES),
    surface=st.none() | st.sampled_from(SURFACES),
    aim=st.sampled_from(AIMS),
    clutter=st.sampled_from([0.0, 0.25, 1.0]),
    clutter_kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=5, unique=True).map(tuple)
    | st.just(DEFAULT_KINDS),
)


@settings(max_examples=200, deadline=None)
@given(options, st.floats(0.5, 1.0))
def test_a_scenes_meta_gives_its_options_back(chosen: SceneOptions, aspect: float) -> None:
    chosen.check()
    meta = {
        **chosen.meta_fields(),
        "width": chosen.size,
        "height": int(chosen.size * aspect),
        **({"style_pool": list(chosen.styles)} if chosen.styles else {}),
    }
    again = SceneOptions.from_meta(meta)
    if chosen.clutter == 0:  # with no clutter the kinds are not drawn, so not recorded
        assert again == SceneOptions(**{**vars(chosen), "clutter_kinds": DEFAULT_KINDS})
    else:
        assert again == chosen


def test_default_options_leave_the_meta_as_it_was_before_them() -> None:
    assert SceneOptions().meta_fields() == {}
    assert SceneOptions(clutter=0.5).meta_fields() == {"clutter": 0.5}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (SceneOptions(size=100), "--size must be 160..8192 px, got 100"),
        (SceneOptions(focus="feet"), "unknown focus 'feet'"),
        (SceneOptions(surface="lava"), "unknown surface 'lava'"),
        (SceneOptions(aim="up"), "unknown aim 'up'"),
        (SceneOptions(clutter=2.0), "--clutter is a share of scenes, 0..1, got 2.0"),
        (SceneOptions(clutter_kinds=("cat",)), "unknown clutter kind cat"),
        (SceneOptions(clutter_kinds=()), "no clutter kind named"),
    ],
)
def test_options_a_scene_cannot_be_drawn_with_are_refused_in_one_line(
    bad: SceneOptions, message: str
) -> None:
    with pytest.raises(SynthError) as raised:
        bad.check("--")
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_two_unknown_clutter_kinds_are_named_in_the_plural() -> None:
    with pytest.raises(SynthError, match=r"^unknown clutter kinds cat, dog; known: "):
        SceneOptions(clutter_kinds=("cat", "dog")).check()
