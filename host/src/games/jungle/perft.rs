//! `arena perft [--game jungle] DEPTH [--position NOTATION]`: the number of move sequences of
//! DEPTH plies from a position (the start by default), the standard check of a move generator,
//! and its speed.

use std::io::Write;
use std::time::Instant;

use jungle_rules::{perft, perft_divide, Position};

/// The line `arena perft` prints: `perft 5: 5,111,620 leaf nodes in 0.052 s (98.3 million
/// nodes/s)` (0 nodes/s for a count too quick to time).
fn describe(depth: u32, nodes: u64, seconds: f64) -> String {
    let per_second = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    format!(
        "perft {depth}: {} leaf nodes in {seconds:.3} s ({:.1} million nodes/s)",
        super::narrate::fuel(nodes),
        per_second / 1e6
    )
}

/// Jungle's move counter, for `arena perft`.
pub struct JunglePerft;

impl crate::game::Perft for JunglePerft {
    fn count(
        &self,
        position: Option<&str>,
        depth: u32,
        divide: bool,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let pos = match position {
            None => Position::start(),
            Some(t) => Position::parse(t).map_err(|e| anyhow::anyhow!("--position: {e}"))?,
        };
        // The moves' lines are written after the count, so that the time is the count's alone.
        let mut lines = Vec::new();
        let t = Instant::now();
        let nodes = if divide && depth > 0 {
            perft_divide(&pos, depth, |mv, n| lines.push(format!("{mv}: {n}")))
        } else {
            perft(&pos, depth)
        };
        let seconds = t.elapsed().as_secs_f64();
        for line in lines {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{}", describe(depth, nodes, seconds))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Perft;

    /// What `arena perft` writes, and its lines.
    fn counted(position: Option<&str>, depth: u32, divide: bool) -> anyhow::Result<Vec<String>> {
        let mut out = Vec::new();
        JunglePerft.count(position, depth, divide, &mut out)?;
        Ok(String::from_utf8(out)?.lines().map(str::to_owned).collect())
    }

    #[test]
    fn the_start_counts_are_the_published_ones() {
        for (depth, nodes) in [(1, "24"), (2, "576"), (3, "12,240"), (4, "260,099")] {
            let lines = counted(None, depth, false).unwrap();
            let head = format!("perft {depth}: {nodes} leaf nodes in ");
            assert!(lines.len() == 1 && lines[0].starts_with(&head), "{lines:?}");
        }
        let lines = counted(None, 2, true).unwrap();
        assert_eq!(lines.len(), 25);
        assert!(lines[..24].iter().all(|l| l.ends_with(": 24")), "{lines:?}");
        assert!(
            lines[24].starts_with("perft 2: 576 leaf nodes"),
            "{lines:?}"
        );
        let line = describe(4, 260_099, 0.5);
        assert_eq!(
            line,
            "perft 4: 260,099 leaf nodes in 0.500 s (0.5 million nodes/s)"
        );
        let e = counted(Some("7/7 w"), 1, false).unwrap_err().to_string();
        assert!(e.contains("--position") && e.contains("9 expected"), "{e}");
    }
}
