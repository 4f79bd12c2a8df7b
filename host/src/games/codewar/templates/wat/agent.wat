;; {{name}}: a code war agent in WebAssembly text (docs/CODEWAR.md, docs/ABI.md "Code war").
;; It lives in a cell of the Array and runs once per iteration, each time in a fresh instance.
;; `codewar_run` returns one instruction, 0xOP_YYYY_XXXX: operation 1 copy (x to y), 2 nuke (x),
;; 3 update (x), 4 claim (x); offsets relative to its own cell, 16 bits each.
;;
;; This one copies itself into the next cell when it is empty, and otherwise nukes the next cell
;; when it shows another player's facade.
(module
  (import "codewar" "facade" (func $facade (param i32) (result i32)))
  (import "codewar" "owner" (func $owner (result i32)))
  (func (export "codewar_run") (result i64)
    (local $next i32)
    (local.set $next (call $facade (i32.const 1)))
    ;; -1: an empty cell. Copy 0 to +1.
    (if (i32.lt_s (local.get $next) (i32.const 0))
      (then (return (i64.const 0x1_0001_0000))))
    ;; Another player's facade: nuke +1. Our own: do nothing.
    (if (result i64) (i32.ne (local.get $next) (call $owner))
      (then (i64.const 0x2_0000_0001))
      (else (i64.const 0)))))
