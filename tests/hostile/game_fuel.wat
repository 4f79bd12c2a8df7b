;; Hostile: every trade decision burns about 880,000 fuel (8 per iteration) and then passes: inside a per-decision budget of 1,000,000 but, over a game, more than a per-game budget of 20,000,000. Expected: a game_fuel fault on a trade decision, after which the agent is not called again.
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (local $i i32)
    (local.set $i (i32.const 110000))
    (loop $burn
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br_if $burn (i32.ne (local.get $i) (i32.const 0))))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
)
