//! Native solo evaluation of the Farkle example agents: each plays the same 400 seeded games alone
//! (turns to reach 10,000), through the very bytes a wasm agent sees: the observation is encoded
//! with arena-abi, the SDK's `handle_farkle_draft` answers, the answer is decoded with the host's
//! fault rules and judged with `farkle_rules::check_answer`.
//!
//! Asserts the planner averages fewer than 28.6 turns (the seed harness's best bot) and the
//! ranking planner < threshold < banker < one-and-done. `cargo test --release -p farkle-planner
//! -- --nocapture` prints the means.

use arena_abi::farkle::{decode_answer, Observation, OBSERVATION_SIZE};
use arena_abi::{
    game, Decision, Envelope, InitPayload, ABI_VERSION, ENVELOPE_SIZE, INIT_PAYLOAD_SIZE,
};
use arena_agent_sdk::farkle::{check_answer, is_farkle, Action, DICE, TARGET};
use arena_agent_sdk::{handle_farkle_draft, handle_farkle_init, FarkleAgent, BUFFER_SIZE};

const GAMES: u64 = 400;
const TURN_CAP: u32 = 1000;
const SEED: u64 = 0x5eed_f00d;

/// A d6 from splitmix64.
struct Die(u64);

impl Die {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn roll(&mut self) -> u8 {
        // Rejection sampling keeps the six faces exactly equally likely.
        loop {
            let x = self.next_u64();
            if x < u64::MAX - u64::MAX % 6 {
                return (x % 6) as u8 + 1;
            }
        }
    }
}

#[derive(Default, Debug)]
struct Tally {
    turns: u64,
    rejected: u64,
    faults: u64,
    farkles: u64,
    max_turns: u32,
}

/// Plays one solo game; returns the number of turns to reach the target.
fn play<A: FarkleAgent>(agent: &mut A, seed: u64, tally: &mut Tally) -> u32 {
    let mut die = Die(seed);
    let mut buf = vec![0u8; BUFFER_SIZE];
    let env = |decision, turn, payload_len| Envelope {
        abi_version: ABI_VERSION,
        game: game::FARKLE,
        decision,
        seat: 0,
        players: 1,
        turn,
        round: turn,
        payload_len,
    };
    env(Decision::Init, 0, INIT_PAYLOAD_SIZE as u32).encode(&mut buf);
    InitPayload {
        seed,
        round_cap: TURN_CAP,
    }
    .encode(&mut buf[ENVELOPE_SIZE..]);
    assert_eq!(
        handle_farkle_init(agent, &mut buf, (ENVELOPE_SIZE + INIT_PAYLOAD_SIZE) as i32),
        0
    );
    let mut score = 0u32;
    let mut turns = 0u32;
    while score < TARGET {
        assert!(turns < TURN_CAP, "game {seed:#x} did not reach the target");
        let mut points = 0u32;
        let mut dice = DICE;
        let mut roll_number = 1;
        loop {
            let mut faces = [0u8; DICE];
            for f in faces.iter_mut().take(dice) {
                *f = die.roll();
            }
            let roll = &faces[..dice];
            if is_farkle(roll) {
                tally.farkles += 1;
                break;
            }
            let obs = Observation {
                target: TARGET,
                turn_points: points,
                roll_number,
                dice: dice as u32,
                faces,
                scores: [score, 0, 0, 0, 0, 0],
                flags: 0,
                turns_done: turns,
                turn_cap: TURN_CAP,
            };
            env(Decision::FarkleDraft, turns + 1, OBSERVATION_SIZE as u32).encode(&mut buf);
            obs.encode(&mut buf[ENVELOPE_SIZE..]);
            let ret =
                handle_farkle_draft(agent, &mut buf, (ENVELOPE_SIZE + OBSERVATION_SIZE) as i32);
            let Ok(answer) = decode_answer(ret, &buf) else {
                tally.faults += 1;
                break;
            };
            match check_answer(roll, answer.indices(), answer.action) {
                Err(_) => {
                    tally.rejected += 1;
                    break;
                }
                Ok((s, action)) => {
                    points += s;
                    dice -= answer.indices().len();
                    if dice == 0 {
                        dice = DICE;
                    }
                    if action == Action::Bank {
                        score += points;
                        break;
                    }
                    roll_number += 1;
                }
            }
        }
        turns += 1;
    }
    tally.max_turns = tally.max_turns.max(turns);
    turns
}

fn mean_turns<A: FarkleAgent>(name: &str, make: fn() -> A) -> f64 {
    let mut tally = Tally::default();
    let mut sq = 0f64;
    for g in 0..GAMES {
        let t = play(
            &mut make(),
            SEED ^ g.wrapping_mul(0x2545_f491_4f6c_dd1d),
            &mut tally,
        );
        tally.turns += t as u64;
        sq += (t as f64) * (t as f64);
    }
    let mean = tally.turns as f64 / GAMES as f64;
    let sd = (sq / GAMES as f64 - mean * mean).max(0.0).sqrt();
    println!(
        "{name:>14}: mean {mean:6.2} turns (sd {sd:5.2}, max {}) over {GAMES} games, seed {SEED:#x}; {} farkles, {} rejected, {} faults",
        tally.max_turns, tally.farkles, tally.rejected, tally.faults
    );
    assert_eq!(
        (tally.rejected, tally.faults),
        (0, 0),
        "{name} answered badly"
    );
    mean
}

#[test]
fn planner_beats_the_seed_and_the_ranking_holds() {
    let planner = mean_turns("planner", farkle_planner::Planner::default);
    let threshold = mean_turns("threshold", farkle_threshold::Threshold::default);
    let banker = mean_turns("banker", farkle_banker::Banker::default);
    let one = mean_turns("one-and-done", farkle_one_and_done::OneAndDone::default);
    assert!(planner < 28.6, "planner averages {planner:.2} turns");
    assert!(planner < threshold, "{planner:.2} vs {threshold:.2}");
    assert!(threshold < banker, "{threshold:.2} vs {banker:.2}");
    assert!(banker < one, "{banker:.2} vs {one:.2}");
}

#[test]
fn the_die_is_fair_enough() {
    let mut die = Die(7);
    let mut counts = [0u32; 7];
    for _ in 0..60_000 {
        counts[die.roll() as usize] += 1;
    }
    assert_eq!(counts[0], 0);
    for &c in &counts[1..] {
        assert!((9_500..10_500).contains(&c), "{counts:?}");
    }
}
