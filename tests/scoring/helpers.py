"""Compact builders for scoring test cases: one line per hand."""

from __future__ import annotations

from typing import Any

import pytest


def melds(*specs: str) -> list[dict[str, Any]]:
    """`"pong CCC"`, `"chow 234m"`, `"kong 1111p"`, `"ckong EEEE"` (concealed kong) as meld JSON."""
    out = []
    for spec in specs:
        kind, tiles = spec.split(" ", 1)
        concealed = kind.startswith("c") and kind != "chow"
        out.append({"kind": kind[1:] if concealed else kind, "tiles": tiles, "concealed": concealed})
    return out


def case(
    case_id: str,
    concealed: str | list[str],
    *,
    tai: int | None = None,
    raw: int | None = None,
    valid: bool = True,
    reason: str | None = None,
    keys: set[str] | None = None,
    meld: tuple[str, ...] = (),
    payout: dict[str, Any] | None = None,
    **fields: Any,
) -> Any:
    """One golden case: the input JSON and what the result must say."""
    data: dict[str, Any] = {"concealed": concealed, **fields}
    if meld:
        data["melds"] = melds(*meld)
    expect = {"tai": tai, "raw": raw, "valid": valid, "reason": reason, "keys": keys, "payout": payout}
    return pytest.param(data, expect, id=case_id)


def check(result: dict[str, Any], expect: dict[str, Any]) -> None:
    """Assert a `score_json` result against a case's expectations (only the ones given)."""
    summary = (
        result["valid"],
        result["reason"],
        result["raw_tai"],
        result["tai"],
        sorted(p["key"] for p in result["patterns"]),
        result["warnings"],
    )
    assert result["valid"] is expect["valid"], summary
    if expect["reason"] is not None or not expect["valid"]:
        assert result["reason"] == expect["reason"], summary
    if expect["tai"] is not None:
        assert result["tai"] == expect["tai"], summary
    if expect["raw"] is not None:
        assert result["raw_tai"] == expect["raw"], summary
    if expect["keys"] is not None:
        assert {p["key"] for p in result["patterns"]} == expect["keys"], summary
    for name, value in (expect["payout"] or {}).items():
        assert result["payout"][name] == value, (name, result["payout"])
    shares = result["payout"]["players"]
    assert sum(share["amount"] for share in shares) == 0
