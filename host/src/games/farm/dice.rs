use farm_rules::{Roll, DIE_FACES};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::game::seed::chacha_key;

/// Where a game's rolls come from.
pub trait DiceSource {
    /// The next roll, or `None` when an explicit list has run out.
    fn next_roll(&mut self) -> Option<Roll>;
}

/// Dice derived from a 64-bit seed. The derivation is part of the record format (docs/RECORDS.md)
/// so that anyone can re-derive a game's dice:
/// the ChaCha8 key is four successive SplitMix64 outputs of the seed, little-endian; each die is one
/// `next_u32` reduced to `0..12` by rejection (values at or above the largest multiple of 12 below
/// 2^32 are drawn again); each roll draws the fox die first, then the wolf die.
pub struct SeededDice {
    rng: ChaCha8Rng,
}

impl SeededDice {
    pub fn new(seed: u64) -> SeededDice {
        SeededDice {
            rng: ChaCha8Rng::from_seed(chacha_key(seed)),
        }
    }

    pub(crate) fn face(&mut self) -> usize {
        const FACES: u64 = DIE_FACES as u64;
        // The largest multiple of 12 not above 2^32: values from there on would favour low faces.
        const ZONE: u64 = (1 << 32) - (1 << 32) % FACES;
        loop {
            let v = self.rng.next_u32() as u64;
            if v < ZONE {
                return (v % FACES) as usize;
            }
        }
    }
}

impl DiceSource for SeededDice {
    fn next_roll(&mut self) -> Option<Roll> {
        let fox = self.face();
        let wolf = self.face();
        Some(Roll::from_indices(fox, wolf))
    }
}

/// Dice given roll by roll, as in a record that carries its dice instead of a seed.
pub struct ExplicitDice {
    rolls: std::vec::IntoIter<Roll>,
}

impl ExplicitDice {
    pub fn new(rolls: Vec<Roll>) -> ExplicitDice {
        ExplicitDice {
            rolls: rolls.into_iter(),
        }
    }
}

impl DiceSource for ExplicitDice {
    fn next_roll(&mut self) -> Option<Roll> {
        self.rolls.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use farm_rules::{FoxFace, WolfFace};

    #[test]
    fn seeded_dice_repeat_and_differ_by_seed() {
        let take = |seed| {
            let mut d = SeededDice::new(seed);
            (0..50).map(|_| d.next_roll().unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(take(7), take(7));
        assert_ne!(take(7), take(8));
    }

    #[test]
    fn seeded_faces_follow_the_dice_distribution() {
        let mut d = SeededDice::new(42);
        let n = 120_000;
        let (mut fox, mut wolf, mut fox_rabbit) = (0, 0, 0);
        for _ in 0..n {
            let r = d.next_roll().unwrap();
            fox += (r.fox == FoxFace::Fox) as u32;
            wolf += (r.wolf == WolfFace::Wolf) as u32;
            fox_rabbit += (r.fox == FoxFace::Animal(farm_rules::Animal::Rabbit)) as u32;
        }
        // Expected 10,000 foxes and wolves, 60,000 rabbits; 5 standard deviations of slack.
        assert!((9_500..10_500).contains(&fox), "fox {fox}");
        assert!((9_500..10_500).contains(&wolf), "wolf {wolf}");
        assert!(
            (58_800..61_200).contains(&fox_rabbit),
            "rabbit {fox_rabbit}"
        );
    }

    #[test]
    fn seeded_dice_are_stable_across_versions() {
        // Pinned values: if this changes, every recorded game changes. Do not update casually.
        let mut d = SeededDice::new(1);
        let faces: Vec<usize> = (0..12).map(|_| d.face()).collect();
        assert_eq!(faces, PINNED_SEED_1);
    }

    const PINNED_SEED_1: [usize; 12] = [8, 0, 3, 7, 6, 2, 4, 8, 0, 1, 10, 0];
}
