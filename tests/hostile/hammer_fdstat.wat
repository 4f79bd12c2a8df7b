;; Hostile: farm_trade asks for the status of stdout (one of the WASI calls wasmtime-wasi runs
;; through its async layer), forever. Expected: every call is paid for in fuel, so the decision ends with a decision_fuel fault in
;; milliseconds, at the same call on every run, never at the wall-clock backstop.
(module
  (import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fdstat (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $forever
      (drop (call $fdstat (i32.const 1) (i32.const 8192)))
      (br $forever))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
