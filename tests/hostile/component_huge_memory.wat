;; A component whose memory starts at 60,000 pages (3.9 GB): refused at load by the memory limit.
(component
  (core module $m (memory (export "memory") 60000))
  (core instance (instantiate $m)))
