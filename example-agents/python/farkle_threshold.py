"""A Farkle agent in Python, a WebAssembly component of world `arena:games/farkle`.

It drafts the best (highest-scoring) draft of the roll, then rolls on while fewer than THRESHOLD
points are at risk and at least MIN_DICE dice are left (all six after hot dice); otherwise it
banks. It banks as soon as the turn reaches the target, and in the final round of a race it rolls
on until it leads. The same strategy as the Rust example `farkle-threshold`.

Build: see README.md.
"""

from itertools import combinations

from wit_world import WitWorld as World
from wit_world.imports.farkle_types import Action, Answer, View
from wit_world.imports.types import Setup

THRESHOLD = 300  # roll on while the turn's points are below this
MIN_DICE = 3  # never roll fewer dice than this (unless the final round demands it)


def score(faces: list[int]) -> int | None:
    """Points of drafting these faces together, or None when some die scores nothing."""
    total = 0
    for face in range(1, 7):
        c = faces.count(face)
        if c == 0:
            continue
        triples, left = divmod(c, 3)
        if face == 1:
            total += triples * 1000 + left * 100
        elif face == 5:
            total += triples * 500 + left * 50
        elif left == 0:
            total += triples * 100 * face
        else:
            return None
    return total if faces else None


def best_draft(roll: list[int]) -> tuple[int, tuple[int, ...]] | None:
    """The highest-scoring legal draft (fewest dice on a tie): (points, indices)."""
    best = None
    for k in range(1, len(roll) + 1):
        for indices in combinations(range(len(roll)), k):
            points = score([roll[i] for i in indices])
            if points is not None and (best is None or points > best[0]):
                best = (points, indices)
    return best


class WitWorld(World):
    def init(self, setup: Setup) -> None:
        pass

    def draft(self, view: View) -> Answer:
        roll = list(view.roll)
        best = best_draft(roll)
        if best is None:  # never happens: the host does not ask about a farkle
            return Answer(Action.BANK, [])
        points, indices = best
        points += view.turn_points
        left = len(roll) - len(indices) or 6
        total = view.scores[view.seat] + points
        if view.final_round:
            others = [s for i, s in enumerate(view.scores) if i != view.seat]
            bank = total > max(others, default=0)
        else:
            bank = total >= view.target or points >= THRESHOLD or left < MIN_DICE
        return Answer(Action.BANK if bank else Action.ROLL, list(indices))
