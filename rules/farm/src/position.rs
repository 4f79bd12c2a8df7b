use crate::herd::Herd;

pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 6;

/// The stock at the start of a standard game: 60 rabbits, 24 sheep, 20 pigs, 12 cows, 6 horses,
/// 4 small dogs, 2 big dogs.
pub const START_STOCK: Herd = Herd([60, 24, 20, 12, 6, 4, 2]);

/// Every herd and the stock: everything the rules need to judge a trade or a roll.
///
/// Seats that have forfeited (see the host's fault policy) stay in the position with their herd
/// frozen; `out` marks them so that trades with them fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub players: usize,
    pub herds: [Herd; MAX_PLAYERS],
    pub stock: Herd,
    /// Bit `s` set: seat `s` has forfeited.
    pub out: u8,
}

impl Position {
    /// The standard starting position: full stock, empty herds.
    pub fn new(players: usize) -> Position {
        Position {
            players,
            herds: [Herd::EMPTY; MAX_PLAYERS],
            stock: START_STOCK,
            out: 0,
        }
    }

    /// Herds of the seated players only.
    pub fn seated(&self) -> &[Herd] {
        &self.herds[..self.players.min(MAX_PLAYERS)]
    }

    pub fn is_out(&self, seat: usize) -> bool {
        seat < MAX_PLAYERS && self.out & (1 << seat) != 0
    }

    /// How many of each kind exist in the game: the stock plus every herd. Trades and rolls never
    /// change it.
    pub fn totals(&self) -> Herd {
        self.seated().iter().fold(self.stock, |acc, h| acc.plus(h))
    }
}
