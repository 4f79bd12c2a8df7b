//! The JSON of a farm record's events (docs/RECORDS.md): each [`Event`] as its object, the
//! parties of a transfer and the herds written as maps of animal counts. Part of the lines'
//! shapes in `format.rs`.

use farm_rules::{Animal, Herd, ANIMALS, KINDS};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::format::{ReasonName, RollJson};
use crate::games::farm::{Decision, Event, FaultKind, Party};

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
