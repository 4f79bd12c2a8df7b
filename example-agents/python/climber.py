"""A Little Animal Farm agent in Python, a WebAssembly component of world `arena:games/farm`.

Each turn it buys one animal from the stock, by a fixed priority (the idea of the Rust example
`greedy`): a small dog if it has none (it guards the rabbits from the fox), a big dog if it has
none (it guards the rest from the wolf), then the farm kinds it is missing, the most valuable
first. It pays with spare farm animals only (it keeps one of each kind it owns and never pays with
dogs), the most valuable first, for exactly the price, so every offer it makes is a legal trade.
It declines every offer from other players.

Build: see README.md.
"""

from componentize_py_types import Err
from wit_world import WitWorld as World
from wit_world.imports import host
from wit_world.imports.farm_types import Herd, Offer, Party_Stock, View
from wit_world.imports.types import Setup

# Kind names of the `herd` record, in the byte ABI's order, and their worth in rabbits.
KINDS = ("rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog")
WORTH = (1, 6, 12, 36, 72, 6, 36)
RABBIT, SHEEP, PIG, COW, HORSE, SMALL_DOG, BIG_DOG = range(7)

# What to buy when the herd has none of it, first wish first.
PRIORITY = (SMALL_DOG, BIG_DOG, HORSE, COW, PIG, SHEEP, RABBIT)
# The farm kinds, most valuable first: the order in which we pay.
PAY_ORDER = (HORSE, COW, PIG, SHEEP, RABBIT)


def counts(herd: Herd) -> list[int]:
    return [getattr(herd, k) for k in KINDS]


def herd_of(amounts: list[int]) -> Herd:
    return Herd(*amounts)


def payment(have: list[int], target: int) -> list[int] | None:
    """Spare farm animals worth exactly one `target`, or None if the spares cannot pay it."""
    need = WORTH[target]
    give = [0] * 7
    for k in PAY_ORDER:
        if k == target or WORTH[k] > need:
            continue
        n = min(need // WORTH[k], max(have[k] - 1, 0))
        give[k] = n
        need -= n * WORTH[k]
    return give if need == 0 else None


class WitWorld(World):
    def init(self, setup: Setup) -> None:
        if setup.players < 2:
            raise Err("Little Animal Farm needs 2 players or more")

    def trade(self, view: View) -> Offer | None:
        have = counts(view.herds[view.seat])
        stock = counts(view.stock)
        for target in PRIORITY:
            if have[target] > 0 or stock[target] == 0:
                continue
            give = payment(have, target)
            if give is not None:
                get = [0] * 7
                get[target] = 1
                if view.round % 50 == 0:
                    host.log(f"round {view.round}: buying a {KINDS[target]}")
                return Offer(Party_Stock(), herd_of(give), herd_of(get))
        return None

    def accept_offer(self, view: View, offer: Offer) -> bool:
        return False
