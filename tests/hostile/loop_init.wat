;; Hostile: arena_init never returns. Expected: a decision_fuel fault at init; the agent forfeits before the first turn.
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
  (func (export "arena_init") (param $len i32) (result i32)
    (loop $forever (br $forever))
    (i32.const 0)))
