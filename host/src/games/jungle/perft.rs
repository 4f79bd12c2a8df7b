//! `arena perft [--game jungle] DEPTH [--position NOTATION]`: the number of move sequences of
//! DEPTH plies from a position (the start by default), the standard check of a move generator,
//! and its speed.

use std::io::Write;
use std::time::Instant;

use jungle_rules::{perft, perft_divide, Position};

/// A perft count and how long it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    pub nodes: u64,
    pub seconds: f64,
}

impl Count {
    /// Leaf nodes per second (0 for a count too quick to time).
    pub fn per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Reads a position in the notation (`None`: the start), with a message naming the problem.
pub fn position(text: Option<&str>) -> anyhow::Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(t) => Position::parse(t).map_err(|e| anyhow::anyhow!("--position: {e}")),
    }
}

/// Counts the leaf nodes `depth` plies below `pos`, timed; with `divide`, calls it with each
/// legal move and the count under it first.
pub fn count(pos: &Position, depth: u32, divide: Option<&mut dyn FnMut(String, u64)>) -> Count {
    let t = Instant::now();
    let nodes = match divide {
        Some(each) => perft_divide(pos, depth, |mv, n| each(mv.to_string(), n)),
        None => perft(pos, depth),
    };
    Count {
        nodes,
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// The line `arena perft` prints: `perft 5: 5,111,620 leaf nodes in 0.052 s (98.3 million
/// nodes/s)`.
pub fn describe(depth: u32, c: &Count) -> String {
    format!(
        "perft {depth}: {} leaf nodes in {:.3} s ({:.1} million nodes/s)",
        super::narrate::fuel(c.nodes),
        c.seconds,
        c.per_second() / 1e6
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
        let pos = self::position(position)?;
        let mut lines = Vec::new();
        let mut each = |mv: String, n: u64| lines.push(format!("{mv}: {n}"));
        let divide: Option<&mut dyn FnMut(String, u64)> = if divide && depth > 0 {
            Some(&mut each)
        } else {
            None
        };
        let c = count(&pos, depth, divide);
        for line in lines {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "{}", describe(depth, &c))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_counts_are_the_published_ones() {
        let start = position(None).unwrap();
        let counts: Vec<u64> = (1..=4).map(|d| count(&start, d, None).nodes).collect();
        assert_eq!(counts, [24, 576, 12_240, 260_099]);
        let mut moves = Vec::new();
        let mut each = |mv: String, n: u64| moves.push((mv, n));
        let total = count(&start, 2, Some(&mut each)).nodes;
        assert_eq!(total, 576);
        assert_eq!(moves.len(), 24);
        assert!(moves.iter().all(|(_, n)| *n == 24), "{moves:?}");
        let line = describe(
            4,
            &Count {
                nodes: 260_099,
                seconds: 0.5,
            },
        );
        assert_eq!(
            line,
            "perft 4: 260,099 leaf nodes in 0.500 s (0.5 million nodes/s)"
        );
        let e = position(Some("7/7 w")).unwrap_err().to_string();
        assert!(e.contains("--position") && e.contains("9 expected"), "{e}");
    }
}
