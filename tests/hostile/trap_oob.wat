;; Hostile: farm_trade loads from far outside its memory. Expected: a trap fault (out of bounds memory access).
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (i32.load (i32.const 0x7ffffff0)))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
)
