//! The JSON shape of each line of a Little Animal Farm record (docs/RECORDS.md). These types only
//! describe JSON; turning them into a `GameRecord` (and checking seats and totals) is `read.rs`'s
//! job.

use farm_rules::{FailReason, FoxFace, Offer, Roll, WolfFace, KINDS};
use serde::{Deserialize, Serialize};

pub use super::event_json::{EventJson, HerdJson, PartyJson};
use crate::games::farm::{AgentLog, FaultPolicy, Outcome};
pub use crate::records::{FORMAT_NAME, FORMAT_VERSION};

/// `game` field of the setup line.
pub const GAME_NAME: &str = crate::games::farm::NAME;

/// One line of a record, tagged by its `type` field.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line {
    Setup(SetupLine),
    Start(StartLine),
    Turn(TurnLine),
    End(EndLine),
}

impl Line {
    pub fn type_name(&self) -> &'static str {
        match self {
            Line::Setup(_) => "setup",
            Line::Start(_) => "start",
            Line::Turn(_) => "turn",
            Line::End(_) => "end",
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SetupLine {
    pub format: String,
    pub format_version: u32,
    pub game: String,
    pub rules_version: u32,
    pub players: Vec<PlayerJson>,
    pub seed: Option<u64>,
    pub dice: DiceKind,
    pub round_cap: u32,
    pub fault_policy: FaultPolicy,
    pub limits: serde_json::Map<String, serde_json::Value>,
    pub start: Option<StartJson>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlayerJson {
    pub seat: usize,
    pub name: String,
    /// SHA-256 of the agent's module, lower-case hex; `null` for a native player.
    pub agent: Option<String>,
}

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

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StartLine {
    pub events: Vec<EventJson>,
    /// Agents' debug output while loading; left out when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<LogJson>,
}

/// Debug output of one agent during one decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogJson {
    pub seat: usize,
    pub text: String,
}

impl From<&AgentLog> for LogJson {
    fn from(l: &AgentLog) -> LogJson {
        LogJson {
            seat: l.seat,
            text: l.text.clone(),
        }
    }
}

impl From<&LogJson> for AgentLog {
    fn from(l: &LogJson) -> AgentLog {
        AgentLog {
            seat: l.seat,
            text: l.text.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TurnLine {
    pub turn: u32,
    pub round: u32,
    pub seat: usize,
    pub offer: Option<OfferJson>,
    pub answer: Option<bool>,
    pub roll: Option<RollJson>,
    pub events: Vec<EventJson>,
    /// Agents' debug output while deciding in this turn; left out when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<LogJson>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EndLine {
    pub outcome: Outcome,
    pub rounds: u32,
    pub forfeits: Vec<usize>,
    #[serde(rename = "final")]
    pub final_position: FinalJson,
    pub digest: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FinalJson {
    pub herds: Vec<HerdJson>,
    pub stock: HerdJson,
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
