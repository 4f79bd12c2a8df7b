//! Fair scheduling. Every group of `players_per_game` agents (every pair, for two-player games)
//! plays the same number of games. Within a group, games come in *cycles*: the group plays once in
//! each cyclic rotation of its seating, every game of a cycle sharing one seed, so each agent sits
//! in each seat once per cycle and meets the same dice from every seat (as chess testers pair
//! games with colours reversed). Every pair of agents shares the same number of groups, so every
//! agent meets every other equally often.
//!
//! A game's seed depends only on the league seed, the names of the group's agents and the cycle:
//! results do not depend on thread count, finishing order, or the order agents are listed in.
//! In a solo league (one player per game: a solo benchmark) the seed leaves the name out, so
//! every agent's n-th game has the same seed: strategies are compared on the same dice as far as
//! their choices let the dice line up.

use anyhow::bail;
use sha2::{Digest, Sha256};

/// The most games a league may schedule. Each game leaves a record file and a journal line, and
/// the runner keeps every result for the standings (a few hundred bytes each), so a schedule
/// much beyond this is a mistake (a `games_per_group` typed with too many digits) rather than a
/// league anyone can run.
pub const MAX_GAMES: u64 = 100_000_000;

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

/// A league's schedule, computed game by game: game `id`'s group, cycle, seats and seed follow
/// from `id` alone, so nothing grows with the number of games and playing starts at once.
///
/// Games are ordered by group (the `players`-subsets of the agent indices in lexicographic
/// order), then cycle, then rotation.
#[derive(Clone, Debug)]
pub struct Schedule {
    names: Vec<String>,
    players: usize,
    cycles: usize,
    league_seed: u64,
    len: usize,
}

impl Schedule {
    /// The schedule of `names` (the league's agents, in order); refuses one of more than
    /// [`MAX_GAMES`] games.
    pub fn new(
        names: &[String],
        players: usize,
        games_per_group: u32,
        league_seed: u64,
    ) -> anyhow::Result<Schedule> {
        check_size(names.len(), players, games_per_group)?;
        let len = game_count(names.len(), players, games_per_group) as usize;
        Ok(Schedule {
            names: names.to_vec(),
            players,
            cycles: games_per_group as usize / players,
            league_seed,
            len,
        })
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Game `id` (`id < len()`).
    pub fn game(&self, id: usize) -> GameSpec {
        let (group, cycle, seats) = self.place(id);
        let seed = if self.players == 1 {
            game_seed(self.league_seed, &[], cycle)
        } else {
            // The group's identity ignores listing order, so adding or reordering agents keeps
            // seeds.
            let mut sorted: Vec<&str> = group.iter().map(|&i| self.names[i].as_str()).collect();
            sorted.sort_unstable();
            game_seed(self.league_seed, &sorted, cycle)
        };
        GameSpec {
            id,
            key: self.key_of(&seats, cycle),
            seats,
            seed,
        }
    }

    /// The key of game `id` (`id < len()`), without computing its seed.
    pub fn key(&self, id: usize) -> String {
        let (_, cycle, seats) = self.place(id);
        self.key_of(&seats, cycle)
    }

    /// The cycle of game `id` within its group (`id < len()`): the games of one cycle share a seed.
    pub fn cycle(&self, id: usize) -> usize {
        assert!(id < self.len, "game {id} of a schedule of {}", self.len);
        id % (self.cycles * self.players) / self.players
    }

    /// The `k`-th game to start when the league is played cycle by cycle (`k < len()`): the
    /// first cycle of every group, then the second, and so on. A match plays in this order so
    /// that the games of a cycle (a solo benchmark's two agents on one seed are two groups) end
    /// close together, whatever the number of groups.
    pub fn cycle_major(&self, k: usize) -> usize {
        assert!(k < self.len, "game {k} of a schedule of {}", self.len);
        let groups = self.len / (self.cycles * self.players);
        let (cycle, within) = (k / (groups * self.players), k % (groups * self.players));
        let (group, rotation) = (within / self.players, within % self.players);
        group * self.cycles * self.players + cycle * self.players + rotation
    }

    /// The id game `id` has in the same league cut to its first `cycles` cycles per group (the
    /// schedule of `games_per_group = cycles * players`), or `None` when the cut drops it. The
    /// game keeps its seats, seed and key.
    pub fn id_when_cut(&self, id: usize, cycles: usize) -> Option<usize> {
        let per_group = self.cycles * self.players;
        let (group, within) = (id / per_group, id % per_group);
        (id < self.len && within / self.players < cycles)
            .then(|| group * cycles * self.players + within)
    }

    /// Game `id`'s group, cycle and seats.
    fn place(&self, id: usize) -> (Vec<usize>, usize, Vec<usize>) {
        assert!(id < self.len, "game {id} of a schedule of {}", self.len);
        let per_group = self.cycles * self.players;
        let group = unrank_combination(self.names.len(), self.players, (id / per_group) as u128);
        let within = id % per_group;
        let (cycle, rotation) = (within / self.players, within % self.players);
        let seats = (0..self.players)
            .map(|s| group[(s + rotation) % self.players])
            .collect();
        (group, cycle, seats)
    }

    /// The id of the game whose seats hold the agents named `seats` (in seat order) and whose
    /// key is `key`; `None` when this schedule has no such game. A league grown by new agents
    /// (`--extend`) finds its played games' new ids with it.
    pub fn id_of(&self, seats: &[String], key: &str) -> Option<usize> {
        if seats.len() != self.players {
            return None;
        }
        let seated: Vec<usize> = seats
            .iter()
            .map(|s| self.names.iter().position(|n| n == s))
            .collect::<Option<_>>()?;
        let mut group = seated.clone();
        group.sort_unstable();
        let rotation = group.iter().position(|&a| a == seated[0])?;
        let cycle: usize = key.rsplit_once('#')?.1.parse().ok()?;
        if cycle >= self.cycles {
            return None;
        }
        let rank = rank_combination(self.names.len(), &group);
        let id = usize::try_from(rank).ok()? * self.cycles * self.players
            + cycle * self.players
            + rotation;
        (id < self.len && self.key(id) == key && self.place(id).2 == seated).then_some(id)
    }

    fn key_of(&self, seats: &[usize], cycle: usize) -> String {
        let seated: Vec<&str> = seats.iter().map(|&i| self.names[i].as_str()).collect();
        format!("{}#{cycle}", seated.join(","))
    }
}

/// Refuses a schedule of more than [`MAX_GAMES`] games, saying how many it would have.
pub fn check_size(agents: usize, players: usize, games_per_group: u32) -> anyhow::Result<()> {
    let games = game_count(agents, players, games_per_group);
    if games > u128::from(MAX_GAMES) {
        bail!(
            "the league would schedule {games} games ({} groups of {players} among {agents} agents, {} games each); \
             at most {MAX_GAMES} are allowed: lower `games_per_group` or split the agents into several leagues",
            binomial(agents as u128, players as u128),
            games_per_group / players as u32 * players as u32,
        );
    }
    Ok(())
}

/// Number of games of the schedule, without building it (saturating at `u128::MAX`).
pub fn game_count(agents: usize, players: usize, games_per_group: u32) -> u128 {
    binomial(agents as u128, players as u128).saturating_mul(u128::from(
        games_per_group / players as u32 * players as u32,
    ))
}

/// `n` choose `k`, saturating at `u128::MAX`.
fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    // Exact at every step: a product of i + 1 consecutive integers is divisible by (i + 1)!.
    (0..k)
        .try_fold(1u128, |acc, i| Some(acc.checked_mul(n - i)? / (i + 1)))
        .unwrap_or(u128::MAX)
}

/// The `rank`-th (from 0) `k`-subset of `0..n` in lexicographic order.
///
/// Element by element: the subsets whose next element is `c` number `C(n-1-c, m)` (m elements
/// still to choose after it), so those with next element in `a..c` number
/// `C(n-a, m+1) - C(n-c, m+1)`; the next element is the largest `c` for which that does not
/// exceed what is left of `rank`, found by bisection since `C(n-c, m+1)` falls as `c` grows.
fn unrank_combination(n: usize, k: usize, mut rank: u128) -> Vec<usize> {
    let mut out = Vec::with_capacity(k);
    let mut a = 0usize;
    for j in 0..k {
        let m = (k - 1 - j) as u128;
        let total = binomial((n - a) as u128, m + 1);
        let skipped = |c: usize| total - binomial((n - c) as u128, m + 1);
        // The largest c in a..=n-1-m with skipped(c) <= rank.
        let (mut lo, mut hi) = (a, n - 1 - m as usize);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if skipped(mid) <= rank {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        rank -= skipped(lo);
        out.push(lo);
        a = lo + 1;
    }
    out
}

/// The rank of the sorted subset `subset` of `0..n` among the subsets of its size in
/// lexicographic order: the inverse of [`unrank_combination`], counted the same way.
fn rank_combination(n: usize, subset: &[usize]) -> u128 {
    let k = subset.len();
    let mut rank = 0u128;
    let mut a = 0usize;
    for (j, &c) in subset.iter().enumerate() {
        let m = (k - 1 - j) as u128;
        rank += binomial((n - a) as u128, m + 1) - binomial((n - c) as u128, m + 1);
        a = c + 1;
    }
    rank
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("agent{i}")).collect()
    }

    /// The whole schedule, game by game.
    fn schedule(
        names: &[String],
        players: usize,
        games_per_group: u32,
        league_seed: u64,
    ) -> Vec<GameSpec> {
        let s = Schedule::new(names, players, games_per_group, league_seed).unwrap();
        (0..s.len()).map(|i| s.game(i)).collect()
    }

    /// The schedule as the arena built it before it was computed game by game (every group
    /// listed, then every game pushed): the reference every game id, key and seed must match.
    fn materialised(
        names: &[String],
        players: usize,
        games_per_group: u32,
        league_seed: u64,
    ) -> Vec<GameSpec> {
        let cycles = games_per_group as usize / players;
        let mut games = Vec::new();
        for group in combinations(names.len(), players) {
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

    #[test]
    fn ranking_a_combination_undoes_unranking_it() {
        for n in 1..9 {
            for k in 1..=n {
                for (r, subset) in combinations(n, k).iter().enumerate() {
                    assert_eq!(unrank_combination(n, k, r as u128), *subset);
                    assert_eq!(rank_combination(n, subset), r as u128, "{n} {k} {subset:?}");
                }
            }
        }
    }

    #[test]
    fn every_game_is_found_by_its_seats_and_key_and_keeps_its_seed_when_agents_are_added() {
        for players in 1..=3 {
            let few = names(4);
            let mut more = names(6);
            more.swap(0, 5);
            let small = Schedule::new(&few, players, 2 * players as u32, 7).unwrap();
            let big = Schedule::new(&more, players, 2 * players as u32, 7).unwrap();
            for id in 0..big.len() {
                let g = big.game(id);
                let seats: Vec<String> = g.seats.iter().map(|&a| more[a].clone()).collect();
                assert_eq!(big.id_of(&seats, &g.key), Some(id));
            }
            for id in 0..small.len() {
                let g = small.game(id);
                let seats: Vec<String> = g.seats.iter().map(|&a| few[a].clone()).collect();
                let grown = big
                    .id_of(&seats, &g.key)
                    .expect("scheduled in the grown league");
                assert_eq!(big.game(grown).key, g.key);
                assert_eq!(big.game(grown).seed, g.seed, "{players} players, game {id}");
            }
            let stranger = vec!["nobody".to_string(); players];
            assert_eq!(big.id_of(&stranger, "x#0"), None);
        }
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

    #[test]
    fn a_schedule_too_large_to_play_is_refused_before_anything_is_built() {
        // 2 agents, 4294967294 games per pairing: this once aborted after eating all memory.
        let e = Schedule::new(&names(2), 2, 4_294_967_294, 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("4294967294 games") && e.contains(&format!("at most {MAX_GAMES}")),
            "{e}"
        );
        // Just within the limit is fine, and costs nothing until games are asked for.
        let s = Schedule::new(&names(2), 2, MAX_GAMES as u32, 1).unwrap();
        assert_eq!(s.len() as u64, MAX_GAMES);
        assert_eq!(s.game(s.len() - 1).key, "agent1,agent0#49999999");
        assert!(Schedule::new(&names(2), 2, MAX_GAMES as u32 + 2, 1).is_err());
        // More groups than u128 can count saturate rather than wrap.
        assert_eq!(game_count(1_000_000_000, 6, 12), u128::MAX);
        assert!(check_size(1_000_000_000, 6, 12).is_err());
    }

    #[test]
    fn a_large_league_computes_any_game_without_listing_the_others() {
        // 3,000 agents: 17,994,000 games, the last group being the last two agents.
        let s = Schedule::new(&names(3000), 2, 4, 3).unwrap();
        assert_eq!(s.len(), 4_498_500 * 4);
        let last = s.game(s.len() - 1);
        assert_eq!(last.seats, [2999, 2998]);
        assert_eq!(last.key, "agent2999,agent2998#1");
        // Groups 0 to 2998 pair agent 0 with each other agent; group 2999 is (1, 2).
        assert_eq!(s.game(2998 * 4).seats, [0, 2999]);
        assert_eq!(s.key(2998 * 4 + 3), "agent2999,agent0#1");
        assert_eq!(s.game(2999 * 4).seats, [1, 2]);
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

        #[test]
        fn every_game_is_the_one_the_materialised_schedule_had(
            agents in 1usize..13,
            players in 1usize..7,
            cycles in 1u32..4,
            seed in any::<u64>(),
            // Names in any order, so that sorting inside a group matters.
            salt in proptest::collection::vec(any::<u16>(), 12),
        ) {
            prop_assume!(players <= agents);
            let ns: Vec<String> = (0..agents).map(|i| format!("{}-{i}", salt[i])).collect();
            let gpg = cycles * players as u32;
            let lazy = schedule(&ns, players, gpg, seed);
            prop_assert_eq!(&lazy, &materialised(&ns, players, gpg, seed));
            let s = Schedule::new(&ns, players, gpg, seed).unwrap();
            for g in &lazy {
                prop_assert_eq!(&s.key(g.id), &g.key);
            }
        }
    }

    proptest! {
        /// Cutting a league to its first cycles keeps each kept game whole (seats, seed, key)
        /// under the id the smaller schedule gives it; cycle-major order visits every game once.
        #[test]
        fn a_cut_league_is_the_smaller_league(
            agents in 1usize..6,
            players in 1usize..4,
            cycles in 1u32..5,
            keep in 1usize..5,
            seed in any::<u64>(),
        ) {
            prop_assume!(players <= agents && keep <= cycles as usize);
            let ns = names(agents);
            let full = Schedule::new(&ns, players, cycles * players as u32, seed).unwrap();
            let cut = Schedule::new(&ns, players, (keep * players) as u32, seed).unwrap();
            let mut kept = 0;
            for id in 0..full.len() {
                let game = full.game(id);
                prop_assert_eq!(full.cycle(id) < keep, full.id_when_cut(id, keep).is_some());
                if let Some(new_id) = full.id_when_cut(id, keep) {
                    kept += 1;
                    let small = cut.game(new_id);
                    prop_assert_eq!((&small.seats, small.seed, &small.key), (&game.seats, game.seed, &game.key));
                    prop_assert_eq!(cut.cycle(new_id), full.cycle(id));
                }
            }
            prop_assert_eq!(kept, cut.len());
            let mut order: Vec<usize> = (0..full.len()).map(|k| full.cycle_major(k)).collect();
            let cycles_in_order: Vec<usize> = order.iter().map(|&id| full.cycle(id)).collect();
            prop_assert!(cycles_in_order.windows(2).all(|w| w[0] <= w[1]), "cycle by cycle");
            order.sort_unstable();
            prop_assert_eq!(order, (0..full.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn every_subset_is_unranked_in_lexicographic_order() {
        for n in 0..12 {
            for k in 0..=n.min(7) {
                let all = combinations(n, k);
                assert_eq!(all.len() as u128, binomial(n as u128, k as u128));
                for (rank, c) in all.iter().enumerate() {
                    assert_eq!(&unrank_combination(n, k, rank as u128), c, "n {n} k {k}");
                }
            }
        }
    }
}
