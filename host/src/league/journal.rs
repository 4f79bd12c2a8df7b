//! The league journal: an append-only JSON Lines file in the output folder, one line per finished
//! game, written and synced as games end (the games that end while earlier lines are being synced
//! are written together). A league killed at any moment (Ctrl-C, kill -9,
//! power loss) resumes from it without losing or repeating a game: a torn last line is the only
//! possible damage and is dropped on resume.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::result::GameResult;

pub const JOURNAL_FILE: &str = "journal.jsonl";

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Line {
    League {
        fingerprint: String,
        name: String,
        games: usize,
        /// What the fingerprint is the hash of (the league's settings and agents), so that a
        /// refused resume can say what changed and a grown league (`--extend`) can be recognized.
        /// Absent from journals written before it was added.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        settings: Option<serde_json::Value>,
    },
    Game(GameResult),
}

/// A journal's first line.
#[derive(Clone, Debug, PartialEq)]
pub struct JournalHeader {
    pub fingerprint: String,
    pub name: String,
    pub games: usize,
    pub settings: Option<serde_json::Value>,
}

#[derive(Debug)]
pub struct Journal {
    file: File,
    path: PathBuf,
}

impl Journal {
    /// Starts a new journal; refuses to overwrite one unless `fresh` is set.
    pub fn create(
        dir: &Path,
        fingerprint: &str,
        name: &str,
        games: usize,
        fresh: bool,
    ) -> anyhow::Result<Journal> {
        let path = dir.join(JOURNAL_FILE);
        if path.exists() && !fresh {
            bail!(
                "{} already holds a league; run with --resume to continue it, or --fresh to discard it and start over",
                dir.display()
            );
        }
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output folder {}", dir.display()))?;
        Journal::write_header(dir, fingerprint, name, games, None)?;
        Journal::open(dir)
    }

    /// Writes a journal holding only its header in `dir`, in place of any journal there, at once:
    /// at every instant the folder holds the old journal or the new one whole.
    pub fn write_header(
        dir: &Path,
        fingerprint: &str,
        name: &str,
        games: usize,
        settings: Option<&serde_json::Value>,
    ) -> anyhow::Result<()> {
        Journal::write(dir, fingerprint, name, games, settings, &[])
    }

    /// Writes a journal holding its header and `results` in `dir`, in place of any journal there,
    /// at once (see [`Journal::write_header`]).
    pub fn write(
        dir: &Path,
        fingerprint: &str,
        name: &str,
        games: usize,
        settings: Option<&serde_json::Value>,
        results: &[GameResult],
    ) -> anyhow::Result<()> {
        let mut text = serde_json::to_vec(&Line::League {
            fingerprint: fingerprint.into(),
            name: name.into(),
            games,
            settings: settings.cloned(),
        })?;
        text.push(b'\n');
        for r in results {
            serde_json::to_writer(&mut text, &GameLine::Game(r))?;
            text.push(b'\n');
        }
        super::atomic::write(&dir.join(JOURNAL_FILE), &text)
    }

    /// Opens the journal in `dir` to append games to it.
    pub fn open(dir: &Path) -> anyhow::Result<Journal> {
        let path = dir.join(JOURNAL_FILE);
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        Ok(Journal { file, path })
    }

    /// Reopens a journal to continue its league, whose settings (see [`super::changes`]) are
    /// `settings` and their hash `fingerprint`. Returns the games already finished.
    pub fn resume(
        dir: &Path,
        fingerprint: &str,
        settings: Option<&serde_json::Value>,
    ) -> anyhow::Result<(Journal, Vec<GameResult>)> {
        let path = dir.join(JOURNAL_FILE);
        let (header, results, good_bytes) = Journal::read_lines(dir)?;
        if header.fingerprint != fingerprint {
            let changes = match (&header.settings, settings) {
                (Some(old), Some(new)) => super::changes::describe(old, new),
                _ => Vec::new(),
            };
            let extend = match (&header.settings, settings) {
                (Some(old), Some(new)) if super::changes::only_agents_added(old, new) => {
                    "; to play only the new agents' games and keep every game played, run with \
                     --resume --extend"
                }
                _ => "",
            };
            let what = if changes.is_empty() {
                "different settings or agents".to_owned()
            } else {
                format!("different settings or agents ({})", changes.join("; "))
            };
            bail!(
                "{} was started with {what}; resume needs the same league file and agents (or use \
                 --fresh){extend}",
                path.display()
            );
        }
        let file = OpenOptions::new().write(true).open(&path)?;
        file.set_len(good_bytes)?;
        let mut journal = Journal { file, path };
        journal.file.sync_data()?;
        use std::io::Seek;
        journal.file.seek(std::io::SeekFrom::End(0))?;
        Ok((journal, results))
    }

    /// Reads the journal in `dir`: its header and the games it holds (a torn last line is left
    /// out).
    pub fn read(dir: &Path) -> anyhow::Result<(JournalHeader, Vec<GameResult>)> {
        Journal::read_lines(dir).map(|(h, r, _)| (h, r))
    }

    /// [`Journal::read`], and the length of the journal without its torn last line.
    fn read_lines(dir: &Path) -> anyhow::Result<(JournalHeader, Vec<GameResult>, u64)> {
        let path = dir.join(JOURNAL_FILE);
        let f = File::open(&path)
            .with_context(|| format!("nothing to resume: cannot open {}", path.display()))?;
        let mut header = None;
        let mut results = Vec::new();
        let mut good_bytes = 0u64;
        let mut lines = BufReader::new(f).split(b'\n').enumerate().peekable();
        while let Some((i, line)) = lines.next() {
            let line = line.with_context(|| format!("cannot read {}", path.display()))?;
            let is_last = lines.peek().is_none();
            let parsed = std::str::from_utf8(&line)
                .map_err(|_| "not UTF-8".to_owned())
                .and_then(|s| serde_json::from_str::<Line>(s).map_err(|e| e.to_string()));
            let why = parsed.as_ref().err().cloned().unwrap_or_default();
            match (i, parsed.ok()) {
                (
                    0,
                    Some(Line::League {
                        fingerprint,
                        name,
                        games,
                        settings,
                    }),
                ) => {
                    header = Some(JournalHeader {
                        fingerprint,
                        name,
                        games,
                        settings,
                    });
                }
                (0, _) => bail!("{}: line 1 is not a league journal header", path.display()),
                (_, Some(Line::Game(r))) => {
                    r.check_seats()
                        .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))?;
                    results.push(r)
                }
                (_, Some(Line::League { .. })) => {
                    bail!("{}:{}: a second header", path.display(), i + 1)
                }
                // A line torn by a kill mid-write can only be the last one.
                (_, None) if is_last => break,
                (_, None) => bail!(
                    "{}:{}: unreadable line in the journal: {}",
                    path.display(),
                    i + 1,
                    crate::terminal::line(&why)
                ),
            }
            good_bytes += line.len() as u64 + 1;
        }
        let header = header.with_context(|| {
            format!("{}: line 1 is not a league journal header", path.display())
        })?;
        let mut seen = HashSet::new();
        for r in &results {
            if !seen.insert(r.key.clone()) {
                bail!("{}: game {} appears twice", path.display(), r.key);
            }
        }
        Ok((header, results, good_bytes))
    }

    /// Appends one finished game and makes it durable before returning.
    pub fn append(&mut self, result: &GameResult) -> anyhow::Result<()> {
        self.append_all(std::slice::from_ref(result))
    }

    /// Appends finished games and makes them durable before returning, with one write and one
    /// sync for all of them: games that end while the previous lines are being synced cost no
    /// sync of their own.
    pub fn append_all(&mut self, results: &[GameResult]) -> anyhow::Result<()> {
        let mut lines = Vec::with_capacity(results.len() * 256);
        for r in results {
            serde_json::to_writer(&mut lines, &GameLine::Game(r))?;
            lines.push(b'\n');
        }
        self.file
            .write_all(&lines)
            .and_then(|_| self.file.sync_data())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// A game's line as [`Line::Game`] writes it, from a borrowed result.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum GameLine<'a> {
    Game(&'a GameResult),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    fn result(id: usize) -> GameResult {
        GameResult {
            id,
            key: format!("a,b#{id}"),
            seed: id as u64,
            seats: vec!["a".into(), "b".into()],
            outcome: Outcome::Win {
                seat: id % 2,
                last_standing: false,
            },
            rounds: 5,
            turns: 9,
            forfeits: vec![],
            faults: vec![],
            scores: None,
            record: format!("records/{id}.jsonl"),
        }
    }

    fn temp() -> PathBuf {
        let p = std::env::temp_dir().join(format!(
            "arena-journal-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        p
    }

    #[test]
    fn resume_returns_finished_games_and_drops_a_torn_line() {
        let dir = temp();
        let mut j = Journal::create(&dir, "fp", "l", 3, false).unwrap();
        j.append(&result(0)).unwrap();
        j.append(&result(1)).unwrap();
        drop(j);
        let mut f = OpenOptions::new()
            .append(true)
            .open(dir.join(JOURNAL_FILE))
            .unwrap();
        f.write_all(b"{\"type\":\"game\",\"id\":2,\"ke").unwrap();
        drop(f);
        let (mut j, done) = Journal::resume(&dir, "fp", None).unwrap();
        assert_eq!(done, vec![result(0), result(1)]);
        j.append(&result(2)).unwrap();
        drop(j);
        let (_, done) = Journal::resume(&dir, "fp", None).unwrap();
        assert_eq!(done, vec![result(0), result(1), result(2)]);
        assert!(Journal::resume(&dir, "other", None)
            .unwrap_err()
            .to_string()
            .contains("different settings"));
        assert!(Journal::create(&dir, "fp", "l", 3, false)
            .unwrap_err()
            .to_string()
            .contains("--resume"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_rewritten_journal_resumes_with_its_new_header_and_games() {
        let dir = temp();
        let mut j = Journal::create(&dir, "fp", "l", 6, false).unwrap();
        j.append_all(&[result(0), result(3), result(1)]).unwrap();
        drop(j);
        Journal::write(&dir, "cut", "l", 2, None, &[result(0), result(1)]).unwrap();
        let text = std::fs::read_to_string(dir.join(JOURNAL_FILE)).unwrap();
        assert!(text.starts_with(r#"{"type":"league","fingerprint":"cut","name":"l","games":2}"#));
        let (_, done) = Journal::resume(&dir, "cut", None).unwrap();
        assert_eq!(done, vec![result(0), result(1)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn games_appended_together_are_the_lines_of_games_appended_one_by_one() {
        let dir = temp();
        let mut j = Journal::create(&dir, "fp", "l", 5, false).unwrap();
        j.append(&result(0)).unwrap();
        j.append_all(&[result(1), result(2), result(3)]).unwrap();
        drop(j);
        let text = std::fs::read_to_string(dir.join(JOURNAL_FILE)).unwrap();
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let expected: Vec<String> = (0..4)
            .map(|i| serde_json::to_string(&Line::Game(result(i))).unwrap())
            .collect();
        assert_eq!(lines, expected);
        // A kill in the middle of a batch's write tears its last line only.
        let torn = &text[..text.len() - 10];
        std::fs::write(dir.join(JOURNAL_FILE), torn).unwrap();
        let (_, done) = Journal::resume(&dir, "fp", None).unwrap();
        assert_eq!(done, vec![result(0), result(1), result(2)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn resume_refuses_a_line_that_gives_a_key_twice() {
        let line = serde_json::to_string(&Line::Game(result(1))).unwrap();
        for (from, to) in [
            ("\"id\":1,", "\"id\":1,\"id\":2,"),
            ("\"seat\":1,", "\"seat\":0,\"seat\":1,"),
            ("\"rounds\":5,", "\"rounds\":5,\"rounds\":50,"),
        ] {
            let dir = temp();
            let mut j = Journal::create(&dir, "fp", "l", 3, false).unwrap();
            j.append(&result(0)).unwrap();
            drop(j);
            let doubled = line.replacen(from, to, 1);
            assert_ne!(doubled, line, "{from}");
            let mut f = OpenOptions::new()
                .append(true)
                .open(dir.join(JOURNAL_FILE))
                .unwrap();
            // Not the last line: a torn last line is dropped, a broken one in the middle refused.
            writeln!(f, "{doubled}").unwrap();
            writeln!(
                f,
                "{}",
                serde_json::to_string(&Line::Game(result(2))).unwrap()
            )
            .unwrap();
            drop(f);
            let e = Journal::resume(&dir, "fp", None).unwrap_err().to_string();
            assert!(e.contains(":3: unreadable line"), "{to}: {e}");
            // The message says what is wrong with it: the key given twice.
            let key = from.split('"').nth(1).unwrap();
            assert!(e.contains(&format!("duplicate field `{key}`")), "{to}: {e}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn resume_refuses_a_result_naming_seats_the_game_does_not_have() {
        let dir = temp();
        let mut j = Journal::create(&dir, "fp", "l", 3, false).unwrap();
        j.append(&result(0)).unwrap();
        let mut bad = result(1);
        bad.forfeits = vec![7];
        j.append(&bad).unwrap();
        drop(j);
        let e = Journal::resume(&dir, "fp", None).unwrap_err().to_string();
        assert!(
            e.contains(":3: forfeit of seat 7 in a game of 2 seats"),
            "{e}"
        );
        for (scores, outcome) in [
            (Some(vec![1]), None),
            (
                None,
                Some(Outcome::Win {
                    seat: 2,
                    last_standing: false,
                }),
            ),
        ] {
            let mut r = result(1);
            r.scores = scores;
            if let Some(o) = outcome {
                r.outcome = o;
            }
            assert!(r.check_seats().is_err());
        }
        assert!(result(1).check_seats().is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
