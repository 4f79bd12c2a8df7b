;; A component whose table starts at 10,000,000 elements: refused at load by the table limit.
(component
  (core module $m (table 10000000 funcref))
  (core instance (instantiate $m)))
