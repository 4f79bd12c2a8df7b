//! The events of a game, and their JSON in records (docs/RECORDS.md): the fields' own JSON (a
//! herd, a party, a roll, a failed trade's reason) is written here beside them; the record's
//! other parts are `record/format.rs`'s.

use farm_rules::{Animal, FailReason, FoxFace, Herd, Roll, WolfFace, ANIMALS};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::fault::{Decision, Fault};

/// One side of a transfer (in records `"stock"` or a seat number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Party {
    Stock,
    Player(usize),
}

/// Everything that happens in a game, in order. Records list them per turn, each an object
/// tagged by its `type` (docs/RECORDS.md); agents receive the ones since their last call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A partner player answered an offer.
    Answer {
        seat: usize,
        trader: usize,
        accepted: bool,
    },
    /// The offer of `seat` failed and changed nothing.
    TradeFailed {
        seat: usize,
        #[serde(flatten, with = "reason")]
        reason: FailReason,
    },
    /// Animals moved (one event per direction of a trade).
    Transfer {
        from: Party,
        to: Party,
        #[serde(with = "herd")]
        animals: Herd,
    },
    /// The dice thrown by `seat`.
    Rolled {
        seat: usize,
        #[serde(with = "RollFields")]
        roll: Roll,
    },
    /// The wolf took these animals back to the stock.
    Wolf {
        seat: usize,
        #[serde(with = "herd")]
        lost: Herd,
    },
    /// The fox took these animals back to the stock.
    Fox {
        seat: usize,
        #[serde(with = "herd")]
        lost: Herd,
    },
    /// Breeding brought these animals from the stock.
    Bred {
        seat: usize,
        #[serde(with = "herd")]
        gained: Herd,
    },
    /// A decision of `seat` failed.
    Fault {
        seat: usize,
        decision: Decision,
        #[serde(flatten)]
        fault: Fault,
    },
    /// `seat` is out of the game (fault policy `forfeit`).
    Forfeit { seat: usize },
    /// `seat` won, by completing the set or by being the last player left.
    Win { seat: usize, last_standing: bool },
    /// No winner: the round cap was reached, or every player forfeited.
    Draw { round_cap: bool },
}

/// A roll's fields (`#[serde(with = "RollFields")]`, the roll of an event).
#[derive(Serialize, Deserialize)]
#[serde(remote = "Roll")]
pub struct RollFields {
    #[serde(with = "named")]
    fox: FoxFace,
    #[serde(with = "named")]
    wolf: WolfFace,
}

/// A failed trade's reason in an event (`#[serde(flatten, with = "reason")]`): its name and its
/// code, `"reason":"declined","code":10`. Read back by its name; `record/read.rs` checks the code.
pub mod reason {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Reason {
        #[serde(with = "named")]
        reason: FailReason,
        code: u8,
    }

    pub fn serialize<S: Serializer>(r: &FailReason, s: S) -> Result<S::Ok, S::Error> {
        let (reason, code) = (*r, r.code());
        Reason { reason, code }.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<FailReason, D::Error> {
        Reason::deserialize(d).map(|r| r.reason)
    }
}

/// What a record writes by its name (`#[serde(with = "named")]`): a face of a die, a failed
/// trade's reason; a name that is none is refused, saying what it is not.
pub mod named {
    use super::*;

    pub trait Named: Copy {
        /// What a name that is none of the type's is not (`"a face of the fox die"`).
        const NOT: &'static str;
        fn name(self) -> &'static str;
        fn from_name(name: &str) -> Option<Self>;
    }

    pub fn serialize<T: Named, S: Serializer>(t: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(t.name())
    }

    pub fn deserialize<'de, T: Named, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let name = String::deserialize(d)?;
        T::from_name(&name).ok_or_else(|| de::Error::custom(format!("`{name}` is not {}", T::NOT)))
    }

    macro_rules! named {
        ($($t:ty: $not:literal),*) => {$(
            impl Named for $t {
                const NOT: &'static str = $not;
                fn name(self) -> &'static str {
                    <$t>::name(self)
                }
                fn from_name(name: &str) -> Option<Self> {
                    <$t>::from_name(name)
                }
            }
        )*};
    }

    named!(FoxFace: "a face of the fox die", WolfFace: "a face of the wolf die",
        FailReason: "a trade failure reason");
}

/// Either side of a transfer: `"stock"` or a seat number.
impl Serialize for Party {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Party::Stock => s.serialize_str("stock"),
            Party::Player(seat) => s.serialize_u64(seat as u64),
        }
    }
}

impl<'de> Deserialize<'de> for Party {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Party;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"stock\" or a seat number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Party, E> {
                if v == "stock" {
                    Ok(Party::Stock)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Party, E> {
                usize::try_from(v)
                    .map(Party::Player)
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Party, E> {
                u64::try_from(v)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
                    .and_then(|v| self.visit_u64(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// A herd as an object of animal names to positive counts, in the order of the kinds; kinds with
/// no animal are left out, so an empty herd is `{}`. (A name given twice is refused with the
/// line, before its herds are read.)
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
                while let Some(name) = m.next_key::<String>()? {
                    let animal = Animal::from_name(&name)
                        .ok_or_else(|| de::Error::custom(format!("unknown animal `{name}`")))?;
                    herd.set(animal, m.next_value::<u32>()?);
                }
                Ok(HerdJson(herd))
            }
        }
        d.deserialize_map(V)
    }
}

/// A herd field of an event (`#[serde(with = "herd")]`), as [`HerdJson`].
pub mod herd {
    use super::*;

    pub fn serialize<S: Serializer>(h: &Herd, s: S) -> Result<S::Ok, S::Error> {
        HerdJson(*h).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Herd, D::Error> {
        HerdJson::deserialize(d).map(|h| h.0)
    }
}
