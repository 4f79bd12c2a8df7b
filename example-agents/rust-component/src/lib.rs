//! greedy, as a WebAssembly component of world `arena:games/farm` (../../wit), written with
//! wit-bindgen: the strategy of the byte-ABI example `example-agents/greedy`, over the same SDK
//! helpers. Every turn it completes the set with a stock trade if one does, else it buys from the
//! stock the first kind in a fixed priority list that it lacks and can afford (a small dog, a big
//! dog, then the farm kinds from the most valuable down), paying with its least valuable
//! animals. It never deals with players.

use arena_agent_sdk::rules::{Herd as RulesHerd, Offer as RulesOffer, Position, KINDS};
use arena_agent_sdk::tactics::{buy_first_lacking, finishing_stock_trade, DOGS_THEN_WORTHIEST};

wit_bindgen::generate!({
    path: "../../wit",
    world: "arena:games/farm@1.0.0",
});

// The world's `use` puts `Setup`, `View` and `Offer` at the crate root.
use arena::games::farm_types::{Herd, Party};
use arena::games::host::log;

struct Greedy;

impl Guest for Greedy {
    fn init(setup: Setup) -> Result<(), String> {
        if setup.players < 2 {
            return Err(format!(
                "a farm game needs 2 players, not {}",
                setup.players
            ));
        }
        Ok(())
    }

    fn trade(view: View) -> Option<Offer> {
        let pos = position(&view);
        let seat = view.seat as usize;
        if let Some(o) = finishing_stock_trade(&pos, seat) {
            log("completing the set");
            return offer(&o);
        }
        buy_first_lacking(&pos, seat, &DOGS_THEN_WORTHIEST).and_then(|o| offer(&o))
    }

    fn accept_offer(_view: View, _offer: Offer) -> bool {
        false
    }
}

export!(Greedy);

/// The rules' position of a view (the host gives at most six seats).
fn position(view: &View) -> Position {
    let mut pos = Position::new(view.herds.len().min(6));
    for (slot, h) in pos.herds.iter_mut().zip(&view.herds) {
        *slot = rules_herd(h);
    }
    pos.stock = rules_herd(&view.stock);
    pos.out = view
        .forfeited
        .iter()
        .enumerate()
        .filter(|&(_, &out)| out)
        .fold(0, |mask, (s, _)| mask | 1 << s);
    pos
}

fn rules_herd(h: &Herd) -> RulesHerd {
    RulesHerd([
        h.rabbit,
        h.sheep,
        h.pig,
        h.cow,
        h.horse,
        h.small_dog,
        h.big_dog,
    ])
}

/// The WIT offer of a rules offer made by the SDK's helpers (never negative, kind 1 or 2).
fn offer(o: &RulesOffer) -> Option<Offer> {
    let herd = |a: &[i32; KINDS]| {
        let n = |k: usize| a[k].max(0) as u32;
        Herd {
            rabbit: n(0),
            sheep: n(1),
            pig: n(2),
            cow: n(3),
            horse: n(4),
            small_dog: n(5),
            big_dog: n(6),
        }
    };
    let partner = match o.kind {
        1 => Party::Stock,
        2 => Party::Player(o.partner.max(0) as u32),
        _ => return None,
    };
    Some(Offer {
        partner,
        give: herd(&o.give),
        get: herd(&o.get),
    })
}
