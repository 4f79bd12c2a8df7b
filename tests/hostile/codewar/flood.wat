;; Floods the Array: copies itself to a random cell every visit (a copy onto another player's
;; agent fails, so it fills the empty cells).
(module
  (import "codewar" "size" (func $size (result i32)))
  (import "codewar" "random" (func $random (param i32) (result i32)))
  (func (export "codewar_run") (result i64)
    ;; copy (1) from x = 0 to y = 1 + random(size - 1)
    (i64.or
      (i64.const 0x1_0000_0000)
      (i64.shl
        (i64.extend_i32_u
          (i32.add (i32.const 1) (call $random (i32.sub (call $size) (i32.const 1)))))
        (i64.const 16)))))
