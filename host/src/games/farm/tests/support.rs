//! What the farm's tests play with: players that answer its two decisions ([`FarmPlayer`], which
//! sandboxed agents answer too, through the host's player), and games of a setup with given dice.

use farm_rules::{Offer, Roll};

use crate::game::seed::{DiceSource, GivenDice};
use crate::game::{play_kept, Fault, Native, Player, Question, Reply};
use crate::games::farm::rules::{roll_faces, ACCEPT, TRADE};
use crate::games::farm::{AcceptView, Answer, Asked, Farm, GameRecord, Observation, Setup};
use crate::sandbox::{Init, WasmPlayer};

pub use crate::game::seed::SeededDice;

/// A test player of the farm: an offer (or a pass) on its turn, an answer to an offer made to it.
pub trait FarmPlayer {
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        Ok(())
    }
    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault>;
    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault>;
    fn take_log(&mut self) -> Option<String> {
        None
    }
}

/// A sandboxed agent's decisions, through the host's player.
impl FarmPlayer for WasmPlayer {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        let init = Init {
            seat,
            players,
            seed,
            round_cap: self.round_cap(),
        };
        Player::<Farm>::start(self, &Farm, &init)
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        match ask(self, obs, None)? {
            Answer::Offer(offer) => Ok(offer),
            Answer::Accept(_) => unreachable!("a trade decision answers an offer"),
        }
    }

    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault> {
        match ask(self, obs, Some(*offer))? {
            Answer::Accept(yes) => Ok(yes),
            Answer::Offer(_) => unreachable!("an accept decision answers yes or no"),
        }
    }

    fn take_log(&mut self) -> Option<String> {
        WasmPlayer::take_log(self)
    }
}

/// The agent's answer to the decision `obs` asks: an accept decision when there is an `offer` to
/// answer, else a trade.
fn ask(
    agent: &mut WasmPlayer,
    obs: &Observation,
    offer: Option<AcceptView>,
) -> Result<Answer, Fault> {
    let q = Question {
        seat: obs.seat,
        decision: if offer.is_some() { ACCEPT } else { TRADE },
        allowance: None,
    };
    let asked = Asked {
        observation: *obs,
        offer,
    };
    Player::<Farm>::decide(agent, &Farm, &q, &asked).answer
}

impl<P: FarmPlayer + ?Sized> FarmPlayer for &mut P {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        (**self).start(seat, players, seed)
    }
    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        (**self).trade(obs)
    }
    fn accept(&mut self, obs: &Observation, offer: &AcceptView) -> Result<bool, Fault> {
        (**self).accept(obs, offer)
    }
    fn take_log(&mut self) -> Option<String> {
        (**self).take_log()
    }
}

/// A [`FarmPlayer`] in a seat.
pub struct Seated<P>(pub P);

impl<P: FarmPlayer> Player<Farm> for Seated<P> {
    fn start(&mut self, _rules: &Farm, init: &Init) -> Result<(), Fault> {
        self.0.start(init.seat, init.players, init.seed)
    }

    fn decide(&mut self, _rules: &Farm, q: &Question, asked: &Asked<'_>) -> Reply<Answer> {
        let answer = match &asked.offer {
            Some(offer) if q.decision == ACCEPT => {
                self.0.accept(&asked.observation, offer).map(Answer::Accept)
            }
            _ => self.0.trade(&asked.observation).map(Answer::Offer),
        };
        Reply { answer, fuel: 0 }
    }

    fn take_log(&mut self) -> Option<String> {
        self.0.take_log()
    }
}

/// Plays one game of `setup` with `players[s]` in seat `s` and the rolls of `dice`.
pub fn play_game(
    setup: &Setup,
    players: &mut [&mut dyn FarmPlayer],
    dice: &mut dyn DiceSource,
) -> GameRecord {
    let mut seats: Vec<Seated<&mut dyn FarmPlayer>> =
        players.iter_mut().map(|p| Seated(&mut **p)).collect();
    let mut dyns: Vec<&mut dyn Player<Farm>> = seats
        .iter_mut()
        .map(|s| s as &mut dyn Player<Farm>)
        .collect();
    play_kept(&Farm, setup, &mut dyns, dice).expect("no test player leaves a game")
}

/// Dice given roll by roll (a studied position).
pub struct ExplicitDice;

impl ExplicitDice {
    #[allow(clippy::new_ret_no_self)]
    pub fn new(rolls: Vec<Roll>) -> GivenDice {
        GivenDice::new(rolls.into_iter().map(roll_faces).collect())
    }
}

/// A native seat of Little Animal Farm whose players `make` makes.
pub fn native<P: FarmPlayer + 'static>(make: impl Fn() -> P + Send + Sync + 'static) -> Native {
    Native::typed::<Farm>(move || Box::new(Seated(make())))
}

/// A Little Animal Farm agent in WAT that passes every turn, declines every offer and logs
/// `thinking` at each of its turns: the smallest agent with a debug log.
pub const LOGGING_PASSER: &str = r#"(module
  (import "arena" "log" (func $log (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 0) "thinking")
  (func (export "arena_abi_version") (result i32) i32.const 1)
  (func (export "arena_buffer") (result i32) i32.const 4096)
  (func (export "arena_buffer_size") (result i32) i32.const 16384)
  (func (export "farm_trade") (param i32) (result i32) (call $log (i32.const 0) (i32.const 8)) i32.const 0)
  (func (export "farm_accept") (param i32) (result i32) i32.const 0))"#;
