use crate::animal::{Animal, FARM_ANIMALS, KINDS, WORTH};

/// A count of each kind of animal, indexed like [`crate::ANIMALS`]. Used for player herds, the
/// stock, and the two sides of a trade.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Herd(pub [u32; KINDS]);

impl Herd {
    pub const EMPTY: Herd = Herd([0; KINDS]);

    pub const fn new(counts: [u32; KINDS]) -> Herd {
        Herd(counts)
    }

    /// A herd of `n` animals of one kind.
    #[inline]
    pub fn of(animal: Animal, n: u32) -> Herd {
        let mut h = Herd::EMPTY;
        h.0[animal.index()] = n;
        h
    }

    #[inline]
    pub fn get(&self, animal: Animal) -> u32 {
        self.0[animal.index()]
    }

    #[inline]
    pub fn set(&mut self, animal: Animal, n: u32) {
        self.0[animal.index()] = n;
    }

    /// Total worth in rabbits.
    #[inline]
    pub fn worth(&self) -> u64 {
        self.0
            .iter()
            .zip(WORTH.iter())
            .map(|(&n, &w)| n as u64 * w as u64)
            .sum()
    }

    /// Number of animals, all kinds together.
    #[inline]
    pub fn total(&self) -> u64 {
        self.0.iter().map(|&n| n as u64).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// True when every count in `other` is covered by this herd.
    #[inline]
    pub fn contains(&self, other: &Herd) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// True when the herd owns at least one rabbit, sheep, pig, cow and horse: the win condition.
    #[inline]
    pub fn is_winning(&self) -> bool {
        FARM_ANIMALS.iter().all(|&a| self.get(a) > 0)
    }

    /// Kind-wise sum; saturates rather than wrapping, which cannot happen with conserved totals.
    #[inline]
    pub fn plus(&self, other: &Herd) -> Herd {
        let mut out = *self;
        for (o, b) in out.0.iter_mut().zip(other.0.iter()) {
            *o = o.saturating_add(*b);
        }
        out
    }

    /// Kind-wise difference, floored at zero.
    #[inline]
    pub fn minus(&self, other: &Herd) -> Herd {
        let mut out = *self;
        for (o, b) in out.0.iter_mut().zip(other.0.iter()) {
            *o = o.saturating_sub(*b);
        }
        out
    }

    /// Kind-wise minimum: what `self` asks for, truncated to what `available` holds.
    #[inline]
    pub fn min(&self, available: &Herd) -> Herd {
        let mut out = *self;
        for (o, b) in out.0.iter_mut().zip(available.0.iter()) {
            *o = (*o).min(*b);
        }
        out
    }

    /// Moves `amount` from `self` to `to`; the caller has checked that `self` holds it.
    #[inline]
    pub(crate) fn move_to(&mut self, to: &mut Herd, amount: &Herd) {
        debug_assert!(self.contains(amount));
        *self = self.minus(amount);
        *to = to.plus(amount);
    }
}
