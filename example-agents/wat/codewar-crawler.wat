;; Code war: the crawler (Perlwar's `return ":1"`). It copies itself into the next cell; the copy
;; runs from the next iteration. The smallest useful agent: one export, no import, no memory.
(module
  ;; The instruction is 0xOP_YYYY_XXXX: operation 1 (copy), y = +1, x = 0 (itself).
  (func (export "codewar_run") (result i64) (i64.const 0x1_0001_0000)))
