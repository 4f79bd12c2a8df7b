;; Hostile: farm_trade asks how much fuel it has left, forever, waiting for it to grow. Expected:
;; every call of arena.fuel_left is paid for in fuel like every host call, so the decision ends
;; with a decision_fuel fault in milliseconds, at the same call on every run, never at the
;; wall-clock backstop.
(module
  (import "arena" "fuel_left" (func $fuel_left (result i64)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $forever
      (drop (call $fuel_left))
      (br $forever))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
