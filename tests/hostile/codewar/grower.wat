;; Grows to the maximal size plus one byte: hands the host more bytes than it may hold, and
;; segfaults (write_too_big).
(module
  (import "codewar" "max_size" (func $max_size (result i32)))
  (import "codewar" "set_self" (func $set_self (param i32 i32)))
  (memory (export "memory") 2)
  (func (export "codewar_run") (result i64)
    (call $set_self (i32.const 0) (i32.add (call $max_size) (i32.const 1)))
    (i64.const 0)))
