;; Hostile: farm_trade logs one byte with arena.log, forever (the log fills up after 16 KiB and
;; the calls go on). Expected: every call is paid for in fuel, so the decision ends with a decision_fuel fault in
;; milliseconds, at the same call on every run, never at the wall-clock backstop.
(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $forever
      (call $log (i32.const 8192) (i32.const 1))
      (br $forever))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
