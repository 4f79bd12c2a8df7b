;; Hands the host a range outside its memory: an access outside memory traps.
(module
  (import "codewar" "set_self" (func $set_self (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "codewar_run") (result i64)
    (call $set_self (i32.const 65530) (i32.const 20))
    (i64.const 0)))
