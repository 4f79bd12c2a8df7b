;; Hostile: every turn a different malformed offer, chosen by the round number (round % 8):
;;   0 unknown kind 7                          -> trade_failed wrong_type
;;   1 gives -5 rabbits                        -> trade_failed invalid_amount
;;   2 asks the stock for 1,000,000 horses     -> trade_failed invalid_amount
;;   3 gives a horse it does not have          -> trade_failed not_enough_animals
;;   4 trades with its own seat                -> trade_failed self_trade
;;   5 trades with seat `players` (none)       -> trade_failed no_such_player
;;   6 trades with seat -1                     -> trade_failed no_such_player
;;   7 gives i32::MIN rabbits                  -> trade_failed invalid_amount
;; These are readable offers: failed trades with a reason, never faults.
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (local $round i32) (local $seat i32) (local $players i32)
    (local.set $seat (i32.load (i32.const 12)))
    (local.set $players (i32.load (i32.const 16)))
    (local.set $round (i32.load (i32.const 24)))
    (memory.fill (i32.const 0) (i32.const 0) (i32.const 64))
    (block $done
      (block $c7 (block $c6 (block $c5 (block $c4 (block $c3 (block $c2 (block $c1 (block $c0
        (br_table $c0 $c1 $c2 $c3 $c4 $c5 $c6 $c7 (i32.rem_u (local.get $round) (i32.const 8))))
        ;; 0: unknown kind
        (i32.store (i32.const 0) (i32.const 7))
        (br $done))
        ;; 1: negative count
        (i32.store (i32.const 0) (i32.const 1))
        (i32.store (i32.const 8) (i32.const -5))
        (i32.store (i32.const 40) (i32.const 1))
        (br $done))
        ;; 2: huge count (horses asked: 36 + 4 * 4)
        (i32.store (i32.const 0) (i32.const 1))
        (i32.store (i32.const 8) (i32.const 6))
        (i32.store (i32.const 52) (i32.const 1000000))
        (br $done))
        ;; 3: gives a horse (8 + 4 * 4) for 12 sheep (36 + 4)
        (i32.store (i32.const 0) (i32.const 1))
        (i32.store (i32.const 24) (i32.const 1))
        (i32.store (i32.const 40) (i32.const 12))
        (br $done))
        ;; 4: with itself, gives nothing, asks a rabbit
        (i32.store (i32.const 0) (i32.const 2))
        (i32.store (i32.const 4) (local.get $seat))
        (i32.store (i32.const 36) (i32.const 1))
        (br $done))
        ;; 5: with a seat past the last one
        (i32.store (i32.const 0) (i32.const 2))
        (i32.store (i32.const 4) (local.get $players))
        (i32.store (i32.const 36) (i32.const 1))
        (br $done))
        ;; 6: with seat -1
        (i32.store (i32.const 0) (i32.const 2))
        (i32.store (i32.const 4) (i32.const -1))
        (i32.store (i32.const 36) (i32.const 1))
        (br $done))
      ;; 7: i32::MIN rabbits
      (i32.store (i32.const 0) (i32.const 1))
      (i32.store (i32.const 8) (i32.const 0x80000000))
      (i32.store (i32.const 40) (i32.const 1)))
    (i32.const 64))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
