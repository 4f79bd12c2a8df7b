// A Farkle agent in JavaScript, a WebAssembly component of world `arena:games/farkle`
// (built by build.mjs with componentize-js).
//
// It drafts the best (highest-scoring) draft of the roll, then rolls on while fewer than
// THRESHOLD points are at risk and at least MIN_DICE dice are left (all six after hot dice);
// otherwise it banks. It banks as soon as the turn reaches the target, and in the final round of
// a race it rolls on until it leads. The same strategy as the Rust example `farkle-threshold`.

const THRESHOLD = 300; // roll on while the turn's points are below this
const MIN_DICE = 3; // never roll fewer dice than this (unless the final round demands it)

// Every non-empty subset of n dice (n = 1 to 6) as a list of indices. Top-level code runs once,
// when the component is built, so the games do not pay for it. The loops below are indexed
// `for` loops on purpose: in the JavaScript interpreter a `for...of` loop costs about four times
// the fuel.
const SUBSETS = [[]];
for (let n = 1; n <= 6; n++) {
  const subsets = [];
  for (let mask = 1; mask < 1 << n; mask++) {
    const indices = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) indices.push(i);
    subsets.push(indices);
  }
  SUBSETS.push(subsets);
}

// Points of drafting the dice at `indices` together, or null when some die scores nothing.
function score(roll, indices) {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (let k = 0; k < indices.length; k++) counts[roll[indices[k]]]++;
  let total = 0;
  for (let face = 1; face <= 6; face++) {
    const c = counts[face];
    if (c === 0) continue;
    const triples = (c / 3) | 0;
    const left = c % 3;
    if (face === 1) total += triples * 1000 + left * 100;
    else if (face === 5) total += triples * 500 + left * 50;
    else if (left === 0) total += triples * 100 * face;
    else return null;
  }
  return total;
}

// The highest-scoring legal draft (fewest dice on a tie): { points, indices }.
function bestDraft(roll) {
  let best = null;
  const subsets = SUBSETS[roll.length];
  for (let s = 0; s < subsets.length; s++) {
    const indices = subsets[s];
    const points = score(roll, indices);
    if (points === null) continue;
    const better = best === null || points > best.points ||
      (points === best.points && indices.length < best.indices.length);
    if (better) best = { points, indices };
  }
  return best;
}

export function init(setup) {}

export function draft(view) {
  const roll = Array.from(view.roll);
  const best = bestDraft(roll);
  if (best === null) return { action: 'bank', dice: [] }; // never: the host skips farkles
  const points = view.turnPoints + best.points;
  const left = roll.length - best.indices.length || 6;
  const total = view.scores[view.seat] + points;
  let bank;
  if (view.finalRound) {
    const others = Array.from(view.scores).filter((_, i) => i !== view.seat);
    bank = total > Math.max(0, ...others);
  } else {
    bank = total >= view.target || points >= THRESHOLD || left < MIN_DICE;
  }
  return { action: bank ? 'bank' : 'roll', dice: best.indices };
}
