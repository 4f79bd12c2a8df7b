;; Hostile: farm_trade polls 1,024 clock subscriptions (sleeps of zero seconds), forever. Expected: every call is paid for in fuel, so the decision ends with a decision_fuel fault in
;; milliseconds, at the same call on every run, never at the wall-clock backstop.
(module
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 2)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (loop $forever
      (drop (call $poll (i32.const 8192) (i32.const 65536) (i32.const 1024) (i32.const 8188)))
      (br $forever))
    (i32.const 0))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
