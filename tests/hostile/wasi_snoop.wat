;; Hostile WASI agent: every trade decision it
;;   * looks for a preopened directory (fd_prestat_get on fd 3) and opens /etc/passwd through it,
;;   * reads the size of its environment,
;;   * reads the wall clock and lets the time decide what it does (pass, or offer the stock six
;;     rabbits for a sheep), as an agent that behaves differently between runs would,
;;   * sleeps for an hour (poll_oneoff on a relative clock of 3600 s),
;;   * writes a line with what it found to stdout, then tries to write 64 KiB more (16 writes of
;;     4 KiB: four times the log's bound for a whole game; every byte costs a unit of fuel, and
;;     this much fits the fuel of a game of 120 rounds).
;; Expected: no fault; no file (both calls fail with EBADF, 8: there is no preopen), an empty
;; environment, a clock derived from the game (two runs of a league give identical records), no
;; sleep (the league finishes in seconds), and a log no longer than its bound.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $prestat (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "environ_sizes_get" (func $env_sizes (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))
  ;; 17 pages: the exchange buffer at 0, scratch from 9000, the flood from 65536.
  (memory (export "memory") 17)
  (data (i32.const 9016) "/etc/passwd")
  (data (i32.const 9320) "wasi: prestat=000 open=000 env=000 clock=00000000000000000000\n")
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))

  ;; Writes `value` as `width` zero-padded decimal digits at `ptr`.
  (func $digits (param $ptr i32) (param $value i64) (param $width i32)
    (loop $next
      (local.set $width (i32.sub (local.get $width) (i32.const 1)))
      (i32.store8 (i32.add (local.get $ptr) (local.get $width))
        (i32.add (i32.const 48) (i32.wrap_i64 (i64.rem_u (local.get $value) (i64.const 10)))))
      (local.set $value (i64.div_u (local.get $value) (i64.const 10)))
      (br_if $next (local.get $width))))

  (func (export "farm_trade") (param $len i32) (result i32)
    (local $i i32) (local $now i64)
    ;; A preopened directory? Then open /etc/passwd through it.
    (call $digits (i32.const 9334) (i64.extend_i32_u (call $prestat (i32.const 3) (i32.const 9000))) (i32.const 3))
    (call $digits (i32.const 9343)
      (i64.extend_i32_u (call $path_open (i32.const 3) (i32.const 0) (i32.const 9016) (i32.const 11)
        (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 9032)))
      (i32.const 3))
    ;; The environment.
    (drop (call $env_sizes (i32.const 9040) (i32.const 9044)))
    (call $digits (i32.const 9351) (i64.extend_i32_u (i32.load (i32.const 9040))) (i32.const 3))
    ;; The wall clock.
    (drop (call $clock (i32.const 0) (i64.const 1) (i32.const 9048)))
    (local.set $now (i64.load (i32.const 9048)))
    (call $digits (i32.const 9361) (local.get $now) (i32.const 20))
    ;; Sleep for an hour: one relative clock subscription of 3600 s.
    (memory.fill (i32.const 9100) (i32.const 0) (i32.const 48))
    (i64.store (i32.const 9100) (i64.const 42))                 ;; userdata
    (i32.store8 (i32.const 9108) (i32.const 0))                 ;; tag: clock
    (i32.store (i32.const 9116) (i32.const 1))                  ;; clock id: monotonic
    (i64.store (i32.const 9124) (i64.const 3600000000000))      ;; timeout, ns
    (drop (call $poll (i32.const 9100) (i32.const 9200) (i32.const 1) (i32.const 9240)))
    ;; Report on stdout.
    (i32.store (i32.const 9300) (i32.const 9320))
    (i32.store (i32.const 9304) (i32.const 62))
    (drop (call $fd_write (i32.const 1) (i32.const 9300) (i32.const 1) (i32.const 9600)))
    ;; Then 64 KiB more.
    (i32.store (i32.const 9500) (i32.const 65536))
    (i32.store (i32.const 9504) (i32.const 4096))
    (local.set $i (i32.const 16))
    (loop $flood
      (drop (call $fd_write (i32.const 1) (i32.const 9500) (i32.const 1) (i32.const 9600)))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (br_if $flood (local.get $i)))
    ;; Let the clock decide: pass, or six rabbits for a sheep.
    (if (i64.eqz (i64.rem_u (i64.div_u (local.get $now) (i64.const 1000)) (i64.const 3)))
      (then (return (i32.const 0))))
    (memory.fill (i32.const 0) (i32.const 0) (i32.const 64))
    (i32.store (i32.const 0) (i32.const 1))
    (i32.store (i32.const 8) (i32.const 6))
    (i32.store (i32.const 40) (i32.const 1))
    (i32.const 64))
  (func (export "farm_accept") (param $len i32) (result i32) (i32.const 0))
)
