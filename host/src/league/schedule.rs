//! Fair scheduling. Every group of `players_per_game` agents (every pair, for two-player games)
//! plays the same number of games. Within a group, games come in *cycles*: the group plays once in
//! each cyclic rotation of its seating, every game of a cycle sharing one seed, so each agent sits
//! in each seat once per cycle and meets the same dice from every seat (as chess testers pair
//! games with colours reversed). Every pair of agents shares the same number of groups, so every
//! agent meets every other equally often.
//!
//! A game's seed depends only on the league seed, the names of the group's agents and the cycle:
//! results do not depend on thread count, finishing order, or the order agents are listed in.
//! In a solo league (one player per game: the Farkle benchmark) the seed leaves the name out, so
//! every agent's n-th game has the same seed: strategies are compared on the same dice as far as
//! their choices let the dice line up.

use sha2::{Digest, Sha256};

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Position in the schedule; records and results are sorted by it.
    pub id: usize,
    /// Agent indices (into the league's agent list), by seat.
    pub seats: Vec<usize>,
    pub seed: u64,
    /// Stable identity for resuming: the seated names, the cycle and the rotation.
    pub key: String,
}

/// Builds the whole schedule for `names` (the league's agents, in order).
pub fn schedule(
    names: &[String],
    players: usize,
    games_per_group: u32,
    league_seed: u64,
) -> Vec<GameSpec> {
    let cycles = games_per_group as usize / players;
    let mut games = Vec::new();
    for group in combinations(names.len(), players) {
        // The group's identity ignores listing order, so adding or reordering agents keeps seeds.
        let mut sorted: Vec<&str> = group.iter().map(|&i| names[i].as_str()).collect();
        sorted.sort_unstable();
        for cycle in 0..cycles {
            let seed = if players == 1 {
                game_seed(league_seed, &[], cycle)
            } else {
                game_seed(league_seed, &sorted, cycle)
            };
            for rotation in 0..players {
                let seats: Vec<usize> = (0..players)
                    .map(|s| group[(s + rotation) % players])
                    .collect();
                let seated: Vec<&str> = seats.iter().map(|&i| names[i].as_str()).collect();
                games.push(GameSpec {
                    id: games.len(),
                    seats,
                    seed,
                    key: format!("{}#{cycle}", seated.join(",")),
                });
            }
        }
    }
    games
}

/// Number of games `schedule` produces, without building it.
pub fn game_count(agents: usize, players: usize, games_per_group: u32) -> u128 {
    binomial(agents as u128, players as u128)
        * u128::from(games_per_group / players as u32 * players as u32)
}

fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn game_seed(league_seed: u64, group: &[&str], cycle: usize) -> u64 {
    let mut h = Sha256::new();
    h.update(b"arena-game-seed/1\0");
    h.update(league_seed.to_le_bytes());
    for name in group {
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
    }
    h.update((cycle as u64).to_le_bytes());
    let digest = h.finalize();
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

/// All `k`-subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut idx: Vec<usize> = (0..k).collect();
    loop {
        out.push(idx.clone());
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + n - k) else {
            return out;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("agent{i}")).collect()
    }

    #[test]
    fn two_player_games_are_mirrored_pairs_with_shared_seeds() {
        let g = schedule(&names(3), 2, 4, 7);
        assert_eq!(g.len(), 3 * 4);
        for pair in g.chunks(2) {
            assert_eq!(pair[0].seed, pair[1].seed);
            assert_eq!(pair[0].seats, vec![pair[1].seats[1], pair[1].seats[0]]);
        }
        let seeds: std::collections::HashSet<u64> = g.iter().map(|s| s.seed).collect();
        assert_eq!(seeds.len(), 6, "each cycle has its own seed");
    }

    #[test]
    fn solo_games_share_their_seeds_across_agents() {
        let g = schedule(&names(3), 1, 5, 9);
        assert_eq!(g.len(), 15);
        for agent in 0..3 {
            let own: Vec<&GameSpec> = g.iter().filter(|s| s.seats == [agent]).collect();
            assert_eq!(own.len(), 5);
            let seeds: Vec<u64> = own.iter().map(|s| s.seed).collect();
            let first: Vec<u64> = g[..5].iter().map(|s| s.seed).collect();
            assert_eq!(seeds, first, "game n of every agent has the same seed");
        }
        let distinct: std::collections::HashSet<u64> = g.iter().map(|s| s.seed).collect();
        assert_eq!(distinct.len(), 5);
        let keys: std::collections::HashSet<&str> = g.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys.len(), 15);
    }

    #[test]
    fn seeds_do_not_depend_on_listing_order() {
        let a = schedule(&names(4), 2, 2, 1);
        let mut reversed = names(4);
        reversed.reverse();
        let b = schedule(&reversed, 2, 2, 1);
        let seed_of = |games: &[GameSpec], ns: &[String]| -> HashMap<(String, String), u64> {
            games
                .iter()
                .map(|g| ((ns[g.seats[0]].clone(), ns[g.seats[1]].clone()), g.seed))
                .collect()
        };
        assert_eq!(seed_of(&a, &names(4)), seed_of(&b, &reversed));
    }

    proptest! {
        #[test]
        fn every_pair_meets_equally_and_every_seat_is_rotated(agents in 2usize..8, players in 2usize..7, cycles in 1u32..3, seed in any::<u64>()) {
            prop_assume!(players <= agents);
            let g = schedule(&names(agents), players, cycles * players as u32, seed);
            prop_assert_eq!(g.len() as u128, game_count(agents, players, cycles * players as u32));
            let mut meet: HashMap<(usize, usize), usize> = HashMap::new();
            let mut seat: HashMap<(usize, usize), usize> = HashMap::new();
            for game in &g {
                for (s, &a) in game.seats.iter().enumerate() {
                    *seat.entry((a, s)).or_default() += 1;
                    for &b in &game.seats {
                        if a < b { *meet.entry((a, b)).or_default() += 1; }
                    }
                }
                let mut sorted = game.seats.clone();
                sorted.sort();
                sorted.dedup();
                prop_assert_eq!(sorted.len(), players, "no agent twice in a game");
            }
            let meets: std::collections::HashSet<usize> = meet.values().copied().collect();
            prop_assert_eq!(meets.len(), 1, "every pair meets equally often");
            prop_assert_eq!(meet.len(), agents * (agents - 1) / 2);
            let seats: std::collections::HashSet<usize> = seat.values().copied().collect();
            prop_assert_eq!(seats.len(), 1, "every agent sits in every seat equally often");
            prop_assert_eq!(seat.len(), agents * players);
            let keys: std::collections::HashSet<&str> = g.iter().map(|s| s.key.as_str()).collect();
            prop_assert_eq!(keys.len(), g.len(), "keys are unique");
        }
    }
}
