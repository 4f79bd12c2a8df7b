;; Code war: the crawling borg (Perlwar's `$pos = 1; s/\d+/$&+1/e; return "^$pos";`). It claims
;; the cell k ahead and writes itself back with k + 1 (back to 1 past the end of the Array). Its
;; counter is the content of its last section, the custom section `codewar.state`: the module's
;; last two bytes, little-endian.
(module
  (import "codewar" "size" (func $size (result i32)))
  (import "codewar" "read" (func $read (param i32 i32 i32 i32) (result i32)))
  (import "codewar" "set_self" (func $set_self (param i32 i32)))
  (memory (export "memory") 1)
  (func (export "codewar_run") (result i64)
    (local $n i32) (local $k i32)
    ;; Its own bytes (cell 0, from byte 0) at address 0.
    (local.set $n (call $read (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 65536)))
    (local.set $k (i32.load16_u (i32.const 24)))
    (i32.store16
      (i32.const 24)
      (select
        (i32.const 1)
        (i32.add (local.get $k) (i32.const 1))
        (i32.ge_u (i32.add (local.get $k) (i32.const 1)) (call $size))))
    (call $set_self (i32.const 0) (local.get $n))
    ;; claim (operation 4) at x = k
    (i64.or (i64.const 0x4_0000_0000) (i64.extend_i32_u (local.get $k))))
  (@custom "codewar.state" (before first) "\01\00"))
