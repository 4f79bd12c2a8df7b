;; A component that imports an interface the arena does not provide (outgoing HTTP): refused at
;; load, naming the import.
(component
  (import "wasi:http/outgoing-handler@0.2.0" (instance
    (export "handle" (func)))))
