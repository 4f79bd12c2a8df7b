use crate::animal::Animal;
use crate::dice::{FoxFace, Roll, WolfFace};
use crate::herd::Herd;
use crate::position::Position;

/// What one roll did to the rolling player's herd.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RollEffect {
    /// Returned to the stock by the wolf (one big dog, or every rabbit, sheep, pig and cow).
    pub wolf: Herd,
    /// Returned to the stock by the fox (one small dog, or every rabbit).
    pub fox: Herd,
    /// Received from the stock by breeding.
    pub bred: Herd,
}

/// Applies a roll to `seat`: the wolf first, then the fox, then breeding on what is left.
pub fn apply_roll(pos: &mut Position, seat: usize, roll: Roll) -> RollEffect {
    let Position { herds, stock, .. } = pos;
    let herd = &mut herds[seat];
    let mut effect = RollEffect::default();

    if roll.wolf == WolfFace::Wolf {
        effect.wolf = if herd.get(Animal::BigDog) > 0 {
            Herd::of(Animal::BigDog, 1)
        } else {
            let mut eaten = Herd::EMPTY;
            for a in [Animal::Rabbit, Animal::Sheep, Animal::Pig, Animal::Cow] {
                eaten.set(a, herd.get(a));
            }
            eaten
        };
        herd.move_to(stock, &effect.wolf);
    }

    if roll.fox == FoxFace::Fox {
        effect.fox = if herd.get(Animal::SmallDog) > 0 {
            Herd::of(Animal::SmallDog, 1)
        } else {
            Herd::of(Animal::Rabbit, herd.get(Animal::Rabbit))
        };
        herd.move_to(stock, &effect.fox);
    }

    for a in [
        Animal::Rabbit,
        Animal::Sheep,
        Animal::Pig,
        Animal::Cow,
        Animal::Horse,
    ] {
        let shown = roll.shows(a);
        if shown > 0 {
            let pairs = (herd.get(a) + shown) / 2;
            effect.bred.set(a, pairs.min(stock.get(a)));
        }
    }
    stock.move_to(herd, &effect.bred);
    effect
}
