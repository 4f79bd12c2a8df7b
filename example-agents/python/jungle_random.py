"""A Jungle agent in Python, a WebAssembly component of world `arena:games/jungle`.

It plays a uniformly random move from the legal moves the host lists, drawn from the seed it is
given at `init` (so a replay repeats it): the Rust example `jungle-random`. Once per game it logs
how much fuel its first decision has left (`host.fuel_left()`, the fuel clock's meter).

Build: see README.md.
"""

import random

from wit_world import WitWorld as World
from wit_world.imports import host
from wit_world.imports.jungle_types import Move, View
from wit_world.imports.types import Setup


class WitWorld(World):
    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.told = False

    def init(self, setup: Setup) -> None:
        self.rng = random.Random(setup.seed)
        self.told = False

    def choose_move(self, view: View) -> Move:
        if not self.told:
            self.told = True
            host.log(f"fuel left: {host.fuel_left()} of a clock of {view.clock.mine}")
        return self.rng.choice(view.legal)
