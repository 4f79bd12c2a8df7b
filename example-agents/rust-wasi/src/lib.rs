//! planner: a Little Animal Farm agent in Rust with the standard library, built for
//! `wasm32-wasip1`. It uses no SDK: its own glue over the ABI (the `arena-abi` crate's layouts),
//! `Vec` and `HashMap`, and `println!` for debugging (stdout lands in the agent's log).
//!
//! Strategy: list every legal trade with the stock (`farm_rules::for_each_stock_trade`), score
//! the herd each would leave (farm kinds owned, then a small dog, then a big dog), and make the
//! best one if it beats keeping the herd as it is; among equals keep the most animals (more
//! animals breed more). Offers from other players are accepted when they improve the score.
//! Build: `cargo build --release --target wasm32-wasip1 -p rust-wasi-planner`.

use std::cell::{RefCell, UnsafeCell};
use std::collections::HashMap;

use arena_abi::farm::{encode_offer, Observation, OFFER_SIZE};
use arena_abi::{Envelope, InitPayload, ENVELOPE_SIZE};
use farm_rules::{for_each_stock_trade, Animal, Herd, Offer, Trade, FARM_ANIMALS};

/// Bytes of the exchange buffer (at least `arena_abi::MIN_BUFFER_SIZE`).
const BUFFER_SIZE: usize = 16 * 1024;

#[repr(C, align(16))]
struct Buffer(UnsafeCell<[u8; BUFFER_SIZE]>);

// SAFETY: a wasm instance is single-threaded and the host never calls two exports at once.
unsafe impl Sync for Buffer {}

static BUFFER: Buffer = Buffer(UnsafeCell::new([0; BUFFER_SIZE]));

/// The exchange buffer. Each export takes this reference once, for the length of the call.
#[allow(clippy::mut_from_ref)]
fn buffer() -> &'static mut [u8; BUFFER_SIZE] {
    // SAFETY: see `Buffer`; no other reference is alive during an export call.
    unsafe { &mut *BUFFER.0.get() }
}

thread_local! {
    /// How many events of each kind this agent has seen, for its log.
    static SEEN: RefCell<HashMap<u8, u32>> = RefCell::new(HashMap::new());
}

/// How good a herd is: farm kinds owned first, then the dogs that protect it.
fn score(herd: &Herd) -> u32 {
    let kinds = FARM_ANIMALS.iter().filter(|&&a| herd.get(a) > 0).count() as u32;
    let small = u32::from(herd.get(Animal::SmallDog) > 0);
    let big = u32::from(herd.get(Animal::BigDog) > 0);
    kinds * 100 + small * 40 + big * 30
}

/// The best legal stock trade for `seat`, if it improves the herd's score.
fn plan(obs: &Observation, players: usize, seat: usize) -> Option<Trade> {
    let pos = obs.position(players);
    let herd = pos.herds[seat];
    let mut candidates: Vec<(u32, u64, Trade)> = Vec::new();
    for_each_stock_trade(&pos, seat, &mut |t| {
        if t.give.get(Animal::SmallDog) > 0 || t.give.get(Animal::BigDog) > 0 {
            return; // dogs are never paid
        }
        let after = herd.minus(&t.give).plus(&t.get.min(&pos.stock));
        candidates.push((score(&after), after.total(), *t));
    });
    candidates.sort_by_key(|c| std::cmp::Reverse((c.0, c.1)));
    let (best, _, trade) = *candidates.first()?;
    (best > score(&herd)).then_some(trade)
}

/// Counts the events of this call: each observation carries the events since the previous call.
fn count_events(obs: &Observation, payload: &[u8]) {
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        for e in (0..obs.event_count as usize).filter_map(|i| obs.event(payload, i)) {
            *seen.entry(e.kind).or_insert(0) += 1;
        }
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn arena_abi_version() -> i32 {
    arena_abi::ABI_VERSION as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn arena_buffer() -> i32 {
    buffer().as_ptr() as usize as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn arena_buffer_size() -> i32 {
    BUFFER_SIZE as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn arena_init(_len: i32) -> i32 {
    let buf = buffer();
    let Ok(env) = Envelope::decode(buf) else {
        return 1;
    };
    let Ok(init) = InitPayload::decode(env.payload(buf)) else {
        return 1;
    };
    println!(
        "planner: seat {} of {}, round cap {}",
        env.seat, env.players, init.round_cap
    );
    0
}

#[unsafe(no_mangle)]
pub extern "C" fn farm_trade(_len: i32) -> i32 {
    let buf = buffer();
    let Ok(env) = Envelope::decode(buf) else {
        return 0;
    };
    let Ok(obs) = Observation::decode(env.payload(buf)) else {
        return 0;
    };
    count_events(&obs, env.payload(buf));
    let Some(trade) = plan(&obs, env.players as usize, env.seat as usize) else {
        return 0;
    };
    let counts: Vec<String> = SEEN.with(|s| {
        let mut v: Vec<(u8, u32)> = s.borrow().iter().map(|(&k, &n)| (k, n)).collect();
        v.sort();
        v.into_iter().map(|(k, n)| format!("{k}:{n}")).collect()
    });
    println!(
        "round {}: give {:?} for {:?} (events seen by kind: {})",
        env.round,
        trade.give.0,
        trade.get.0,
        counts.join(" ")
    );
    encode_offer(
        &mut buf[..OFFER_SIZE],
        &Offer::with_stock(trade.give, trade.get),
    );
    OFFER_SIZE as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn farm_accept(_len: i32) -> i32 {
    let buf = buffer();
    let Ok(env) = Envelope::decode(buf) else {
        return 0;
    };
    let Ok(obs) = Observation::decode(env.payload(buf)) else {
        return 0;
    };
    let Some((trader, offer)) = obs.offer else {
        return 0;
    };
    let herd = obs.herds[env.seat as usize % obs.herds.len()];
    let to_herd = |counts: [i32; 7]| -> Option<Herd> {
        let mut h = Herd::EMPTY;
        for (n, c) in h.0.iter_mut().zip(counts) {
            *n = u32::try_from(c).ok()?;
        }
        Some(h)
    };
    let (Some(gain), Some(cost)) = (to_herd(offer.give), to_herd(offer.get)) else {
        return 0;
    };
    let yes = herd.contains(&cost) && score(&herd.minus(&cost).plus(&gain)) > score(&herd);
    println!(
        "round {}: seat {trader} offers {:?} for {:?}: {}",
        env.round,
        gain.0,
        cost.0,
        if yes { "accept" } else { "deny" }
    );
    i32::from(yes)
}

// The start of the buffer is where the envelope goes; keep the constant in use for readers.
const _: () = assert!(ENVELOPE_SIZE == 32 && BUFFER_SIZE >= arena_abi::MIN_BUFFER_SIZE);

#[cfg(test)]
mod tests {
    use super::*;
    use farm_rules::Position;

    #[test]
    fn plans_a_sheep_with_spare_rabbits_and_keeps_the_last_rabbit() {
        let mut pos = Position::new(2);
        pos.herds[0] = Herd::of(Animal::Rabbit, 7);
        let obs = Observation {
            to_move: 0,
            out_mask: 0,
            stock: pos.stock,
            herds: pos.herds,
            event_count: 0,
            events_dropped: 0,
            offer: None,
        };
        let t = plan(&obs, 2, 0).expect("a trade");
        assert_eq!(t.get, Herd::of(Animal::Sheep, 1));
        assert_eq!(t.give, Herd::of(Animal::Rabbit, 6));
        pos.herds[0] = Herd::of(Animal::Rabbit, 6);
        let obs = Observation {
            herds: pos.herds,
            ..obs
        };
        assert_eq!(
            plan(&obs, 2, 0),
            None,
            "six rabbits for a sheep gains nothing"
        );
    }
}
