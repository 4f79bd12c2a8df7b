//! The bytes behind a WASI agent's `random_get`, generated as they are read.
//!
//! [`LazyCycle`] is the random source handed to wasmtime-wasi's context. [`RandomBytes`] is what
//! the arena's own `random_get` serves: exactly the bytes wasmtime-wasi's `random_get` gave over
//! that cycle (a test compares both over many requests), at the price of a copy. wasmtime-wasi
//! draws one 32-bit word per byte through a boxed RNG and keeps its low byte, which cost about
//! 70 µs for 4 KiB; here the bytes are made once per game and copied out. A component agent's
//! `get-random-bytes` reads its context's cycle through a [`SharedCycle`], the same way.

use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use wasi_rand_core::TryRng;

/// Bytes generated at a time (a multiple of 4: ChaCha hands out whole 32-bit words, so chunks of
/// whole words concatenate to exactly the bytes of one big fill).
const CHUNK: usize = 4096;

/// The first `len` bytes of a ChaCha8 stream, repeated forever: the same bytes, in the same
/// order, as `wasmtime_wasi::Deterministic` over a buffer filled up front (a test checks it),
/// but only the part an agent reads is ever generated.
pub(crate) struct LazyCycle {
    rng: ChaCha8Rng,
    len: usize,
    /// The bytes generated so far: a prefix of the cycle.
    bytes: Vec<u8>,
    /// Where the next byte is read in the cycle.
    at: usize,
}

impl LazyCycle {
    /// `len` must be a positive multiple of [`CHUNK`].
    pub(crate) fn new(rng: ChaCha8Rng, len: usize) -> LazyCycle {
        debug_assert!(len > 0 && len.is_multiple_of(CHUNK), "cycle of {len} bytes");
        LazyCycle {
            rng,
            len,
            bytes: Vec::new(),
            at: 0,
        }
    }

    fn next_byte(&mut self) -> u8 {
        if self.at == self.bytes.len() {
            self.generate_chunk();
        }
        let b = self.bytes[self.at];
        self.at = (self.at + 1) % self.len;
        b
    }

    /// Generates the next chunk of the cycle.
    fn generate_chunk(&mut self) {
        let old = self.bytes.len();
        self.bytes.resize(old + CHUNK.min(self.len - old), 0);
        self.rng.fill_bytes(&mut self.bytes[old..]);
    }

    /// Fills `dst` with what `dst.len()` words read one by one would give as bytes, each word's
    /// low byte (how wasmtime-wasi's `get-random-bytes` turns words into bytes), without reading
    /// them one by one: that took about 25 ns a byte, and a decision of 4 KiB requests spent
    /// most of the 2 s backstop on it.
    pub(crate) fn fill_low_bytes(&mut self, dst: &mut [u8]) {
        // Word `i` is read from bytes `at + 4i ..= at + 4i + 3` of the cycle (wrapping), big-endian:
        // its low byte is the last of the four.
        let end = self.at.saturating_add(dst.len().saturating_mul(4));
        while self.bytes.len() < end.min(self.len) {
            self.generate_chunk();
        }
        for b in dst {
            *b = self.bytes[(self.at + 3) % self.len];
            self.at = (self.at + 4) % self.len;
        }
    }
}

/// A [`LazyCycle`] shared by wasmtime-wasi's context, which reads words from it
/// (`get-random-u64`), and the arena's own `get-random-bytes` for components
/// (`component_linker`): one cycle read in one order, whichever function asks, so the bytes are
/// those wasmtime-wasi alone would serve.
#[derive(Clone)]
pub(crate) struct SharedCycle(Arc<Mutex<LazyCycle>>);

impl SharedCycle {
    pub(crate) fn new(cycle: LazyCycle) -> SharedCycle {
        SharedCycle(Arc::new(Mutex::new(cycle)))
    }

    /// The next `len` bytes, as [`LazyCycle::fill_low_bytes`] serves them.
    pub(crate) fn low_bytes(&self, len: usize) -> Vec<u8> {
        let mut bytes = vec![0; len];
        self.lock().fill_low_bytes(&mut bytes);
        bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LazyCycle> {
        // Nothing panics while holding the lock; a poisoned cycle is still a valid cycle.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl TryRng for SharedCycle {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.lock().try_next_u32()
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.lock().try_next_u64()
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.lock().try_fill_bytes(dst)
    }
}

impl TryRng for LazyCycle {
    type Error = Infallible;

    // Words are read big-endian, as `Deterministic` reads them.
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let b = [(); 4].map(|_| self.next_byte());
        Ok(u32::from_be_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let hi = self.try_next_u32()? as u64;
        let lo = self.try_next_u32()? as u64;
        Ok(hi << 32 | lo)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for b in dst {
            *b = self.next_byte();
        }
        Ok(())
    }
}

/// Words of the ChaCha8 stream turned into served bytes at a time.
const WORDS_PER_CHUNK: usize = CHUNK / 4;

/// The bytes `random_get` serves in one game: byte `i` is the top byte of word `i` of the
/// ChaCha8 stream read as little-endian 32-bit words (what reading the [`LazyCycle`] of
/// `4 × len` bytes one big-endian word at a time and keeping the low byte gives), for `i` below
/// `len`, then the same `len` bytes again, forever.
pub(crate) struct RandomBytes {
    rng: ChaCha8Rng,
    len: usize,
    /// The served bytes generated so far: a prefix of the cycle.
    bytes: Vec<u8>,
    /// Where the next byte is served from.
    at: usize,
}

impl RandomBytes {
    /// `len` must be a positive multiple of `CHUNK / 4`.
    pub(crate) fn new(rng: ChaCha8Rng, len: usize) -> RandomBytes {
        debug_assert!(
            len > 0 && len.is_multiple_of(WORDS_PER_CHUNK),
            "cycle of {len} bytes"
        );
        RandomBytes {
            rng,
            len,
            bytes: Vec::new(),
            at: 0,
        }
    }

    /// Generates the cycle up to byte `end` (at most `len`).
    fn generate_to(&mut self, end: usize) {
        let mut words = [0u8; CHUNK];
        while self.bytes.len() < end {
            self.rng.fill_bytes(&mut words);
            self.bytes.extend(words.chunks_exact(4).map(|word| word[3]));
        }
    }

    /// Fills `dst` with the next bytes.
    pub(crate) fn fill(&mut self, mut dst: &mut [u8]) {
        while !dst.is_empty() {
            let n = dst.len().min(self.len - self.at);
            self.generate_to(self.at + n);
            let (head, rest) = dst.split_at_mut(n);
            head.copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at = (self.at + n) % self.len;
            dst = rest;
        }
    }

    /// Moves on by `n` bytes, as serving them would.
    pub(crate) fn skip(&mut self, n: usize) {
        self.at = (self.at + n % self.len) % self.len;
    }
}

#[cfg(test)]
mod tests {
    use super::{LazyCycle, RandomBytes, SharedCycle, CHUNK};
    use proptest::prelude::{any, prop, prop_assert_eq, prop_oneof, proptest, Just, Strategy};
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    use wasi_rand_core::TryRng;
    use wasmtime_wasi::Deterministic;

    const LEN: usize = 3 * CHUNK;

    #[derive(Clone, Debug)]
    enum Read {
        U32,
        U64,
        Bytes(usize),
    }

    fn reads() -> impl Strategy<Value = Vec<Read>> {
        prop::collection::vec(
            prop_oneof![
                Just(Read::U32),
                Just(Read::U64),
                (0usize..2 * LEN).prop_map(Read::Bytes),
            ],
            0..12,
        )
    }

    proptest! {
        #[test]
        fn lazy_cycle_reads_the_bytes_of_a_filled_buffer(seed in any::<u64>(), word in 0u128..5000, reads in reads()) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_word_pos(word);
            let mut filled = vec![0u8; LEN];
            rng.clone().fill_bytes(&mut filled);
            let mut eager = Deterministic::new(filled);
            let mut lazy = LazyCycle::new(rng, LEN);
            for r in reads {
                match r {
                    Read::U32 => prop_assert_eq!(lazy.try_next_u32(), eager.try_next_u32()),
                    Read::U64 => prop_assert_eq!(lazy.try_next_u64(), eager.try_next_u64()),
                    Read::Bytes(n) => {
                        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
                        lazy.try_fill_bytes(&mut a).unwrap();
                        eager.try_fill_bytes(&mut b).unwrap();
                        prop_assert_eq!(a, b);
                    }
                }
            }
        }
    }

    proptest! {
        #[test]
        fn random_bytes_are_the_low_bytes_of_the_cycle_words(seed in any::<u64>(), sizes in prop::collection::vec(0usize..3 * LEN, 0..12)) {
            // What wasmtime-wasi's `random_get` serves from the cycle: one word per byte, its
            // low byte (`wasi_calls` tests it against wasmtime-wasi itself).
            let rng = ChaCha8Rng::seed_from_u64(seed);
            let mut words = LazyCycle::new(rng.clone(), 4 * LEN);
            let mut bytes = RandomBytes::new(rng, LEN);
            for (i, n) in sizes.into_iter().enumerate() {
                let want: Vec<u8> = (0..n).map(|_| words.try_next_u32().unwrap() as u8).collect();
                // Now and then the bytes are skipped, as a request to a buffer outside memory
                // skips them.
                if i % 3 == 2 {
                    bytes.skip(n);
                } else {
                    let mut got = vec![0u8; n];
                    bytes.fill(&mut got);
                    prop_assert_eq!(got, want);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn low_bytes_are_the_low_bytes_of_words_read_one_by_one(seed in any::<u64>(), reads in reads()) {
            // A component's get-random-bytes (the arena's) and get-random-u64 (wasmtime-wasi's)
            // read one cycle: what wasmtime-wasi alone would give, a word per byte, the low byte.
            let rng = ChaCha8Rng::seed_from_u64(seed);
            let mut words = LazyCycle::new(rng.clone(), LEN);
            let mut shared = SharedCycle::new(LazyCycle::new(rng, LEN));
            for r in reads {
                match r {
                    Read::U32 => prop_assert_eq!(shared.try_next_u32(), words.try_next_u32()),
                    Read::U64 => prop_assert_eq!(shared.try_next_u64(), words.try_next_u64()),
                    Read::Bytes(n) => {
                        // Odd sizes first read a few bytes as bytes, so that words start
                        // anywhere in the cycle.
                        if n % 2 == 1 {
                            let (mut a, mut b) = (vec![0u8; n % 4], vec![0u8; n % 4]);
                            shared.try_fill_bytes(&mut a).unwrap();
                            words.try_fill_bytes(&mut b).unwrap();
                            prop_assert_eq!(a, b);
                        }
                        let want: Vec<u8> =
                            (0..n).map(|_| words.try_next_u32().unwrap() as u8).collect();
                        prop_assert_eq!(shared.low_bytes(n), want);
                    }
                }
            }
        }
    }

    #[test]
    fn positioned_streams_continue_one_filled_stream() {
        // The WASI context starts the insecure cycle and the hash seed at word offsets of one
        // stream instead of filling everything before them.
        let mut one = ChaCha8Rng::seed_from_u64(7);
        let mut first = vec![0u8; LEN];
        one.fill_bytes(&mut first);
        let mut second = vec![0u8; LEN];
        one.fill_bytes(&mut second);
        let after = one.next_u64();
        let mut at = ChaCha8Rng::seed_from_u64(7);
        at.set_word_pos((LEN / 4) as u128);
        let mut second_at = vec![0u8; LEN];
        at.fill_bytes(&mut second_at);
        assert_eq!(second_at, second);
        let mut end = ChaCha8Rng::seed_from_u64(7);
        end.set_word_pos((2 * LEN / 4) as u128);
        assert_eq!(end.next_u64(), after);
    }
}
