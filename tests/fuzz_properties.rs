//! Property tests over hostile input, run in CI: agents' answers (`decode_trade_answer`,
//! `decode_accept_answer`), record files (`verify_record_bytes`) and offers
//! (`check_offer`, `execute_trade`). The same checks (`fuzz_checks/`) are cargo-fuzz
//! targets in fuzz/ for long runs; here each property runs `FUZZ_CASES` cases (default 2000,
//! a few seconds), more with `PROPTEST_CASES=N`.

mod fuzz_checks;

use arena::game::{play_seeded, Answers, Question};
use arena::games::farm::record::record_to_string;
use arena::games::farm::{Answer, Asked, Farm, Fault, Setup};
use arena::records::RecordMeta;
use farm_rules::{Animal, Herd, Offer};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2000)
}

fn offer() -> impl Strategy<Value = Offer> {
    let amount = prop_oneof![
        4 => 0i32..3,
        2 => 0i32..80,
        1 => any::<i32>(),
    ];
    (
        prop_oneof![4 => 0u32..3, 1 => any::<u32>()],
        prop_oneof![4 => -1i32..7, 1 => any::<i32>()],
        proptest::array::uniform7(amount.clone()),
        proptest::array::uniform7(amount),
    )
        .prop_map(|(kind, partner, give, get)| Offer {
            kind,
            partner,
            give,
            get,
        })
}

/// A player that tries the stock trade "six rabbits for a sheep" every turn, and accepts every
/// offer.
fn buyer(_q: &Question, asked: &Asked<'_>) -> Result<Answer, Fault> {
    Ok(match asked.offer {
        Some(_) => Answer::Accept(true),
        None => Answer::Offer(Offer::with_stock(
            Herd::of(Animal::Rabbit, 6),
            Herd::of(Animal::Sheep, 1),
        )),
    })
}

fn a_record() -> String {
    let (mut a, mut b) = (Answers(buyer), Answers(buyer));
    let record = play_seeded(&Farm, &Setup::standard(2, 5, 30), &mut [&mut a, &mut b]).unwrap();
    record_to_string(&record, &RecordMeta::anonymous(2)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn answers_decode_strictly(
        len in prop_oneof![any::<i32>(), -2i32..200],
        ret in prop_oneof![any::<i32>(), -2i32..3],
        buf in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        fuzz_checks::answers(len, ret, &buf);
    }

    #[test]
    fn any_bytes_are_read_and_verified_without_panicking(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        fuzz_checks::record_bytes(&bytes);
    }

    #[test]
    fn mutated_records_are_read_and_verified_without_panicking(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        let mut bytes = a_record().into_bytes();
        for (at, byte, op) in edits {
            let i = at.index(bytes.len().max(1));
            match op {
                0 if !bytes.is_empty() => bytes[i] = byte,
                1 => bytes.insert(i.min(bytes.len()), byte),
                _ if !bytes.is_empty() => { bytes.remove(i); }
                _ => {}
            }
        }
        fuzz_checks::record_bytes(&bytes);
    }

    #[test]
    fn offers_are_validated_and_trades_conserve_animals(
        players in 2usize..=6,
        counts in proptest::collection::vec(prop_oneof![4 => 0u32..8, 1 => 0u32..100, 1 => any::<u32>()], 49),
        out in any::<u8>(),
        trader in 0usize..6,
        offer in offer(),
    ) {
        fuzz_checks::trade_validation(players, &counts, out, trader, &offer);
    }
}
