//! A small deterministic random number generator for agents (splitmix64): seed it with
//! `InitContext::seed` and a replay of the game repeats every choice.

/// splitmix64: 64 bits of state, full period, good enough for choosing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, every value equally likely (rejection sampling); 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // The largest multiple of n that fits: values at or above it are drawn again.
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5) as usize] += 1;
        }
        // Each value about 1000 times.
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
        // The same seed gives the same sequence.
        let (mut a, mut b) = (Rng::new(99), Rng::new(99));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
