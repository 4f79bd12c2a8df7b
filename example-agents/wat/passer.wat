;; The smallest complete arena agent (ABI v1): it never trades and declines every offer.
;; This is the same module as in docs/ABI.md; the host's tests load and play it.
(module
  ;; One page (64 KiB) of memory; the exchange buffer is its first 8192 bytes.
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))
  ;; Optional. Must return 0 (anything else refuses the game).
  (func (export "arena_init") (param $len i32) (result i32) (i32.const 0))
  ;; Return 0: pass. (To trade, write the 64-byte offer at the buffer's offset 0 and return 64.)
  (func (export "farm_trade") (param $len i32) (result i32) (i32.const 0))
  ;; Return 0: deny. (1 would accept.)
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
