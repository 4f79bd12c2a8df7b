;; Perlwar's `system "ls"`: an import the arena does not provide.
(module
  (import "env" "system" (func $system (param i32) (result i32)))
  (func (export "codewar_run") (result i64) (i64.extend_i32_s (call $system (i32.const 0)))))
