;; Hostile: farm_trade divides by zero (computed from its argument, so no compiler can fold it). Expected: a trap fault (integer divide by zero).
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (i32.div_u (local.get $len) (i32.sub (local.get $len) (local.get $len))))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
)
