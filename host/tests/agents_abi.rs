//! The agent side of ABI v1: what the host encodes (`farm::abi_events`) is exactly what the SDK
//! decodes; the WAT agent in docs/ABI.md is the one in example-agents/wat/ and it plays.

use std::path::Path;

use arena::game::{play_seeded, Player};
use arena::games::farm::abi::{encode_observation, to_abi_event};
use arena::games::farm::{native, Farm};
use arena::games::farm::{
    AcceptView, Decision, Event, Fault, FaultKind, Observation, Party, Setup,
};
use arena_agent_sdk::{handle_init, FarmAgent, InitContext, View, BUFFER_SIZE};
use farm_rules::{check_offer, Animal, FailReason, Herd, Offer, Position, Roll};

fn sample_events() -> Vec<Event> {
    vec![
        Event::Rolled {
            seat: 1,
            roll: Roll::from_indices(11, 10),
        },
        Event::Fox {
            seat: 1,
            lost: Herd::of(Animal::Rabbit, 4),
        },
        Event::Bred {
            seat: 1,
            gained: Herd::of(Animal::Cow, 1),
        },
        Event::TradeFailed {
            seat: 2,
            reason: FailReason::ManyToMany,
        },
        Event::Transfer {
            from: Party::Player(0),
            to: Party::Stock,
            animals: Herd::of(Animal::Sheep, 2),
        },
        Event::Answer {
            seat: 0,
            trader: 2,
            accepted: true,
        },
        Event::Fault {
            seat: 2,
            decision: Decision::Trade,
            fault: Fault::new(FaultKind::BadAnswer, "x"),
        },
        Event::Forfeit { seat: 2 },
        Event::Wolf {
            seat: 0,
            lost: Herd::new([3, 2, 1, 0, 0, 0, 0]),
        },
        Event::Win {
            seat: 0,
            last_standing: false,
        },
        Event::Draw { round_cap: true },
    ]
}

fn position() -> Position {
    let mut pos = Position::new(3);
    pos.herds[0] = Herd::new([7, 3, 1, 0, 0, 1, 0]);
    pos.herds[1] = Herd::new([0, 0, 2, 1, 1, 0, 1]);
    pos.herds[2] = Herd::new([12, 0, 0, 0, 0, 0, 0]);
    pos.stock = Herd::new([41, 21, 17, 11, 5, 3, 1]);
    pos.out = 0b100;
    pos
}

fn check_view(view: &View, obs: &Observation, events: &[Event]) {
    assert_eq!(view.seat, obs.seat);
    assert_eq!(view.players, obs.position.players);
    assert_eq!(view.turn, obs.turn);
    assert_eq!(view.round, obs.round);
    assert_eq!(view.to_move, obs.to_move);
    assert_eq!(view.position, *obs.position);
    assert_eq!(view.stock(), obs.position.stock);
    assert_eq!(view.my_herd(), obs.position.herds[obs.seat]);
    assert!(view.is_out(2) && !view.is_out(0) && !view.is_out(1));
    let got: Vec<_> = view.events().collect();
    let want: Vec<_> = events.iter().map(to_abi_event).collect();
    assert_eq!(got, want);
    assert_eq!(view.events().len(), events.len());
}

#[test]
fn sdk_decodes_what_the_host_encodes() {
    let pos = position();
    let events = sample_events();
    let obs = Observation {
        seat: 1,
        to_move: 1,
        turn: 17,
        round: 6,
        position: &pos,
        events: &events,
    };
    let mut buf = vec![0u8; BUFFER_SIZE];

    // A trade decision.
    let n = encode_observation(&obs, None, &mut buf);
    let view = View::decode(&buf[..n]).expect("a trade view");
    check_view(&view, &obs, &events);
    assert_eq!(view.events_dropped, 0);
    assert_eq!(view.offer(), None);

    // An accept decision: the offer exactly as given, and who gives it.
    let offer = Offer::with_player(1, Herd::of(Animal::Sheep, 2), Herd::of(Animal::Pig, 1));
    let trade = check_offer(&pos, 0, &offer).unwrap().unwrap();
    let accept = AcceptView {
        trader: 0,
        offer,
        trade,
    };
    let obs = Observation { to_move: 0, ..obs };
    let n = encode_observation(&obs, Some(&accept), &mut buf);
    let view = View::decode(&buf[..n]).expect("an accept view");
    check_view(&view, &obs, &events);
    assert_eq!(view.offer(), Some((0, offer)));

    // A small buffer: the oldest events are dropped and counted.
    let mut small = vec![0u8; 32 + 280 + 4 * 32];
    let n = encode_observation(&obs, None, &mut small);
    let view = View::decode(&small[..n]).unwrap();
    check_view(&view, &obs, &events[events.len() - 4..]);
    assert_eq!(view.events_dropped, events.len() as u32 - 4);

    // Truncated bytes are refused, not misread.
    for cut in [0, 31, 32 + 279, n - 1] {
        assert!(View::decode(&small[..cut]).is_none(), "cut at {cut}");
    }
}

#[derive(Default)]
struct Recorder(Option<InitContext>);

impl FarmAgent for Recorder {
    fn init(&mut self, ctx: &InitContext) {
        self.0 = Some(*ctx);
    }
    fn trade(&mut self, _: &View) -> Offer {
        Offer::PASS
    }
}

#[test]
fn sdk_decodes_the_init_payload() {
    let mut buf = vec![0u8; BUFFER_SIZE];
    let init = arena::sandbox::Init {
        seat: 2,
        players: 4,
        seed: 0xDEAD_BEEF_0123_4567,
        round_cap: 250,
    };
    let n = arena::sandbox::encode_init(&arena::games::farm::INFO.agent, &init, &mut buf);
    let mut agent = Recorder::default();
    assert_eq!(handle_init(&mut agent, &mut buf, n as i32), 0);
    assert_eq!(
        agent.0,
        Some(InitContext {
            seat: 2,
            players: 4,
            seed: 0xDEAD_BEEF_0123_4567,
            round_cap: 250
        })
    );
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

#[test]
fn the_wat_agent_in_the_abi_doc_is_the_tested_one() {
    let doc = std::fs::read_to_string(repo().join("docs/ABI.md")).unwrap();
    let start = doc
        .find("```wat\n(module")
        .expect("a WAT module in docs/ABI.md")
        + 7;
    let block = &doc[start..start + doc[start..].find("```").unwrap()];
    let file = std::fs::read_to_string(repo().join("example-agents/wat/passer.wat")).unwrap();
    let module: String = file
        .lines()
        .skip_while(|l| l.starts_with(";;"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(block, module);
}

#[test]
fn the_wat_passer_loads_and_plays() {
    let sandbox =
        arena::sandbox::Sandbox::new(arena::games::registry().agents(), Default::default())
            .unwrap();
    let module = sandbox
        .load(&repo().join("example-agents/wat/passer.wat"))
        .unwrap();
    assert!(module.has_init());
    for seed in 0..5 {
        let setup = Setup::standard(2, seed, 300);
        let mut wasm = module.player_with_round_cap(300);
        let shepherd = native::<shepherd::Shepherd>();
        let mut native = shepherd.player::<Farm>().unwrap();
        let mut players: [&mut dyn Player<Farm>; 2] = [&mut wasm, &mut *native];
        let record = play_seeded(&Farm, &setup, &mut players).unwrap();
        assert!(record.end.forfeits.is_empty());
        assert_ne!(
            record.end.outcome.winner(),
            Some(0),
            "the passer never wins"
        );
    }
}
