"""{{name}}: a light cycles agent in Python, a WebAssembly component of world `arena:games/lightcycles`.

At every tick it looks at the three cells its turns lead to: it drops those that kill it at once
(off the grid, a wall, a trail), prefers those no other head can enter in the same tick (two heads
entering one cell both die), then the one with the most free cells around it, then straight on.
It looks no further: Python runs in an interpreter compiled to WebAssembly, and every operation
costs fuel (docs/COMPONENTS.md, "Budgets"), so keep a search small or watch `host.fuel_left()`.

Build it into {{name}}.wasm with the command `arena new` printed (README.md in the arena's sources,
"Write a Python agent"); the WIT package it is built against is in wit/.
"""

from wit_world import WitWorld as World
from wit_world.imports.lightcycles_types import Turn, View
from wit_world.imports.types import Setup

# (dx, dy) of the headings north, east, south, west (y grows downward).
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))
# The turns in order of preference on a tie, and how each changes the heading (a quarter turn
# counterclockwise, none, clockwise).
TURNS = ((Turn.STRAIGHT, 0), (Turn.LEFT, 3), (Turn.RIGHT, 1))


class WitWorld(World):
    def init(self, setup: Setup) -> None:
        pass

    def choose_turn(self, view: View) -> Turn:
        width, height, grid = view.width, view.height, view.grid

        def free(x: int, y: int) -> bool:
            return 0 <= x < width and 0 <= y < height and grid[y * width + x] == 0

        me = view.cycles[view.seat]
        # The cells other living heads can enter this tick (any heading but back).
        contested = set()
        for seat, c in enumerate(view.cycles):
            if seat != view.seat and c.death is None:
                for _, change in TURNS:
                    dx, dy = STEPS[(c.heading.value + change) % 4]
                    contested.add((c.x + dx, c.y + dy))
        best, best_key = Turn.STRAIGHT, None
        for turn, change in TURNS:
            dx, dy = STEPS[(me.heading.value + change) % 4]
            x, y = me.x + dx, me.y + dy
            if not free(x, y):
                continue
            around = sum(free(x + sx, y + sy) for sx, sy in STEPS)
            key = ((x, y) not in contested, around)
            if best_key is None or key > best_key:
                best, best_key = turn, key
        return best
