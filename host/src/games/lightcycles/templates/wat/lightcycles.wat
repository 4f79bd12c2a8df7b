;; A light cycles agent written by hand in WebAssembly text (ABI v1, docs/ABI.md "Light cycles").
;;
;; It tries straight on, then left, then right, and takes the first turn into a free cell (on
;; the grid, no wall, no trail); when none is free it goes straight. Nothing to build: `arena
;; check` this file.
(module
  ;; One page (64 KiB): the exchange buffer is its first 8192 bytes.
  (memory (export "memory") 1)
  (func (export "arena_abi_version") (result i32) (i32.const 1))
  (func (export "arena_buffer") (result i32) (i32.const 0))
  (func (export "arena_buffer_size") (result i32) (i32.const 8192))

  ;; The cell code at (x, y), or 1 (a wall) off the grid. The observation starts at buffer
  ;; offset 32: the width at 32, the height at 36, the grid (a byte a cell, row by row) at 176.
  (func $cell (param $x i32) (param $y i32) (result i32)
    (if (i32.or
          (i32.ge_u (local.get $x) (i32.load (i32.const 32)))
          (i32.ge_u (local.get $y) (i32.load (i32.const 36))))
      (then (return (i32.const 1))))
    (i32.load8_u
      (i32.add (i32.const 176)
        (i32.add (local.get $x)
          (i32.mul (local.get $y) (i32.load (i32.const 32)))))))

  ;; The answer is written at offset 0: the turn's code (0 left, 1 straight, 2 right); the
  ;; function returns 1. Your seat is at offset 12, your cycle's record at 128 + 8 × seat: x, y,
  ;; heading (0 north, 1 east, 2 south, 3 west).
  (func (export "lightcycles_turn") (param $len i32) (result i32)
    (local $me i32) (local $x i32) (local $y i32) (local $heading i32)
    (local $k i32) (local $turn i32) (local $dir i32) (local $nx i32) (local $ny i32)
    (local.set $me (i32.add (i32.const 128) (i32.shl (i32.load (i32.const 12)) (i32.const 3))))
    (local.set $x (i32.load8_u (local.get $me)))
    (local.set $y (i32.load8_u (i32.add (local.get $me) (i32.const 1))))
    (local.set $heading (i32.load8_u (i32.add (local.get $me) (i32.const 2))))
    (block $found
      (loop $each
        ;; The turns in order of preference: straight (1), left (0), right (2).
        (local.set $turn
          (select (i32.const 1)
            (select (i32.const 0) (i32.const 2) (i32.eq (local.get $k) (i32.const 1)))
            (i32.eqz (local.get $k))))
        ;; The new heading: (heading + turn + 3) mod 4; its step (dx, dy).
        (local.set $dir
          (i32.and (i32.add (i32.add (local.get $heading) (local.get $turn)) (i32.const 3))
            (i32.const 3)))
        ;; North (0) and south (2) move y, east (1) and west (3) move x; a step below 0 wraps
        ;; to a large unsigned value, which $cell reads as off the grid.
        (local.set $nx
          (i32.add (local.get $x)
            (select (i32.const 1)
              (select (i32.const -1) (i32.const 0) (i32.eq (local.get $dir) (i32.const 3)))
              (i32.eq (local.get $dir) (i32.const 1)))))
        (local.set $ny
          (i32.add (local.get $y)
            (select (i32.const 1)
              (select (i32.const -1) (i32.const 0) (i32.eqz (local.get $dir)))
              (i32.eq (local.get $dir) (i32.const 2)))))
        (br_if $found (i32.eqz (call $cell (local.get $nx) (local.get $ny))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br_if $each (i32.lt_u (local.get $k) (i32.const 3)))
        ;; Every turn dies: straight on.
        (local.set $turn (i32.const 1))))
    (i32.store8 (i32.const 0) (local.get $turn))
    (i32.const 1))
)
