// {{name}}: a Little Animal Farm agent in AssemblyScript (made by `arena new`).
//
// Each turn it buys one animal from the stock: a small dog if it has none, then the cheapest farm
// animal it is missing. It pays with spare animals (it keeps one of each kind and never pays with
// dogs), largest first, for exactly the worth of what it buys, so its offers are legal.
// arena.ts holds the ABI v1 bindings; edit farm_trade and farm_accept.
//
// Build: npm install && npm run build
// Check: arena check build/{{name}}.wasm
import { Animal, ANIMAL_NAMES, Answer, KINDS, log, mine, pass, round, stock, worth } from "./arena";

export { arena_abi_version, arena_buffer, arena_buffer_size } from "./arena";

// The answer buying one `target` from the stock, or 0 when that is not possible.
function buy(target: i32): i32 {
  if (stock(target) == 0) return 0;
  const give = new StaticArray<i32>(KINDS);
  let need = worth(target);
  for (let k = <i32>Animal.Horse; k >= <i32>Animal.Rabbit; k--) {
    if (k == target || worth(k) > need) continue;
    const spare = mine(k) > 0 ? mine(k) - 1 : 0;
    const n = min(need / worth(k), spare);
    give[k] = n;
    need -= n * worth(k);
  }
  if (need != 0) return 0;
  log("round " + round().toString() + ": buying a " + ANIMAL_NAMES[target]);
  // Answer writes over the observation: everything needed was read above.
  const offer = Answer.stockTrade().get(target, 1);
  for (let k = 0; k < KINDS; k++) offer.give(k, give[k]);
  return offer.answer();
}

export function farm_trade(len: i32): i32 {
  if (mine(Animal.SmallDog) == 0) {
    const r = buy(Animal.SmallDog);
    if (r != 0) return r;
  }
  for (let k = <i32>Animal.Rabbit; k <= <i32>Animal.Horse; k++) {
    if (mine(k) == 0) {
      const r = buy(k);
      if (r != 0) return r;
    }
  }
  return pass();
}

export function farm_accept(len: i32): i32 {
  return 0; // deny every offer
}
