//! Writing standings: the terminal table, and the same data as JSON and CSV files.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use super::atomic;
use super::benchmark::Benchmark;
use super::result::GameResult;
use super::standings::Standings;

/// Folder of the HTML report inside a league output folder.
pub const REPORT_DIR: &str = "report";
pub const STANDINGS_JSON: &str = "standings.json";
pub const STANDINGS_CSV: &str = "standings.csv";
pub const CROSSTABLE_CSV: &str = "crosstable.csv";
pub const GAMES_CSV: &str = "games.csv";
/// Solo leagues only: turn statistics per agent, and the distribution of turns.
pub const BENCHMARK_CSV: &str = "benchmark.csv";
pub const BENCHMARK_TURNS_CSV: &str = "benchmark_turns.csv";

/// Everything `standings.json` holds: the league's settings and the standings.
#[derive(Serialize)]
pub struct Summary<'a> {
    pub league: &'a str,
    pub settings: serde_json::Value,
    #[serde(flatten)]
    pub standings: &'a Standings,
}

/// Writes standings.json, standings.csv, crosstable.csv and games.csv, and for a solo league
/// benchmark.csv and benchmark_turns.csv. Their content depends only on the results, never on
/// timing or thread count. Each file is replaced whole (see [`atomic::write`]): a kill while they
/// are written leaves every file either as it was or complete.
pub fn write_files(dir: &Path, summary: &Summary, results: &[GameResult]) -> anyhow::Result<()> {
    let write = |name: &str, text: String| atomic::write(&dir.join(name), text.as_bytes());
    write(
        STANDINGS_JSON,
        serde_json::to_string_pretty(summary)? + "\n",
    )?;
    write(STANDINGS_CSV, standings_csv(summary.standings))?;
    write(CROSSTABLE_CSV, crosstable_csv(summary.standings))?;
    write(GAMES_CSV, games_csv(results))?;
    match &summary.standings.benchmark {
        Some(b) => {
            write(BENCHMARK_CSV, benchmark_csv(b))?;
            write(BENCHMARK_TURNS_CSV, benchmark_turns_csv(b))?;
        }
        None => {
            // A solo league's files must not linger next to a later league's standings.
            for name in [BENCHMARK_CSV, BENCHMARK_TURNS_CSV] {
                let _ = std::fs::remove_file(dir.join(name));
            }
        }
    }
    Ok(())
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

fn opt_f(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(String::new, |v| format!("{v:.digits$}"))
}

fn benchmark_csv(b: &Benchmark) -> String {
    let mut out = String::from(
        "rank,agent,games,reached,reached_rate,mean,sd,mean_error,median,q1,q3,min,max\n",
    );
    for a in &b.agents {
        let _ = writeln!(
            out,
            "{},{},{},{},{:.4},{},{},{},{},{},{},{},{}",
            a.rank,
            csv_field(&a.name),
            a.games,
            a.reached,
            a.reached_rate,
            opt_f(a.mean, 4),
            opt_f(a.sd, 4),
            opt_f(a.mean_error, 4),
            opt_f(a.median, 1),
            opt_f(a.q1, 2),
            opt_f(a.q3, 2),
            opt(a.min),
            opt(a.max)
        );
    }
    out
}

/// The distributions in long form (one row per agent and number of turns), for plotting.
fn benchmark_turns_csv(b: &Benchmark) -> String {
    let mut out = String::from("agent,turns,games\n");
    for a in &b.agents {
        for bin in &a.histogram {
            let _ = writeln!(out, "{},{},{}", csv_field(&a.name), bin.turns, bin.games);
        }
    }
    out
}

/// A text cell of a CSV file (RFC 4180): quoted when it holds a comma, a quote or a line break,
/// quotes doubled. Text that starts with `=`, `+`, `-` or `@` would be taken for a formula by a
/// spreadsheet (an agent named `=HYPERLINK(...)`), so it gets a leading apostrophe, which
/// spreadsheets show as "this is text"; so does text that starts with an apostrophe, so that a
/// reader can always drop one leading apostrophe to get the text back. Numbers the arena writes
/// (ratings can be negative) are not text and are written as they are.
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\'']) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn standings_csv(s: &Standings) -> String {
    let mut out = String::from(
        "rank,agent,games,wins,draws,losses,win_rate,win_rate_low,win_rate_high,rating,rating_error,mean_rounds,faults\n",
    );
    for a in &s.agents {
        let faults: Vec<String> = a.faults.iter().map(|(k, n)| format!("{k}:{n}")).collect();
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.1},{:.1},{:.2},{}",
            a.rank,
            csv_field(&a.name),
            a.games,
            a.wins,
            a.draws,
            a.losses,
            a.win_rate,
            a.win_rate_low,
            a.win_rate_high,
            a.rating,
            a.rating_error,
            a.mean_rounds,
            csv_field(&faults.join(" "))
        );
    }
    out
}

fn crosstable_csv(s: &Standings) -> String {
    let mut out = String::from("agent");
    for a in &s.agents {
        out.push(',');
        out.push_str(&csv_field(&a.name));
    }
    out.push('\n');
    for (i, a) in s.agents.iter().enumerate() {
        out.push_str(&csv_field(&a.name));
        for (j, cell) in s.cross[i].iter().enumerate() {
            if i == j {
                out.push(',');
            } else {
                let _ = write!(out, ",{}/{}", cell.points, cell.games);
            }
        }
        out.push('\n');
    }
    out
}

/// One line per game. Seats get a column each (`seat0`, `seat1`, …: every game of a league has
/// the same number), so names need no separator; `forfeits` lists seat numbers.
fn games_csv(results: &[GameResult]) -> String {
    let mut sorted: Vec<&GameResult> = results.iter().collect();
    sorted.sort_by_key(|r| r.id);
    let seats = sorted.iter().map(|r| r.seats.len()).max().unwrap_or(0);
    let mut out = String::from("id,seed,");
    for s in 0..seats {
        let _ = write!(out, "seat{s},");
    }
    out.push_str("winner,result,rounds,forfeits,record\n");
    for r in sorted {
        let winner = r
            .outcome
            .winner()
            .map(|s| r.seats[s].clone())
            .unwrap_or_default();
        let result = if r.nobody_played() {
            NOT_PLAYED
        } else {
            result_name(&r.outcome)
        };
        let _ = write!(out, "{},{},", r.id, r.seed);
        for s in 0..seats {
            let _ = write!(
                out,
                "{},",
                csv_field(r.seats.get(s).map_or("", |n| n.as_str()))
            );
        }
        let forfeits: Vec<String> = r.forfeits.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(
            out,
            "{},{},{},{},{}",
            csv_field(&winner),
            result,
            r.rounds,
            forfeits.join(" "),
            csv_field(&r.record)
        );
    }
    out
}

/// How a game ended, as games.csv and the report say it.
pub fn result_name(outcome: &crate::game::Outcome) -> &'static str {
    use crate::game::Outcome;
    match outcome {
        Outcome::Win {
            last_standing: true,
            ..
        } => "win_last_standing",
        Outcome::Win { .. } => "win",
        Outcome::Draw { round_cap: true } => "draw_round_cap",
        Outcome::Draw { .. } => "draw_all_forfeited",
        Outcome::Unfinished => "unfinished",
    }
}

/// The result of a game nobody could play (every agent failed to load): it counts for nobody.
pub const NOT_PLAYED: &str = "not_played";

/// A name in at most `width` characters of a terminal table: a longer one keeps its start and its
/// end around a `…`, since versions of one agent differ at the end (`my-agent-v1`, `my-agent-v2`).
/// The files keep every name whole.
pub fn fit_name(name: &str, width: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= width {
        return name.to_owned();
    }
    let tail = (width.saturating_sub(1)) / 2;
    let head = width.saturating_sub(1) - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// The width of a table's agent column: the longest name's, from 5 to 32 characters (a longer
/// name is cut by [`fit_name`]).
fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(5)
        .clamp(5, 32)
}

/// The standings as a terminal table; for a solo league, the benchmark table instead (ratings
/// and the cross-table mean nothing when nobody meets anybody).
pub fn table(s: &Standings) -> String {
    if let Some(b) = &s.benchmark {
        return benchmark_table(s, b);
    }
    let width = name_width(s.agents.iter().map(|a| a.name.as_str()));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>6} {:>6} {:>6} {:>6}  {:>6}  {:<15}  {:>7} {:>6}  {:>7}  faults",
        "rank",
        "agent",
        "games",
        "wins",
        "draws",
        "losses",
        "win%",
        "95% CI",
        "rating",
        "±",
        "rounds"
    );
    for a in &s.agents {
        let faults = if a.faults.is_empty() {
            "-".to_owned()
        } else {
            a.faults
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let name = fit_name(&a.name, width);
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6} {:>6} {:>6} {:>6}  {:>5.1}%  {:<15}  {:>7.0} {:>6.0}  {:>7.1}  {}",
            a.rank,
            name,
            a.games,
            a.wins,
            a.draws,
            a.losses,
            100.0 * a.win_rate,
            format!("{:.1}–{:.1}%", 100.0 * a.win_rate_low, 100.0 * a.win_rate_high),
            a.rating,
            a.rating_error,
            a.mean_rounds,
            faults
        );
    }
    let _ = writeln!(out, "\n{RATING_NOTE}");
    if s.agents.len() <= 12 {
        cross_table(&mut out, s);
    }
    let _ = writeln!(
        out,
        "\n{} games, mean length {:.1} rounds",
        s.games, s.mean_rounds
    );
    out
}

/// What the rating measures, printed under the standings: in games of more than two players an
/// agent with fewer wins can rank above one with more, which surprises readers who expect wins to
/// decide.
pub const RATING_NOTE: &str =
    "rank is by rating: a Bradley-Terry rating on the Elo scale, fitted to \
every pair of players in\nevery game (the better finishing rank wins the pair, equal ranks share \
it). With more than 2 players\na game, the places behind the winner count too, so an agent with \
fewer wins can rank above one\nwith more.";

/// The cross-table with the agents' full names: rows are numbered by rank order, and columns by
/// the same numbers, so that no name is cut to fit a column.
fn cross_table(out: &mut String, s: &Standings) {
    let _ = writeln!(
        out,
        "\ncross-table (pairwise points of the row agent against the column agent):"
    );
    let cells: Vec<Vec<String>> = s
        .agents
        .iter()
        .enumerate()
        .map(|(i, _)| {
            s.cross[i]
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    if i == j || c.games == 0 {
                        "-".to_owned()
                    } else {
                        format!("{}/{}", c.points, c.games)
                    }
                })
                .collect()
        })
        .collect();
    let col = cells
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .chain(std::iter::once(s.agents.len().to_string().len()))
        .max()
        .unwrap_or(1);
    let name_width = s
        .agents
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(0);
    let number = s.agents.len().to_string().len();
    let _ = write!(out, "{:number$}  {:name_width$}", "", "");
    for j in 1..=s.agents.len() {
        let _ = write!(out, " {j:>col$}");
    }
    out.push('\n');
    for (i, a) in s.agents.iter().enumerate() {
        let _ = write!(out, "{:>number$}  {:<name_width$}", i + 1, a.name);
        for c in &cells[i] {
            let _ = write!(out, " {c:>col$}");
        }
        out.push('\n');
    }
}

fn faults_text(faults: &std::collections::BTreeMap<String, u32>) -> String {
    if faults.is_empty() {
        "-".to_owned()
    } else {
        faults
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The solo benchmark as a terminal table: turns to the target over the games that reached it.
fn benchmark_table(s: &Standings, b: &Benchmark) -> String {
    let width = name_width(b.agents.iter().map(|a| a.name.as_str()));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>6}  {:>12}  {:>15}  {:>7}  {:>9}  faults",
        "rank", "agent", "games", "reached", "mean ± sd", "median", "min–max"
    );
    for a in &b.agents {
        let name = fit_name(&a.name, width);
        let reached = format!("{} {:>5.1}%", a.reached, 100.0 * a.reached_rate);
        let mean = match (a.mean, a.sd) {
            (Some(m), Some(sd)) => format!("{m:.2} ± {sd:.2}"),
            (Some(m), None) => format!("{m:.2}"),
            _ => "-".to_owned(),
        };
        let range = match (a.min, a.max) {
            (Some(lo), Some(hi)) => format!("{lo}–{hi}"),
            _ => "-".to_owned(),
        };
        let faults = s
            .agents
            .iter()
            .find(|x| x.name == a.name)
            .map_or_else(|| "-".to_owned(), |x| faults_text(&x.faults));
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>12}  {:>15}  {:>7}  {:>9}  {}",
            a.rank,
            name,
            a.games,
            reached,
            mean,
            a.median
                .map_or_else(|| "-".to_owned(), |m| format!("{m:.1}")),
            range,
            faults
        );
    }
    let _ = writeln!(
        out,
        "\n{} solo games; turns to reach the target over the games that reached it (sample sd).\n\
         Ranked by games reached, then mean turns, then median.",
        s.games
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;
    use crate::league::standings::compute;

    fn game(id: usize, seats: &[&str], winner: usize) -> GameResult {
        GameResult {
            id,
            key: format!("g{id}"),
            seed: 0,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            outcome: Outcome::Win {
                seat: winner,
                last_standing: false,
            },
            rounds: 10,
            turns: 20,
            forfeits: vec![],
            faults: vec![],
            scores: None,
            record: String::new(),
        }
    }

    #[test]
    fn long_names_keep_their_start_and_end_in_the_standings() {
        assert_eq!(fit_name("short", 32), "short");
        assert_eq!(fit_name("abcdefghij", 10), "abcdefghij");
        assert_eq!(fit_name("abcdefghijk", 10), "abcde…hijk");
        assert_eq!(fit_name("ääääääääääöö", 5), "ää…öö");
        let names = [
            "team-with-a-very-long-name-strategy-version-1",
            "team-with-a-very-long-name-strategy-version-2",
        ];
        let results: Vec<GameResult> = (0..4).map(|i| game(i, &names, i % 2)).collect();
        let owned: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let table = table(&compute(&owned, &results));
        let standings = &table[..table.find("cross-table").unwrap()];
        for n in [
            "team-with-a-very…ategy-version-1",
            "team-with-a-very…ategy-version-2",
        ] {
            assert_eq!(n.chars().count(), 32);
            assert!(standings.contains(n), "`{n}` in:\n{table}");
        }
    }

    #[test]
    fn the_cross_table_shows_whole_names_and_the_rating_is_explained() {
        let names = ["wat-banker-2000", "careful-counter", "x"];
        let results: Vec<GameResult> = (0..6)
            .map(|i| {
                let (a, b) = (names[i % 3], names[(i + 1) % 3]);
                game(i, &[a, b], i % 2)
            })
            .collect();
        let owned: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let table = table(&compute(&owned, &results));
        let cross = &table[table.find("cross-table").expect("a cross-table")..];
        for name in names {
            assert!(
                cross.lines().any(|l| l.contains(&format!(" {name} "))),
                "`{name}` whole in the cross-table:\n{table}"
            );
        }
        // Columns are numbered as the rows are.
        let header = cross.lines().nth(1).unwrap();
        assert_eq!(
            header.split_whitespace().collect::<Vec<_>>(),
            ["1", "2", "3"],
            "{table}"
        );
        assert!(table.contains("rank is by rating") && table.contains("finishing rank"));
        // The note fits a terminal of 100 columns.
        for line in RATING_NOTE.lines() {
            assert!(
                line.chars().count() <= 100,
                "{} columns: {line}",
                line.chars().count()
            );
        }
    }
}
