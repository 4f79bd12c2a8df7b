//! A native test player that makes random decisions: legal stock trades, offers to other players,
//! raw offers of every kind (negative, huge, unknown kinds and seats), and now and then a fault.

use farm_rules::{for_each_payment, for_each_stock_trade, Herd, Offer, Position, ANIMALS, KINDS};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::games::farm::tests::support::{play_game, FarmPlayer, SeededDice};
use crate::games::farm::{
    AcceptView, Fault, FaultKind, FaultPolicy, GameRecord, Observation, Setup,
};

/// How a [`RandomPlayer`] behaves; rates are in percent of decisions.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub fault_rate: u32,
    pub load_fault_rate: u32,
}

pub struct RandomPlayer {
    rng: ChaCha8Rng,
    style: Style,
    /// Every position this player was shown must hold these totals.
    totals: Herd,
    /// Debug output of the last decision, as an agent's log would be.
    log: Option<String>,
}

const FAULT_KINDS: [FaultKind; 8] = [
    FaultKind::Trap,
    FaultKind::StackOverflow,
    FaultKind::DecisionFuel,
    FaultKind::GameFuel,
    FaultKind::MemoryLimit,
    FaultKind::Timeout,
    FaultKind::BadAnswer,
    FaultKind::LoadFailed,
];

impl RandomPlayer {
    pub fn new(seed: u64, style: Style, totals: Herd) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            style,
            totals,
            log: None,
        }
    }

    fn below(&mut self, n: u32) -> u32 {
        self.rng.next_u32() % n
    }

    fn fault(&mut self) -> Fault {
        let kind = FAULT_KINDS[self.below(FAULT_KINDS.len() as u32) as usize];
        Fault::new(kind, format!("test fault \"{}\"\n", self.below(1000)))
    }

    fn check(&self, pos: &Position) {
        assert_eq!(pos.totals(), self.totals, "animals are conserved");
    }

    fn stock_trade(&mut self, pos: &Position, seat: usize) -> Offer {
        let mut all = Vec::new();
        for_each_stock_trade(pos, seat, &mut |t| all.push(*t));
        if all.is_empty() {
            return Offer::PASS;
        }
        let t = all[self.below(all.len() as u32) as usize];
        Offer::with_stock(t.give, t.get)
    }

    fn player_trade(&mut self, pos: &Position, seat: usize) -> Offer {
        let partner = self.below(pos.players as u32) as usize;
        let wanted = ANIMALS[self.below(KINDS as u32) as usize];
        let mut payments = Vec::new();
        for_each_payment(&pos.herds[seat], wanted.worth(), Some(wanted), &mut |h| {
            if payments.len() < 64 {
                payments.push(*h)
            }
        });
        let give = if payments.is_empty() {
            Herd::of(wanted, 0)
        } else {
            payments[self.below(payments.len() as u32) as usize]
        };
        Offer::with_player(partner, give, Herd::of(wanted, 1))
    }

    fn raw_offer(&mut self) -> Offer {
        const AMOUNTS: [i32; 10] = [0, 0, 0, 0, 1, 1, 2, 3, -1, i32::MAX];
        let mut side = || {
            let mut a = [0i32; KINDS];
            for x in &mut a {
                *x = AMOUNTS[(self.rng.next_u32() % AMOUNTS.len() as u32) as usize];
            }
            a
        };
        let (give, get) = (side(), side());
        Offer {
            kind: self.below(5),
            partner: self.below(9) as i32 - 2,
            give,
            get,
        }
    }
}

impl FarmPlayer for RandomPlayer {
    fn start(&mut self, _seat: usize, _players: usize, _seed: u64) -> Result<(), Fault> {
        if self.below(100) < self.style.load_fault_rate {
            return Err(Fault::new(FaultKind::LoadFailed, "test load failure"));
        }
        Ok(())
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        self.check(obs.position);
        let r = self.below(100);
        if r.is_multiple_of(7) {
            self.log = Some(format!("turn {}: thinking \"hard\"\n", obs.turn));
        }
        if r < self.style.fault_rate {
            return Err(self.fault());
        }
        Ok(match r % 4 {
            0 => self.stock_trade(obs.position, obs.seat),
            1 => self.player_trade(obs.position, obs.seat),
            2 => self.raw_offer(),
            _ => {
                if self.below(2) == 0 {
                    self.stock_trade(obs.position, obs.seat)
                } else {
                    Offer::PASS
                }
            }
        })
    }

    fn take_log(&mut self) -> Option<String> {
        self.log.take()
    }

    fn accept(&mut self, obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        self.check(obs.position);
        if self.below(100) < self.style.fault_rate {
            return Err(self.fault());
        }
        Ok(self.below(2) == 0)
    }
}

/// Plays one game of random players with seeded dice.
pub fn random_game(
    seed: u64,
    players: usize,
    round_cap: u32,
    policy: FaultPolicy,
    style: Style,
) -> GameRecord {
    let setup = Setup {
        policy,
        ..Setup::standard(players, seed, round_cap)
    };
    let totals = setup.initial_position().totals();
    let mut seats: Vec<RandomPlayer> = (0..players)
        .map(|s| RandomPlayer::new(seed.wrapping_mul(31).wrapping_add(s as u64), style, totals))
        .collect();
    let mut refs: Vec<&mut dyn FarmPlayer> =
        seats.iter_mut().map(|p| p as &mut dyn FarmPlayer).collect();
    play_game(&setup, &mut refs, &mut SeededDice::new(seed))
}
