;; Writes an invalid module into the next cell: stages 16 bytes that are no module and updates
;; the neighbour with them (an enemy agent) or copies them there (an empty or friendly cell).
;; Whoever holds those bytes segfaults (invalid) at its next visit.
(module
  (import "codewar" "facade" (func $facade (param i32) (result i32)))
  (import "codewar" "owner" (func $owner (result i32)))
  (import "codewar" "stage" (func $stage (param i32 i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "\00asm\01\00\00\00\ff\ff\ff\ff\ff\ff\ff\ff")
  (func (export "codewar_run") (result i64)
    (call $stage (i32.const 1) (i32.const 0) (i32.const 16))
    ;; An empty or friendly neighbour (a facade of -1 or its own player's): copy; else update.
    (if (result i64)
      (i32.or
        (i32.lt_s (call $facade (i32.const 1)) (i32.const 0))
        (i32.eq (call $facade (i32.const 1)) (call $owner)))
      (then (i64.const 0x1_0001_0001))      ;; copy +1 (the staged bytes) to +1
      (else (i64.const 0x3_0000_0001)))))   ;; update +1
