//! A whole game: the state between iterations, the iterations, the end and the outcome.

use alloc::vec;
use alloc::vec::Vec;

use crate::array::{Array, Code, Seat};
use crate::random::Stream;
use crate::settings::{Settings, SettingsError, MAX_PLAYERS};
use crate::stages::{self, Entry, Round};
use crate::visit::{Executor, Visit};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `seat` owns the most cells; `last_standing` when it is the only player left.
    Win { seat: Seat, last_standing: bool },
    /// No single winner: several players share the most cells, or (`nobody_left`) no player owns
    /// a cell.
    Draw { nobody_left: bool },
}

/// Why a game cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    Settings(SettingsError),
    /// Seats must be 1 to [`MAX_PLAYERS`].
    Players(usize),
    /// A given Array's size is not `array_size`.
    ArraySize {
        expected: u32,
        found: usize,
    },
    /// A given Array has a cell owned by (or showing) a seat that does not exist.
    Seat {
        cell: usize,
        seat: Seat,
    },
}

impl core::fmt::Display for GameError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            GameError::Settings(e) => write!(f, "{e}"),
            GameError::Players(n) => {
                write!(f, "{n} players: a code war has 1 to {MAX_PLAYERS}")
            }
            GameError::ArraySize { expected, found } => {
                write!(f, "the Array has {found} cells, array_size is {expected}")
            }
            GameError::Seat { cell, seat } => {
                write!(f, "cell {cell} names seat {seat}, which does not exist")
            }
        }
    }
}

/// One iteration as it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration<C> {
    /// From 1.
    pub iteration: u32,
    /// The maximal agent size during this iteration.
    pub max_size: u32,
    /// Stage 1: the modules that entered (none in most iterations).
    pub entries: Vec<Entry>,
    /// Stage 2: players out after the entries (no cell).
    pub out_before: Vec<Seat>,
    /// Stage 3: every visit, in cell order.
    pub visits: Vec<Visit<C>>,
    /// Stage 4: players out after the visits.
    pub out_after: Vec<Seat>,
    /// True when the game is over after this iteration.
    pub over: bool,
}

/// A game between iterations.
#[derive(Clone, Debug)]
pub struct Game<C> {
    settings: Settings,
    seed: u64,
    /// Each player's module, as submitted (what enters the Array).
    modules: Vec<C>,
    array: Array<C>,
    in_game: Vec<bool>,
    /// Players eliminated, in order.
    out: Vec<Seat>,
    /// Iterations played.
    played: u32,
    rng: Stream,
    over: bool,
}

impl<C: Code> Game<C> {
    /// A game of `modules.len()` players from `seed`, with an empty Array.
    pub fn new(settings: Settings, modules: Vec<C>, seed: u64) -> Result<Game<C>, GameError> {
        let array = Array::new(settings.array_size as usize);
        Game::from_array(settings, modules, seed, array, 0)
    }

    /// A game that has played `played` iterations and whose Array is `array` (studies and
    /// tests: a position set up by hand). Its players are all in the game.
    pub fn from_array(
        settings: Settings,
        modules: Vec<C>,
        seed: u64,
        array: Array<C>,
        played: u32,
    ) -> Result<Game<C>, GameError> {
        settings.validate().map_err(GameError::Settings)?;
        let players = modules.len();
        if !(1..=MAX_PLAYERS).contains(&players) {
            return Err(GameError::Players(players));
        }
        if array.size() != settings.array_size as usize {
            return Err(GameError::ArraySize {
                expected: settings.array_size,
                found: array.size(),
            });
        }
        for (cell, c) in array.cells().iter().enumerate() {
            if let Some(c) = c {
                let seat = c.owner.max(c.facade);
                if seat >= players {
                    return Err(GameError::Seat { cell, seat });
                }
            }
        }
        // A game set up by hand draws newcomers' cells from the start of the game's stream.
        let rng = Stream::game(seed);
        Ok(Game {
            settings,
            seed,
            modules,
            array,
            in_game: vec![true; players],
            out: Vec::new(),
            played,
            rng,
            over: played >= settings.iterations,
        })
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn players(&self) -> usize {
        self.modules.len()
    }

    pub fn modules(&self) -> &[C] {
        &self.modules
    }

    pub fn array(&self) -> &Array<C> {
        &self.array
    }

    /// Iterations played so far.
    pub fn played(&self) -> u32 {
        self.played
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Whether `seat` is still in the game.
    pub fn in_game(&self, seat: Seat) -> bool {
        self.in_game.get(seat).copied().unwrap_or(false)
    }

    /// Players eliminated so far, in order.
    pub fn eliminated(&self) -> &[Seat] {
        &self.out
    }

    /// Cells owned by each player now.
    pub fn counts(&self) -> Vec<u32> {
        self.array.counts(self.players())
    }

    /// Plays the next iteration; `None` once the game is over.
    pub fn play_iteration(&mut self, executor: &mut impl Executor<C>) -> Option<Iteration<C>> {
        if self.over {
            return None;
        }
        let iteration = self.played + 1;
        let max_size = self.settings.max_size_at(iteration);
        self.array.allow_all();
        let entries = if self.settings.entry_due(iteration) {
            stages::enter(&mut self.array, &self.modules, &self.in_game, &mut self.rng)
        } else {
            Vec::new()
        };
        let out_before = stages::eliminate(&self.array, &mut self.in_game);
        self.out.extend_from_slice(&out_before);
        let round = Round {
            settings: &self.settings,
            seed: self.seed,
            players: self.players(),
            iteration,
            max_size,
        };
        let visits = stages::visit_all(&mut self.array, round, executor);
        let out_after = stages::eliminate(&self.array, &mut self.in_game);
        self.out.extend_from_slice(&out_after);
        self.played = iteration;
        self.over = self.ends();
        Some(Iteration {
            iteration,
            max_size,
            entries,
            out_before,
            visits,
            out_after,
            over: self.over,
        })
    }

    /// The end: the last iteration was played, or fewer than two players are left in a game
    /// that had two or more (a game of one player goes on while it owns a cell).
    fn ends(&self) -> bool {
        let left = self.in_game.iter().filter(|&&p| p).count();
        self.played >= self.settings.iterations || (self.players() >= 2 && left <= 1) || left == 0
    }

    /// Plays every iteration left, calling `each` after each one; returns the outcome.
    pub fn play(
        &mut self,
        executor: &mut impl Executor<C>,
        mut each: impl FnMut(&Game<C>, &Iteration<C>),
    ) -> Outcome {
        while let Some(it) = self.play_iteration(executor) {
            each(self, &it);
        }
        self.outcome()
    }

    /// The outcome as things stand: the only player left wins; otherwise the player with the
    /// most cells; a shared lead, or no cell owned at all, is a draw.
    pub fn outcome(&self) -> Outcome {
        let left: Vec<Seat> = (0..self.players()).filter(|&s| self.in_game[s]).collect();
        if self.players() >= 2 && left.len() == 1 {
            return Outcome::Win {
                seat: left[0],
                last_standing: true,
            };
        }
        let counts = self.counts();
        let best = counts.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return Outcome::Draw { nobody_left: true };
        }
        let mut leaders = (0..counts.len()).filter(|&s| counts[s] == best);
        match (leaders.next(), leaders.next()) {
            (Some(seat), None) => Outcome::Win {
                seat,
                last_standing: false,
            },
            _ => Outcome::Draw { nobody_left: false },
        }
    }
}
