;; A component of a world that is not the arena's: it exports `play: func() -> u32`.
(component
  (core module $m (func (export "play") (result i32) (i32.const 7)))
  (core instance $i (instantiate $m))
  (func (export "play") (result u32) (canon lift (core func $i "play"))))
