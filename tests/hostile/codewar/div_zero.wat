;; Perlwar's `6/0`: an integer division by zero traps.
(module
  (func (export "codewar_run") (result i64)
    (i64.div_s (i64.const 6) (i64.const 0))))
