//! A small deterministic random number generator for agents (splitmix64): seed it with
//! `InitContext::seed` and a replay of the game repeats every choice.

/// splitmix64: 64 bits of state, full period, good enough for choosing moves. The default is
/// `Rng::new(0)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

    /// One of `items`, each equally likely (one [`Rng::below`] draw); `None`, drawing nothing,
    /// when there are none.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        match items.len() {
            0 => None,
            n => Some(items[self.below(n as u64) as usize]),
        }
    }

    /// Puts `items` in a random order, every order equally likely (Fisher-Yates from the back:
    /// one [`Rng::below`] draw per item after the first).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
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
        assert_eq!(Rng::default(), Rng::new(0));
    }

    #[test]
    fn choose_and_shuffle_draw_as_below_does() {
        let items = [10, 20, 30];
        let (mut r, mut by_hand) = (Rng::new(5), Rng::new(5));
        for _ in 0..50 {
            let want = items[by_hand.below(3) as usize];
            assert_eq!(r.choose(&items), Some(want));
        }
        // Nothing to choose from: no draw.
        assert_eq!(r.choose::<u8>(&[]), None);
        assert_eq!(r, by_hand);

        let mut seen = [[0u32; 4]; 4];
        for _ in 0..4000 {
            let mut v = [0usize, 1, 2, 3];
            r.shuffle(&mut v);
            let mut sorted = v;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3]);
            for (at, &x) in v.iter().enumerate() {
                seen[at][x] += 1;
            }
        }
        // Each item at each place about 1000 times.
        assert!(
            seen.iter().flatten().all(|&n| (850..1150).contains(&n)),
            "{seen:?}"
        );
        let (mut a, mut b) = (Rng::new(8), Rng::new(8));
        let (mut x, mut y) = ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]);
        a.shuffle(&mut x);
        for i in (1..5).rev() {
            let j = b.below(i as u64 + 1) as usize;
            y.swap(i, j);
        }
        assert_eq!(x, y);
    }
}
