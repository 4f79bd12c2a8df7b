use crate::animal::Animal;

/// Faces of each die.
pub const DIE_FACES: usize = 12;

/// A face of the fox die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoxFace {
    Animal(Animal),
    Fox,
}

/// A face of the wolf die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WolfFace {
    Animal(Animal),
    Wolf,
}

/// The fox die, face by face: 6 rabbits, 2 sheep, 2 pigs, 1 horse, 1 fox.
/// A uniform index in `0..12` into this table is one throw.
pub const FOX_DIE: [FoxFace; DIE_FACES] = [
    FoxFace::Animal(Animal::Rabbit),
    FoxFace::Animal(Animal::Rabbit),
    FoxFace::Animal(Animal::Rabbit),
    FoxFace::Animal(Animal::Rabbit),
    FoxFace::Animal(Animal::Rabbit),
    FoxFace::Animal(Animal::Rabbit),
    FoxFace::Animal(Animal::Sheep),
    FoxFace::Animal(Animal::Sheep),
    FoxFace::Animal(Animal::Pig),
    FoxFace::Animal(Animal::Pig),
    FoxFace::Animal(Animal::Horse),
    FoxFace::Fox,
];

/// The wolf die, face by face: 6 rabbits, 3 sheep, 1 pig, 1 cow, 1 wolf.
pub const WOLF_DIE: [WolfFace; DIE_FACES] = [
    WolfFace::Animal(Animal::Rabbit),
    WolfFace::Animal(Animal::Rabbit),
    WolfFace::Animal(Animal::Rabbit),
    WolfFace::Animal(Animal::Rabbit),
    WolfFace::Animal(Animal::Rabbit),
    WolfFace::Animal(Animal::Rabbit),
    WolfFace::Animal(Animal::Sheep),
    WolfFace::Animal(Animal::Sheep),
    WolfFace::Animal(Animal::Sheep),
    WolfFace::Animal(Animal::Pig),
    WolfFace::Animal(Animal::Cow),
    WolfFace::Wolf,
];

impl FoxFace {
    /// Stable name used in records: an animal name or `"fox"`.
    pub const fn name(self) -> &'static str {
        match self {
            FoxFace::Animal(a) => a.name(),
            FoxFace::Fox => "fox",
        }
    }

    /// Parses a name; only faces that exist on the fox die are accepted.
    pub fn from_name(name: &str) -> Option<FoxFace> {
        FOX_DIE.iter().copied().find(|f| f.name() == name)
    }

    /// Code used in the ABI: the animal index, or 7 for the fox.
    pub const fn code(self) -> u8 {
        match self {
            FoxFace::Animal(a) => a as u8,
            FoxFace::Fox => 7,
        }
    }
}

impl WolfFace {
    /// Stable name used in records: an animal name or `"wolf"`.
    pub const fn name(self) -> &'static str {
        match self {
            WolfFace::Animal(a) => a.name(),
            WolfFace::Wolf => "wolf",
        }
    }

    /// Parses a name; only faces that exist on the wolf die are accepted.
    pub fn from_name(name: &str) -> Option<WolfFace> {
        WOLF_DIE.iter().copied().find(|f| f.name() == name)
    }

    /// Code used in the ABI: the animal index, or 8 for the wolf.
    pub const fn code(self) -> u8 {
        match self {
            WolfFace::Animal(a) => a as u8,
            WolfFace::Wolf => 8,
        }
    }
}

/// One throw of both dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    pub fox: FoxFace,
    pub wolf: WolfFace,
}

impl Roll {
    /// The roll given by two face indices in `0..12` (taken modulo 12).
    pub const fn from_indices(fox: usize, wolf: usize) -> Roll {
        Roll {
            fox: FOX_DIE[fox % DIE_FACES],
            wolf: WOLF_DIE[wolf % DIE_FACES],
        }
    }

    /// How many of the two dice show `animal`.
    #[inline]
    pub fn shows(&self, animal: Animal) -> u32 {
        let fox = matches!(self.fox, FoxFace::Animal(a) if a == animal) as u32;
        let wolf = matches!(self.wolf, WolfFace::Animal(a) if a == animal) as u32;
        fox + wolf
    }
}
