//! The JSON of the parts of a Little Animal Farm record's lines (docs/RECORDS.md) that both the
//! writer (`write.rs`) and the reader (`read.rs`) use: the dice, a start position, an offer, a roll
//! and a failed trade's reason (and the events, `event_json.rs`). These types only describe JSON;
//! checking seats and totals is `read.rs`'s job.

use farm_rules::{FailReason, FoxFace, Offer, Roll, WolfFace, KINDS};
use serde::{Deserialize, Serialize};

pub use super::event_json::{EventJson, HerdJson, PartyJson};
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
pub struct OfferJson {
    pub kind: u32,
    pub partner: i32,
    pub give: [i32; KINDS],
    pub get: [i32; KINDS],
}

impl From<Offer> for OfferJson {
    fn from(o: Offer) -> Self {
        OfferJson {
            kind: o.kind,
            partner: o.partner,
            give: o.give,
            get: o.get,
        }
    }
}

impl From<OfferJson> for Offer {
    fn from(o: OfferJson) -> Self {
        Offer {
            kind: o.kind,
            partner: o.partner,
            give: o.give,
            get: o.get,
        }
    }
}

/// A roll as two face names: `{"fox":"rabbit","wolf":"wolf"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollJson {
    pub fox: FoxName,
    pub wolf: WolfName,
}

impl From<Roll> for RollJson {
    fn from(r: Roll) -> Self {
        RollJson {
            fox: FoxName(r.fox),
            wolf: WolfName(r.wolf),
        }
    }
}

impl From<RollJson> for Roll {
    fn from(r: RollJson) -> Self {
        Roll {
            fox: r.fox.0,
            wolf: r.wolf.0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub struct FoxName(pub FoxFace);

impl From<FoxName> for &'static str {
    fn from(f: FoxName) -> Self {
        f.0.name()
    }
}

impl TryFrom<String> for FoxName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        FoxFace::from_name(&s)
            .map(FoxName)
            .ok_or_else(|| format!("`{s}` is not a face of the fox die"))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub struct WolfName(pub WolfFace);

impl From<WolfName> for &'static str {
    fn from(f: WolfName) -> Self {
        f.0.name()
    }
}

impl TryFrom<String> for WolfName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        WolfFace::from_name(&s)
            .map(WolfName)
            .ok_or_else(|| format!("`{s}` is not a face of the wolf die"))
    }
}

/// A failed trade's reason, written by name (its code goes in a separate field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub struct ReasonName(pub FailReason);

impl From<ReasonName> for &'static str {
    fn from(r: ReasonName) -> Self {
        r.0.name()
    }
}

impl TryFrom<String> for ReasonName {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        FailReason::from_name(&s)
            .map(ReasonName)
            .ok_or_else(|| format!("`{s}` is not a trade failure reason"))
    }
}
