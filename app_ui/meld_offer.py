"""A meld at one end of the hand, read one way, offered the other: the user saw how it was laid.

A pong laid down a little apart at the end of the concealed row looks like the hand's own last
three tiles: the gap's width decides, and an exposed meld breaks a concealed hand (its tai), so the
reader's second reading (`vision.layout.MeldRival`) is put to the user as a button, with what it
does to the score (`hand_view.meld_offer_ui`). Pressed, it moves those tiles to the groups it names
as corrections of the table (`table_edits.take_regroup`), which "Undo" takes back like any other.
The offer stands while its tiles lie in the groups the photo was read in; once the user has moved
any of them, it goes. This module holds the offer's pure parts: its words and its moves.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from app_ui.case import HAND, MELD_GROUPS, MeldOffer, TileRow, row_numbers
from vision.lines import SPAN_DASH


def tile_span(numbers: Sequence[int]) -> str:
    """Tile numbers as the page names them: `#10–#12` for a run, else `#10, #11, #13`; the run's dash
    held to its numbers (`vision.lines.SPAN_DASH`: a phone had broken "28–" at a line's end)."""
    ordered = sorted(numbers)
    if len(ordered) > 1 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"#{ordered[0]}{SPAN_DASH}#{ordered[-1]}"
    return ", ".join(f"#{n}" for n in ordered)


def _melds_named(offer: MeldOffer, codes: Sequence[Sequence[str]]) -> str:
    return ", ".join(
        f"{tile_span(numbers)} ({' '.join(meld)})" for numbers, meld in zip(offer.melds, codes, strict=True)
    )


def offer_line(offer: MeldOffer, codes: Sequence[Sequence[str]]) -> str:
    """The reader's line about the melds, by tile number, pointing at the button (`codes`: each meld's
    tiles as read)."""
    named = _melds_named(offer, codes)
    one = len(offer.melds) == 1
    kinds = " and ".join(offer.kinds)
    if offer.laid:
        return (
            f"{named} {'lies' if one else 'lie'} a little apart at one end of the hand: read as concealed. "
            f"If {'it was' if one else 'they were'} laid down as exposed ({kinds}), take "
            f"{'it' if one else 'them'} as laid with the button below."
        )
    return (
        f"{named} {'lies' if one else 'lie'} close to one end of the hand: read as exposed ({kinds}). If "
        f"{'it is' if one else 'they are'} part of the concealed hand, take {'it' if one else 'them'} "
        "into it with the button below."
    )


def offer_groups(offer: MeldOffer, rows: Sequence[TileRow]) -> dict[int, str] | None:
    """The group each tile of the offer moves to, by tile number, where `rows` (the table as it stands)
    still holds them as the photo was read: laid out, each meld in a meld group no tile holds; taken
    in, to the hand. None where a tile is gone, was moved, or no meld group is free."""
    group_of = dict(zip(row_numbers(rows), (row.group for row in rows), strict=True))
    if any(n not in group_of for meld in offer.melds for n in meld):
        return None
    moves: dict[int, str] = {}
    if offer.laid:
        if any(group_of[n] != HAND for meld in offer.melds for n in meld):
            return None
        free = [g for g in MELD_GROUPS if g not in group_of.values()]
        if len(free) < len(offer.melds):
            return None
        for group, meld in zip(free, offer.melds, strict=False):
            moves.update(dict.fromkeys(meld, group))
        return moves
    for meld in offer.melds:
        groups = {group_of[n] for n in meld}
        if len(groups) != 1 or groups.pop() not in MELD_GROUPS:
            return None
        if any(group_of[n] == group_of[meld[0]] for n in group_of if n not in meld):
            return None  # the user added a tile to that meld: it is no longer the one read
        moves.update(dict.fromkeys(meld, HAND))
    return moves


def regrouped(rows: Sequence[TileRow], moves: Mapping[int, str]) -> list[TileRow]:
    """`rows` with the tiles numbered in `moves` in their new groups."""
    return [
        dataclasses.replace(row, group=moves[number]) if number in moves else row
        for number, row in zip(row_numbers(rows), rows, strict=True)
    ]


def score_either_way(now: str | None, then: str | None) -> str:
    """What taking the offer does to the score, in a few words (`now`, `then`: each way's score in
    words, `winning_hint.result_words`; None where it scored nothing)."""
    if now is None or then is None:
        return ""
    if now == then:
        return f"The score is the same either way ({now})."
    return f"Taken so, the hand scores {then} ({now} as read)."
