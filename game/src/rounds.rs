//! What games of turns taken seat after seat, in rounds, say alike: whose turn is next (the
//! seats still in the game, in order from the round's first, until a round cap or the last
//! round), and who is left standing when seats go out. Each such game wrote the same loop and
//! the same outcome; they are written once here.

use crate::Outcome;

/// Where a game played in rounds is: the turns and rounds begun, and the next seat to consider.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rounds {
    /// Turns begun.
    pub turns: u32,
    /// The round of the last turn begun.
    pub rounds: u32,
    /// The round being played (0 before the first).
    round: u32,
    /// The next seat of the round to consider, counted from the round's first.
    next: usize,
}

/// Why no turn follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoTurn {
    /// The round said to be the last is over.
    LastRound,
    /// The round cap is reached.
    RoundCap,
}

impl Rounds {
    /// Begins the next turn of a game of `players` seats, `first` the first of every round, and
    /// gives its seat: the next seat not `out`, in a new round once the round is over. No turn
    /// follows once the round is over if `last` (a game decided when that round ends), nor
    /// after round `round_cap`.
    pub fn begin(
        &mut self,
        players: usize,
        first: usize,
        round_cap: u32,
        out: impl Fn(usize) -> bool,
        last: bool,
    ) -> Result<usize, NoTurn> {
        loop {
            if self.round == 0 || self.next >= players {
                if self.round > 0 && last {
                    return Err(NoTurn::LastRound);
                }
                if self.round >= round_cap {
                    return Err(NoTurn::RoundCap);
                }
                self.round += 1;
                self.next = 0;
            }
            let seat = (first + self.next) % players;
            self.next += 1;
            if out(seat) {
                continue;
            }
            self.turns += 1;
            self.rounds = self.round;
            return Ok(seat);
        }
    }
}

/// The outcome forced by seats going out of a game of `players` seats: one seat left wins (as
/// the last standing) when more than one played, none left is a draw; `None`: the game goes on.
pub fn standing(players: usize, out: impl Fn(usize) -> bool) -> Option<Outcome> {
    let active: Vec<usize> = (0..players).filter(|&s| !out(s)).collect();
    match active.as_slice() {
        [] => Some(Outcome::Draw { round_cap: false }),
        [seat] if players > 1 => Some(Outcome::last_standing(*seat)),
        _ => None,
    }
}
