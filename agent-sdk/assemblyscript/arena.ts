// arena.ts: write a Little Animal Farm agent for the arena in AssemblyScript (agent ABI v1).
//
// The byte layouts are those of docs/ABI.md (the Rust crate arena-abi is the reference); every
// field is little-endian. This module reads the exchange buffer in place (no copies, no
// allocation) and writes trade answers into it.
//
// Your entry file (e.g. assembly/index.ts) must:
//   * re-export the buffer exports:
//       export { arena_abi_version, arena_buffer, arena_buffer_size } from "./arena";
//   * define the two decisions:
//       export function farm_trade(len: i32): i32    // return pass() or offer.answer()
//       export function farm_accept(len: i32): i32   // return 1 to accept, 0 to deny
//   * be built with `--use abort=<path-of-this-file>/arenaAbort` (see docs/languages/assemblyscript.md),
//     so that a failed assertion or an out-of-bounds array access logs its message with
//     arena.log and traps, instead of importing `env.abort`, which the arena does not provide.
// Each game runs in a fresh instance: globals start anew every game.

export const ABI_VERSION: i32 = 1;
export const MIN_BUFFER_SIZE: i32 = 8192;
export const BUFFER_SIZE: i32 = 16384;

export const KINDS: i32 = 7;
export const MAX_PLAYERS: i32 = 6;

// Animal kinds: indices into herds and offers.
export enum Animal {
  Rabbit = 0,
  Sheep = 1,
  Pig = 2,
  Cow = 3,
  Horse = 4,
  SmallDog = 5,
  BigDog = 6,
}

export const ANIMAL_NAMES: StaticArray<string> = ["rabbit", "sheep", "pig", "cow", "horse", "small dog", "big dog"];

// Worth of each kind in rabbits (the fixed exchange rates). A trade is legal when both sides are
// worth the same and one side is exactly one animal.
export function worth(kind: i32): i32 {
  return load<i32>(WORTH_TABLE + (<usize>kind << 2));
}
const WORTH_TABLE = memory.data<i32>([1, 6, 12, 36, 72, 6, 36]);

// Decisions (envelope field `decision`).
export const DECISION_INIT: u32 = 0;
export const DECISION_TRADE: u32 = 1;
export const DECISION_ACCEPT: u32 = 2;

// Offer kinds.
export const OFFER_PASS: u32 = 0;
export const OFFER_STOCK: u32 = 1;
export const OFFER_PLAYER: u32 = 2;

export const NO_TRADER: u32 = 0xffffffff;
export const STOCK_SEAT: u8 = 255;

// Event kinds; docs/ABI.md gives the meaning of seat, other and code for each.
export const EVENT_ANSWER: u8 = 1;
export const EVENT_TRADE_FAILED: u8 = 2;
export const EVENT_TRANSFER: u8 = 3;
export const EVENT_ROLLED: u8 = 4;
export const EVENT_WOLF: u8 = 5;
export const EVENT_FOX: u8 = 6;
export const EVENT_BRED: u8 = 7;
export const EVENT_FAULT: u8 = 8;
export const EVENT_FORFEIT: u8 = 9;
export const EVENT_WIN: u8 = 10;
export const EVENT_DRAW: u8 = 11;

// The exchange buffer: the host writes each call's envelope and payload here.
const BUFFER: usize = memory.data(BUFFER_SIZE, 16);

export function arena_abi_version(): i32 {
  return ABI_VERSION;
}

export function arena_buffer(): i32 {
  return <i32>BUFFER;
}

export function arena_buffer_size(): i32 {
  return BUFFER_SIZE;
}

// ---- the envelope (32 bytes at the buffer's start) ------------------------------------------

export function decision(): u32 { return load<u32>(BUFFER, 8); }
export function mySeat(): i32 { return load<i32>(BUFFER, 12); }
export function players(): i32 { return load<i32>(BUFFER, 16); }
export function turn(): u32 { return load<u32>(BUFFER, 20); }
export function round(): u32 { return load<u32>(BUFFER, 24); }

// ---- the init payload (arena_init) ------------------------------------------------------------

export function initSeed(): u64 { return load<u64>(BUFFER, 32); }
export function initRoundCap(): u32 { return load<u32>(BUFFER, 40); }

// ---- the observation (payload of farm_trade and farm_accept, at offset 32) --------------------

const OBS: usize = BUFFER + 32;

// Seat whose turn it is.
export function toMove(): i32 { return load<i32>(OBS, 0); }
// Bit i set: seat i has forfeited.
export function outMask(): u32 { return load<u32>(OBS, 4); }
// Animals of `kind` in the stock.
export function stock(kind: i32): i32 { return load<i32>(OBS + 8 + (<usize>kind << 2)); }
// Animals of `kind` in the herd of `seat`.
export function herd(seat: i32, kind: i32): i32 {
  return load<i32>(OBS + 36 + <usize>(seat * 28) + (<usize>kind << 2));
}
// Animals of `kind` in your herd.
export function mine(kind: i32): i32 { return herd(mySeat(), kind); }
// Number of events present, oldest first, and how many older ones were left out.
export function eventCount(): i32 { return load<i32>(OBS, 204); }
export function eventsDropped(): u32 { return load<u32>(OBS, 208); }
// Accept decision: the seat that offers (NO_TRADER in a trade decision).
export function trader(): u32 { return load<u32>(OBS, 212); }
// Accept decision: the offer as the trader gave it (give = what you would receive).
export function offerGive(kind: i32): i32 { return load<i32>(OBS + 216 + 8 + (<usize>kind << 2)); }
export function offerGet(kind: i32): i32 { return load<i32>(OBS + 216 + 36 + (<usize>kind << 2)); }

// Event i (0 = oldest present): kind, seat, other, code, animals.
function eventAt(i: i32): usize { return OBS + 280 + <usize>(i * 32); }
export function eventKind(i: i32): u8 { return load<u8>(eventAt(i), 0); }
export function eventSeat(i: i32): u8 { return load<u8>(eventAt(i), 1); }
export function eventOther(i: i32): u8 { return load<u8>(eventAt(i), 2); }
export function eventCode(i: i32): u8 { return load<u8>(eventAt(i), 3); }
export function eventAnimals(i: i32, kind: i32): u32 { return load<u32>(eventAt(i) + 4 + (<usize>kind << 2)); }

// ---- answers ----------------------------------------------------------------------------------

// The answer of farm_trade that passes.
export function pass(): i32 {
  return 0;
}

// A trade being written: call stockTrade()/playerTrade(), set give/get counts, return answer().
// It is written straight into the buffer, over the observation: read what you need first.
export class Answer {
  // Starts a trade with the stock.
  static stockTrade(): Answer {
    memory.fill(BUFFER, 0, 64);
    store<u32>(BUFFER, OFFER_STOCK, 0);
    return new Answer();
  }
  // Starts a trade with the player in `seat` (it is asked whether it accepts).
  static playerTrade(seat: i32): Answer {
    memory.fill(BUFFER, 0, 64);
    store<u32>(BUFFER, OFFER_PLAYER, 0);
    store<i32>(BUFFER, seat, 4);
    return new Answer();
  }
  give(kind: i32, count: i32): Answer {
    store<i32>(BUFFER + 8 + (<usize>kind << 2), count);
    return this;
  }
  get(kind: i32, count: i32): Answer {
    store<i32>(BUFFER + 36 + (<usize>kind << 2), count);
    return this;
  }
  // The return value of farm_trade for this offer.
  answer(): i32 {
    return 64;
  }
}

// ---- debug log --------------------------------------------------------------------------------

// @ts-ignore: decorator
@external("arena", "log")
declare function arenaLog(ptr: usize, len: i32): void;

// Appends a line to your debug log (kept per game, bounded).
export function log(message: string): void {
  const bytes = String.UTF8.encode(message + "\n");
  arenaLog(changetype<usize>(bytes), bytes.byteLength);
}

// The abort handler: build with `--use abort=<this file>/arenaAbort`. Logs the message and traps.
export function arenaAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  let text = "abort: " + (message !== null ? message : "(no message)");
  if (fileName !== null) text += " at " + fileName + ":" + line.toString() + ":" + column.toString();
  log(text);
  unreachable();
}
