"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms by default) measures the machine, not the code: on a 2-core
machine busy with another job, a property test of the scoring failed on it while every example held (a
session, stage 81). A test that sets its own `settings` keeps the rest of this profile.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
