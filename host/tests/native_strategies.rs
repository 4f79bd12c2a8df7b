//! A deterministic native round robin of the example strategies (example-agents/), played through
//! `arena::games::farm::native`, i.e. through the same ABI bytes a wasm agent sees.
//!
//! `ARENA_RR_GAMES=<n>` changes the number of games per pairing and seat order (default 100).

use arena::game::{play_seeded, Native, Player};
use arena::games::farm::{native, Farm, Outcome, Setup};

const NAMES: [&str; 5] = ["passer", "greedy", "insurance", "trader", "shepherd"];
const ROUND_CAP: u32 = 300;

fn strategy(i: usize) -> Native {
    match i {
        0 => native::<passer::Passer>(),
        1 => native::<greedy::Greedy>(),
        2 => native::<insurance::Insurance>(),
        3 => native::<trader::Trader>(),
        _ => native::<shepherd::Shepherd>(),
    }
}

#[derive(Default, Clone, Copy)]
struct Pair {
    /// Wins of the first strategy, of the second.
    wins: [u32; 2],
    draws: u32,
}

#[test]
// `a` and `b` are agent indices used for seats, seeds and the pair table alike.
#[allow(clippy::needless_range_loop)]
fn round_robin_of_the_example_strategies() {
    let games: u64 = std::env::var("ARENA_RR_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let n = NAMES.len();
    let mut pairs = vec![vec![Pair::default(); n]; n];
    let mut score = [0u32; NAMES.len()];
    let mut rounds_total = 0u64;
    let mut played = 0u64;
    for a in 0..n {
        for b in a + 1..n {
            for order in 0..2u64 {
                let seats = if order == 0 { [a, b] } else { [b, a] };
                for g in 0..games {
                    // The same dice for both seat orders of a pairing.
                    let seed = 0x5EED_0000 + ((a * n + b) as u64) * 100_000 + g;
                    let setup = Setup::standard(2, seed, ROUND_CAP);
                    let (s0, s1) = (strategy(seats[0]), strategy(seats[1]));
                    let mut p0 = s0.player::<Farm>().unwrap();
                    let mut p1 = s1.player::<Farm>().unwrap();
                    let mut ps: [&mut dyn Player<Farm>; 2] = [&mut *p0, &mut *p1];
                    let record = play_seeded(&Farm, &setup, &mut ps).unwrap();
                    assert!(
                        record.end.forfeits.is_empty(),
                        "no example strategy may fault: {:?}",
                        record.end.start_events
                    );
                    played += 1;
                    rounds_total += record.end.rounds as u64;
                    let pair = &mut pairs[a][b];
                    match record.end.outcome {
                        Outcome::Win { seat, .. } => {
                            let who = seats[seat];
                            score[who] += 1;
                            pair.wins[(who == b) as usize] += 1;
                        }
                        Outcome::Draw { .. } => pair.draws += 1,
                        Outcome::Unfinished => panic!("seeded dice never run out"),
                    }
                }
            }
        }
    }

    println!(
        "native round robin: 2 players, {} games per pairing ({games} per seat order), round cap {ROUND_CAP}, mean {:.1} rounds",
        2 * games,
        rounds_total as f64 / played as f64
    );
    for a in 0..n {
        for b in a + 1..n {
            let p = pairs[a][b];
            let decided = p.wins[0] + p.wins[1];
            println!(
                "  {:>9} vs {:<9} {:>4} - {:<4} draws {:>4}  ({} wins {:.1}% of decided games)",
                NAMES[a],
                NAMES[b],
                p.wins[0],
                p.wins[1],
                p.draws,
                NAMES[a],
                100.0 * p.wins[0] as f64 / decided.max(1) as f64
            );
        }
    }
    for (i, name) in NAMES.iter().enumerate() {
        println!(
            "  {name:>9}: {} wins of {} games",
            score[i],
            2 * games * (n as u64 - 1)
        );
    }

    let passer = 0;
    let mine = n - 1;
    assert_eq!(score[passer], 0, "with no trading nobody can win");
    for other in 0..mine {
        assert!(
            score[mine] > score[other],
            "{} must score highest",
            NAMES[mine]
        );
        let p = pairs[other][mine];
        assert!(
            p.wins[1] > p.wins[0],
            "{} must beat {} head to head: {} - {}",
            NAMES[mine],
            NAMES[other],
            p.wins[1],
            p.wins[0]
        );
    }
}
