//! The planner's dynamic programme, run by `build.rs` at build time (and by the tests): the
//! expected points a turn banks under the policy that maximizes them, for every number of points
//! at risk and dice about to be rolled.
//!
//! `value[u][n]` (points at risk `50 × u`, `n` dice about to be rolled, 1..=6) is the expectation
//! over the `6^n` rolls: 0 for a farkle, else the best, over the legal drafts (score `s`, `k`
//! dice) and the two actions, of banking (`t + s`) or rolling the dice left (`value` at
//! `t + s` with `n - k` dice, or six after hot dice). All scores are multiples of 50, so the
//! table steps by 50 points; above [`MAX_UNITS`] banking is assumed (a turn that has 20,000
//! points at risk has long won a game to 10,000).
//!
//! Only the best score for each number of dice drafted matters (more points at risk with the
//! same dice can never be worth less: the same play afterwards banks more), so each roll is
//! reduced to at most `n` options, and rolls are enumerated as face multisets with their
//! multinomial probabilities.

use farkle_rules::{score_counts, DICE};

/// Points per table step.
pub const UNIT: u32 = 50;
/// Largest tabulated number of units at risk.
pub const MAX_UNITS: usize = 400;

/// One distinct roll of `n` dice: its probability and, for each number of dice drafted (index
/// `k - 1`), the best score in units, if any draft of `k` dice is legal.
struct Roll {
    p: f64,
    best: [Option<u32>; DICE],
}

fn rolls(n: usize) -> Vec<Roll> {
    let mut out = Vec::new();
    let mut counts = [0u8; 7];
    multisets(n, 1, &mut counts, &mut out);
    out
}

fn multisets(left: usize, face: usize, counts: &mut [u8; 7], out: &mut Vec<Roll>) {
    if face == 6 {
        counts[6] = left as u8;
        out.push(roll_of(counts));
        return;
    }
    for c in 0..=left {
        counts[face] = c as u8;
        multisets(left - c, face + 1, counts, out);
    }
}

fn factorial(n: u32) -> f64 {
    (1..=n).map(f64::from).product()
}

fn roll_of(counts: &[u8; 7]) -> Roll {
    let n: u32 = counts.iter().map(|&c| c as u32).sum();
    let ways = factorial(n) / counts.iter().map(|&c| factorial(c as u32)).product::<f64>();
    let p = ways / 6f64.powi(n as i32);
    let mut best = [None; DICE];
    // Every sub-multiset d <= counts, as a mixed-radix counter.
    let mut d = [0u8; 7];
    loop {
        let mut f = 1;
        while f <= 6 && d[f] == counts[f] {
            d[f] = 0;
            f += 1;
        }
        if f > 6 {
            break;
        }
        d[f] += 1;
        if let Some(s) = score_counts(&d) {
            let k: usize = d.iter().map(|&c| c as usize).sum();
            let s = s / UNIT;
            if best[k - 1].is_none_or(|b| b < s) {
                best[k - 1] = Some(s);
            }
        }
    }
    Roll { p, best }
}

/// `value[u][n]` for `u` in `0..=MAX_UNITS`, `n` in `1..=6` (index 0 unused), in points.
pub fn turn_values() -> Vec<[f64; DICE + 1]> {
    let by_dice: Vec<Vec<Roll>> = (0..=DICE).map(rolls).collect();
    let mut value = vec![[0f64; DICE + 1]; MAX_UNITS + 1];
    for u in (0..=MAX_UNITS).rev() {
        for n in 1..=DICE {
            let mut e = 0.0;
            for roll in &by_dice[n] {
                let mut best = 0f64;
                for (k, s) in roll.best.iter().enumerate().take(n) {
                    let Some(s) = s else { continue };
                    let v = u + *s as usize;
                    let left = if k + 1 == n { DICE } else { n - k - 1 };
                    let bank = (v as u32 * UNIT) as f64;
                    let go = if v > MAX_UNITS { bank } else { value[v][left] };
                    best = best.max(bank.max(go));
                }
                e += roll.p * best;
            }
            value[u][n] = e;
        }
    }
    value
}
