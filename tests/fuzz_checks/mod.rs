//! Properties of Little Animal Farm that must hold for ANY input an agent or a record file can give
//! the arena: the bodies of the property tests (tests/fuzz_properties.rs, run in CI with
//! proptest) and of the cargo-fuzz targets (fuzz/, run by hand with a nightly toolchain, which
//! include this file by its path). Each panics on a violation. Test code: the arena never calls it.

use farm_rules::{check_offer, execute_trade, Herd, Offer, Partner, Position, KINDS, MAX_PLAYERS};

use arena::games::farm::abi::{decode_accept_answer, decode_trade_answer};
use arena::games::farm::FaultKind;

/// `farm_trade`'s answer: 0 is a pass, 64..=buffer length an offer read from the first 64
/// bytes, anything else a `bad_answer` fault; `farm_accept`'s: 0 or 1, else `bad_answer`.
pub fn answers(len: i32, ret: i32, buf: &[u8]) {
    match decode_trade_answer(len, buf) {
        Ok(offer) if len == 0 => assert_eq!(offer, Offer::PASS),
        Ok(offer) => {
            assert!(len >= 64 && len as usize <= buf.len(), "len {len} accepted");
            let word = |i: usize| u32::from_le_bytes(buf[i..i + 4].try_into().unwrap());
            assert_eq!(offer.kind, word(0));
            assert_eq!(offer.partner, word(4) as i32);
            for k in 0..KINDS {
                assert_eq!(offer.give[k], word(8 + 4 * k) as i32);
                assert_eq!(offer.get[k], word(36 + 4 * k) as i32);
            }
        }
        Err(f) => {
            assert_eq!(f.kind, FaultKind::BadAnswer);
            assert!(
                len != 0 && (len < 64 || len as usize > buf.len()),
                "len {len} refused"
            );
        }
    }
    match decode_accept_answer(ret) {
        Ok(yes) => assert_eq!(ret, yes as i32),
        Err(f) => {
            assert_eq!(f.kind, FaultKind::BadAnswer);
            assert!(ret != 0 && ret != 1);
        }
    }
}

/// Any bytes: verifying them as a record never panics.
pub fn record_bytes(bytes: &[u8]) {
    let _ = arena::games::registry().verify_record_bytes(bytes);
}

/// Any position (herds and stock of up to 2^20 of each kind, any forfeits) and any offer:
/// `check_offer` never panics; an accepted trade is legal by the rules' own definition, and
/// carrying it out conserves every kind of animal.
pub fn trade_validation(players: usize, counts: &[u32], out: u8, trader: usize, offer: &Offer) {
    let players = players.clamp(2, MAX_PLAYERS);
    let trader = trader % players;
    let mut pos = Position::new(players);
    let mut it = counts.iter().copied().map(|c| c & 0xF_FFFF);
    let mut herd = || Herd::new(core::array::from_fn(|_| it.next().unwrap_or(0)));
    for s in 0..players {
        pos.herds[s] = herd();
    }
    pos.stock = herd();
    pos.out = out & ((1u8 << players) - 1) & !(1 << trader);
    let before: [u64; KINDS] = totals(&pos);
    match check_offer(&pos, trader, offer) {
        Ok(None) => assert_eq!(offer.kind, 0),
        Ok(Some(trade)) => {
            assert!(pos.herds[trader].contains(&trade.give));
            assert_eq!(trade.give.worth(), trade.get.worth());
            assert!(trade.give.total() == 1 || trade.get.total() == 1);
            if let Partner::Player(p) = trade.partner {
                assert!(p < players && p != trader && !pos.is_out(p));
                assert!(pos.herds[p].contains(&trade.get));
            }
            for k in 0..KINDS {
                assert_eq!(trade.give.0[k] as i64, offer.give[k] as i64);
                assert_eq!(trade.get.0[k] as i64, offer.get[k] as i64);
            }
            let mut after = pos;
            let delivered = execute_trade(&mut after, trader, &trade);
            assert!(trade.get.contains(&delivered));
            assert_eq!(totals(&after), before, "animals were created or lost");
        }
        Err(_) => {}
    }
}

fn totals(pos: &Position) -> [u64; KINDS] {
    core::array::from_fn(|k| {
        pos.herds[..pos.players]
            .iter()
            .map(|h| u64::from(h.0[k]))
            .sum::<u64>()
            + u64::from(pos.stock.0[k])
    })
}
