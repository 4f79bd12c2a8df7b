//! The JSON shape of each line of a Little Animal Farm record (docs/RECORDS.md). These types only
//! describe JSON; turning them into a `GameRecord` (and checking seats and totals) is `read.rs`'s
//! job.

use farm_rules::{Animal, FailReason, FoxFace, Herd, Offer, Roll, WolfFace, ANIMALS, KINDS};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::games::farm::{AgentLog, Decision, Event, FaultKind, FaultPolicy, Outcome, Party};
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

/// Either side of a transfer: `"stock"` or a seat number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartyJson(pub Party);

impl Serialize for PartyJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Party::Stock => s.serialize_str("stock"),
            Party::Player(seat) => s.serialize_u64(seat as u64),
        }
    }
}

impl<'de> Deserialize<'de> for PartyJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = PartyJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"stock\" or a seat number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PartyJson, E> {
                if v == "stock" {
                    Ok(PartyJson(Party::Stock))
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<PartyJson, E> {
                usize::try_from(v)
                    .map(|s| PartyJson(Party::Player(s)))
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<PartyJson, E> {
                u64::try_from(v)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
                    .and_then(|v| self.visit_u64(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A herd as an object of animal names to positive counts, in the order of the kinds; kinds with
/// no animal are left out, so an empty herd is `{}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HerdJson(pub Herd);

impl Serialize for HerdJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let present = ANIMALS.iter().filter(|&&a| self.0.get(a) > 0);
        let mut map = s.serialize_map(Some(present.clone().count()))?;
        for &a in present {
            map.serialize_entry(a.name(), &self.0.get(a))?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for HerdJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = HerdJson;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of animal names to counts")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<HerdJson, M::Error> {
                let mut herd = Herd::EMPTY;
                let mut seen = [false; KINDS];
                while let Some(name) = m.next_key::<String>()? {
                    let animal = Animal::from_name(&name)
                        .ok_or_else(|| de::Error::custom(format!("unknown animal `{name}`")))?;
                    if std::mem::replace(&mut seen[animal.index()], true) {
                        return Err(de::Error::custom(format!("`{name}` given twice")));
                    }
                    herd.set(animal, m.next_value::<u32>()?);
                }
                Ok(HerdJson(herd))
            }
        }
        d.deserialize_map(V)
    }
}

/// An event, tagged by `type`. Seats are plain numbers; herds are [`HerdJson`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventJson {
    Answer {
        seat: usize,
        trader: usize,
        accepted: bool,
    },
    TradeFailed {
        seat: usize,
        reason: ReasonName,
        code: u8,
    },
    Transfer {
        from: PartyJson,
        to: PartyJson,
        animals: HerdJson,
    },
    Rolled {
        seat: usize,
        roll: RollJson,
    },
    Wolf {
        seat: usize,
        lost: HerdJson,
    },
    Fox {
        seat: usize,
        lost: HerdJson,
    },
    Bred {
        seat: usize,
        gained: HerdJson,
    },
    Fault {
        seat: usize,
        decision: Decision,
        kind: FaultKind,
        detail: String,
    },
    Forfeit {
        seat: usize,
    },
    Win {
        seat: usize,
        last_standing: bool,
    },
    Draw {
        round_cap: bool,
    },
}

impl From<&Event> for EventJson {
    fn from(e: &Event) -> Self {
        match e.clone() {
            Event::Answer {
                seat,
                trader,
                accepted,
            } => EventJson::Answer {
                seat,
                trader,
                accepted,
            },
            Event::TradeFailed { seat, reason } => EventJson::TradeFailed {
                seat,
                reason: ReasonName(reason),
                code: reason.code(),
            },
            Event::Transfer { from, to, animals } => EventJson::Transfer {
                from: PartyJson(from),
                to: PartyJson(to),
                animals: HerdJson(animals),
            },
            Event::Rolled { seat, roll } => EventJson::Rolled {
                seat,
                roll: roll.into(),
            },
            Event::Wolf { seat, lost } => EventJson::Wolf {
                seat,
                lost: HerdJson(lost),
            },
            Event::Fox { seat, lost } => EventJson::Fox {
                seat,
                lost: HerdJson(lost),
            },
            Event::Bred { seat, gained } => EventJson::Bred {
                seat,
                gained: HerdJson(gained),
            },
            Event::Fault {
                seat,
                decision,
                fault,
            } => EventJson::Fault {
                seat,
                decision,
                kind: fault.kind,
                detail: fault.detail,
            },
            Event::Forfeit { seat } => EventJson::Forfeit { seat },
            Event::Win {
                seat,
                last_standing,
            } => EventJson::Win {
                seat,
                last_standing,
            },
            Event::Draw { round_cap } => EventJson::Draw { round_cap },
        }
    }
}

impl EventJson {
    /// The event, or why it cannot be one (a reason whose code does not match its name).
    pub fn to_event(&self) -> Result<Event, String> {
        use crate::games::farm::Fault;
        Ok(match self.clone() {
            EventJson::Answer {
                seat,
                trader,
                accepted,
            } => Event::Answer {
                seat,
                trader,
                accepted,
            },
            EventJson::TradeFailed { seat, reason, code } => {
                if reason.0.code() != code {
                    return Err(format!(
                        "code {code} does not match reason `{}` (code {})",
                        reason.0.name(),
                        reason.0.code()
                    ));
                }
                Event::TradeFailed {
                    seat,
                    reason: reason.0,
                }
            }
            EventJson::Transfer { from, to, animals } => Event::Transfer {
                from: from.0,
                to: to.0,
                animals: animals.0,
            },
            EventJson::Rolled { seat, roll } => Event::Rolled {
                seat,
                roll: roll.into(),
            },
            EventJson::Wolf { seat, lost } => Event::Wolf { seat, lost: lost.0 },
            EventJson::Fox { seat, lost } => Event::Fox { seat, lost: lost.0 },
            EventJson::Bred { seat, gained } => Event::Bred {
                seat,
                gained: gained.0,
            },
            EventJson::Fault {
                seat,
                decision,
                kind,
                detail,
            } => Event::Fault {
                seat,
                decision,
                fault: Fault::new(kind, detail),
            },
            EventJson::Forfeit { seat } => Event::Forfeit { seat },
            EventJson::Win {
                seat,
                last_standing,
            } => Event::Win {
                seat,
                last_standing,
            },
            EventJson::Draw { round_cap } => Event::Draw { round_cap },
        })
    }
}
