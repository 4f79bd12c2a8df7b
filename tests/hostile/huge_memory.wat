;; Hostile: declares an initial memory of 60,000 pages (3.7 GiB). Expected: refused when loaded (the memory limit applies to the initial size).
(module

  (memory (export "memory") 60000)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
)
