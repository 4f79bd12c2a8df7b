// climber: a Little Animal Farm agent in AssemblyScript.
//
// Each turn it buys one animal from the stock: a small dog if it has none, then a big dog if it
// has none, then the cheapest farm animal it is missing. It pays with spare animals only (it
// keeps one of each kind it owns and never pays with dogs), largest first, for exactly the worth
// of what it buys, so every offer is legal. It declines offers from other players.
import {
  Animal, ANIMAL_NAMES, Answer, KINDS, log, mine, pass, round, stock, worth,
} from "../../../agent-sdk/assemblyscript/arena";

export { arena_abi_version, arena_buffer, arena_buffer_size } from "../../../agent-sdk/assemblyscript/arena";

// Spare animals of a farm kind: all but one.
function spare(kind: i32): i32 {
  const n = mine(kind);
  return n > 0 ? n - 1 : 0;
}

// The payment (counts per kind) for one `target`, or null when spare animals cannot pay exactly.
function payFor(target: i32): StaticArray<i32> | null {
  const give = new StaticArray<i32>(KINDS);
  let need = worth(target);
  for (let k = <i32>Animal.Horse; k >= <i32>Animal.Rabbit; k--) {
    if (k == target || worth(k) > need) continue;
    const n = min(need / worth(k), spare(k));
    give[k] = n;
    need -= n * worth(k);
  }
  return need == 0 ? give : null;
}

// The answer buying one `target` from the stock, or 0 when that is not possible.
function buy(target: i32): i32 {
  if (stock(target) == 0) return 0;
  const give = payFor(target);
  if (give === null) return 0;
  log("round " + round().toString() + ": buying a " + ANIMAL_NAMES[target]);
  const offer = Answer.stockTrade().get(target, 1);
  for (let k = 0; k < KINDS; k++) offer.give(k, give[k]);
  return offer.answer();
}

export function farm_trade(len: i32): i32 {
  for (let dog = <i32>Animal.SmallDog; dog <= <i32>Animal.BigDog; dog++) {
    if (mine(dog) == 0) {
      const r = buy(dog);
      if (r != 0) return r;
    }
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
  return 0;
}
