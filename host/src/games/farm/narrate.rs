//! `arena play` for Little Animal Farm: a game told turn by turn (offers, answers, dice, what
//! the fox, the wolf and breeding did, faults, the herds after each turn) with what the agents
//! logged.

use std::fmt::Write as _;

use farm_rules::{Herd, Offer, OfferKind, Position, ANIMALS, KINDS, MAX_PLAYERS};

use super::{Decision, Event, GameRecord, Party, Setup};
use crate::game::words::Teller;
use crate::terminal;

/// `n` animals of kind `kind` in words: "1 small dog", "6 small dogs", "2 sheep".
fn animal_words(kind: usize, n: i64) -> String {
    let word = ANIMALS[kind].name().replace('_', " ");
    let plural = if n == 1 || word == "sheep" { "" } else { "s" };
    format!("{n} {word}{plural}")
}

/// "6 rabbits, 1 sheep" (or "nothing").
pub fn describe_amounts(counts: &[i64; KINDS]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n != 0)
        .map(|(k, &n)| animal_words(k, n))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

pub fn describe_herd(h: &Herd) -> String {
    describe_amounts(&h.0.map(i64::from))
}

/// A herd in a few characters: `3r 1s 1p 1c 1h 1d 1D` (`-` when empty).
pub fn compact_herd(h: &Herd) -> String {
    const LETTERS: [&str; KINDS] = ["r", "s", "p", "c", "h", "d", "D"];
    let parts: Vec<String> = ANIMALS
        .iter()
        .filter(|a| h.get(**a) > 0)
        .map(|a| format!("{}{}", h.get(*a), LETTERS[a.index()]))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

/// Turns a game record into text.
pub struct Narrator<'a> {
    teller: Teller<'a>,
    setup: &'a Setup,
}

impl<'a> Narrator<'a> {
    /// The narrator of a game of `setup` between `names`; `logs`: what agents logged is told,
    /// under the turn they logged it in.
    pub fn new(names: &'a [String], setup: &'a Setup, logs: bool) -> Narrator<'a> {
        Narrator {
            teller: Teller { names, logs },
            setup,
        }
    }

    /// A seat's name, ready for a terminal.
    fn name(&self, seat: usize) -> String {
        self.teller.name(seat)
    }

    fn party(&self, p: Party) -> String {
        match p {
            Party::Stock => "the stock".into(),
            Party::Player(s) => self.name(s),
        }
    }

    fn offer(&self, seat: usize, offer: &Offer) -> String {
        let give = describe_amounts(&offer.give.map(i64::from));
        let get = describe_amounts(&offer.get.map(i64::from));
        match OfferKind::from_code(offer.kind) {
            Some(OfferKind::Pass) => "passes".into(),
            Some(OfferKind::Stock) => format!("offers the stock {give} for {get}"),
            Some(OfferKind::Player) => {
                let partner = if (0..self.teller.names.len() as i32).contains(&offer.partner)
                    && offer.partner as usize != seat
                {
                    self.name(offer.partner as usize)
                } else {
                    format!("seat {}", offer.partner)
                };
                format!("offers {partner} {give} for {get}")
            }
            None => format!(
                "answers something that is not a trade (kind {})",
                offer.kind
            ),
        }
    }

    fn event(&self, e: &Event, out: &mut String) {
        let line = match e {
            Event::Answer { seat, accepted, .. } => format!(
                "{} {}",
                self.name(*seat),
                if *accepted { "accepts" } else { "declines" }
            ),
            Event::TradeFailed { reason, .. } => {
                format!("trade failed: {} ({})", reason.describe(), reason.name())
            }
            Event::Transfer { from, to, animals } => format!(
                "{} gives {} to {}",
                self.party(*from),
                describe_herd(animals),
                self.party(*to)
            ),
            Event::Rolled { roll, .. } => format!(
                "rolls: fox die {}, wolf die {}",
                roll.fox.name(),
                roll.wolf.name()
            ),
            Event::Wolf { lost, .. } => {
                if lost.get(farm_rules::Animal::BigDog) > 0 {
                    "the wolf comes: the big dog chases it away and is lost".into()
                } else if lost.is_empty() {
                    "the wolf comes but finds nothing to eat".into()
                } else {
                    format!("the wolf eats {}", describe_herd(lost))
                }
            }
            Event::Fox { lost, .. } => {
                if lost.get(farm_rules::Animal::SmallDog) > 0 {
                    "the fox comes: the small dog chases it away and is lost".into()
                } else if lost.is_empty() {
                    "the fox comes but finds no rabbit".into()
                } else {
                    format!("the fox takes {}", describe_herd(lost))
                }
            }
            Event::Bred { gained, .. } => format!("breeding brings {}", describe_herd(gained)),
            Event::Fault {
                seat,
                decision,
                fault,
            } => format!(
                "FAULT: {} failed its {} decision: {} ({})",
                self.name(*seat),
                match decision {
                    Decision::Init => "load",
                    Decision::Trade => "trade",
                    Decision::Accept => "accept",
                },
                terminal::line(&fault.detail),
                fault.kind.name()
            ),
            Event::Forfeit { seat } => {
                format!("{} forfeits and is out of the game", self.name(*seat))
            }
            Event::Win {
                seat,
                last_standing,
            } => format!(
                "{} WINS{}",
                self.name(*seat),
                if *last_standing {
                    " as the last player left"
                } else {
                    ""
                }
            ),
            Event::Draw { round_cap } => {
                if *round_cap {
                    "DRAW: the round cap was reached".into()
                } else {
                    "DRAW: every player is out".into()
                }
            }
        };
        let _ = writeln!(out, "  {line}");
    }

    fn herds(&self, pos: &Position, out: &mut String) {
        let parts: Vec<String> = (0..self.setup.players)
            .map(|s| {
                let out_mark = if pos.is_out(s) { " (out)" } else { "" };
                format!("{} {}{out_mark}", self.name(s), compact_herd(&pos.herds[s]))
            })
            .collect();
        let _ = writeln!(out, "  herds: {}", parts.join(" | "));
    }

    /// The whole game as text.
    pub fn narrate(&self, record: &GameRecord) -> String {
        let (mut out, tell, end) = (String::new(), &self.teller, &record.end);
        let _ = writeln!(
            out,
            "Little Animal Farm, {} players ({}), seed {}, round cap {}, fault policy {}",
            self.setup.players,
            tell.seats(self.setup.players),
            self.setup.seed.map_or("none".into(), |s| s.to_string()),
            self.setup.round_cap,
            self.setup.policy.name()
        );
        let _ = writeln!(
            out,
            "herds: r rabbit, s sheep, p pig, c cow, h horse, d small dog, D big dog\n"
        );
        let mut pos = self.setup.initial_position();
        if !end.start_events.is_empty() || (tell.logs && !end.start_logs.is_empty()) {
            let _ = writeln!(out, "Before the first turn:");
            tell.logs(&mut out, "  ", &end.start_logs);
            for e in &end.start_events {
                apply(&mut pos, e);
                self.event(e, &mut out);
            }
            out.push('\n');
        }
        for turn in &record.turns {
            let name = self.name(turn.seat);
            let _ = writeln!(out, "Turn {} (round {}): {name}", turn.turn, turn.round);
            tell.logs(&mut out, "  ", &turn.logs);
            if let Some(offer) = &turn.offer {
                let _ = writeln!(out, "  {name} {}", self.offer(turn.seat, offer));
            }
            for e in &turn.events {
                apply(&mut pos, e);
                self.event(e, &mut out);
            }
            self.herds(&pos, &mut out);
        }
        let _ = writeln!(
            out,
            "\nResult after {} rounds: {}",
            end.rounds,
            tell.outcome(end.outcome, "draw (every player out)")
        );
        for s in 0..self.setup.players {
            let herd = describe_herd(&end.final_position.herds[s]);
            let _ = writeln!(out, "  {}: {herd}", self.name(s));
        }
        out
    }
}

/// Follows a record's events on a position (for the herds shown after each turn).
fn apply(pos: &mut Position, e: &Event) {
    let (from, to, animals) = match *e {
        Event::Transfer { from, to, animals } => (from, to, animals),
        Event::Wolf { seat, lost } | Event::Fox { seat, lost } => {
            (Party::Player(seat), Party::Stock, lost)
        }
        Event::Bred { seat, gained } => (Party::Stock, Party::Player(seat), gained),
        Event::Forfeit { seat } if seat < MAX_PLAYERS => return pos.out |= 1 << seat,
        _ => return,
    };
    if let Some(h) = herd_of(pos, from) {
        *h = h.minus(&animals);
    }
    if let Some(h) = herd_of(pos, to) {
        *h = h.plus(&animals);
    }
}

fn herd_of(pos: &mut Position, p: Party) -> Option<&mut Herd> {
    match p {
        Party::Stock => Some(&mut pos.stock),
        Party::Player(s) => pos.herds.get_mut(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Hosted;
    use crate::game::{Game, Host, Seat, Table};
    use crate::games::farm::tests::support::{play_game, FarmPlayer, SeededDice};
    use crate::games::farm::{AcceptView, AgentLog, Farm, Fault, FaultPolicy, Observation};
    use crate::sandbox::{run_with_big_stack, Limits, Sandbox};

    use crate::games::farm::tests::support::LOGGING_PASSER as PASSER;

    #[test]
    fn names_logs_and_fault_details_cannot_act_on_the_terminal() {
        struct Evil;
        impl FarmPlayer for Evil {
            fn trade(&mut self, _obs: &Observation) -> Result<Offer, Fault> {
                Err(Fault::new(
                    crate::game::FaultKind::Trap,
                    "boom\r\u{1b}[2Kok",
                ))
            }
            fn accept(&mut self, _obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
                Ok(false)
            }
        }
        let setup = Setup {
            policy: FaultPolicy::LoseMove,
            ..Setup::standard(2, 3, 2)
        };
        let mut record = play_game(&setup, &mut [&mut Evil, &mut Evil], &mut SeededDice::new(3));
        let names = vec![
            "evil\u{1b}]0;title\u{7}".to_string(),
            "two\u{9b}31m".to_string(),
        ];
        record.turns[0].logs = vec![AgentLog {
            seat: 0,
            text: "first\n\u{1b}[2Kok  forged\r\n".to_string(),
        }];
        let text = Narrator::new(&names, &setup, true).narrate(&record);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.contains("  [evil\\x1b]0;title\\x07 log] first\n  [evil\\x1b]0;title\\x07 log] \\x1b[2Kok  forged\n"),
            "{text}"
        );
        assert!(
            text.contains("failed its trade decision: boom\\r\\x1b[2Kok (trap)"),
            "{text}"
        );
        assert!(text.contains("two\\u{9b}31m"), "{text}");
    }

    #[test]
    fn narration_shows_offers_dice_herds_logs_and_result() {
        let sb = Sandbox::new(crate::games::registry().agents(), Limits::default()).unwrap();
        let m = sb.load_bytes("quiet", PASSER.as_bytes()).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let table = Table::named(5, 20, FaultPolicy::Forfeit, names.clone());
        let seats = [Seat::Agent(&m), Seat::Agent(&m)];
        let played =
            run_with_big_stack(|| Hosted(Farm).play(&Host::default(), &table, &seats)).unwrap();
        assert!(played
            .usage
            .iter()
            .flatten()
            .all(|u| u.fuel > 0 && u.max_decision_fuel > 0));
        let record = played.detail.downcast_ref::<GameRecord>().unwrap();
        let text = Narrator::new(&names, &record.setup, true).narrate(record);
        assert!(text.contains("Turn 1 (round 1): a"), "{text}");
        assert!(text.contains("a passes"), "{text}");
        assert!(text.contains("rolls: fox die"), "{text}");
        assert!(text.contains("herds: a "), "{text}");
        assert!(text.contains("[a log] thinking"), "{text}");
        assert!(text.contains("Result after 20 rounds"), "{text}");
    }

    #[test]
    fn herds_and_offers_read_well() {
        assert_eq!(compact_herd(&Herd([3, 1, 0, 0, 0, 0, 1])), "3r 1s 1D");
        assert_eq!(compact_herd(&Herd::EMPTY), "-");
        assert_eq!(
            describe_herd(&Herd([6, 2, 1, 0, 0, 0, 0])),
            "6 rabbits, 2 sheep, 1 pig"
        );
        let names = vec!["a".to_string(), "b".to_string()];
        let setup = Setup::standard(2, 1, 10);
        let n = Narrator::new(&names, &setup, false);
        let offer = Offer::with_player(1, Herd([0, 1, 0, 0, 0, 0, 0]), Herd([6, 0, 0, 0, 0, 0, 0]));
        assert_eq!(n.offer(0, &offer), "offers b 1 sheep for 6 rabbits");
        let mut bad = Offer::PASS;
        bad.kind = 9;
        assert_eq!(
            n.offer(0, &bad),
            "answers something that is not a trade (kind 9)"
        );
    }
}
