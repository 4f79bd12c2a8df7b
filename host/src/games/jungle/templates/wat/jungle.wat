;; A Jungle agent written by hand in WebAssembly text (ABI v1, docs/ABI.md "Jungle").
;;
;; It picks from the legal moves the host lists: a move into the enemy den first, else the capture
;; of the highest-ranked piece, else the move that goes furthest toward the enemy's side of the
;; board (the first such move in the host's order). Nothing to build: `arena check` this file.
(module
  ;; One page (64 KiB): the exchange buffer is its first 8192 bytes.
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))

  ;; The observation starts at buffer offset 32: your side at 32, the board (a piece code per
  ;; square, a1 first) at 88, the number of legal moves at 156, the legal moves (from, to) at
  ;; 160. The answer is written at offset 0: the from and to squares; the function returns 2.
  (func (export "jungle_move") (param $len i32) (result i32)
    (local $side i32) (local $n i32) (local $i i32) (local $to i32) (local $target i32)
    (local $score i32) (local $best i32) (local $best_score i32) (local $den i32)
    (local.set $side (i32.load (i32.const 32)))
    (local.set $n (i32.load (i32.const 156)))
    ;; The enemy den: d9 (59) for the first player, d1 (3) for the second.
    (local.set $den (select (i32.const 59) (i32.const 3) (i32.eqz (local.get $side))))
    (local.set $best_score (i32.const -1))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $to (i32.load8_u (i32.add (i32.const 161) (i32.shl (local.get $i) (i32.const 1)))))
        ;; Progress: the rank reached, counted from your own side (0 to 8).
        (local.set $score (i32.div_u (local.get $to) (i32.const 7)))
        (if (local.get $side)
          (then (local.set $score (i32.sub (i32.const 8) (local.get $score)))))
        ;; A capture: 100 times the captured piece's rank (its code, 1 to 8 or 9 to 16).
        (local.set $target (i32.load8_u (i32.add (i32.const 88) (local.get $to))))
        (if (local.get $target)
          (then
            (local.set $score
              (i32.add (local.get $score)
                (i32.mul (i32.const 100)
                  (i32.add (i32.and (i32.sub (local.get $target) (i32.const 1)) (i32.const 7))
                    (i32.const 1)))))))
        (if (i32.eq (local.get $to) (local.get $den))
          (then (local.set $score (i32.add (local.get $score) (i32.const 10000)))))
        (if (i32.gt_s (local.get $score) (local.get $best_score))
          (then
            (local.set $best_score (local.get $score))
            (local.set $best (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $each)))
    ;; The answer: the best move's two squares at offset 0.
    (i32.store8 (i32.const 0)
      (i32.load8_u (i32.add (i32.const 160) (i32.shl (local.get $best) (i32.const 1)))))
    (i32.store8 (i32.const 1)
      (i32.load8_u (i32.add (i32.const 161) (i32.shl (local.get $best) (i32.const 1)))))
    (i32.const 2))
)
