;; Perlwar's `die`: traps at once.
(module (func (export "codewar_run") (result i64) unreachable))
