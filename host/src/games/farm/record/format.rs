//! The JSON of the parts of a Little Animal Farm record's lines (docs/RECORDS.md) that both the
//! writer (`write.rs`) and the reader (`read.rs`) use: the dice, a start position, an offer and a
//! roll; the events are [`Event`](crate::games::farm::Event) itself, whose fields' JSON (a herd, a
//! party, a failed trade's reason, the names of faces and reasons) is written beside it. These
//! types only describe JSON; checking seats and totals is `read.rs`'s job.

use farm_rules::{Offer, Roll, KINDS};
use serde::{Deserialize, Serialize};

use crate::games::farm::event::{HerdJson, RollFields};
pub use crate::records::{FORMAT_NAME, FORMAT_VERSION};

/// `game` field of the setup line.
pub const GAME_NAME: &str = crate::games::farm::NAME;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceKind {
    Seeded,
    Explicit,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StartJson {
    pub herds: Vec<HerdJson>,
    pub stock: HerdJson,
    pub to_move: usize,
}

/// The offer exactly as the agent gave it: raw codes and signed amounts, so that an illegal offer
/// is kept as it was.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct OfferJson(#[serde(with = "OfferFields")] pub Offer);

#[derive(Serialize, Deserialize)]
#[serde(remote = "Offer")]
struct OfferFields {
    kind: u32,
    partner: i32,
    give: [i32; KINDS],
    get: [i32; KINDS],
}

/// A roll as two face names: `{"fox":"rabbit","wolf":"wolf"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollJson(#[serde(with = "RollFields")] pub Roll);
