//! The challenge file (`challenge.toml`): parsing and validation, in the style of the league file:
//! unknown keys and bad values are refused with a message naming the key. Every key is documented
//! in docs/SERVER.md.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::Deserialize;

use crate::game::GameSettings;
use crate::game::{FaultPolicy, Game};
use crate::league::config::Budgets;
use crate::referee;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChallenge {
    name: Option<String>,
    game: Option<String>,
    players_per_game: Option<usize>,
    round_cap: Option<u32>,
    fault_policy: Option<FaultPolicy>,
    data: Option<PathBuf>,
    database: Option<String>,
    listen: Option<String>,
    /// TOML offset date-time, e.g. `2026-12-01T18:00:00Z`.
    deadline: Option<toml::value::Datetime>,
    workers: Option<usize>,
    invite_code: Option<String>,
    #[serde(default)]
    budgets: Budgets,
    #[serde(default)]
    ladder: RawLadder,
    #[serde(default)]
    uploads: RawUploads,
    #[serde(default, rename = "final")]
    final_round: RawFinal,
    #[serde(default)]
    server: RawServer,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    max_connections: Option<usize>,
    header_timeout_s: Option<u64>,
    body_min_kib_per_s: Option<u64>,
    upload_buffer_mib: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLadder {
    seed: Option<u64>,
    placement_games: Option<u32>,
    target_interval: Option<f64>,
    max_games_per_version: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUploads {
    max_kib: Option<u64>,
    per_hour: Option<u32>,
    check_games: Option<u32>,
    checks_at_once: Option<usize>,
    tests_per_hour: Option<u32>,
    test_pairs: Option<u32>,
    compile_cpu_s: Option<u64>,
    python: Option<PathBuf>,
    node: Option<PathBuf>,
    node_modules: Option<PathBuf>,
    build_cpu_s: Option<u64>,
    build_wall_s: Option<u64>,
    build_memory_mib: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFinal {
    games_per_group: Option<u32>,
    seed: Option<u64>,
    output: Option<PathBuf>,
    double_play: Option<f64>,
}

/// The ladder's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Seeds of ladder games derive from it (as a league's from the league seed).
    pub seed: u64,
    /// Games a new version plays against each group of active opponents before anything else: a
    /// multiple of `players_per_game`, so that every seat order is played equally often.
    pub placement_games: u32,
    /// Half-width of the rating interval under which an agent gets no more games: Elo points, or
    /// turns for the solo benchmark.
    pub target_interval: f64,
    /// Games after which a version gets no more games however uncertain its rating.
    pub max_games_per_version: u32,
}

/// Upload settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uploads {
    /// Largest upload, in bytes (never more than the module size budget).
    pub max_bytes: u64,
    /// Uploads per contestant in any hour.
    pub per_hour: u32,
    /// Smoke games of the upload check (as `arena check --games`).
    pub check_games: u32,
    /// Upload checks run at the same time; more wait their turn (at most one per contestant,
    /// contestants served in turn).
    pub checks_at_once: usize,
    /// Test runs (the editor's Test, `POST /api/tests`) per contestant in any hour.
    pub tests_per_hour: u32,
    /// Seat-swapped pairs of games a test run plays against each opponent (a pair is
    /// `players_per_game` games, the tested agent in each seat once).
    pub test_pairs: u32,
    /// The compile deadline of an upload, in milliseconds of CPU time.
    pub compile_cpu_ms: u64,
    /// How Python and JavaScript uploads are built (`super::build`).
    pub build: Build,
}

/// The toolchains and limits of the builds of Python and JavaScript uploads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// The Python interpreter that has componentize-py (a name looked up on `PATH`, or a path).
    pub python: PathBuf,
    /// Node.js (a name looked up on `PATH`, or a path).
    pub node: PathBuf,
    /// The `node_modules` folder that has @bytecodealliance/componentize-js; `None`: the
    /// checkout's `example-agents/javascript/node_modules`, if there is one.
    pub node_modules: Option<PathBuf>,
    /// CPU time of a build, in seconds (each process of it).
    pub cpu_s: u64,
    /// Wall time of a build, in seconds: it is killed then.
    pub wall_s: u64,
    /// Writable memory of each process of a build, in MiB (`RLIMIT_DATA`).
    pub memory_mib: u64,
}

/// The HTTP side's limits: what a client may hold of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    /// Connections open at once; more wait to be accepted.
    pub max_connections: usize,
    /// Time to send a request's headers, and to start the next request on a kept-alive
    /// connection: a connection silent for longer is closed.
    pub header_timeout_ms: u64,
    /// Slowest a request body may come, after a first `header_timeout_ms` of grace (bytes a
    /// second, on average since the body began).
    pub body_min_bytes_per_s: u64,
    /// Memory for upload bodies being received, all of them together (bytes); an upload waits
    /// for room.
    pub upload_buffer_bytes: u64,
}

/// The final round-robin, played at the deadline over each contestant's last accepted version.
#[derive(Clone, Debug, PartialEq)]
pub struct Final {
    pub games_per_group: u32,
    pub seed: u64,
    /// Its output folder (as `arena league`'s), relative to the data folder unless absolute.
    pub output: PathBuf,
    /// With a shared database: the fraction of the final's games played twice by workers of two
    /// names, as the league file's `double_play`.
    pub double_play: f64,
}

/// A validated challenge.
#[derive(Clone, Debug)]
pub struct Challenge {
    pub name: String,
    pub game: &'static dyn Game,
    /// The game's own settings (the table named after the game), as the game completed them.
    pub settings: GameSettings,
    pub players_per_game: usize,
    pub round_cap: u32,
    pub fault_policy: FaultPolicy,
    pub data: PathBuf,
    /// The PostgreSQL database (`postgres://...`), shared with workers on other machines;
    /// `None`: SQLite in the data folder.
    pub database: Option<String>,
    pub listen: SocketAddr,
    /// Unix time in milliseconds after which submissions close and the final is played.
    pub deadline_ms: Option<i64>,
    /// The deadline as written, for people.
    pub deadline_text: Option<String>,
    /// Threads playing ladder games (0: none, with a shared database whose workers on other
    /// machines play them).
    pub workers: usize,
    /// Self-registration is open to whoever knows this code.
    pub invite_code: Option<String>,
    pub budgets: Budgets,
    pub ladder: Ladder,
    pub uploads: Uploads,
    pub final_round: Final,
    pub server: Server,
}

/// Connections open at once by default: far below the usual limit of 1,024 open files, which the
/// ladder's workers, the database, uploads being checked and their compiler children share.
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

pub const DEFAULT_DATA: &str = "arena-data";
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

impl Challenge {
    /// The challenge served without a file: the first game of the registry, two players, default
    /// budgets, data in `./arena-data`.
    pub fn default_challenge() -> Challenge {
        Challenge::parse("", Path::new(".")).expect("the default challenge is valid")
    }

    /// Reads a challenge file; relative paths in it are relative to its folder.
    pub fn load(path: &Path) -> anyhow::Result<Challenge> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read challenge file {}", path.display()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        Challenge::parse(&text, base).with_context(|| format!("challenge file {}", path.display()))
    }

    pub fn parse(text: &str, base: &Path) -> anyhow::Result<Challenge> {
        let (raw, game_keys): (RawChallenge, _) =
            crate::league::config::parse_with_game_table(text)?;
        let game = match &raw.game {
            Some(name) => {
                referee::parse_game(name).map_err(|e| anyhow::anyhow!("key `game`: {e}"))?
            }
            None => crate::games::registry().first(),
        };
        let settings = game.settings(game_keys.as_ref())?;
        let players_per_game = raw.players_per_game.unwrap_or(2);
        let seats = referee::seats(game);
        if !seats.contains(&players_per_game) {
            bail!(
                "key `players_per_game`: {players_per_game} is not between {} and {} (for {game})",
                seats.start(),
                seats.end(),
            );
        }
        let round_cap = raw.round_cap.unwrap_or(300);
        if round_cap == 0 {
            bail!("key `round_cap`: must be at least 1");
        }
        referee::check_budgets(&raw.budgets)?;
        let name = raw.name.unwrap_or_else(|| "challenge".into());
        if name.trim().is_empty() || name.contains(|c: char| c.is_control()) {
            bail!("key `name`: must be non-empty printable text");
        }
        let listen_text = raw.listen.unwrap_or_else(|| DEFAULT_LISTEN.into());
        let listen: SocketAddr = listen_text.parse().map_err(|_| {
            anyhow::anyhow!(
                "key `listen`: {listen_text:?} is not an address and port such as 127.0.0.1:8080"
            )
        })?;
        let (deadline_ms, deadline_text) = match raw.deadline {
            Some(d) => (
                Some(unix_ms(&d).map_err(|e| anyhow::anyhow!("key `deadline`: {e}"))?),
                Some(d.to_string()),
            ),
            None => (None, None),
        };
        let workers = match raw.workers {
            // With a shared database, workers on other machines may play every game.
            Some(0) if raw.database.is_some() => 0,
            Some(0) => bail!(
                "key `workers`: must be at least 1 (leave it out for one per core); 0, a server \
                 that plays no game itself, needs the key `database` (workers on other machines \
                 play then)"
            ),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        if let Some(code) = &raw.invite_code {
            if code.len() < 8 {
                bail!("key `invite_code`: at least 8 characters, so that it cannot be guessed");
            }
        }
        let p = players_per_game as u32;
        let ladder = ladder(&raw.ladder, p)?;
        let uploads = uploads(&raw.uploads, &raw.budgets, base)?;
        let server = server(&raw.server, uploads.max_bytes)?;
        let final_round = final_round(raw.final_round, p)?;
        let data = base.join(raw.data.unwrap_or_else(|| PathBuf::from(DEFAULT_DATA)));
        if let Some(url) = &raw.database {
            crate::jobs::db::check_shared_url(url)
                .map_err(|e| anyhow::anyhow!("key `database`: {e}"))?;
        }
        Ok(Challenge {
            name,
            game,
            settings,
            players_per_game,
            round_cap,
            fault_policy: raw.fault_policy.unwrap_or_default(),
            data,
            database: raw.database,
            listen,
            deadline_ms,
            deadline_text,
            workers,
            invite_code: raw.invite_code,
            budgets: raw.budgets,
            ladder,
            uploads,
            server,
            final_round,
        })
    }

    /// The final league's output folder.
    pub fn final_dir(&self) -> PathBuf {
        self.data.join(&self.final_round.output)
    }
}

/// The ladder's keys checked, for games of `p` players.
fn ladder(raw: &RawLadder, p: u32) -> anyhow::Result<Ladder> {
    let placement_games = raw.placement_games.unwrap_or(2 * p);
    if placement_games == 0 || !placement_games.is_multiple_of(p) {
        bail!(
            "key `ladder.placement_games`: {placement_games} must be a positive multiple of players_per_game ({p}) so that every seat order is played equally often"
        );
    }
    // Elo points, or for the solo benchmark turns (whose intervals are a few turns wide).
    let target_interval = raw
        .target_interval
        .unwrap_or(if p == 1 { 0.5 } else { 30.0 });
    if !(target_interval.is_finite() && target_interval > 0.0) {
        bail!("key `ladder.target_interval`: must be a positive number of Elo points");
    }
    let max_games_per_version = raw.max_games_per_version.unwrap_or(2000);
    if max_games_per_version == 0 {
        bail!("key `ladder.max_games_per_version`: must be at least 1");
    }
    Ok(Ladder {
        seed: raw.seed.unwrap_or(1),
        placement_games,
        target_interval,
        max_games_per_version,
    })
}

/// The uploads' keys checked (the largest upload within the module size of `budgets`), and the
/// builds' (relative paths from `base`).
fn uploads(raw: &RawUploads, budgets: &Budgets, base: &Path) -> anyhow::Result<Uploads> {
    let module_bytes = referee::limits(budgets).module_bytes;
    let max_bytes = match raw.max_kib {
        Some(0) => bail!("key `uploads.max_kib`: must be at least 1"),
        Some(k) if k << 10 > module_bytes => bail!(
            "key `uploads.max_kib`: {k} KiB is more than the module size budget ({} KiB)",
            module_bytes >> 10
        ),
        Some(k) => k << 10,
        None => module_bytes,
    };
    let per_hour = raw.per_hour.unwrap_or(30);
    if per_hour == 0 {
        bail!("key `uploads.per_hour`: must be at least 1");
    }
    let check_games = raw.check_games.unwrap_or(4);
    if check_games == 0 {
        bail!("key `uploads.check_games`: must be at least 1");
    }
    let checks_at_once = raw.checks_at_once.unwrap_or(1);
    if checks_at_once == 0 {
        bail!("key `uploads.checks_at_once`: must be at least 1");
    }
    let tests_per_hour = raw.tests_per_hour.unwrap_or(30);
    if tests_per_hour == 0 {
        bail!("key `uploads.tests_per_hour`: must be at least 1");
    }
    let test_pairs = raw.test_pairs.unwrap_or(2);
    if !(1..=10).contains(&test_pairs) {
        bail!("key `uploads.test_pairs`: {test_pairs} is not between 1 and 10");
    }
    let compile_cpu_ms = match raw.compile_cpu_s {
        Some(0) => bail!("key `uploads.compile_cpu_s`: must be at least 1"),
        Some(s) => s.saturating_mul(1000),
        None => referee::DEFAULT_COMPILE_CPU_MS,
    };
    let build = build(raw, base)?;
    Ok(Uploads {
        max_bytes,
        per_hour,
        check_games,
        checks_at_once,
        tests_per_hour,
        test_pairs,
        compile_cpu_ms,
        build,
    })
}

/// The final round's keys checked, for games of `p` players.
fn final_round(raw: RawFinal, p: u32) -> anyhow::Result<Final> {
    let games_per_group = raw.games_per_group.unwrap_or(10 * p);
    if games_per_group == 0 || !games_per_group.is_multiple_of(p) {
        bail!(
            "key `final.games_per_group`: {games_per_group} must be a positive multiple of players_per_game ({p})"
        );
    }
    let double_play = raw
        .double_play
        .unwrap_or(crate::league::config::DEFAULT_DOUBLE_PLAY);
    if !(0.0..=1.0).contains(&double_play) {
        bail!("key `final.double_play`: {double_play} is not a fraction between 0 and 1");
    }
    Ok(Final {
        games_per_group,
        seed: raw.seed.unwrap_or(1),
        output: raw.output.unwrap_or_else(|| PathBuf::from("final")),
        double_play,
    })
}

/// The `[uploads]` keys of builds: paths relative to the challenge file's folder (a bare name,
/// such as the default `python3`, is looked up on `PATH`).
fn build(raw: &RawUploads, base: &Path) -> anyhow::Result<Build> {
    let tool = |p: &Option<PathBuf>, default: &str| match p {
        Some(p) if p.components().count() > 1 => base.join(p),
        Some(p) => p.clone(),
        None => PathBuf::from(default),
    };
    let positive = |v: Option<u64>, key: &str, default: u64| match v {
        Some(0) => bail!("key `uploads.{key}`: must be at least 1"),
        Some(v) => Ok(v),
        None => Ok(default),
    };
    Ok(Build {
        python: tool(&raw.python, "python3"),
        node: tool(&raw.node, "node"),
        node_modules: raw.node_modules.as_ref().map(|p| base.join(p)),
        cpu_s: positive(raw.build_cpu_s, "build_cpu_s", 120)?,
        wall_s: positive(raw.build_wall_s, "build_wall_s", 300)?,
        memory_mib: positive(raw.build_memory_mib, "build_memory_mib", 2048)?,
    })
}

/// The `[server]` table, checked; `max_upload` is the largest upload (the upload buffer must hold
/// one).
fn server(raw: &RawServer, max_upload: u64) -> anyhow::Result<Server> {
    let max_connections = raw.max_connections.unwrap_or(DEFAULT_MAX_CONNECTIONS);
    if max_connections == 0 {
        bail!("key `server.max_connections`: must be at least 1");
    }
    let header_timeout_s = raw.header_timeout_s.unwrap_or(10);
    if header_timeout_s == 0 || header_timeout_s > 3600 {
        bail!("key `server.header_timeout_s`: 1 to 3600 seconds");
    }
    let body_min_kib_per_s = raw.body_min_kib_per_s.unwrap_or(16);
    if body_min_kib_per_s == 0 {
        bail!("key `server.body_min_kib_per_s`: must be at least 1");
    }
    let upload_buffer_bytes = match raw.upload_buffer_mib {
        Some(m) if m << 20 < max_upload => bail!(
            "key `server.upload_buffer_mib`: {m} MiB cannot hold one upload of `uploads.max_kib` \
             ({} KiB)",
            max_upload >> 10
        ),
        Some(m) => m << 20,
        None => (256u64 << 20).max(max_upload),
    };
    Ok(Server {
        max_connections,
        header_timeout_ms: header_timeout_s * 1000,
        body_min_bytes_per_s: body_min_kib_per_s << 10,
        upload_buffer_bytes,
    })
}

/// Milliseconds since 1970 of a TOML date-time, which must have a date, a time and an offset.
fn unix_ms(d: &toml::value::Datetime) -> Result<i64, String> {
    let (Some(date), Some(clock), Some(offset)) = (d.date, d.time, d.offset) else {
        return Err(format!(
            "{d} needs a date, a time and a time zone, e.g. 2026-12-01T18:00:00Z"
        ));
    };
    let offset_minutes = match offset {
        toml::value::Offset::Z => 0,
        toml::value::Offset::Custom { minutes } => i32::from(minutes),
    };
    let bad = |e: time::error::ComponentRange| format!("{d}: {e}");
    let month = time::Month::try_from(date.month).map_err(bad)?;
    let at = time::Date::from_calendar_date(i32::from(date.year), month, date.day)
        .and_then(|day| day.with_hms_nano(clock.hour, clock.minute, clock.second, clock.nanosecond))
        .map_err(bad)?;
    let offset = time::UtcOffset::from_whole_seconds(offset_minutes * 60).map_err(bad)?;
    let nanos = at.assume_offset(offset).unix_timestamp_nanos();
    Ok(nanos.div_euclid(1_000_000) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        format!("{:#}", Challenge::parse(text, Path::new("/c")).unwrap_err())
    }

    #[test]
    fn the_default_challenge_is_the_farm_for_two_in_arena_data() {
        let c = Challenge::default_challenge();
        assert_eq!(c.game.name(), "little-animal-farm");
        assert_eq!(c.players_per_game, 2);
        assert_eq!(c.data, Path::new(".").join("arena-data"));
        assert_eq!(c.listen.to_string(), DEFAULT_LISTEN);
        assert_eq!(c.deadline_ms, None);
        assert_eq!(c.ladder.placement_games, 4);
        assert_eq!(c.final_round.games_per_group, 20);
    }

    #[test]
    fn a_complete_file_parses() {
        let c = Challenge::parse(
            r#"
name = "spring"
game = "farkle"
players_per_game = 1
round_cap = 200
fault_policy = "lose_move"
data = "state"
listen = "0.0.0.0:9000"
deadline = 2026-12-01T18:30:00+01:00
workers = 3
invite_code = "let-me-in-please"
[budgets]
fuel_per_decision = 1000
[ladder]
seed = 5
placement_games = 3
target_interval = 10.5
max_games_per_version = 50
[uploads]
max_kib = 64
per_hour = 5
check_games = 2
checks_at_once = 2
tests_per_hour = 12
test_pairs = 3
[final]
games_per_group = 7
seed = 9
output = "/srv/final"
"#,
            Path::new("/c"),
        )
        .unwrap();
        assert_eq!(c.game.name(), "farkle");
        assert_eq!(c.data, Path::new("/c/state"));
        // 17:30 UTC on 2026-12-01.
        assert_eq!(c.deadline_ms, Some(1_796_146_200_000));
        assert_eq!(c.workers, 3);
        assert_eq!(c.uploads.max_bytes, 64 << 10);
        assert_eq!((c.uploads.tests_per_hour, c.uploads.test_pairs), (12, 3));
        assert_eq!(c.ladder.placement_games, 3);
        assert_eq!(c.final_dir(), Path::new("/srv/final"));
        assert_eq!(c.budgets.fuel_per_decision, Some(1000));
    }

    #[test]
    fn broken_files_name_the_key() {
        assert!(err("rounds = 3").contains("rounds"));
        assert!(err("[ladder]\nspeed = 3").contains("speed"));
        assert!(err("game = 'chess'").contains("key `game`"));
        assert!(err("players_per_game = 1").contains("players_per_game"));
        assert!(err("listen = 'everywhere'").contains("key `listen`"));
        assert!(err("deadline = 2026-12-01").contains("key `deadline`"));
        assert!(err("deadline = 'tomorrow'").contains("deadline"));
        assert!(err("workers = 0").contains("key `workers`"));
        assert!(err("invite_code = 'abc'").contains("invite_code"));
        assert!(err("[uploads]\ntests_per_hour = 0").contains("uploads.tests_per_hour"));
        assert!(err("[uploads]\ntest_pairs = 0").contains("uploads.test_pairs"));
        assert!(err("[ladder]\nplacement_games = 3").contains("ladder.placement_games"));
        assert!(err("[ladder]\ntarget_interval = -1.0").contains("ladder.target_interval"));
        assert!(err("[uploads]\nmax_kib = 999999999").contains("uploads.max_kib"));
        assert!(err("[uploads]\nper_hour = 0").contains("uploads.per_hour"));
        assert!(err("[final]\ngames_per_group = 3").contains("final.games_per_group"));
        assert!(err("[uploads]\ncompile_cpu_s = 0").contains("uploads.compile_cpu_s"));
        assert!(err("[server]\nmax_connections = 0").contains("server.max_connections"));
        assert!(err("[server]\nheader_timeout_s = 0").contains("server.header_timeout_s"));
        assert!(err("[server]\nbody_min_kib_per_s = 0").contains("server.body_min_kib_per_s"));
        assert!(err("[server]\nupload_buffer_mib = 1").contains("server.upload_buffer_mib"));
        assert!(err("[server]\nthreads = 1").contains("threads"));
        assert!(err("[budgets]\nfuel_per_game = 0").contains("budgets.fuel_per_game"));
        assert!(err("name = ''").contains("key `name`"));
        assert!(err("database = 'sqlite://x.db'").contains("key `database`"));
        assert!(err("database = 'mysql://h/db'").contains("takes a PostgreSQL URL"));
    }

    #[test]
    fn a_server_on_a_shared_database_may_leave_every_game_to_remote_workers() {
        let c = Challenge::parse(
            "database = 'postgres://arena@db.example:5432/challenge'\nworkers = 0",
            Path::new("/c"),
        )
        .unwrap();
        assert_eq!(c.workers, 0);
        assert_eq!(
            c.database.as_deref(),
            Some("postgres://arena@db.example:5432/challenge")
        );
        assert!(err("workers = 0").contains("needs the key `database`"));
    }

    #[test]
    fn deadlines_are_milliseconds_since_1970_in_utc() {
        let ms = |text: &str| unix_ms(&text.parse().unwrap());
        assert_eq!(ms("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(ms("2000-03-01T00:00:00Z"), Ok(11_017 * 86_400_000));
        assert_eq!(ms("1969-12-31T23:59:59.5Z"), Ok(-500));
        assert_eq!(ms("2026-12-01T19:30:00.25+01:30"), Ok(1_796_148_000_250));
        assert!(ms("2026-12-01")
            .unwrap_err()
            .contains("needs a date, a time and a time zone"));
    }
}
