;; Hostile: farm_trade starts at the memory limit (512 pages, 32 MiB) and asks memory.grow for
;; one more page, forever: every grow answers -1 (and is written to the log until it is full).
;; Expected: every call is paid for in fuel, so the decision ends with a decision_fuel fault in
;; milliseconds, at the same call on every run, never at the wall-clock backstop.
(module

  (memory (export "memory") 512)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $forever
      (drop (memory.grow (i32.const 1)))
      (br $forever))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
