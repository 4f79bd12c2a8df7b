;; Hostile: farm_trade asks random_get for 4 KiB, forever (once ~70 µs of host time per call for
;; a few units of fuel). Expected: every call is paid for in fuel, so the decision ends with a decision_fuel fault in
;; milliseconds, at the same call on every run, never at the wall-clock backstop.
(module
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $forever
      (drop (call $random_get (i32.const 8192) (i32.const 4096)))
      (br $forever))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
