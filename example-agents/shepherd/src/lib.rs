//! The shepherd: looks one roll ahead. Every turn it lists a handful of candidate trades (pass,
//! a trade that completes the set, buying each kind from the stock with its cheapest surplus,
//! selling one animal for several of a kind it lacks, asking a player for a kind the stock has
//! run out of), and for each one averages a value of the herd over the 25 distinct outcomes of
//! the two dice, weighted by their probabilities. The value rewards owning each kind, being able
//! to finish the set with one trade, and worth that the wolf and fox cannot reach (horses, dogs).
//! It accepts a player's offer only if the trade helps it and does not bring the trader closer
//! to the set.
#![no_std]

use arena_agent_sdk::rules::{
    apply_roll, Animal, FoxFace, Herd, Position, Roll, WolfFace, ANIMALS, FARM_ANIMALS, FOX_DIE,
    WOLF_DIE,
};
use arena_agent_sdk::tactics::{
    after, buy_from_stock, cheapest_payment, finishing_stock_trade, is_legal, keep_set_cost,
    missing_count,
};
use arena_agent_sdk::{export_farm_agent, FarmAgent, Offer, View};

#[derive(Default)]
pub struct Shepherd;

/// The 25 distinct rolls with their weights (out of 144).
struct Outcomes {
    rolls: [(Roll, u32); 25],
    len: usize,
}

fn outcomes() -> Outcomes {
    let mut out = Outcomes {
        rolls: [(Roll::from_indices(0, 0), 0); 25],
        len: 0,
    };
    let mut fox_faces: [(FoxFace, u32); 5] = [(FoxFace::Fox, 0); 5];
    let mut nf = 0;
    for f in FOX_DIE {
        match fox_faces[..nf].iter_mut().find(|(x, _)| *x == f) {
            Some((_, n)) => *n += 1,
            None => {
                fox_faces[nf] = (f, 1);
                nf += 1;
            }
        }
    }
    let mut wolf_faces: [(WolfFace, u32); 5] = [(WolfFace::Wolf, 0); 5];
    let mut nw = 0;
    for w in WOLF_DIE {
        match wolf_faces[..nw].iter_mut().find(|(x, _)| *x == w) {
            Some((_, n)) => *n += 1,
            None => {
                wolf_faces[nw] = (w, 1);
                nw += 1;
            }
        }
    }
    for &(fox, a) in &fox_faces[..nf] {
        for &(wolf, b) in &wolf_faces[..nw] {
            out.rolls[out.len] = (Roll { fox, wolf }, a * b);
            out.len += 1;
        }
    }
    out
}

/// Worth a herd could spend without losing a kind: everything beyond one of each farm kind.
fn surplus(h: &Herd) -> u32 {
    let mut s = 0;
    for a in ANIMALS {
        let n = h.get(a);
        let spare = if FARM_ANIMALS.contains(&a) {
            n.saturating_sub(1)
        } else {
            n
        };
        s += spare * a.worth();
    }
    s
}

/// Heuristic value of a herd (before its owner's next trade).
fn value(h: &Herd, stock: &Herd) -> i64 {
    if h.is_winning() {
        return 1_000_000;
    }
    let mut v: i64 = 0;
    let mut need = 0u32;
    let mut missing = 0;
    for a in FARM_ANIMALS {
        if h.get(a) > 0 {
            v += 120;
        } else {
            need += a.worth();
            missing += 1;
        }
    }
    let spare = surplus(h);
    // One trade away: a single missing kind the herd can pay for and the stock still has.
    if missing == 1 {
        let lacking = FARM_ANIMALS.iter().copied().find(|&a| h.get(a) == 0);
        if let Some(a) = lacking {
            if spare >= a.worth() && stock.get(a) > 0 {
                v += 600;
            }
        }
    }
    v += 2 * spare.min(need) as i64;
    v += h.worth() as i64;
    // Breeding pairs.
    for a in [Animal::Rabbit, Animal::Sheep, Animal::Pig] {
        if h.get(a) >= 2 {
            v += 10;
        }
    }
    v
}

fn expected(pos: &Position, seat: usize, outcomes: &Outcomes) -> i64 {
    let mut total: i64 = 0;
    for &(roll, w) in &outcomes.rolls[..outcomes.len] {
        let mut p = *pos;
        let h = p.herds[seat];
        let v = if h.is_winning() {
            1_000_000
        } else {
            apply_roll(&mut p, seat, roll);
            value(&p.herds[seat], &p.stock)
        };
        total += v * w as i64;
    }
    total
}

impl FarmAgent for Shepherd {
    fn trade(&mut self, view: &View) -> Offer {
        let pos = &view.position;
        let seat = view.seat;
        if let Some(o) = finishing_stock_trade(pos, seat) {
            return o;
        }
        let herd = view.my_herd();
        let outcomes = outcomes();
        let mut best = Offer::PASS;
        let mut best_v = expected(pos, seat, &outcomes);
        let mut consider = |offer: Offer| {
            if let Some(next) = after(pos, seat, &offer) {
                let v = expected(&next, seat, &outcomes);
                if v > best_v {
                    best_v = v;
                    best = offer;
                }
            }
        };
        let cost = |p: &Herd| keep_set_cost(&herd, p);
        for target in ANIMALS {
            if let Some((offer, _)) = buy_from_stock(pos, seat, target, &cost) {
                consider(offer);
            }
            // Sell one animal for several of a cheaper kind.
            for sold in ANIMALS {
                let (ws, wt) = (sold.worth(), target.worth());
                if herd.get(sold) == 0 || ws <= wt || ws % wt != 0 {
                    continue;
                }
                let n = (ws / wt).min(pos.stock.get(target));
                if n > 0 {
                    consider(Offer::with_stock(
                        Herd::of(sold, 1),
                        Herd::of(target, ws / wt),
                    ));
                }
            }
            // The stock is out of a kind we lack: ask a player who can spare one.
            if herd.get(target) == 0 && pos.stock.get(target) == 0 {
                if let Some((pay, _)) = cheapest_payment(&herd, target, &cost) {
                    for partner in view.opponents() {
                        let theirs = view.herd(partner);
                        if theirs.get(target) >= 2 {
                            let offer = Offer::with_player(partner, pay, Herd::of(target, 1));
                            if is_legal(pos, seat, &offer) {
                                consider(offer);
                            }
                        }
                    }
                }
            }
        }
        best
    }

    fn accept(&mut self, view: &View, trader: usize, offer: &Offer) -> bool {
        let pos = &view.position;
        let Some(next) = after(pos, trader, offer) else {
            return false;
        };
        let (t_before, t_after) = (pos.herds[trader], next.herds[trader]);
        if t_after.is_winning() || missing_count(&t_after) < missing_count(&t_before) {
            return false;
        }
        let me = view.seat;
        value(&next.herds[me], &next.stock) > value(&pos.herds[me], &pos.stock) + 50
    }
}

export_farm_agent!(Shepherd);
