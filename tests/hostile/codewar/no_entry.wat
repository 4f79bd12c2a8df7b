;; No `codewar_run` export of type () -> i64 (this one returns i32).
(module (func (export "codewar_run") (result i32) (i32.const 0)))
