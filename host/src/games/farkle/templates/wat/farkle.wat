;; A Farkle agent written by hand in WebAssembly text (ABI v1, docs/ABI.md "Farkle").
;;
;; Each roll it drafts every 1 and every 5, or, when the roll has none, three dice of a face that
;; shows three times or more (the host never asks about a farkle, so one of the two exists). It
;; rolls on while fewer than 300 points are at risk and at least three dice would be left (or all
;; six again after hot dice), and banks otherwise. Nothing to build: `arena check` this file.
(module
  ;; One page (64 KiB): the exchange buffer is its first 8192 bytes; face counts at 16384.
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))

  ;; The observation starts at buffer offset 32: turn points at 36, dice n at 44, faces at 48.
  ;; The answer is written at offset 0: action, k, then k indices (at most 32 bytes, so the
  ;; observation fields read here are never overwritten).
  (func (export "farkle_draft") (param $len i32) (result i32)
    (local $n i32) (local $i i32) (local $face i32) (local $k i32) (local $triple i32)
    (local $left i32) (local $action i32)
    (local.set $n (i32.load (i32.const 44)))
    ;; Every 1 and every 5.
    (local.set $i (i32.const 0))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $face (i32.load8_u (i32.add (i32.const 48) (local.get $i))))
        (if (i32.or (i32.eq (local.get $face) (i32.const 1)) (i32.eq (local.get $face) (i32.const 5)))
          (then
            (i32.store (i32.add (i32.const 8) (i32.shl (local.get $k) (i32.const 2))) (local.get $i))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    ;; None: three dice of a face shown three times or more.
    (if (i32.eqz (local.get $k))
      (then
        (memory.fill (i32.const 16384) (i32.const 0) (i32.const 28))
        (local.set $i (i32.const 0))
        (block $counted
          (loop $count
            (br_if $counted (i32.ge_u (local.get $i) (local.get $n)))
            (local.set $face
              (i32.add (i32.const 16384)
                (i32.shl (i32.load8_u (i32.add (i32.const 48) (local.get $i))) (i32.const 2))))
            (i32.store (local.get $face) (i32.add (i32.load (local.get $face)) (i32.const 1)))
            (if (i32.ge_u (i32.load (local.get $face)) (i32.const 3))
              (then (local.set $triple (i32.load8_u (i32.add (i32.const 48) (local.get $i))))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $count)))
        (local.set $i (i32.const 0))
        (block $taken
          (loop $take
            (br_if $taken (i32.ge_u (local.get $i) (local.get $n)))
            (br_if $taken (i32.ge_u (local.get $k) (i32.const 3)))
            (if (i32.eq (i32.load8_u (i32.add (i32.const 48) (local.get $i))) (local.get $triple))
              (then
                (i32.store (i32.add (i32.const 8) (i32.shl (local.get $k) (i32.const 2))) (local.get $i))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $take)))))
    ;; Roll on (0) or bank (1).
    (local.set $left (i32.sub (local.get $n) (local.get $k)))
    (local.set $action (i32.const 1))
    (if (i32.and
          (i32.lt_u (i32.load (i32.const 36)) (i32.const 300))
          (i32.or (i32.eqz (local.get $left)) (i32.ge_u (local.get $left) (i32.const 3))))
      (then (local.set $action (i32.const 0))))
    (i32.store (i32.const 0) (local.get $action))
    (i32.store (i32.const 4) (local.get $k))
    (i32.add (i32.const 8) (i32.shl (local.get $k) (i32.const 2))))
)
