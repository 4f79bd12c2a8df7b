;; A component whose core module loops in its start function: instantiation never ends, so the
;; component is refused at load (its instantiation uses up the fuel of one decision).
(component
  (core module $m
    (func $spin (loop $again (br $again)))
    (start $spin))
  (core instance (instantiate $m)))
