;; A component that exports the farm's decisions by name but with other types: `init`, `trade`
;; and `accept-offer` as functions of no arguments. It is of no world of the arena's.
(component
  (core module $m
    (func (export "init"))
    (func (export "trade") (result i32) (i32.const 0))
    (func (export "accept-offer") (result i32) (i32.const 0)))
  (core instance $i (instantiate $m))
  (func (export "init") (canon lift (core func $i "init")))
  (func (export "trade") (result u32) (canon lift (core func $i "trade")))
  (func (export "accept-offer") (result u32) (canon lift (core func $i "accept-offer"))))
