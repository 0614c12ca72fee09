"""The tiles in one photo come from one set, and a set holds each face a fixed number of times.

A Singapore set has four of each suit, wind and dragon tile and one of each flower, season and
animal; the Malaysian set adds four `face` and four `fly` tiles (RULES.md). When the classifier's
first choices break that (three tiles read as the one `S1` of a set), the reading that is most
likely overall while keeping it is taken instead: an assignment problem over the tiles and the
set's copies, solved exactly. A face-down tile (`back`) may appear any number of times.

A rule set's tiles are one such set: a Singapore set holds no `face` or `fly`, a Malaysian one no
bamboo or characters, and one played without the North wind (`north_wind` off) no `N`
(`rule_set_faces`). When the user
says which set the photo shows, `within_faces` reads each tile as one of that set's faces only:
a tile read 0.6 bamboo and 0.3 dots in a Malaysian set is dots.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from vision.classes import ANIMALS, BACK, CLASS_INDEX, CLASSES, FLOWERS, SEASONS

# Ends the reader's line about tiles that look like another set's (vision.pipeline), for a UI to add
# where the user chooses the rule set.
ANOTHER_SET_QUESTION = "Is the photo of another rule set's tiles?"

# The tiles a set may lack, in the words a player at a table knows them by (RULES.md's names; the Chinese
# character that a set prints on them): a line naming a tile another set holds by its code alone, "(face)",
# read to a Singapore player as a note on a face, not as the Malaysian set's face tiles.
_KIND_WORDS: dict[str, tuple[str, str]] = {
    "face": ("a Malaysian face tile", "Malaysian face tiles"),
    "fly": ("a Malaysian fly tile (飛)", "Malaysian fly tiles (飛)"),
    "m": ("a character tile (萬)", "character tiles (萬)"),
    "s": ("a bamboo tile (索)", "bamboo tiles (索)"),
    "p": ("a dot tile (筒)", "dot tiles (筒)"),
    "N": ("a North wind", "North winds"),
}


def _kind(code: str) -> str:
    """The kind a tile is named by: its suit (a set lacks a whole suit, not a 5s), else its code."""
    return code[-1] if code[:-1].isdigit() else code


def tiles_in_words(codes: Sequence[str]) -> str:
    """Tiles (`codes`, some alike) named by kind, each kind counted, in the order first met: `["face",
    "fly", "face"]` -> "2 Malaysian face tiles and a Malaysian fly tile (飛)"; tiles all of one kind
    without a count (the line says how many): "a Malaysian face tile", "Malaysian face tiles". A tile
    no set lacks but one the user chose is named by its code."""
    counts = Counter(_kind(code) for code in codes)
    words = {kind: _KIND_WORDS.get(kind, (kind, kind)) for kind in counts}
    if len(counts) == 1:
        ((kind, count),) = counts.items()
        return words[kind][0] if count == 1 else words[kind][1]
    named = [words[kind][0] if count == 1 else f"{count} {words[kind][1]}" for kind, count in counts.items()]
    return f"{', '.join(named[:-1])} and {named[-1]}"


# Copies of each face in a set; `back` is not limited (any tile can lie face down).
COPIES_IN_SET: dict[str, int] = {code: 1 if code in FLOWERS + SEASONS + ANIMALS else 4 for code in CLASSES}
_FLOOR = 1e-9  # probabilities are floored before the log so a zero never makes a cost infinite


def rule_set_faces(rules: str, options: Mapping[str, object] | None = None) -> frozenset[str]:
    """The faces a set of the rule set `rules` holds (RULES.md) under `options` (name -> value, the
    others at the rule set's defaults): a Malaysian set with `north_wind` off holds no `N`. Raises
    ValueError on an unknown rule set and `scoring.OptionError` on a bad option."""
    # the rule sets live with the scoring; imported here, only where a set is named
    import scoring
    from scoring.options import options_from_mapping

    ruleset = scoring.get_ruleset(rules)
    chosen = options_from_mapping(scoring.default_options(rules), options or {})
    return frozenset(str(tile) for tile in ruleset.set_tiles(chosen))


def face_mask(faces: Collection[str] | None) -> np.ndarray:
    """(len(CLASSES),) bool: the classes a set of `faces` (RULES.md codes) may show; `back` always,
    every class when `faces` is None. ValueError on a code the classifier does not know."""
    if faces is None:
        return np.ones(len(CLASSES), bool)
    unknown = sorted(set(faces) - set(CLASSES))
    if unknown:
        raise ValueError(f"not tile codes: {', '.join(unknown)}")
    return np.array([code == BACK or code in faces for code in CLASSES], bool)


def within_faces(probabilities: np.ndarray, faces: Collection[str] | None) -> np.ndarray:
    """(N, len(CLASSES)) `probabilities` with the classes outside `faces` at 0 and each row summing to
    1 again (a row that gave them everything, a face-up tile, is spread evenly over the set's faces,
    `back` left out); unchanged when `faces` is None."""
    probabilities = np.asarray(probabilities, np.float32)
    if faces is None:
        return probabilities
    mask = face_mask(faces)
    kept = probabilities * mask
    total = kept.sum(axis=1, keepdims=True)
    face_up = mask & (np.array(CLASSES) != BACK)
    spread = face_up if face_up.any() else mask  # a set of no face-up face: all goes to `back`
    even = np.broadcast_to(spread / spread.sum(), kept.shape)
    return np.where(total > _FLOOR, kept / np.maximum(total, _FLOOR), even).astype(np.float32)


def copies_allowed(n_tiles: int, faces: Collection[str] | None = None) -> np.ndarray:
    """(len(CLASSES),) how many of `n_tiles` may be read as each class (none of a face outside
    `faces`, when given)."""
    copies = np.array([n_tiles if code == BACK else COPIES_IN_SET[code] for code in CLASSES], np.int64)
    return copies * face_mask(faces)


def copies_left(
    n_tiles: int, faces: Collection[str] | None = None, hidden: Mapping[str, int] | None = None
) -> np.ndarray:
    """`copies_allowed`, less the copies of a face the photo holds face down (`hidden`: a concealed
    kong's backs), which no tile read face up may take."""
    limits = copies_allowed(n_tiles, faces)
    for code, count in (hidden or {}).items():
        limits[CLASS_INDEX[code]] = max(0, int(limits[CLASS_INDEX[code]]) - count)
    return limits


def keeps_to_set(
    class_id: np.ndarray, faces: Collection[str] | None = None, hidden: Mapping[str, int] | None = None
) -> bool:
    """Whether tiles read as `class_id` (indices into CLASSES) keep to the set's copies (`copies_left`)."""
    return _within(class_id, copies_left(len(class_id), faces, hidden))


def _within(class_id: np.ndarray, limits: np.ndarray) -> bool:
    return bool((np.bincount(class_id, minlength=len(CLASSES)) <= limits).all())


def assign_within_set(
    probabilities: np.ndarray, faces: Collection[str] | None = None, hidden: Mapping[str, int] | None = None
) -> np.ndarray:
    """Class index per row of `probabilities` (N, len(CLASSES)): each row's most likely class,
    unless that reads more copies of a face than a set has; then the assignment with the largest
    product of probabilities among those that keep to the set (of `faces` only, when given, and
    less the `hidden` copies: `copies_left`).
    """
    probabilities = np.asarray(probabilities, np.float64)
    if probabilities.ndim != 2 or probabilities.shape[1] != len(CLASSES):
        raise ValueError(f"expected (N, {len(CLASSES)}) probabilities, got {probabilities.shape}")
    probabilities = np.where(face_mask(faces), probabilities, 0.0)
    first = probabilities.argmax(axis=1)
    limits = copies_left(len(first), faces, hidden)
    if _within(first, limits):
        return first
    # One column per copy a set has (never more than there are tiles): a tile takes one copy.
    column_class = np.repeat(np.arange(len(CLASSES)), np.minimum(limits, len(first)))
    cost = -np.log(np.maximum(probabilities, _FLOOR))[:, column_class]
    return column_class[min_cost_assignment(cost)]


def min_cost_assignment(cost: np.ndarray) -> np.ndarray:
    """Column per row (N,) of the (N, M) `cost`, N <= M, each column used at most once, with the
    least total cost (the Hungarian method with potentials, O(N^2 M))."""
    n, m = cost.shape
    if n > m:
        raise ValueError(f"more rows than columns: {cost.shape}")
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    owner = np.zeros(m + 1, np.int64)  # owner[j]: the row (1-based) holding column j; 0 = free
    way = np.zeros(m + 1, np.int64)
    for row in range(1, n + 1):
        owner[0] = row
        j0 = 0
        min_reduced = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            free = ~used[1:]
            reduced = cost[i0 - 1] - u[i0] - v[1:]
            better = free & (reduced < min_reduced[1:])
            min_reduced[1:][better] = reduced[better]
            way[1:][better] = j0
            candidates = np.where(free, min_reduced[1:], np.inf)
            j1 = int(candidates.argmin()) + 1
            delta = candidates[j1 - 1]
            taken = np.flatnonzero(used)
            u[owner[taken]] += delta
            v[taken] -= delta
            min_reduced[~used] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    columns = np.zeros(n, np.int64)
    for j in range(1, m + 1):
        if owner[j]:
            columns[owner[j] - 1] = j - 1
    return columns
