//! The code war part of `arena check`: smoke games of the agent against the example crawler
//! (`example-agents/wat/codewar-crawler.wat`) with the default settings, the agent changing seat
//! every game. A segfault of its own module at its first visit (iteration 1, before anything
//! could change it) is an error: that module would segfault in every game. Segfaults of its cells
//! later (modules it wrote, or that others wrote into its cells) are counted as warnings by kind.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use serde_json::Value;

use super::settings::CodewarSettings;
use crate::game::words::won_or_lost;
use crate::game::{FaultPolicy, Smoke, SmokeOptions, Table};
use crate::records::lines::RecordReader;
use crate::sandbox::AgentModule;

/// The opponent of the smoke games.
const CRAWLER: &str = include_str!("../../../../example-agents/wat/codewar-crawler.wat");

/// `opts.games` smoke games of `agent`, seeds from `opts.seed` on.
pub(super) fn smoke_games(
    agent: &AgentModule,
    opts: &SmokeOptions,
    out: &mut dyn Write,
) -> anyhow::Result<Smoke> {
    let Some(bytes) = agent.snippet() else {
        anyhow::bail!(
            "{} is not a code war agent (it does not export `{}`)",
            agent.name(),
            arena_abi::codewar::ENTRY
        );
    };
    let crawler = wat::parse_str(CRAWLER).context("the example crawler")?;
    let settings = CodewarSettings::default();
    let map = settings.to_map()?;
    let _ = writeln!(
        out,
        "\nCode war smoke games against the example crawler ({} cells, agents of at most {} \
         bytes, {} iterations):",
        settings.array_size, settings.max_size, settings.iterations
    );
    let mut smoke = Smoke::default();
    for g in 0..opts.games {
        let seed = opts.seed.wrapping_add(u64::from(g));
        let seat = (g % 2) as usize;
        let mut modules = vec![crawler.clone(), crawler.clone()];
        modules[seat] = bytes.to_vec();
        let mut names = vec!["crawler".to_owned(), "crawler".to_owned()];
        names[seat] = agent.name().to_owned();
        let table = Table {
            settings: Arc::new(map.clone()),
            ..Table::named(seed, opts.round_cap, FaultPolicy::Forfeit, names)
        };
        let t = Instant::now();
        let played = super::play(&table, &settings, &modules)?;
        let took = t.elapsed();
        let mut first = None;
        let mut reader = RecordReader::new(&played.record[..])?;
        while let Some(line) = reader.next_line()? {
            if line.kind() != Some("iteration") {
                continue;
            }
            let iteration = line.value["iteration"].as_u64().unwrap_or(0);
            for v in line.value["visits"].as_array().into_iter().flatten() {
                if v[1].as_u64() != Some(seat as u64) || v[2] != "segfault" {
                    continue;
                }
                let kind = v[3].as_str().unwrap_or("?");
                let detail = v.get(4).and_then(Value::as_str).unwrap_or("");
                if iteration == 1 && first.is_none() {
                    first = Some(if detail.is_empty() {
                        kind.to_owned()
                    } else {
                        format!("{kind}: {detail}")
                    });
                } else {
                    *smoke
                        .warnings
                        .entry(format!("segfault ({kind})"))
                        .or_default() += 1;
                }
            }
        }
        let cells = played.summary.scores.as_ref().map_or(0, |s| s[seat]);
        let result = won_or_lost(played.summary.outcome.winner(), seat).unwrap_or("a draw");
        let _ = writeln!(
            out,
            "  game {} (seat {seat}, seed {seed}): {result}, {cells} cells at the end, {} \
             iterations, {:.2} s",
            g + 1,
            played.summary.rounds,
            took.as_secs_f64()
        );
        if let Some(why) = first {
            smoke.errors.push(format!(
                "game {} (seed {seed}): the agent's module segfaults at its first visit: {why}",
                g + 1
            ));
        }
    }
    Ok(smoke)
}
