use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::game::seed::chacha_key;

/// Six-sided dice derived from a 64-bit seed, specified in docs/RECORDS.md so that anyone can
/// re-derive a game's rolls: the ChaCha8 key is the one every game makes of its seed
/// ([`chacha_key`]: four successive SplitMix64 outputs of the seed); each die is one `next_u32`
/// reduced to `0..6` by rejection (values at or above the largest multiple of 6 below 2^32 are
/// drawn again), plus one.
pub struct SeededD6 {
    rng: ChaCha8Rng,
}

impl SeededD6 {
    pub fn new(seed: u64) -> SeededD6 {
        SeededD6 {
            rng: ChaCha8Rng::from_seed(chacha_key(seed)),
        }
    }

    pub fn face(&mut self) -> u8 {
        const ZONE: u64 = (1 << 32) - (1 << 32) % 6;
        loop {
            let v = u64::from(self.rng.next_u32());
            if v < ZONE {
                return (v % 6) as u8 + 1;
            }
        }
    }

    /// `n` dice, in the order drawn.
    pub fn roll(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.face()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_are_uniform_and_seeded() {
        let mut d = SeededD6::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..60_000 {
            counts[d.face() as usize] += 1;
        }
        assert_eq!(counts[0], 0);
        for c in &counts[1..] {
            assert!((9_400..10_600).contains(c), "{counts:?}");
        }
        assert_eq!(SeededD6::new(42).roll(12), SeededD6::new(42).roll(12));
        assert_ne!(SeededD6::new(42).roll(12), SeededD6::new(43).roll(12));
    }
}
