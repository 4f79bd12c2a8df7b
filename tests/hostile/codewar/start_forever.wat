;; An endless start function: it runs when the instance is made, on the visit's fuel.
(module
  (func $start (loop $l (br $l)))
  (start $start)
  (func (export "codewar_run") (result i64) (i64.const 0)))
