//! Random positions and random raw offers, legal and illegal: the checks never panic, a failed
//! offer changes nothing, a trade conserves every kind, and every enumerated stock trade is legal.

use farm_rules::{
    apply_roll, check_offer, execute_trade, for_each_stock_trade, Herd, Offer, Partner, Position,
    Roll, KINDS, MAX_PLAYERS,
};
use proptest::prelude::*;

/// Counts are generated into vectors: nested fixed-size array strategies build value trees large
/// enough to overflow a test thread's stack in debug builds.
fn count() -> impl Strategy<Value = u32> {
    prop_oneof![3 => Just(0u32), 3 => 0u32..4, 1 => 0u32..40]
}

fn herd_at(counts: &[u32], i: usize) -> Herd {
    let mut h = Herd::EMPTY;
    h.0.copy_from_slice(&counts[i * KINDS..(i + 1) * KINDS]);
    h
}

fn position() -> impl Strategy<Value = Position> {
    (
        2usize..=MAX_PLAYERS,
        prop::collection::vec(count(), (MAX_PLAYERS + 1) * KINDS),
        any::<u8>(),
    )
        .prop_map(|(players, counts, out)| {
            let mut pos = Position::new(players);
            for s in 0..players {
                pos.herds[s] = herd_at(&counts, s);
            }
            pos.stock = herd_at(&counts, MAX_PLAYERS);
            pos.out = out & ((1 << players) - 1);
            pos
        })
}

fn amount() -> impl Strategy<Value = i32> {
    prop_oneof![
        6 => Just(0),
        4 => 0i32..4,
        1 => 0i32..80,
        1 => -3i32..0,
        1 => any::<i32>(),
    ]
}

fn raw_offer() -> impl Strategy<Value = Offer> {
    (
        prop_oneof![4 => 1u32..=2, 1 => Just(0u32), 1 => any::<u32>()],
        prop_oneof![4 => 0i32..6, 1 => any::<i32>()],
        prop::collection::vec(amount(), 2 * KINDS),
    )
        .prop_map(|(kind, partner, amounts)| {
            let mut give = [0; KINDS];
            let mut get = [0; KINDS];
            give.copy_from_slice(&amounts[..KINDS]);
            get.copy_from_slice(&amounts[KINDS..]);
            Offer {
                kind,
                partner,
                give,
                get,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn offers_are_judged_without_panics_and_trades_conserve(
        pos in position(),
        seat in 0usize..MAX_PLAYERS,
        offer in raw_offer(),
    ) {
        let seat = seat % pos.players;
        let before = pos;
        match check_offer(&pos, seat, &offer) {
            Err(_) | Ok(None) => prop_assert_eq!(pos, before),
            Ok(Some(trade)) => {
                prop_assert!(pos.herds[seat].contains(&trade.give));
                prop_assert_eq!(trade.give.worth(), trade.get.worth());
                prop_assert!(trade.give.total() == 1 || trade.get.total() == 1);
                let mut after = pos;
                let delivered = execute_trade(&mut after, seat, &trade);
                prop_assert_eq!(after.totals(), before.totals(), "kinds conserved");
                prop_assert!(trade.get.contains(&delivered));
                prop_assert_eq!(after.herds[seat], before.herds[seat].minus(&trade.give).plus(&delivered));
                match trade.partner {
                    Partner::Player(p) => {
                        prop_assert_ne!(p, seat);
                        prop_assert!(!before.is_out(p));
                        prop_assert_eq!(delivered, trade.get, "a player partner is never short");
                        prop_assert_eq!(after.herds[p], before.herds[p].plus(&trade.give).minus(&trade.get));
                        prop_assert_eq!(after.stock, before.stock);
                    }
                    Partner::Stock => {
                        prop_assert_eq!(delivered, trade.get.min(&before.stock.plus(&trade.give)));
                    }
                }
            }
        }
    }

    #[test]
    fn enumerated_stock_trades_are_all_legal(pos in position(), seat in 0usize..MAX_PLAYERS) {
        let seat = seat % pos.players;
        let mut count = 0;
        let mut failures = Vec::new();
        for_each_stock_trade(&pos, seat, &mut |t| {
            count += 1;
            let offer = Offer::with_stock(t.give, t.get);
            match check_offer(&pos, seat, &offer) {
                Ok(Some(checked)) if checked == *t => {}
                other => failures.push((*t, other)),
            }
        });
        prop_assert!(failures.is_empty(), "{} of {} refused: {:?}", failures.len(), count, &failures[..failures.len().min(3)]);
    }

    #[test]
    fn rolls_conserve_and_touch_only_the_roller(
        pos in position(),
        seat in 0usize..MAX_PLAYERS,
        fox in 0usize..12,
        wolf in 0usize..12,
    ) {
        let seat = seat % pos.players;
        let mut after = pos;
        let effect = apply_roll(&mut after, seat, Roll::from_indices(fox, wolf));
        prop_assert_eq!(after.totals(), pos.totals());
        for s in (0..pos.players).filter(|&s| s != seat) {
            prop_assert_eq!(after.herds[s], pos.herds[s]);
        }
        prop_assert_eq!(
            after.herds[seat],
            pos.herds[seat].minus(&effect.wolf).minus(&effect.fox).plus(&effect.bred)
        );
    }
}
