/// The seven kinds of animal, in the order used everywhere (herd arrays, the ABI, records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Animal {
    Rabbit = 0,
    Sheep = 1,
    Pig = 2,
    Cow = 3,
    Horse = 4,
    SmallDog = 5,
    BigDog = 6,
}

/// Number of animal kinds.
pub const KINDS: usize = 7;

/// Every kind, in index order.
pub const ANIMALS: [Animal; KINDS] = [
    Animal::Rabbit,
    Animal::Sheep,
    Animal::Pig,
    Animal::Cow,
    Animal::Horse,
    Animal::SmallDog,
    Animal::BigDog,
];

/// The five kinds a player must own (at least one each) to win. Dogs do not count.
pub const FARM_ANIMALS: [Animal; 5] = [
    Animal::Rabbit,
    Animal::Sheep,
    Animal::Pig,
    Animal::Cow,
    Animal::Horse,
];

/// Worth of each kind in rabbits, by index: the fixed exchange rates of the game.
pub const WORTH: [u32; KINDS] = [1, 6, 12, 36, 72, 6, 36];

impl Animal {
    /// The kind with this index (0 = rabbit … 6 = big dog).
    pub const fn from_index(i: usize) -> Option<Animal> {
        if i < KINDS {
            Some(ANIMALS[i])
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// Worth in rabbits.
    pub const fn worth(self) -> u32 {
        WORTH[self as usize]
    }

    /// Stable lower-case name used in records and narration.
    pub const fn name(self) -> &'static str {
        match self {
            Animal::Rabbit => "rabbit",
            Animal::Sheep => "sheep",
            Animal::Pig => "pig",
            Animal::Cow => "cow",
            Animal::Horse => "horse",
            Animal::SmallDog => "small_dog",
            Animal::BigDog => "big_dog",
        }
    }

    pub fn from_name(name: &str) -> Option<Animal> {
        ANIMALS.iter().copied().find(|a| a.name() == name)
    }
}
