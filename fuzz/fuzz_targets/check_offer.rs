//! `check_offer` and `execute_trade` on any position and offer.
#![no_main]
use libfuzzer_sys::fuzz_target;

// The checks of all three targets; each uses its own.
#[allow(dead_code)]
#[path = "../../tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| {
    let mut words = data
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .chain(std::iter::repeat(0));
    let mut next = || words.next().unwrap();
    let players = 2 + (next() % 5) as usize;
    let out = next() as u8;
    let trader = next() as usize;
    let offer = farm_rules::Offer {
        kind: next() % 4,
        partner: next() as i32 % 8,
        give: core::array::from_fn(|_| (next() as i32) >> (next() % 32)),
        get: core::array::from_fn(|_| (next() as i32) >> (next() % 32)),
    };
    let counts: Vec<u32> = (0..49).map(|_| next() >> (next() % 32)).collect();
    fuzz_checks::trade_validation(players, &counts, out, trader, &offer);
});
