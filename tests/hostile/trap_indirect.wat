;; Hostile: farm_trade calls a function through a table with the wrong signature. Expected: a trap fault (indirect call type mismatch).
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (call_indirect (type $i32_to_i32) (local.get $len) (i32.const 0)))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
  (type $i32_to_i32 (func (param i32) (result i32)))
  (type $none (func))
  (func $nothing (type $none))
  (table 1 funcref)
  (elem (i32.const 0) $nothing))
