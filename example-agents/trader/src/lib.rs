//! A trader: plays like a careful stock buyer (one small dog, one big dog, then the cheapest
//! missing kind from its surplus), but when the stock has run out of a kind it lacks, it offers
//! a trade to a player who has two or more of that kind, paying with surplus or with a dog
//! ("mercy trades"). It accepts any offer that gives it a kind it lacks without costing it a kind
//! it has, unless the trade would complete the trader's set.
#![no_std]

use arena_agent_sdk::rules::{Animal, Herd, FARM_ANIMALS};
use arena_agent_sdk::tactics::{
    acquire_from_stock, after, cheapest_payment, completes_set_for, finishing_stock_trade,
    is_legal, keep_set_cost, missing_count,
};
use arena_agent_sdk::{export_farm_agent, FarmAgent, Offer, View};

#[derive(Default)]
pub struct Trader;

fn surplus_cost(herd: &Herd, p: &Herd, dogs_ok: bool) -> u64 {
    let dogs = p.get(Animal::SmallDog) + p.get(Animal::BigDog);
    if dogs > 0 && !dogs_ok {
        return u64::MAX;
    }
    match keep_set_cost(herd, p) {
        c if c >= 1_000_000 => u64::MAX,
        c => c,
    }
}

impl FarmAgent for Trader {
    fn trade(&mut self, view: &View) -> Offer {
        let pos = &view.position;
        let seat = view.seat;
        let herd = view.my_herd();
        if let Some(o) = finishing_stock_trade(pos, seat) {
            return o;
        }
        let no_dogs = |p: &Herd| surplus_cost(&herd, p, false);
        let dogs_ok = |p: &Herd| surplus_cost(&herd, p, true);
        for (dog, at_risk) in [
            (Animal::SmallDog, herd.get(Animal::Rabbit) >= 6),
            (Animal::BigDog, herd.worth() >= 72),
        ] {
            if herd.get(dog) == 0 && at_risk {
                if let Some((offer, _)) = acquire_from_stock(pos, seat, dog, &no_dogs) {
                    return offer;
                }
            }
        }
        for target in FARM_ANIMALS {
            if herd.get(target) > 0 {
                continue;
            }
            if let Some((offer, _)) = acquire_from_stock(pos, seat, target, &no_dogs) {
                return offer;
            }
            if pos.stock.get(target) > 0 {
                continue;
            }
            // The stock is out: ask a player who can spare one.
            if let Some((pay, c)) = cheapest_payment(&herd, target, &dogs_ok) {
                if c == u64::MAX {
                    continue;
                }
                for partner in view.opponents() {
                    if view.herd(partner).get(target) >= 2 {
                        let offer = Offer::with_player(partner, pay, Herd::of(target, 1));
                        if is_legal(pos, seat, &offer) {
                            return offer;
                        }
                    }
                }
            }
        }
        Offer::PASS
    }

    fn accept(&mut self, view: &View, trader: usize, offer: &Offer) -> bool {
        let pos = &view.position;
        let Some(next) = after(pos, trader, offer) else {
            return false;
        };
        if next.herds[trader].is_winning() || completes_set_for(pos, trader, offer) {
            return false;
        }
        let (before, now) = (view.my_herd(), next.herds[view.seat]);
        let lost_kind = FARM_ANIMALS
            .iter()
            .any(|&a| before.get(a) > 0 && now.get(a) == 0);
        !lost_kind && missing_count(&now) < missing_count(&before)
    }
}

export_farm_agent!(Trader);
