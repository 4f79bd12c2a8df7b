//! Transactions run again when PostgreSQL aborts them to break a deadlock, and results written a
//! round (one statement per table) at a time.

use std::collections::HashSet;

/// How many times a transaction the database aborted to break a deadlock is run again before
/// its error is returned.
const CONFLICT_RETRIES: u32 = 8;

/// Runs `op`, one whole transaction, again when PostgreSQL aborted it to break a deadlock
/// (SQLSTATE 40P01) or a serialization conflict (40001), as its documentation advises. Writers
/// that lock several rows of one table (a worker's results, the server's requeue of lapsed
/// leases, the count of remote results, an upload that cancels its contestant's games, the
/// ladder scheduling games) can meet in opposite orders whatever order each asks for, since the
/// order rows are locked in is the query plan's. The aborted transaction was
/// rolled back whole, so running it again is running it once; its lease checks hold as before.
pub(crate) async fn retry_conflicts<T, F, Fut>(mut op: F) -> anyhow::Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let mut attempt = 0;
    loop {
        match op().await {
            Err(e) if attempt < CONFLICT_RETRIES && is_conflict(&e) => {
                attempt += 1;
                // A short pause that grows: the other transaction finishes meanwhile.
                tokio::time::sleep(std::time::Duration::from_millis(5 << attempt.min(6))).await;
            }
            other => return other,
        }
    }
}

/// Whether `e` is the database aborting a transaction to break a deadlock or a serialization
/// conflict: the transaction may simply be run again.
pub(crate) fn is_conflict(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|cause| match cause.downcast_ref::<sqlx::Error>() {
            Some(sqlx::Error::Database(d)) => {
                matches!(d.code().as_deref(), Some("40P01") | Some("40001"))
            }
            _ => false,
        })
}

/// The most results one statement writes: 5 parameters each stays far below SQLite's limit of
/// 32,766 parameters and PostgreSQL's 65,535.
pub(crate) const WRITE_ROUND: usize = 500;

/// Splits results, given by their game's key in order, into rounds written one statement each:
/// at most [`WRITE_ROUND`] results a round, and no game twice in one (a statement updates a row
/// once, whichever of its duplicates it takes). A game's second result goes in a later round,
/// where it is counted only if the first one was not, as if results were written one by one.
pub(crate) fn write_rounds<K: std::hash::Hash + Eq>(
    keys: impl Iterator<Item = K>,
) -> Vec<Vec<usize>> {
    let mut rounds: Vec<(HashSet<K>, Vec<usize>)> = Vec::new();
    for (i, key) in keys.enumerate() {
        // The first round that has room and lacks this game.
        let at = rounds
            .iter()
            .position(|(seen, round)| round.len() < WRITE_ROUND && !seen.contains(&key));
        let at = at.unwrap_or_else(|| {
            rounds.push((HashSet::new(), Vec::new()));
            rounds.len() - 1
        });
        rounds[at].0.insert(key);
        rounds[at].1.push(i);
    }
    rounds.into_iter().map(|(_, round)| round).collect()
}

/// `rows` rows of `columns` numbered parameters each, for a multi-row `INSERT`'s `VALUES`
/// (the columns give PostgreSQL the parameters' types).
pub(crate) fn placeholders(rows: usize, columns: usize) -> String {
    let mut out = String::new();
    for r in 0..rows {
        out.push_str(if r == 0 { "(" } else { ", (" });
        for c in 0..columns {
            if c > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("${}", r * columns + c + 1));
        }
        out.push(')');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_rounds_hold_each_game_once_and_a_later_result_in_a_later_round() {
        let rounds = write_rounds(0..1200);
        let sizes: Vec<usize> = rounds.iter().map(Vec::len).collect();
        assert_eq!(sizes, [500, 500, 200]);
        assert_eq!(rounds.concat(), (0..1200).collect::<Vec<_>>());
        // Game 7 three times, game 8 twice.
        let rounds = write_rounds([7, 8, 7, 9, 7, 8].into_iter());
        assert_eq!(rounds, [vec![0, 1, 3], vec![2, 5], vec![4]]);
    }
}
