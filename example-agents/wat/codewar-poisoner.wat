;; Code war: the neighbour poisoner (Perlwar's `$_[1] =~ s//return "!"/; return "~1";`). When the
;; next cell shows another player's facade, it stages a module that nukes its own cell for it and
;; updates it (the neighbour runs next, and dies); into an empty next cell it copies itself; a
;; neighbour that shows its own player's facade is left alone.
(module
  (import "codewar" "facade" (func $facade (param i32) (result i32)))
  (import "codewar" "owner" (func $owner (result i32)))
  (import "codewar" "stage" (func $stage (param i32 i32 i32)))
  (memory (export "memory") 1)
  ;; (module (func (export "codewar_run") (result i64) (i64.const 0x2_0000_0000))): 48 bytes.
  (data (i32.const 0)
    "\00asm\01\00\00\00"
    "\01\05\01\60\00\01\7e"
    "\03\02\01\00"
    "\07\0f\01\0bcodewar_run\00\00"
    "\0a\0a\01\08\00\42\80\80\80\80\20\0b")
  (func (export "codewar_run") (result i64)
    (local $f i32)
    (local.set $f (call $facade (i32.const 1)))
    ;; An empty neighbour: copy itself there (0x1_0001_0000).
    (if (i32.lt_s (local.get $f) (i32.const 0))
      (then (return (i64.const 0x1_0001_0000))))
    ;; A friend's facade: nothing.
    (if (i32.eq (local.get $f) (call $owner))
      (then (return (i64.const 0))))
    ;; An enemy's: stage the suicidal module for +1 and update +1 (0x3_0000_0001).
    (call $stage (i32.const 1) (i32.const 0) (i32.const 48))
    (i64.const 0x3_0000_0001)))
