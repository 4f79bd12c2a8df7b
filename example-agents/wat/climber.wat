;; climber.wat: a Little Animal Farm agent written by hand in WebAssembly text (agent ABI v1).
;; No toolchain: the arena loads .wat files directly (`arena check climber.wat`).
;;
;; Strategy (the same as the C, Zig and AssemblyScript climbers): each turn buy one animal from
;; the stock: a small dog if we have none, then a big dog if we have none, then the cheapest farm
;; animal we are missing. Pay with spare animals only (keep one of each kind we own, never pay
;; with dogs), largest first, for exactly the worth of what we buy, so every offer is legal.
;; Decline every offer from other players.
;;
;; Memory map (one 64 KiB page):
;;   64..92     WORTH[k] = 1, 6, 12, 36, 72, 6, 36 (rabbit, sheep, pig, cow, horse, small dog, big dog)
;;   128..155   the log message (its last digit is patched with the kind bought)
;;   512..576   scratch: the offer being built
;;   1024..     the exchange buffer (16 KiB): envelope (32 bytes), then the observation
(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)

  (global $BUF i32 (i32.const 1024))
  (global $BUF_SIZE i32 (i32.const 16384))

  (data (i32.const 64) "\01\00\00\00\06\00\00\00\0c\00\00\00\24\00\00\00\48\00\00\00\06\00\00\00\24\00\00\00")
  (data (i32.const 128) "climber.wat: buying kind ?\0a")

  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (global.get $BUF))
  (func (export "arena_buffer_size") (result i32) (global.get $BUF_SIZE))

  ;; worth of kind $k in rabbits
  (func $worth (param $k i32) (result i32)
    (i32.load (i32.add (i32.const 64) (i32.shl (local.get $k) (i32.const 2)))))

  ;; address of our herd: buffer + 32 (envelope) + 36 (herds) + seat * 28
  (func $herd (result i32)
    (i32.add
      (i32.add (global.get $BUF) (i32.const 68))
      (i32.mul (i32.load offset=12 (global.get $BUF)) (i32.const 28))))

  ;; count of kind $k in our herd
  (func $count (param $k i32) (result i32)
    (i32.load (i32.add (call $herd) (i32.shl (local.get $k) (i32.const 2)))))

  ;; stock of kind $k: buffer + 32 + 8
  (func $stock (param $k i32) (result i32)
    (i32.load (i32.add (i32.add (global.get $BUF) (i32.const 40)) (i32.shl (local.get $k) (i32.const 2)))))

  ;; Tries to write an offer buying one $target from the stock into the answer area (buffer + 0,
  ;; 64 bytes); returns 64 on success, 0 when the stock has none or we cannot pay exactly.
  ;; The observation is read first: the answer is written only once the payment is known, into a
  ;; scratch area at 512, then copied over the buffer's start.
  (func $try_buy (param $target i32) (result i32)
    (local $need i32) (local $k i32) (local $spare i32) (local $n i32) (local $i i32)
    (if (i32.eqz (call $stock (local.get $target))) (then (return (i32.const 0))))
    ;; clear the scratch offer at 512
    (memory.fill (i32.const 512) (i32.const 0) (i32.const 64))
    (local.set $need (call $worth (local.get $target)))
    ;; pay from horse (4) down to rabbit (0)
    (local.set $k (i32.const 4))
    (block $done
      (loop $kinds
        (if (i32.and
              (i32.ne (local.get $k) (local.get $target))
              (i32.le_u (call $worth (local.get $k)) (local.get $need)))
          (then
            (local.set $spare (call $count (local.get $k)))
            (if (local.get $spare) (then (local.set $spare (i32.sub (local.get $spare) (i32.const 1)))))
            (local.set $n (i32.div_u (local.get $need) (call $worth (local.get $k))))
            (if (i32.gt_u (local.get $n) (local.get $spare)) (then (local.set $n (local.get $spare))))
            ;; give[k] at 512 + 8 + 4k
            (i32.store offset=520 (i32.shl (local.get $k) (i32.const 2)) (local.get $n))
            (local.set $need
              (i32.sub (local.get $need) (i32.mul (local.get $n) (call $worth (local.get $k)))))))
        (br_if $done (i32.eqz (local.get $k)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $kinds)))
    (if (local.get $need) (then (return (i32.const 0))))
    ;; kind 1 = trade with the stock; get[target] = 1 at 512 + 36 + 4 target
    (i32.store (i32.const 512) (i32.const 1))
    (i32.store offset=548 (i32.shl (local.get $target) (i32.const 2)) (i32.const 1))
    (memory.copy (global.get $BUF) (i32.const 512) (i32.const 64))
    ;; log "climber.wat: buying kind N"
    (i32.store8 (i32.const 153) (i32.add (i32.const 48) (local.get $target)))
    (call $log (i32.const 128) (i32.const 27))
    (i32.const 64))

  (func (export "farm_trade") (param $len i32) (result i32)
    (local $k i32) (local $r i32)
    ;; small dog (5), then big dog (6), if we have none
    (if (i32.eqz (call $count (i32.const 5)))
      (then
        (local.set $r (call $try_buy (i32.const 5)))
        (if (local.get $r) (then (return (local.get $r))))))
    (if (i32.eqz (call $count (i32.const 6)))
      (then
        (local.set $r (call $try_buy (i32.const 6)))
        (if (local.get $r) (then (return (local.get $r))))))
    ;; the cheapest missing farm animal, rabbit (0) to horse (4)
    (block $done
      (loop $kinds
        (if (i32.eqz (call $count (local.get $k)))
          (then
            (local.set $r (call $try_buy (local.get $k)))
            (if (local.get $r) (then (return (local.get $r))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $kinds (i32.le_u (local.get $k) (i32.const 4)))))
    (i32.const 0))

  ;; decline every offer
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
