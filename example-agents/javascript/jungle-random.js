// A Jungle agent in JavaScript, a WebAssembly component of world `arena:games/jungle` (built
// by build.mjs with componentize-js).
//
// It plays a uniformly random move from the legal moves the host lists, drawn with Math.random,
// which the arena derives from the game seed (so a replay repeats it): the Rust example
// `jungle-random`. Once per game it logs how much fuel its first decision has left
// (`fuelLeft()`, the fuel clock's meter).
//
// Build: see README.md.

import { log, fuelLeft } from 'arena:games/host@1.0.0';

let told = false;

export function init(setup) {
  told = false;
}

export function chooseMove(view) {
  if (!told) {
    told = true;
    log(`fuel left: ${fuelLeft()} of a clock of ${view.clock.mine}`);
  }
  return view.legal[Math.floor(Math.random() * view.legal.length)];
}
