"""The detector's class list: the tile codes of RULES.md, in one fixed order.

The order is the model's class index; it is written into every exported model's
sidecar file, and a model whose names differ from this list is refused.
"""

from __future__ import annotations

SUITED: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))
WINDS: tuple[str, ...] = ("E", "S", "W", "N")
DRAGONS: tuple[str, ...] = ("C", "F", "P")
FLOWERS: tuple[str, ...] = ("F1", "F2", "F3", "F4")
SEASONS: tuple[str, ...] = ("S1", "S2", "S3", "S4")
ANIMALS: tuple[str, ...] = ("cat", "rat", "rooster", "centipede")
MALAYSIAN: tuple[str, ...] = ("face", "fly")
BACK = "back"

CLASSES: tuple[str, ...] = SUITED + WINDS + DRAGONS + FLOWERS + SEASONS + ANIMALS + MALAYSIAN + (BACK,)
CLASS_INDEX: dict[str, int] = {code: index for index, code in enumerate(CLASSES)}

# The classifier's optional extra output: "this box holds no tile" (a foot, a reflection, a tile's
# side, the gap between two tiles). Never a tile code; boxes read as it are left out of the hand.
NOT_A_TILE = "none"

# Tiles that are never part of the hand proper: they go to the bonus row.
BONUS_CODES: frozenset[str] = frozenset(FLOWERS + SEASONS + ANIMALS + ("face",))

# The English names sets made for English-reading players print (spellings differ by maker): the
# generator draws them and the glyph look reads them.
ENGLISH_NAMES: dict[str, tuple[str, ...]] = {
    "F1": ("PLUM",),
    "F2": ("ORCHID",),
    "F3": ("CHRYSANTHEMUM", "CHRYS", "MUM"),
    "F4": ("BAMBOO",),
    "S1": ("SPRING",),
    "S2": ("SUMMER",),
    "S3": ("AUTUMN", "FALL"),
    "S4": ("WINTER",),
    "E": ("EAST",),
    "S": ("SOUTH",),
    "W": ("WEST",),
    "N": ("NORTH",),
}

assert len(CLASSES) == 49
