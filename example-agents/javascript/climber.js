// A Little Animal Farm agent in JavaScript, a WebAssembly component of world
// `arena:games/farm` (built by build.mjs with componentize-js).
//
// Each turn it buys one animal from the stock, by a fixed priority (the idea of the Rust example
// `greedy`): a small dog if it has none (it guards the rabbits from the fox), a big dog if it has
// none (it guards the rest from the wolf), then the farm kinds it is missing, the most valuable
// first. It pays with spare farm animals only (it keeps one of each kind it owns and never pays
// with dogs), the most valuable first, for exactly the price, so every offer it makes is a legal
// trade. It declines every offer from other players.
import { log } from 'arena:games/host@1.0.0';

// Fields of the `herd` record (WIT names in camelCase), in the byte ABI's order, and their worth
// in rabbits.
const KINDS = ['rabbit', 'sheep', 'pig', 'cow', 'horse', 'smallDog', 'bigDog'];
const WORTH = [1, 6, 12, 36, 72, 6, 36];
const [RABBIT, SHEEP, PIG, COW, HORSE, SMALL_DOG, BIG_DOG] = [0, 1, 2, 3, 4, 5, 6];

// What to buy when the herd has none of it, first wish first.
const PRIORITY = [SMALL_DOG, BIG_DOG, HORSE, COW, PIG, SHEEP, RABBIT];
// The farm kinds, most valuable first: the order in which we pay.
const PAY_ORDER = [HORSE, COW, PIG, SHEEP, RABBIT];

// Indexed `for` loops on purpose: in the JavaScript interpreter a `for...of` loop or an array
// method with a callback costs several times the fuel of a plain loop.
const counts = (h) => [h.rabbit, h.sheep, h.pig, h.cow, h.horse, h.smallDog, h.bigDog];
const herdOf = (a) => ({
  rabbit: a[0], sheep: a[1], pig: a[2], cow: a[3], horse: a[4], smallDog: a[5], bigDog: a[6],
});

// Spare farm animals worth exactly one `target`, or null if the spares cannot pay it.
function payment(have, target) {
  let need = WORTH[target];
  const give = [0, 0, 0, 0, 0, 0, 0];
  for (let p = 0; p < PAY_ORDER.length; p++) {
    const k = PAY_ORDER[p];
    if (k === target || WORTH[k] > need) continue;
    const n = Math.min(Math.floor(need / WORTH[k]), Math.max(have[k] - 1, 0));
    give[k] = n;
    need -= n * WORTH[k];
  }
  return need === 0 ? give : null;
}

export function init(setup) {
  if (setup.players < 2) throw 'Little Animal Farm needs 2 players or more';
}

export function trade(view) {
  const have = counts(view.herds[view.seat]);
  const stock = counts(view.stock);
  for (let p = 0; p < PRIORITY.length; p++) {
    const target = PRIORITY[p];
    if (have[target] > 0 || stock[target] === 0) continue;
    const give = payment(have, target);
    if (give !== null) {
      const get = [0, 0, 0, 0, 0, 0, 0];
      get[target] = 1;
      if (view.round % 50 === 0) log(`round ${view.round}: buying a ${KINDS[target]}`);
      return { partner: { tag: 'stock' }, give: herdOf(give), get: herdOf(get) };
    }
  }
  return undefined; // pass
}

export function acceptOffer(view, offer) {
  return false;
}
