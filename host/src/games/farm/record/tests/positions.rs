//! Games from given positions with explicit dice, and the hand-written fixtures in
//! host/tests/fixtures/.

use farm_rules::{Animal, FoxFace, Herd, Offer, Roll, WolfFace};

use crate::games::farm::record::record_to_string;
use crate::games::farm::tests::support::{play_game, ExplicitDice, FarmPlayer};
use crate::games::farm::{
    AcceptView, Event, Fault, FaultPolicy, GameRecord, Observation, Outcome, Party, Setup,
    StartPosition,
};
use crate::records::{DiceOrigin, RecordMeta};

/// Plays the offers given for its turns in order, then passes; accepts what `accept` says.
struct Script {
    offers: Vec<Offer>,
    accept: bool,
}

impl FarmPlayer for Script {
    fn trade(&mut self, _obs: &Observation) -> Result<Offer, Fault> {
        Ok(if self.offers.is_empty() {
            Offer::PASS
        } else {
            self.offers.remove(0)
        })
    }

    fn accept(&mut self, _obs: &Observation, _offer: &AcceptView) -> Result<bool, Fault> {
        Ok(self.accept)
    }
}

fn herd(pairs: &[(Animal, u32)]) -> Herd {
    pairs
        .iter()
        .fold(Herd::EMPTY, |h, &(a, n)| h.plus(&Herd::of(a, n)))
}

fn roll(fox: FoxFace, wolf: WolfFace) -> Roll {
    Roll { fox, wolf }
}

fn play_position(
    herds: Vec<Herd>,
    stock: Herd,
    rolls: Vec<Roll>,
    offers: Vec<Vec<Offer>>,
    round_cap: u32,
) -> GameRecord {
    let setup = Setup {
        players: herds.len(),
        seed: None,
        round_cap,
        policy: FaultPolicy::Forfeit,
        start: Some(StartPosition {
            herds,
            stock,
            to_move: 0,
        }),
    };
    let mut seats: Vec<Script> = offers
        .into_iter()
        .map(|offers| Script {
            offers,
            accept: true,
        })
        .collect();
    let mut refs: Vec<&mut dyn FarmPlayer> =
        seats.iter_mut().map(|p| p as &mut dyn FarmPlayer).collect();
    play_game(&setup, &mut refs, &mut ExplicitDice::new(rolls))
}

/// Seat 0 owns 5 rabbits and a small dog and the fox comes: only the dog goes back.
pub fn explicit_fox_record() -> GameRecord {
    use Animal::*;
    play_position(
        vec![herd(&[(Rabbit, 5), (SmallDog, 1)]), Herd::EMPTY],
        herd(&[(Rabbit, 20), (Sheep, 4), (SmallDog, 1)]),
        vec![
            roll(FoxFace::Fox, WolfFace::Animal(Sheep)),
            roll(FoxFace::Animal(Rabbit), WolfFace::Animal(Rabbit)),
        ],
        vec![vec![], vec![]],
        1,
    )
}

fn verified(record: &GameRecord) -> crate::records::VerifySummary {
    let text = record_to_string(record, &RecordMeta::anonymous(record.setup.players)).unwrap();
    crate::games::registry()
        .verify_record(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn fox_takes_only_the_small_dog() {
    let record = explicit_fox_record();
    let first = &record.turns[0];
    assert!(first.events.contains(&Event::Fox {
        seat: 0,
        lost: Herd::of(Animal::SmallDog, 1)
    }));
    assert_eq!(
        record.end.final_position.herds[0],
        Herd::of(Animal::Rabbit, 5),
        "rabbits kept, dog gone, no sheep bred from one shown"
    );
    assert_eq!(
        record.end.final_position.herds[1],
        Herd::of(Animal::Rabbit, 1)
    );
    assert_eq!(record.end.outcome, Outcome::Draw { round_cap: true });
    let summary = verified(&record);
    assert_eq!(summary.dice, DiceOrigin::Explicit);
    assert!(summary
        .describe()
        .contains("dice: explicit, not derived from a seed"));
}

#[test]
fn breeding_is_truncated_when_the_stock_runs_out_of_sheep() {
    use Animal::*;
    let record = play_position(
        vec![herd(&[(Sheep, 5)]), herd(&[(Rabbit, 2)])],
        herd(&[(Rabbit, 10), (Sheep, 1)]),
        vec![roll(FoxFace::Animal(Sheep), WolfFace::Animal(Sheep))],
        vec![vec![], vec![]],
        3,
    );
    // (5 + 2) / 2 = 3 sheep are due, the stock has 1.
    assert!(record.turns[0].events.contains(&Event::Bred {
        seat: 0,
        gained: Herd::of(Sheep, 1)
    }));
    assert_eq!(record.end.final_position.stock.get(Sheep), 0);
    // Seat 1's turn finds no dice left: the studied position ends there.
    assert_eq!(record.end.outcome, Outcome::Unfinished);
    assert_eq!(record.turns[1].roll, None);
    assert_eq!(verified(&record).dice, DiceOrigin::Explicit);
}

#[test]
fn a_stock_short_of_cows_delivers_what_it_has() {
    use Animal::*;
    let record = play_position(
        vec![herd(&[(Horse, 1)]), herd(&[(Cow, 1)])],
        herd(&[(Cow, 1), (Rabbit, 4)]),
        vec![
            roll(FoxFace::Animal(Pig), WolfFace::Animal(Cow)),
            roll(FoxFace::Animal(Rabbit), WolfFace::Animal(Rabbit)),
        ],
        vec![
            vec![Offer::with_stock(Herd::of(Horse, 1), Herd::of(Cow, 2))],
            vec![],
        ],
        1,
    );
    assert!(record.turns[0].events.contains(&Event::Transfer {
        from: Party::Stock,
        to: Party::Player(0),
        animals: Herd::of(Cow, 1),
    }));
    // The cow shown on the die plus the one owned make a pair, but the stock holds none.
    assert_eq!(record.end.final_position.herds[0], Herd::of(Cow, 1));
    assert_eq!(
        record.end.final_position.herds[1],
        herd(&[(Cow, 1), (Rabbit, 1)])
    );
    verified(&record);
}

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

#[test]
fn hand_written_fixtures_verify() {
    let mut seen = 0;
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let summary = crate::games::registry()
            .verify_record(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(summary.dice, DiceOrigin::Explicit, "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 2, "fixtures missing");
}

#[test]
fn a_declined_offer_moves_nothing_and_replays() {
    use Animal::*;
    let setup = Setup {
        players: 2,
        seed: None,
        round_cap: 1,
        policy: FaultPolicy::Forfeit,
        start: Some(StartPosition {
            herds: vec![herd(&[(Sheep, 1)]), herd(&[(Rabbit, 6)])],
            stock: herd(&[(Rabbit, 10)]),
            to_move: 0,
        }),
    };
    let mut a = Script {
        offers: vec![Offer::with_player(
            1,
            herd(&[(Sheep, 1)]),
            herd(&[(Rabbit, 6)]),
        )],
        accept: true,
    };
    let mut b = Script {
        offers: vec![],
        accept: false,
    };
    let rolls = vec![
        roll(FoxFace::Animal(Pig), WolfFace::Animal(Pig)),
        roll(FoxFace::Animal(Pig), WolfFace::Animal(Pig)),
    ];
    let record = play_game(&setup, &mut [&mut a, &mut b], &mut ExplicitDice::new(rolls));
    assert_eq!(record.turns[0].answer, Some(false));
    assert_eq!(
        record.turns[0].events[..2],
        [
            Event::Answer {
                seat: 1,
                trader: 0,
                accepted: false
            },
            Event::TradeFailed {
                seat: 0,
                reason: farm_rules::FailReason::Declined
            }
        ]
    );
    assert_eq!(record.end.final_position.herds[0], herd(&[(Sheep, 1)]));
    verified(&record);
}
