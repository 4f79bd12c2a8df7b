;; Hostile: farm_trade returns a length larger than its buffer. Expected: a bad_answer fault.
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (i32.const 0x7fffffff))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
)
