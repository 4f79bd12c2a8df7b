//! Native matches between the light cycles example agents, with the rules crate as the referee
//! and through the very bytes a wasm agent sees: each tick, every living seat's observation is
//! encoded with arena-abi, the SDK's `handle_lightcycles_turn` answers, the answer is decoded
//! with the host's rules for unreadable answers, and all answers are applied at once with
//! `State::apply`. The fuel clock runs as docs/LIGHTCYCLES.md describes it, with the SDK's
//! native stand-in for the fuel meter (the search agent charges its levels and leaves; the other
//! two charge nothing).
//!
//! Asserts that the search agent wins at least 90 % of its two-player games against random and
//! 70 % against the filler, that nobody answers an unreadable turn, and that the search agent
//! never spends more than its decision may. `cargo test --release -p lightcycles-search --test
//! matches -- --nocapture` prints the figures.

use arena_abi::lightcycles::{decode_answer, Clock, Observation, MAX_OBSERVATION_SIZE};
use arena_abi::{
    game, Decision, Envelope, InitPayload, ABI_VERSION, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE,
};
use arena_agent_sdk::fuel;
use arena_agent_sdk::lightcycles::{Answer, Settings, State, MAX_PLAYERS};
use arena_agent_sdk::{
    handle_lightcycles_init, handle_lightcycles_turn, LightcyclesAgent, Rng, BUFFER_SIZE,
};
use lightcycles_filler::Filler;
use lightcycles_random::Random;
use lightcycles_search::SearchAgent;

/// The clock of these matches, in fuel: the arena's defaults (60 million to start with, 1
/// million more per tick, at most 10 million for one decision).
const START_CLOCK: u64 = 60_000_000;
const INCREMENT: u64 = 1_000_000;
const DECISION_CAP: u64 = 10_000_000;
/// Seat-swapped pairs of games per pairing.
const PAIRS: u64 = 50;
const SEED: u64 = 0x11_9e7c_7c1e;

#[derive(Default, Debug)]
struct Stats {
    ticks: u64,
    games: u64,
    most_fuel: u64,
    least_clock: Option<u64>,
}

fn new_agent(name: &str) -> Box<dyn LightcyclesAgent> {
    match name {
        "search" => Box::new(SearchAgent::default()),
        "filler" => Box::new(Filler::default()),
        "random" => Box::new(Random::default()),
        _ => unreachable!("{name}"),
    }
}

fn envelope(decision: Decision, seat: usize, players: usize, tick: u32, len: usize) -> Envelope {
    Envelope {
        abi_version: ABI_VERSION,
        game: game::LIGHTCYCLES,
        decision,
        seat: seat as u32,
        players: players as u32,
        turn: tick,
        round: tick,
        payload_len: len as u32,
    }
}

/// One game of `names` (seat order) on `settings`, fresh agents seeded from `seed`: every seat's
/// place. Panics on an unreadable answer, and when the search agent spends more than its
/// decision may.
fn play(names: &[&str], settings: &Settings, seed: u64, stats: &mut Stats) -> [u8; MAX_PLAYERS] {
    let players = names.len();
    let mut seeds = Rng::new(seed);
    let mut agents: Vec<Box<dyn LightcyclesAgent>> = names.iter().map(|n| new_agent(n)).collect();
    let mut buf = vec![0u8; BUFFER_SIZE];
    for (seat, agent) in agents.iter_mut().enumerate() {
        envelope(Decision::Init, seat, players, 0, INIT_PAYLOAD_SIZE).encode(&mut buf);
        InitPayload {
            seed: seeds.next_u64(),
            round_cap: settings.tick_cap,
        }
        .encode(&mut buf[ENVELOPE_SIZE..]);
        let n = (ENVELOPE_SIZE + INIT_PAYLOAD_SIZE) as i32;
        assert_eq!(handle_lightcycles_init(agent.as_mut(), &mut buf, n), 0);
    }
    let mut state = State::start(settings, players, seed).expect("valid settings");
    let mut clocks = [0u64; MAX_PLAYERS];
    clocks[..players].fill(START_CLOCK);
    while !state.is_over() {
        let tick = state.tick() + 1;
        let mut answers = [None; MAX_PLAYERS];
        for seat in state.to_move().iter() {
            clocks[seat] += INCREMENT;
            let clock = Clock {
                mine: clocks[seat],
                increment: INCREMENT,
                decision_cap: DECISION_CAP,
                seats: clocks,
            };
            let obs = Observation::new(&state, clock);
            envelope(Decision::LightcyclesTurn, seat, players, tick, obs.size()).encode(&mut buf);
            obs.encode(&mut buf[ENVELOPE_SIZE..ENVELOPE_SIZE + MAX_OBSERVATION_SIZE]);
            let n = (ENVELOPE_SIZE + obs.size()) as i32;
            let ret = handle_lightcycles_turn(agents[seat].as_mut(), &mut buf, n);
            // The handler gave the stand-in this decision's fuel; what is missing was spent.
            let allowed = clock.this_decision();
            let used = (allowed as i64 - fuel::native::left()).max(0) as u64;
            assert!(
                used <= allowed,
                "{} spent {used} fuel of {allowed} at tick {tick}\n{state}",
                names[seat]
            );
            clocks[seat] -= used;
            stats.most_fuel = stats.most_fuel.max(used);
            if names[seat] == "search" {
                let least = stats.least_clock.get_or_insert(u64::MAX);
                *least = (*least).min(clocks[seat]);
            }
            let turn = decode_answer(ret, &buf)
                .unwrap_or_else(|e| panic!("{}: unreadable answer {e:?}\n{state}", names[seat]));
            answers[seat] = Some(Answer::Turn(turn));
        }
        state
            .apply(&answers)
            .expect("an answer for every living seat");
    }
    stats.ticks += u64::from(state.tick());
    stats.games += 1;
    state.places()
}

/// `PAIRS` seat-swapped pairs of `a` against `b`, on the default grid, half of them with walls
/// (10 % of the cells): (a's wins, draws, b's wins).
fn pairing(a: &str, b: &str, stats: &mut Stats) -> (u32, u32, u32) {
    let mut seeds = Rng::new(SEED ^ a.len() as u64 ^ (b.len() as u64) << 8);
    let mut tally = (0, 0, 0);
    for pair in 0..PAIRS {
        let seed = seeds.next_u64();
        let settings = Settings {
            walls: if pair % 2 == 0 { 0 } else { 10 },
            ..Settings::default()
        };
        for (names, a_seat) in [([a, b], 0), ([b, a], 1)] {
            let places = play(&names, &settings, seed, stats);
            match places[a_seat].cmp(&places[1 - a_seat]) {
                std::cmp::Ordering::Less => tally.0 += 1,
                std::cmp::Ordering::Equal => tally.1 += 1,
                std::cmp::Ordering::Greater => tally.2 += 1,
            }
        }
    }
    tally
}

fn report(a: &str, b: &str, (wins, draws, losses): (u32, u32, u32), stats: &Stats) {
    let games = wins + draws + losses;
    let clock = stats
        .least_clock
        .map(|c| format!(", lowest clock of the search agent {c}"))
        .unwrap_or_default();
    println!(
        "{a} vs {b}: {wins} wins, {draws} draws, {losses} losses in {games} games ({:.1} % won); {:.1} ticks a game, most fuel in one decision {}{clock}",
        100.0 * wins as f64 / games as f64,
        stats.ticks as f64 / stats.games as f64,
        stats.most_fuel,
    );
}

#[test]
fn search_beats_random() {
    let mut stats = Stats::default();
    let t = pairing("search", "random", &mut stats);
    report("search", "random", t, &stats);
    assert!(t.0 * 100 >= 90 * (2 * PAIRS as u32), "{t:?}");
}

#[test]
fn search_beats_filler() {
    let mut stats = Stats::default();
    let t = pairing("search", "filler", &mut stats);
    report("search", "filler", t, &stats);
    assert!(t.0 * 100 >= 70 * (2 * PAIRS as u32), "{t:?}");
}

#[test]
fn filler_beats_random() {
    let mut stats = Stats::default();
    let t = pairing("filler", "random", &mut stats);
    report("filler", "random", t, &stats);
    // The filler is a real opponent: it wins most of its games against random.
    assert!(t.0 > t.2 * 3, "{t:?}");
}

#[test]
fn games_of_four_and_six_end_with_readable_answers() {
    let mut stats = Stats::default();
    let settings = Settings::default();
    let four = play(
        &["search", "filler", "random", "random"],
        &settings,
        1,
        &mut stats,
    );
    let six = play(
        &["random", "search", "filler", "search", "random", "filler"],
        &Settings {
            walls: 10,
            ..settings
        },
        2,
        &mut stats,
    );
    for places in [&four[..4], &six[..6]] {
        assert!(places.contains(&1), "{places:?}");
        assert!(places.iter().all(|&p| (1..=6).contains(&p)), "{places:?}");
    }
    println!("four players: places {four:?}; six players: places {six:?}");
}
