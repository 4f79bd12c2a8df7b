;; Not hostile: a test helper that offers the next seat one rabbit for one rabbit every turn (a
;; legal trade whenever both own a rabbit), so that the other agents' farm_accept gets called.
;; It declines every offer.
(module
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  (func (export "farm_trade") (param $len i32) (result i32)
    (local $partner i32)
    ;; (seat + 1) % players, from the envelope
    (local.set $partner
      (i32.rem_u (i32.add (i32.load (i32.const 12)) (i32.const 1)) (i32.load (i32.const 16))))
    (memory.fill (i32.const 0) (i32.const 0) (i32.const 64))
    (i32.store (i32.const 0) (i32.const 2))          ;; kind: trade with a player
    (i32.store (i32.const 4) (local.get $partner))   ;; partner seat
    (i32.store (i32.const 8) (i32.const 1))          ;; give one rabbit
    (i32.store (i32.const 36) (i32.const 1))         ;; get one rabbit
    (i32.const 64))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
