//! The view of world `farm-json` (wit/farm.wit): the `view` record as JSON text, in the shape the
//! JavaScript bindings give the record (keys in lowerCamelCase and in the record's order,
//! variants `{"tag", "val"}`, enum cases as strings), so that one `JSON.parse` in the agent gives
//! the objects the bindings would have built. Written by hand from the observation: every value
//! is a number, a bool or a fixed name (the WIT enums' cases are the records' names, in kebab
//! case), so nothing needs escaping.

use std::fmt::Write;

use farm_rules::{Herd, MAX_PLAYERS};

use crate::game::FaultKind;
use crate::games::farm::{Decision, Event, Observation, Party};

/// The JSON text of the view of `obs` (the record `view` of `component.rs`).
pub(super) fn view_json(obs: &Observation) -> String {
    let pos = obs.position;
    let n = pos.players.min(MAX_PLAYERS);
    let mut s = String::with_capacity(256 + 96 * obs.events.len());
    let _ = write!(
        s,
        r#"{{"seat":{},"players":{n},"turn":{},"round":{},"toMove":{},"stock":"#,
        obs.seat, obs.turn, obs.round, obs.to_move
    );
    herd(&mut s, &pos.stock);
    s.push_str(r#","herds":["#);
    for (i, h) in pos.herds[..n].iter().enumerate() {
        comma(&mut s, i);
        herd(&mut s, h);
    }
    s.push_str(r#"],"forfeited":["#);
    for i in 0..n {
        comma(&mut s, i);
        s.push_str(if pos.is_out(i) { "true" } else { "false" });
    }
    s.push_str(r#"],"events":["#);
    for (i, e) in obs.events.iter().enumerate() {
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

fn herd(s: &mut String, h: &Herd) {
    let [rabbit, sheep, pig, cow, horse, small_dog, big_dog] = h.0;
    let _ = write!(
        s,
        r#"{{"rabbit":{rabbit},"sheep":{sheep},"pig":{pig},"cow":{cow},"horse":{horse},"smallDog":{small_dog},"bigDog":{big_dog}}}"#
    );
}

fn party(s: &mut String, p: Party) {
    match p {
        Party::Stock => s.push_str(r#"{"tag":"stock"}"#),
        Party::Player(seat) => {
            let _ = write!(s, r#"{{"tag":"player","val":{seat}}}"#);
        }
    }
}

/// `{"tag":"TAG","val":` of a variant case with a payload (the caller closes it).
fn case(s: &mut String, tag: &str) {
    let _ = write!(s, r#"{{"tag":"{tag}","val":"#);
}

/// A record's snake-case name as the WIT case's kebab-case one.
fn kebab(name: &str) -> String {
    name.replace('_', "-")
}

fn event(s: &mut String, e: &Event) {
    match e {
        Event::Answer {
            seat,
            trader,
            accepted,
        } => {
            case(s, "answer");
            let _ = write!(
                s,
                r#"{{"seat":{seat},"trader":{trader},"accepted":{accepted}}}}}"#
            );
        }
        Event::TradeFailed { seat, reason } => {
            case(s, "trade-failed");
            let reason = kebab(reason.name());
            let _ = write!(s, r#"{{"seat":{seat},"reason":"{reason}"}}}}"#);
        }
        Event::Transfer { from, to, animals } => {
            case(s, "transfer");
            s.push_str(r#"{"sender":"#);
            party(s, *from);
            s.push_str(r#","receiver":"#);
            party(s, *to);
            s.push_str(r#","animals":"#);
            herd(s, animals);
            s.push_str("}}");
        }
        Event::Rolled { seat, roll } => {
            case(s, "rolled");
            let (wolf, fox) = (roll.wolf.name(), roll.fox.name());
            let _ = write!(
                s,
                r#"{{"seat":{seat},"wolfDie":"{wolf}","foxDie":"{fox}"}}}}"#
            );
        }
        Event::Wolf { seat, lost } => herd_change(s, "wolf", *seat, lost),
        Event::Fox { seat, lost } => herd_change(s, "fox", *seat, lost),
        Event::Bred { seat, gained } => herd_change(s, "bred", *seat, gained),
        Event::Fault {
            seat,
            decision,
            fault,
        } => {
            case(s, "fault");
            let decision = match decision {
                Decision::Init => "init",
                Decision::Trade => "trade",
                Decision::Accept => "accept",
            };
            // `forfeited` is never recorded; the WIT enum has no such case.
            let kind = match fault.kind {
                FaultKind::Forfeited => FaultKind::LoadFailed,
                kind => kind,
            };
            let kind = kebab(kind.name());
            let _ = write!(
                s,
                r#"{{"seat":{seat},"decision":"{decision}","kind":"{kind}"}}}}"#
            );
        }
        Event::Forfeit { seat } => {
            let _ = write!(s, r#"{{"tag":"forfeit","val":{seat}}}"#);
        }
        Event::Win {
            seat,
            last_standing,
        } => {
            case(s, "win");
            let _ = write!(s, r#"{{"seat":{seat},"lastPlayerLeft":{last_standing}}}}}"#);
        }
        Event::Draw { round_cap } => {
            let _ = write!(s, r#"{{"tag":"draw","val":{round_cap}}}"#);
        }
    }
}

fn herd_change(s: &mut String, tag: &str, seat: usize, animals: &Herd) {
    case(s, tag);
    let _ = write!(s, r#"{{"seat":{seat},"animals":"#);
    herd(s, animals);
    s.push_str("}}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text is JSON, in the bindings' shape, for a view with every kind of value.
    #[test]
    fn the_view_is_json_in_the_bindings_shape() {
        use farm_rules::{Animal, FailReason, FoxFace, Position, Roll, WolfFace};
        let herd = |n: u32| Herd([n, 0, 0, 0, 0, 1, 0]);
        let mut pos = Position::new(2);
        (pos.stock, pos.herds[0], pos.herds[1], pos.out) = (herd(60), herd(2), herd(3), 0b10);
        let events = [
            Event::Transfer {
                from: Party::Stock,
                to: Party::Player(1),
                animals: herd(1),
            },
            Event::TradeFailed {
                seat: 0,
                reason: FailReason::PartnerNotEnoughAnimals,
            },
            Event::Rolled {
                seat: 0,
                roll: Roll {
                    fox: FoxFace::Animal(Animal::Rabbit),
                    wolf: WolfFace::Wolf,
                },
            },
            Event::Fault {
                seat: 1,
                decision: Decision::Accept,
                fault: crate::game::Fault::new(FaultKind::DecisionFuel, "out of fuel"),
            },
            Event::Forfeit { seat: 1 },
            Event::Draw { round_cap: true },
        ];
        let view = Observation {
            seat: 1,
            to_move: 0,
            turn: 7,
            round: 4,
            position: &pos,
            events: &events,
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
