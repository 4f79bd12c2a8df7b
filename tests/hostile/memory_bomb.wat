;; Hostile: farm_trade grows its memory one page at a time until memory.grow answers -1, then
;; reads the first byte past the memory it has. Expected: the refusal is written to its log, and
;; the out-of-bounds read that follows it is a memory_limit fault on the trade decision.
(module

  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $grow
      (br_if $grow (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))
    (drop (i32.load8_u (i32.mul (memory.size) (i32.const 65536))))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32)
    (i32.const 0))
)
