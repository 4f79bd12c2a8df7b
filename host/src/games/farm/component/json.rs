//! The view of world `farm-json` (wit/farm.wit): the `view` record as JSON text, in the shape the
//! JavaScript bindings give the record (keys in lowerCamelCase and in the record's order,
//! variants `{"tag", "val"}`, enum cases as strings), so that one `JSON.parse` in the agent gives
//! the objects the bindings would have built. Written by hand: every value is a number, a bool
//! or a fixed name, so nothing needs escaping.

use std::fmt::Write;

use super::bindings::arena::games::farm_types as wit;
use super::bindings::arena::games::types as shared;

/// The JSON text of `view`.
pub(super) fn view_json(v: &wit::View) -> String {
    let mut s = String::with_capacity(256 + 96 * v.events.len());
    let _ = write!(
        s,
        r#"{{"seat":{},"players":{},"turn":{},"round":{},"toMove":{},"stock":"#,
        v.seat, v.players, v.turn, v.round, v.to_move
    );
    herd(&mut s, &v.stock);
    s.push_str(r#","herds":["#);
    for (i, h) in v.herds.iter().enumerate() {
        comma(&mut s, i);
        herd(&mut s, h);
    }
    s.push_str(r#"],"forfeited":["#);
    for (i, f) in v.forfeited.iter().enumerate() {
        comma(&mut s, i);
        s.push_str(if *f { "true" } else { "false" });
    }
    s.push_str(r#"],"events":["#);
    for (i, e) in v.events.iter().enumerate() {
        comma(&mut s, i);
        event(&mut s, e);
    }
    s.push_str("]}");
    s
}

fn comma(s: &mut String, i: usize) {
    if i > 0 {
        s.push(',');
    }
}

fn herd(s: &mut String, h: &wit::Herd) {
    let _ = write!(
        s,
        r#"{{"rabbit":{},"sheep":{},"pig":{},"cow":{},"horse":{},"smallDog":{},"bigDog":{}}}"#,
        h.rabbit, h.sheep, h.pig, h.cow, h.horse, h.small_dog, h.big_dog
    );
}

fn party(s: &mut String, p: &wit::Party) {
    match p {
        wit::Party::Stock => s.push_str(r#"{"tag":"stock"}"#),
        wit::Party::Player(seat) => {
            let _ = write!(s, r#"{{"tag":"player","val":{seat}}}"#);
        }
    }
}

/// `{"tag":"TAG","val":` of a variant case with a payload (the caller closes it).
fn case(s: &mut String, tag: &str) {
    let _ = write!(s, r#"{{"tag":"{tag}","val":"#);
}

fn event(s: &mut String, e: &wit::Event) {
    use wit::Event as E;
    match e {
        E::Answer(a) => {
            case(s, "answer");
            let _ = write!(
                s,
                r#"{{"seat":{},"trader":{},"accepted":{}}}}}"#,
                a.seat, a.trader, a.accepted
            );
        }
        E::TradeFailed(t) => {
            case(s, "trade-failed");
            let _ = write!(
                s,
                r#"{{"seat":{},"reason":"{}"}}}}"#,
                t.seat,
                failure(t.reason)
            );
        }
        E::Transfer(t) => {
            case(s, "transfer");
            s.push_str(r#"{"sender":"#);
            party(s, &t.sender);
            s.push_str(r#","receiver":"#);
            party(s, &t.receiver);
            s.push_str(r#","animals":"#);
            herd(s, &t.animals);
            s.push_str("}}");
        }
        E::Rolled(r) => {
            case(s, "rolled");
            let _ = write!(
                s,
                r#"{{"seat":{},"wolfDie":"{}","foxDie":"{}"}}}}"#,
                r.seat,
                face(r.wolf_die),
                face(r.fox_die)
            );
        }
        E::Wolf(c) => herd_change(s, "wolf", c),
        E::Fox(c) => herd_change(s, "fox", c),
        E::Bred(c) => herd_change(s, "bred", c),
        E::Fault(f) => {
            case(s, "fault");
            let _ = write!(
                s,
                r#"{{"seat":{},"decision":"{}","kind":"{}"}}}}"#,
                f.seat,
                decision(f.decision),
                fault_kind(f.kind)
            );
        }
        E::Forfeit(seat) => {
            let _ = write!(s, r#"{{"tag":"forfeit","val":{seat}}}"#);
        }
        E::Win(w) => {
            case(s, "win");
            let _ = write!(
                s,
                r#"{{"seat":{},"lastPlayerLeft":{}}}}}"#,
                w.seat, w.last_player_left
            );
        }
        E::Draw(capped) => {
            let _ = write!(s, r#"{{"tag":"draw","val":{capped}}}"#);
        }
    }
}

fn herd_change(s: &mut String, tag: &str, c: &wit::HerdChange) {
    case(s, tag);
    let _ = write!(s, r#"{{"seat":{},"animals":"#, c.seat);
    herd(s, &c.animals);
    s.push_str("}}");
}

fn face(f: wit::Face) -> &'static str {
    use wit::Face as F;
    match f {
        F::Rabbit => "rabbit",
        F::Sheep => "sheep",
        F::Pig => "pig",
        F::Cow => "cow",
        F::Horse => "horse",
        F::Fox => "fox",
        F::Wolf => "wolf",
    }
}

fn failure(r: wit::TradeFailure) -> &'static str {
    use wit::TradeFailure as T;
    match r {
        T::WrongType => "wrong-type",
        T::InvalidAmount => "invalid-amount",
        T::NotEnoughAnimals => "not-enough-animals",
        T::NoSuchPlayer => "no-such-player",
        T::SelfTrade => "self-trade",
        T::PartnerOut => "partner-out",
        T::PartnerNotEnoughAnimals => "partner-not-enough-animals",
        T::UnequalTrade => "unequal-trade",
        T::ManyToMany => "many-to-many",
        T::Declined => "declined",
    }
}

fn decision(d: wit::Decision) -> &'static str {
    match d {
        wit::Decision::Init => "init",
        wit::Decision::Trade => "trade",
        wit::Decision::Accept => "accept",
    }
}

fn fault_kind(k: shared::FaultKind) -> &'static str {
    use shared::FaultKind as K;
    match k {
        K::Trap => "trap",
        K::StackOverflow => "stack-overflow",
        K::DecisionFuel => "decision-fuel",
        K::GameFuel => "game-fuel",
        K::MemoryLimit => "memory-limit",
        K::Timeout => "timeout",
        K::BadAnswer => "bad-answer",
        K::LoadFailed => "load-failed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text is JSON, in the bindings' shape, for a view with every kind of value.
    #[test]
    fn the_view_is_json_in_the_bindings_shape() {
        let herd = |n: u32| wit::Herd {
            rabbit: n,
            sheep: 0,
            pig: 0,
            cow: 0,
            horse: 0,
            small_dog: 1,
            big_dog: 0,
        };
        let view = wit::View {
            seat: 1,
            players: 2,
            turn: 7,
            round: 4,
            to_move: 0,
            stock: herd(60),
            herds: vec![herd(2), herd(3)],
            forfeited: vec![false, true],
            events: vec![
                wit::Event::Transfer(wit::Transfer {
                    sender: wit::Party::Stock,
                    receiver: wit::Party::Player(1),
                    animals: herd(1),
                }),
                wit::Event::TradeFailed(wit::TradeFailed {
                    seat: 0,
                    reason: wit::TradeFailure::PartnerNotEnoughAnimals,
                }),
                wit::Event::Rolled(wit::Rolled {
                    seat: 0,
                    wolf_die: wit::Face::Wolf,
                    fox_die: wit::Face::Rabbit,
                }),
                wit::Event::Fault(wit::Faulted {
                    seat: 1,
                    decision: wit::Decision::Accept,
                    kind: shared::FaultKind::DecisionFuel,
                }),
                wit::Event::Forfeit(1),
                wit::Event::Draw(true),
            ],
        };
        let text = view_json(&view);
        let parsed: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let h = |n: u32| {
            serde_json::json!({"rabbit": n, "sheep": 0, "pig": 0, "cow": 0, "horse": 0,
                "smallDog": 1, "bigDog": 0})
        };
        assert_eq!(
            parsed,
            serde_json::json!({
                "seat": 1, "players": 2, "turn": 7, "round": 4, "toMove": 0,
                "stock": h(60), "herds": [h(2), h(3)], "forfeited": [false, true],
                "events": [
                    {"tag": "transfer", "val": {"sender": {"tag": "stock"},
                        "receiver": {"tag": "player", "val": 1}, "animals": h(1)}},
                    {"tag": "trade-failed", "val": {"seat": 0,
                        "reason": "partner-not-enough-animals"}},
                    {"tag": "rolled", "val": {"seat": 0, "wolfDie": "wolf", "foxDie": "rabbit"}},
                    {"tag": "fault", "val": {"seat": 1, "decision": "accept",
                        "kind": "decision-fuel"}},
                    {"tag": "forfeit", "val": 1},
                    {"tag": "draw", "val": true},
                ],
            })
        );
        assert!(text.starts_with(r#"{"seat":1,"players":2,"turn":7,"round":4,"toMove":0,"#));
    }
}
