;; Code war: the berserker. It nukes a random cell other than its own: +1 to +(size - 1).
(module
  (import "codewar" "size" (func $size (result i32)))
  (import "codewar" "random" (func $random (param i32) (result i32)))
  (func (export "codewar_run") (result i64)
    ;; nuke (operation 2) at x = 1 + random(size - 1)
    (i64.or
      (i64.const 0x2_0000_0000)
      (i64.extend_i32_u
        (i32.add (i32.const 1) (call $random (i32.sub (call $size) (i32.const 1))))))))
