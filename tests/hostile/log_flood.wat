;; Hostile: every trade decision asks arena.log to keep 64 KiB (4 writes of 16 KiB: four times
;; the log's bound for a whole game; every byte costs a unit of fuel, and this much fits the fuel
;; of a game of 120 rounds), plus a pointer and a length outside memory. Expected: no fault, and
;; the log the arena keeps stays within its bound (16 KiB per agent and game by default).
(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (local $i i32)
    (memory.fill (i32.const 0) (i32.const 65) (i32.const 16384))
    (local.set $i (i32.const 4))
    (loop $flood
      (call $log (i32.const 0) (i32.const 16384))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br_if $flood (local.get $i)))
    (call $log (i32.const 0x7ffffff0) (i32.const 100))
    (call $log (i32.const 0) (i32.const -1))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
