;; Hostile: farm_trade recurses without end. Expected: a stack_overflow fault on the trade decision.
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (call $down (local.get $len)))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
  (func $down (param $n i32) (result i32)
    (i32.add (call $down (i32.add (local.get $n) (i32.const 1))) (i32.const 1))))
