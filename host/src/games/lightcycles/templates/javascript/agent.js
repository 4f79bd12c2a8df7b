// {{name}}: a light cycles agent in JavaScript, a WebAssembly component of world
// `arena:games/lightcycles` (built by build.mjs with componentize-js).
//
// At every tick it looks at the three cells its turns lead to: it drops those that kill it at
// once (off the grid, a wall, a trail), prefers those no other head can enter in the same tick
// (two heads entering one cell both die), then the one with the most free cells around it, then
// straight on. It looks no further: JavaScript runs in an interpreter compiled to WebAssembly, and
// every operation costs fuel (docs/COMPONENTS.md, "Budgets"), so keep a search small or watch
// `fuelLeft()` from `arena:games/host`.

// (dx, dy) of the headings north, east, south, west (y grows downward).
const STEPS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
// The turns in order of preference on a tie, and how each changes the heading (a quarter turn
// counterclockwise, none, clockwise). The loops below are indexed `for` loops on purpose: in the
// JavaScript interpreter a `for...of` loop costs about four times the fuel.
const TURNS = [['straight', 0], ['left', 3], ['right', 1]];
const HEADINGS = ['north', 'east', 'south', 'west'];

export function init(setup) {}

export function chooseTurn(view) {
  const { width, height, grid } = view;
  const free = (x, y) => x >= 0 && x < width && y >= 0 && y < height && grid[y * width + x] === 0;
  const me = view.cycles[view.seat];
  // The cells other living heads can enter this tick (any heading but back).
  const contested = new Set();
  for (let seat = 0; seat < view.cycles.length; seat++) {
    const c = view.cycles[seat];
    if (seat === view.seat || c.death !== undefined) continue;
    const h = HEADINGS.indexOf(c.heading);
    for (let t = 0; t < TURNS.length; t++) {
      const [dx, dy] = STEPS[(h + TURNS[t][1]) % 4];
      contested.add((c.y + dy) * width + (c.x + dx));
    }
  }
  const heading = HEADINGS.indexOf(me.heading);
  let best = 'straight';
  let bestKey = null;
  for (let t = 0; t < TURNS.length; t++) {
    const [turn, change] = TURNS[t];
    const [dx, dy] = STEPS[(heading + change) % 4];
    const x = me.x + dx;
    const y = me.y + dy;
    if (!free(x, y)) continue;
    let around = 0;
    for (let s = 0; s < 4; s++) if (free(x + STEPS[s][0], y + STEPS[s][1])) around++;
    const key = (contested.has(y * width + x) ? 0 : 10) + around;
    if (bestKey === null || key > bestKey) {
      best = turn;
      bestKey = key;
    }
  }
  return best;
}
