;; farkle-banker.wat: a Farkle agent written by hand in WebAssembly text (agent ABI v1, game 2).
;; No toolchain: the arena loads .wat files directly.
;;
;; Strategy (the same as the Rust example `farkle-banker`): draft every scoring die of the roll,
;; then bank. Every 1 and every 5 scores; a face 2, 3, 4 or 6 scores only as a triple, so three
;; of them are drafted when the roll has three to five, all six when it has six (two triples),
;; none otherwise. Such a draft is always legal, and the host never asks about a farkle.
;;
;; Observation (buffer offset 32 on): +12 u32 n = dice in the roll, +16 u8 x 6 the faces.
;; Answer (buffer offset 0): u32 action (1 = bank), u32 k, u32 x k indices; return 8 + 4k.
;;
;; Memory map (one 64 KiB page):
;;   64..92     COUNT[f] for faces f = 0..6 (u32 each): how many dice of the roll show f
;;   128..156   TAKEN[f]: how many dice of face f are drafted so far
;;   512..544   scratch: the answer being built
;;   1024..     the exchange buffer (8 KiB, the smallest allowed): envelope, then the observation
(module
  (memory (export "memory") 1)

  (global $BUF i32 (i32.const 1024))
  (global $BUF_SIZE i32 (i32.const 8192))

  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (global.get $BUF))
  (func (export "arena_buffer_size") (result i32) (global.get $BUF_SIZE))

  ;; Nothing to set up; 0 accepts the game.
  (func (export "arena_init") (param $len i32) (result i32) (i32.const 0))

  ;; How many dice of face $f may be drafted: all 1s and 5s; for the other faces 6 when all six
  ;; dice show it, 3 for three to five of them, none for fewer than three.
  (func $limit (param $f i32) (result i32)
    (local $c i32)
    (local.set $c (i32.load offset=64 (i32.shl (local.get $f) (i32.const 2))))
    (if (i32.or (i32.eq (local.get $f) (i32.const 1)) (i32.eq (local.get $f) (i32.const 5)))
      (then (return (local.get $c))))
    (if (i32.ge_u (local.get $c) (i32.const 6)) (then (return (i32.const 6))))
    (if (i32.ge_u (local.get $c) (i32.const 3)) (then (return (i32.const 3))))
    (i32.const 0))

  (func (export "farkle_draft") (param $len i32) (result i32)
    (local $n i32) (local $i i32) (local $f i32) (local $k i32) (local $size i32)
    ;; Refuse (trap) anything but a Farkle draft: game 2 at offset 4, decision 3 at offset 8.
    (if (i32.or
          (i32.ne (i32.load offset=4 (global.get $BUF)) (i32.const 2))
          (i32.ne (i32.load offset=8 (global.get $BUF)) (i32.const 3)))
      (then unreachable))
    ;; n = dice in the roll (payload +12 = buffer +44), at most 6.
    (local.set $n (i32.load offset=44 (global.get $BUF)))
    (if (i32.gt_u (local.get $n) (i32.const 6)) (then unreachable))
    ;; Count the faces (payload +16 = buffer +48, one byte each; a face above 6 traps).
    (memory.fill (i32.const 64) (i32.const 0) (i32.const 96))
    (local.set $i (i32.const 0))
    (block $counted
      (loop $count
        (br_if $counted (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $f (i32.load8_u offset=48 (i32.add (global.get $BUF) (local.get $i))))
        (if (i32.gt_u (local.get $f) (i32.const 6)) (then unreachable))
        (i32.store offset=64 (i32.shl (local.get $f) (i32.const 2))
          (i32.add (i32.load offset=64 (i32.shl (local.get $f) (i32.const 2))) (i32.const 1)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $count)))
    ;; Draft: walk the dice in order and take each one its face's limit still allows.
    (local.set $k (i32.const 0))
    (local.set $i (i32.const 0))
    (block $drafted
      (loop $draft
        (br_if $drafted (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $f (i32.load8_u offset=48 (i32.add (global.get $BUF) (local.get $i))))
        (if (i32.lt_u
              (i32.load offset=128 (i32.shl (local.get $f) (i32.const 2)))
              (call $limit (local.get $f)))
          (then
            ;; TAKEN[f] += 1; index i goes to scratch 512 + 8 + 4k
            (i32.store offset=128 (i32.shl (local.get $f) (i32.const 2))
              (i32.add (i32.load offset=128 (i32.shl (local.get $f) (i32.const 2))) (i32.const 1)))
            (i32.store offset=520 (i32.shl (local.get $k) (i32.const 2)) (local.get $i))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $draft)))
    ;; action 1 = bank, then k; copy the 8 + 4k bytes over the buffer's start and return the size.
    (i32.store (i32.const 512) (i32.const 1))
    (i32.store (i32.const 516) (local.get $k))
    (local.set $size (i32.add (i32.const 8) (i32.shl (local.get $k) (i32.const 2))))
    (memory.copy (global.get $BUF) (i32.const 512) (local.get $size))
    (local.get $size))
)
