//! The ladder: what to play next, and the ratings.
//!
//! A newly accepted version is *placed* first: it plays `ladder.placement_games` games against
//! every group of active opponents, seats rotated on shared seeds as a league plays them (for two
//! players, against each opponent). Then, while games are few in the queue, more cycles are
//! scheduled where the ratings are least certain: the agent with the widest interval (that has
//! not reached `ladder.max_games_per_version` games) against the opponents rated nearest to it,
//! until every interval is under `ladder.target_interval`. Only games whose every seat is an
//! active version count: when a contestant's new version is accepted, the games of the version it
//! replaces stop counting, and its games not yet played are cancelled.
//!
//! The [`Board`] keeps the counted results in memory (loaded from the database at start-up, then
//! added as workers' results are written) and the leaderboard computed from them with the
//! league's fit, at most a few times a second.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use super::db::{self, ActiveVersion, NewGame};
use super::engine::{self, Standing};
use super::App;
use crate::jobs::db::Db;
use crate::jobs::now_ms;
use crate::league::result::GameResult;

/// One line of the leaderboard.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Entry {
    pub rank: usize,
    pub name: String,
    pub contestant: i64,
    pub version: i64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub rating: Option<f64>,
    pub interval: Option<f64>,
    pub faults: u32,
}

/// The leaderboard as `GET /api/leaderboard` gives it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Leaderboard {
    /// `rating` (Bradley–Terry, Elo scale, higher is better) or `turns` (the solo benchmark: mean
    /// turns to the target, fewer is better).
    pub measure: &'static str,
    /// Games that count (between active versions).
    pub games: usize,
    pub agents: Vec<Entry>,
}

/// A counted game: its seats' version ids, and its result.
type Counted = (Vec<i64>, GameResult);

struct BoardState {
    active: Vec<ActiveVersion>,
    /// By game id. A result names its seats by the labels they had when it was played; the
    /// board goes by the seats' version ids, so that a contestant renamed keeps their results.
    results: BTreeMap<i64, Counted>,
    /// Set when results or versions changed since the leaderboard was computed.
    dirty: bool,
    leaderboard: Arc<Leaderboard>,
    json: Arc<str>,
}

pub struct Board {
    measure: &'static str,
    state: Mutex<BoardState>,
    /// Held through a whole [`Board::reload`], so that reloads end in the order they began: an
    /// upload's reload that read the versions before the ladder marked one placed must not write
    /// them after the ladder's own reload, or the board would keep the version unplaced and the
    /// ladder would never schedule it again.
    reloading: tokio::sync::Mutex<()>,
}

impl Board {
    pub fn new(measure: &'static str) -> Board {
        let empty = Leaderboard {
            measure,
            games: 0,
            agents: Vec::new(),
        };
        Board {
            measure,
            state: Mutex::new(BoardState {
                active: Vec::new(),
                results: BTreeMap::new(),
                dirty: true,
                json: serde_json::to_string(&empty).expect("JSON").into(),
                leaderboard: Arc::new(empty),
            }),
            reloading: tokio::sync::Mutex::new(()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BoardState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reads the active versions and the results that count from the database. A result added
    /// while the database was being read (its game committed after the read) is kept: results are
    /// never taken back, only left out once one of their versions is replaced.
    pub async fn reload(&self, db: &Db) -> anyhow::Result<()> {
        let _one_at_a_time = self.reloading.lock().await;
        let active = db.active_versions().await?;
        let mut results = BTreeMap::new();
        for (id, json, seats) in db.counted_results().await? {
            let r: GameResult = serde_json::from_str(&json)
                .map_err(|e| anyhow::anyhow!("game {id}: unreadable result: {e}"))?;
            results.insert(id, (seats, r));
        }
        let mut s = self.lock();
        let ids = ids(&active);
        let added = std::mem::take(&mut s.results);
        results.extend(added.into_iter().filter(|(_, r)| counts(r, &ids)));
        s.active = active;
        s.results = results;
        s.dirty = true;
        Ok(())
    }

    /// Adds the results of games just counted. A result whose version the board does not know
    /// as active yet (it was accepted while the result was on its way) is kept all the same: the
    /// leaderboard counts only the results of the versions active when it is computed.
    pub fn add(&self, results: impl IntoIterator<Item = (i64, Vec<i64>, GameResult)>) {
        let mut s = self.lock();
        for (id, seats, r) in results {
            s.results.insert(id, (seats, r));
            s.dirty = true;
        }
    }

    /// Recomputes the leaderboard if anything changed; returns its JSON when it did.
    pub fn refresh(&self) -> Option<Arc<str>> {
        let (active, results) = {
            let mut s = self.lock();
            if !s.dirty {
                return None;
            }
            s.dirty = false;
            // Each counted result with its seats named as the versions are named now.
            let labels: HashMap<i64, String> = s.active.iter().map(|v| (v.id, v.label())).collect();
            let counted: Vec<GameResult> = s
                .results
                .values()
                .filter_map(|(seats, r)| {
                    let names: Option<Vec<String>> =
                        seats.iter().map(|v| labels.get(v).cloned()).collect();
                    let mut r = r.clone();
                    r.seats = names?;
                    Some(r)
                })
                .collect();
            (s.active.clone(), counted)
        };
        // The fit runs without the lock: pages keep reading the previous leaderboard meanwhile.
        let board = leaderboard(self.measure, &active, &results);
        let json: Arc<str> = serde_json::to_string(&board).expect("JSON").into();
        let mut s = self.lock();
        s.leaderboard = Arc::new(board);
        s.json = Arc::clone(&json);
        Some(json)
    }

    pub fn current(&self) -> Arc<Leaderboard> {
        Arc::clone(&self.lock().leaderboard)
    }

    pub fn json(&self) -> Arc<str> {
        Arc::clone(&self.lock().json)
    }

    /// Counted games of each active version, by version id.
    pub fn active(&self) -> Vec<ActiveVersion> {
        self.lock().active.clone()
    }

    /// The active version of contestant `id`, if one plays.
    pub fn active_of(&self, id: i64) -> Option<ActiveVersion> {
        self.lock()
            .active
            .iter()
            .find(|v| v.contestant_id == id)
            .cloned()
    }
}

/// The ids of the active versions.
fn ids(active: &[ActiveVersion]) -> HashSet<i64> {
    active.iter().map(|v| v.id).collect()
}

/// Whether a result counts: every seat is an active version.
fn counts(result: &Counted, ids: &HashSet<i64>) -> bool {
    result.0.iter().all(|v| ids.contains(v))
}

fn leaderboard(
    measure: &'static str,
    active: &[ActiveVersion],
    results: &[GameResult],
) -> Leaderboard {
    let labels: Vec<String> = active.iter().map(ActiveVersion::label).collect();
    let by_label: HashMap<&str, &ActiveVersion> = labels
        .iter()
        .map(String::as_str)
        .zip(active.iter())
        .collect();
    let standings: Vec<Standing> = if labels.is_empty() {
        Vec::new()
    } else {
        engine::fit(&labels, results)
    };
    Leaderboard {
        measure,
        games: results.len(),
        agents: standings
            .into_iter()
            .filter_map(|s| {
                let v = by_label.get(s.name.as_str())?;
                Some(Entry {
                    rank: s.rank,
                    name: v.name.clone(),
                    contestant: v.contestant_id,
                    version: v.number,
                    games: s.games,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    rating: s.rating,
                    interval: s.interval,
                    faults: s.faults,
                })
            })
            .collect(),
    }
}

/// The identity of a group of versions, whatever their order: their ids, sorted.
fn group_key(ids: &[i64]) -> String {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// The games of cycles `cycles` of `group` (versions in id order).
fn group_games(group: &[&ActiveVersion], cycles: std::ops::Range<u32>, seed: u64) -> Vec<NewGame> {
    let labels: Vec<String> = group.iter().map(|v| v.label()).collect();
    engine::pairings(&labels, cycles, seed)
        .into_iter()
        .map(|p| NewGame {
            cycle: i64::from(p.cycle),
            rotation: i64::from(p.rotation),
            seed: p.seed,
            seats: p.seats.iter().map(|&i| group[i].id).collect(),
        })
        .collect()
}

/// The groups a new version `v` is placed against: for two players each opponent; for more, the
/// opponents in order, `players - 1` at a time, the last group filled up from the first ones.
fn placement_groups<'a>(
    v: &'a ActiveVersion,
    others: &[&'a ActiveVersion],
    players: usize,
) -> Vec<Vec<&'a ActiveVersion>> {
    let need = players - 1;
    if others.len() < need {
        return Vec::new();
    }
    if need == 0 {
        return vec![vec![v]];
    }
    let mut groups = Vec::new();
    let mut i = 0;
    while i < others.len() {
        let mut g: Vec<&ActiveVersion> = vec![v];
        for k in 0..need {
            g.push(others[(i + k) % others.len()]);
        }
        g.sort_by_key(|a| a.id);
        groups.push(g);
        i += need;
    }
    groups
}

/// Schedules the placement games of every active version not yet placed (oldest first, each
/// against the versions placed before it). Returns the number of new games.
pub async fn place_new_versions(app: &App) -> anyhow::Result<usize> {
    let active = app.db.active_versions().await?;
    let players = app.challenge.players_per_game;
    let cycles = app.challenge.ladder.placement_games / players as u32;
    let mut placed: Vec<&ActiveVersion> = active.iter().filter(|v| v.placed).collect();
    let mut new = 0;
    for v in active.iter().filter(|v| !v.placed) {
        let groups = placement_groups(v, &placed, players);
        if groups.is_empty() {
            app.db
                .schedule("placement", "", &[], Some(v.id), now_ms())
                .await?;
        }
        let last = groups.len().saturating_sub(1);
        for (i, g) in groups.iter().enumerate() {
            let ids: Vec<i64> = g.iter().map(|a| a.id).collect();
            let games = group_games(g, 0..cycles, app.challenge.ladder.seed);
            // The version is marked placed with its last group, in the same transaction.
            let mark = (i == last).then_some(v.id);
            new += app
                .db
                .schedule("placement", &group_key(&ids), &games, mark, now_ms())
                .await?;
        }
        placed.push(v);
    }
    Ok(new)
}

/// Fewer games than this and an agent's interval says nothing yet: two solo games of the same
/// length give an interval of width 0, which would end that agent's ladder at its placement.
const GAMES_FOR_AN_INTERVAL: u32 = 10;

/// How uncertain an agent's place is: the width of its interval, unbounded while it has none or
/// has played too few games for one to mean anything.
fn uncertainty(e: &Entry) -> f64 {
    match e.interval {
        Some(w) if e.games >= GAMES_FOR_AN_INTERVAL => w,
        _ => f64::INFINITY,
    }
}

/// Schedules one more cycle for each of up to `room / players` groups where the ratings are
/// least certain. Returns the number of new games.
pub async fn schedule_uncertain(app: &App, room: usize) -> anyhow::Result<usize> {
    let ladder = &app.challenge.ladder;
    let players = app.challenge.players_per_game;
    let board = app.board.current();
    let active = app.board.active();
    let by_id: HashMap<(i64, i64), &ActiveVersion> = active
        .iter()
        .map(|v| ((v.contestant_id, v.number), v))
        .collect();
    // (entry, version) of every placed active version on the board.
    let mut rows: Vec<(&Entry, &ActiveVersion)> = board
        .agents
        .iter()
        .filter_map(|e| {
            by_id
                .get(&(e.contestant, e.version))
                .filter(|v| v.placed)
                .map(|v| (e, *v))
        })
        .collect();
    if rows.len() < players {
        return Ok(0);
    }
    let wide = uncertainty;
    rows.sort_by(|a, b| {
        wide(b.0)
            .total_cmp(&wide(a.0))
            .then(a.0.games.cmp(&b.0.games))
    });
    // The cap counts the games of each version in the database, those on their way included: the
    // board is refreshed a few times a second only, and fast games would pass it by many.
    let mut pending = app.db.games_by_version().await?;
    let max = i64::from(ladder.max_games_per_version);
    let total = |_: &Entry, v: &ActiveVersion, pending: &HashMap<i64, i64>| {
        pending.get(&v.id).copied().unwrap_or(0)
    };
    let mut new = 0;
    let mut groups = 0;
    for (e, v) in &rows {
        if groups == room.div_ceil(players) {
            break;
        }
        if wide(e) <= ladder.target_interval || total(e, v, &pending) >= max {
            continue;
        }
        let r = e.rating.unwrap_or(0.0);
        let mut others: Vec<&(&Entry, &ActiveVersion)> = rows
            .iter()
            .filter(|(oe, o)| o.id != v.id && total(oe, o, &pending) < max)
            .collect();
        others.sort_by(|a, b| {
            let d = |x: &Entry| (x.rating.unwrap_or(0.0) - r).abs();
            d(a.0).total_cmp(&d(b.0)).then(a.1.id.cmp(&b.1.id))
        });
        let mut group: Vec<&ActiveVersion> = vec![v];
        group.extend(others.iter().take(players - 1).map(|(_, o)| *o));
        if group.len() < players {
            continue;
        }
        group.sort_by_key(|a| a.id);
        let ids: Vec<i64> = group.iter().map(|a| a.id).collect();
        let key = group_key(&ids);
        let next = app.db.last_cycle(&key).await?.map_or(0, |c| c + 1) as u32;
        let games = group_games(&group, next..next + 1, ladder.seed);
        let added = app
            .db
            .schedule("ladder", &key, &games, None, now_ms())
            .await?;
        for a in &group {
            *pending.entry(a.id).or_default() += added as i64;
        }
        new += added;
        groups += 1;
    }
    Ok(new)
}

/// Keeps the queue fed: placement first, then uncertainty games while the queue is short. Wakes
/// when a version is accepted or games are counted, and every few seconds.
pub async fn schedule_loop(app: Arc<App>) {
    loop {
        if app.final_started.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let pass = async {
            // Enough games queued for every thread playing them: the server's own, and with a
            // shared database those of the workers heard of in the last minute.
            let remote = if app.db.shared() {
                app.db.worker_threads_since(now_ms() - 60_000).await?
            } else {
                0
            };
            let low_water = ((app.challenge.workers as i64 + remote) * 4).max(8);
            let mut new = place_new_versions(&app).await?;
            if new > 0 {
                app.board.reload(&app.db).await?;
            }
            let pending = app.db.pending_games().await?;
            if pending < low_water {
                new += schedule_uncertain(&app, (2 * low_water - pending) as usize).await?;
            }
            anyhow::Ok(new)
        };
        match pass.await {
            Ok(n) if n > 0 => app.work.notify_waiters(),
            Ok(_) => {}
            Err(e) => eprintln!("warning: the ladder could not schedule games: {e:#}"),
        }
        let _ = tokio::time::timeout(Duration::from_secs(2), app.schedule.notified()).await;
    }
}

/// Recomputes the leaderboard when results came in (at most four times a second) and sends it to
/// the pages that listen.
pub async fn ratings_loop(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        tick.tick().await;
        let board = Arc::clone(&app);
        let json = tokio::task::spawn_blocking(move || board.board.refresh())
            .await
            .ok()
            .flatten();
        if let Some(json) = json {
            app.events.send("leaderboard", json);
            app.pages.changed();
            // Fresh ratings may open room for games where they are least certain.
            app.schedule.notify_one();
        }
    }
}

/// The label of a seat for the records: the contestant's name and the version number.
pub fn seat_label(name: &str, number: i64) -> String {
    db::label(name, number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_from_a_few_games_is_no_certainty() {
        let mut e = Entry {
            rank: 1,
            name: "solo".into(),
            contestant: 1,
            version: 1,
            games: 2,
            wins: 2,
            draws: 0,
            losses: 0,
            rating: Some(33.0),
            interval: Some(0.0),
            faults: 0,
        };
        assert_eq!(uncertainty(&e), f64::INFINITY);
        e.games = GAMES_FOR_AN_INTERVAL;
        assert_eq!(uncertainty(&e), 0.0);
        e.interval = None;
        assert_eq!(uncertainty(&e), f64::INFINITY);
    }

    fn v(id: i64) -> ActiveVersion {
        ActiveVersion {
            id,
            contestant_id: id,
            name: format!("c{id}"),
            number: 1,
            sha256: String::new(),
            placed: true,
        }
    }

    #[test]
    fn two_player_placement_meets_every_opponent_once() {
        let (a, b, c, d) = (v(4), v(1), v(2), v(3));
        let groups = placement_groups(&a, &[&b, &c, &d], 2);
        let ids: Vec<Vec<i64>> = groups
            .iter()
            .map(|g| g.iter().map(|x| x.id).collect())
            .collect();
        assert_eq!(ids, vec![vec![1, 4], vec![2, 4], vec![3, 4]]);
        assert!(placement_groups(&a, &[], 2).is_empty());
        assert_eq!(placement_groups(&a, &[], 1).len(), 1, "solo: alone");
    }

    #[test]
    fn larger_tables_cover_every_opponent_and_fill_the_last_group() {
        let vs: Vec<ActiveVersion> = (1..=5).map(v).collect();
        let others: Vec<&ActiveVersion> = vs[1..].iter().collect();
        let groups = placement_groups(&vs[0], &others, 3);
        assert_eq!(groups.len(), 2);
        for g in &groups {
            assert_eq!(g.len(), 3);
            assert!(g.iter().any(|x| x.id == 1));
        }
        let groups = placement_groups(&vs[0], &others[..3], 3);
        assert_eq!(groups.len(), 2);
        assert!(groups[1].iter().any(|x| x.id == 2), "filled from the first");
        assert!(placement_groups(&vs[0], &others[..1], 3).is_empty());
    }

    #[test]
    fn group_games_rotate_seats_over_the_group() {
        let (a, b) = (v(1), v(2));
        let games = group_games(&[&a, &b], 0..2, 1);
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].seats, vec![1, 2]);
        assert_eq!(games[1].seats, vec![2, 1]);
        assert_eq!(games[0].seed, games[1].seed);
        assert_ne!(games[0].seed, games[2].seed);
        assert_eq!(group_key(&[5, 3, 10]), "3,5,10");
    }
}
