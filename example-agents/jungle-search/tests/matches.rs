//! Native matches between the Jungle example agents, seat-swapped, through the very bytes a wasm
//! agent sees: the observation is encoded with arena-abi, the SDK's `handle_jungle_move`
//! answers, the answer is decoded with the host's rules for unreadable answers and judged with
//! `Position::check_move`, and the fuel clock runs as docs/JUNGLE.md describes it, with the
//! SDK's native stand-in for the fuel meter (the search agent charges `NODE_FUEL` per node; the
//! other two charge nothing).
//!
//! Asserts that the search agent wins at least 95 % of its games against random and 75 %
//! against greedy, and that nobody ever answers an illegal move or runs out of its clock.
//! `cargo test --release -p jungle-search --test matches -- --nocapture` prints the figures.

use arena_abi::jungle::{decode_answer, Clock, Observation, Played, MAX_OBSERVATION_SIZE};
use arena_abi::{
    game, Decision, Envelope, InitPayload, ABI_VERSION, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE,
};
use arena_agent_sdk::fuel;
use arena_agent_sdk::jungle::{Outcome, Position, Side};
use arena_agent_sdk::{handle_jungle_init, handle_jungle_move, JungleAgent, Rng, BUFFER_SIZE};
use jungle_greedy::Greedy;
use jungle_random::Random;
use jungle_search::SearchAgent;

/// The clock of these matches, in fuel: 60 million to start with, 1 million more per move, at
/// most 10 million for one decision (the arena's default per-decision budget).
const START_CLOCK: u64 = 60_000_000;
const INCREMENT: u64 = 1_000_000;
const DECISION_CAP: u64 = 10_000_000;
/// Rounds (a move of each player) before the game is a draw.
const ROUND_CAP: u32 = 200;
/// Seat-swapped pairs of games per opponent.
const PAIRS: u64 = 50;
const SEED: u64 = 0x0a11_6e5e;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Won(Side),
    Drawn,
}

#[derive(Default, Debug)]
struct Stats {
    plies: u64,
    most_fuel: u64,
    least_clock: u64,
}

fn new_agent(name: &str) -> Box<dyn JungleAgent> {
    match name {
        "search" => Box::new(SearchAgent::default()),
        "greedy" => Box::new(Greedy::default()),
        "random" => Box::new(Random::default()),
        _ => unreachable!("{name}"),
    }
}

fn envelope(decision: Decision, seat: usize, ply: u32, payload_len: usize) -> Envelope {
    Envelope {
        abi_version: ABI_VERSION,
        game: game::JUNGLE,
        decision,
        seat: seat as u32,
        players: 2,
        turn: ply + 1,
        round: ply / 2 + 1,
        payload_len: payload_len as u32,
    }
}

/// One game between `names[0]` (first player, seat 0) and `names[1]`, fresh agents seeded
/// from `seed`. Panics on an illegal or unreadable answer, and when the search agent runs out
/// of its clock or its per-decision cap.
fn play(names: [&str; 2], seed: u64, stats: &mut Stats) -> End {
    let mut seeds = Rng::new(seed);
    let mut agents = [new_agent(names[0]), new_agent(names[1])];
    let mut buf = vec![0u8; BUFFER_SIZE];
    let ply_cap = 2 * ROUND_CAP;
    for (seat, agent) in agents.iter_mut().enumerate() {
        envelope(Decision::Init, seat, 0, INIT_PAYLOAD_SIZE).encode(&mut buf);
        InitPayload {
            seed: seeds.next_u64(),
            round_cap: ROUND_CAP,
        }
        .encode(&mut buf[ENVELOPE_SIZE..]);
        let n = (ENVELOPE_SIZE + INIT_PAYLOAD_SIZE) as i32;
        assert_eq!(handle_jungle_init(agent.as_mut(), &mut buf, n), 0);
    }
    let mut clocks = [START_CLOCK; 2];
    let mut pos = Position::start();
    let mut plies: Vec<Played> = Vec::new();
    let mut last_call = [0usize; 2];
    loop {
        if let Some(outcome) = pos.outcome(ply_cap) {
            stats.plies += pos.ply() as u64;
            return match outcome {
                Outcome::Win { winner, .. } => End::Won(winner),
                Outcome::Draw(_) => End::Drawn,
            };
        }
        let seat = pos.side_to_move().index();
        clocks[seat] += INCREMENT;
        let clock = Clock {
            mine: clocks[seat],
            theirs: clocks[1 - seat],
            increment: INCREMENT,
            decision_cap: DECISION_CAP,
        };
        let obs = Observation::new(&pos, ply_cap, clock, &plies[last_call[seat]..]);
        last_call[seat] = plies.len();
        envelope(Decision::JungleMove, seat, pos.ply(), obs.size()).encode(&mut buf);
        obs.encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + MAX_OBSERVATION_SIZE]);
        let n = (ENVELOPE_SIZE + obs.size()) as i32;
        let ret = handle_jungle_move(agents[seat].as_mut(), &mut buf, n);
        // The handler gave the stand-in this decision's fuel; what is missing was spent.
        let allowed = clock.this_decision();
        let used = (allowed as i64 - fuel::native::left()).max(0) as u64;
        assert!(
            used <= allowed,
            "{} spent {used} fuel of {allowed} at ply {} of {}",
            names[seat],
            pos.ply(),
            pos
        );
        clocks[seat] -= used;
        stats.most_fuel = stats.most_fuel.max(used);
        if names[seat] == "search" {
            stats.least_clock = stats.least_clock.min(clocks[seat]);
        }
        let mv = decode_answer(ret, &buf)
            .unwrap_or_else(|e| panic!("{}: unreadable answer {e:?} in {pos}", names[seat]));
        if let Err(why) = pos.check_move(mv) {
            panic!("{}: illegal move {mv} in {pos}: {why}", names[seat]);
        }
        plies.push(Played::of(&pos, mv));
        pos.make(mv);
    }
}

/// `PAIRS` seat-swapped pairs of `a` against `b`: (a's wins, draws, b's wins).
fn pairing(a: &str, b: &str, stats: &mut Stats) -> (u32, u32, u32) {
    let mut seeds = Rng::new(SEED ^ a.len() as u64 ^ (b.len() as u64) << 8);
    let mut tally = (0, 0, 0);
    for _ in 0..PAIRS {
        let seed = seeds.next_u64();
        for (names, a_side) in [([a, b], Side::First), ([b, a], Side::Second)] {
            match play(names, seed, stats) {
                End::Won(side) if side == a_side => tally.0 += 1,
                End::Won(_) => tally.2 += 1,
                End::Drawn => tally.1 += 1,
            }
        }
    }
    tally
}

fn report(a: &str, b: &str, (wins, draws, losses): (u32, u32, u32), stats: &Stats) {
    let games = wins + draws + losses;
    let clock = if stats.least_clock == u64::MAX {
        String::new()
    } else {
        format!(", lowest clock of the search agent {}", stats.least_clock)
    };
    println!(
        "{a} vs {b}: {wins} wins, {draws} draws, {losses} losses in {games} games ({:.1} % won); {:.1} plies a game, most fuel in one decision {}{clock}",
        100.0 * wins as f64 / games as f64,
        stats.plies as f64 / games as f64,
        stats.most_fuel,
    );
}

#[test]
fn search_beats_random() {
    let mut stats = Stats {
        least_clock: u64::MAX,
        ..Stats::default()
    };
    let t = pairing("search", "random", &mut stats);
    report("search", "random", t, &stats);
    assert!(t.0 * 100 >= 95 * (2 * PAIRS as u32), "{t:?}");
}

#[test]
fn search_beats_greedy() {
    let mut stats = Stats {
        least_clock: u64::MAX,
        ..Stats::default()
    };
    let t = pairing("search", "greedy", &mut stats);
    report("search", "greedy", t, &stats);
    assert!(t.0 * 100 >= 75 * (2 * PAIRS as u32), "{t:?}");
}

#[test]
fn greedy_beats_random() {
    let mut stats = Stats {
        least_clock: u64::MAX,
        ..Stats::default()
    };
    let t = pairing("greedy", "random", &mut stats);
    report("greedy", "random", t, &stats);
    // Greedy is a real opponent: it wins most of its games against random.
    assert!(t.0 > t.2 * 3, "{t:?}");
}
