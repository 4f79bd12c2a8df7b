//! Tests of Little Animal Farm records: random games through the real game loop, written, read
//! back, verified, and mutated to check that verification notices.

mod garbage;
mod hostile;
pub mod ledger;
mod mutations;
mod positions;
mod properties;
mod strategy;

/// The `type` of every event a record can hold (docs/RECORDS.md).
const EVENT_TYPES: &[&str] = &[
    "answer",
    "trade_failed",
    "transfer",
    "rolled",
    "wolf",
    "fox",
    "bred",
    "fault",
    "forfeit",
    "win",
    "draw",
];

#[test]
fn a_tampered_agent_hash_is_refused() {
    let setup = crate::games::farm::Setup::standard(3, 7, 40);
    crate::testing::assert_tampered_agent_refused(&crate::games::farm::Farm, &setup);
}
