//! Jungle on a terminal: the board drawn in text, and a game told ply by ply. Names and logs
//! come from agents: everything here goes through [`crate::terminal`] before it is printed.

use std::fmt::Write as _;

use jungle_rules::{Move, Position, Side, Square, FILES, RANKS};

use super::turn::{EndReason, GameEnd, Ply};
use super::GameRecord;
pub use crate::game::words::thousands as fuel;
use crate::game::words::Teller;
use crate::game::Outcome;
use crate::terminal;

/// The board as text, rank 9 at the top, with the pieces' letters (upper case: the first
/// player) and, on empty squares, the terrain: `~` water, `^` a trap, `@` a den, `.` land. The
/// piece that made `last` is shown `[X]`, the square it left `*`.
///
/// ```text
///      a  b  c  d  e  f  g
///  9   l  .  ^  @  ^  .  t
/// ```
pub fn board(pos: &Position, last: Option<Move>) -> String {
    let mut out = String::from("     a  b  c  d  e  f  g\n");
    for rank in (0..RANKS).rev() {
        let _ = write!(out, " {}  ", rank + 1);
        for file in 0..FILES {
            let sq = Square::new(file, rank).expect("on the board");
            let moved = last.is_some_and(|m| m.to == sq);
            let left = last.is_some_and(|m| m.from == sq);
            let c = match pos.piece_at(sq) {
                Some(p) => p.letter(),
                None if left => '*',
                None => terrain(sq),
            };
            if moved {
                let _ = write!(out, "[{c}]");
            } else {
                let _ = write!(out, " {c} ");
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// The character of an empty square.
fn terrain(sq: Square) -> char {
    if sq.is_water() {
        '~'
    } else if sq.is_den_of(Side::First) || sq.is_den_of(Side::Second) {
        '@'
    } else if sq.is_trap_of(Side::First) || sq.is_trap_of(Side::Second) {
        '^'
    } else {
        '.'
    }
}

/// "first player (upper case)" or "second player (lower case)".
pub fn side_words(side: Side) -> &'static str {
    match side {
        Side::First => "first player (upper case)",
        Side::Second => "second player (lower case)",
    }
}

/// One ply in words, without the board: `  12. b greedy: e7e6 elephant, takes the rat  (fuel
/// 1,234; clock 58,000,000)`. `name` gives a seat's (sanitized) name.
pub fn ply_line(ply: &Ply, name: &dyn Fn(usize) -> String) -> String {
    let side = Side::from_index(ply.seat).unwrap_or(Side::First);
    let mut line = format!("{:>4}. {} {}: ", ply.turn, side.letter(), name(ply.seat));
    match (ply.answer, &ply.fault) {
        (Some(mv), None) => {
            let _ = write!(line, "{mv}");
            if let Some(p) = ply.piece {
                let _ = write!(line, " {}", p.kind.name());
            }
            if let Some(c) = ply.captured {
                let _ = write!(line, ", takes the {}", c.kind.name());
            }
            if ply.position.den_entered() {
                line.push_str(", into the den");
            }
        }
        (answer, Some(f)) => {
            if let (Some(mv), Some(why)) = (answer, ply.illegal) {
                let _ = write!(line, "{mv} ILLEGAL ({}): ", why.message());
            }
            let _ = write!(
                line,
                "FAULT {}: {}{}",
                f.fault.kind.name(),
                terminal::line(&f.fault.detail),
                if f.forfeit { " (forfeits)" } else { "" }
            );
        }
        (None, None) => line.push_str("no move"),
    }
    let _ = write!(
        line,
        "  (fuel {}; clock {})",
        fuel(ply.fuel),
        fuel(ply.clock)
    );
    line
}

/// How the game ended, in a sentence: `greedy (first player) wins by entering the den after 41
/// plies`.
pub fn result_line(end: &GameEnd, name: &dyn Fn(usize) -> String) -> String {
    match end.outcome {
        Outcome::Win { seat, .. } => format!(
            "{} ({} player) wins by {} after {} plies",
            name(seat),
            if seat == 0 { "first" } else { "second" },
            end.reason.words(),
            end.turns
        ),
        Outcome::Draw { .. } if end.reason == EndReason::Forfeit => {
            "no game: both agents failed to load".to_string()
        }
        Outcome::Draw { .. } => format!("draw by {} after {} plies", end.reason.words(), end.turns),
        Outcome::Unfinished => "unfinished".to_string(),
    }
}

/// The final position, the last move marked, and the result: `{board}\nResult: greedy (first
/// player) wins by ...\n`.
pub fn final_board(game: &GameRecord, name: &dyn Fn(usize) -> String) -> String {
    let last = game.turns.last().and_then(Ply::played);
    let result = result_line(&game.end, name);
    format!("{}\nResult: {result}\n", board(&game.end.position, last))
}

/// The whole game as text: a header, the start board, a line per ply (with the board after it
/// when `boards`, and after every capture otherwise), the final board and the result. `logs`
/// adds what the agents logged, under the ply they logged it in.
pub fn narrate(names: &[String], record: &GameRecord, logs: bool, boards: bool) -> String {
    let tell = Teller { names, logs };
    let name = |seat: usize| tell.name(seat);
    let setup = &record.setup;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Jungle: {} is the {}, {} the {}; seed {}, clock {} fuel + {} a move (at most {} a \
         decision), ply cap {}, fault policy {}\n",
        name(0),
        side_words(Side::First),
        name(1),
        side_words(Side::Second),
        setup.seed,
        fuel(setup.clock.start),
        fuel(setup.clock.increment),
        fuel(setup.clock.decision_cap),
        setup.ply_cap(),
        setup.policy.name()
    );
    for f in &record.end.started.load_faults {
        let _ = writeln!(
            out,
            "{} failed to load: {} fault: {}",
            name(f.seat),
            f.fault.kind.name(),
            terminal::line(&f.fault.detail)
        );
    }
    tell.logs(&mut out, "        ", &record.end.started.logs);
    let _ = writeln!(out, "{}", setup.start);
    out.push_str(&board(&setup.start, None));
    out.push('\n');
    for ply in &record.turns {
        let _ = writeln!(out, "{}", ply_line(ply, &name));
        tell.logs(&mut out, "        ", &ply.logs);
        if boards || ply.captured.is_some() {
            out.push('\n');
            out.push_str(&board(&ply.position, ply.played()));
            out.push('\n');
        }
    }
    let end = &record.end;
    let _ = writeln!(out, "\nThe final position: {}", end.position);
    out.push_str(&final_board(record, &name));
    let _ = writeln!(
        out,
        "Clocks at the end: {} {}, {} {}",
        name(0),
        fuel(end.clocks[0]),
        name(1),
        fuel(end.clocks[1])
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_board_shows_the_pieces_and_the_terrain() {
        let text = board(&Position::start(), None);
        let expected = "     a  b  c  d  e  f  g
 9   l  .  ^  @  ^  .  t
 8   .  d  .  ^  .  c  .
 7   r  .  p  .  w  .  e
 6   .  ~  ~  .  ~  ~  .
 5   .  ~  ~  .  ~  ~  .
 4   .  ~  ~  .  ~  ~  .
 3   E  .  W  .  P  .  R
 2   .  C  .  ^  .  D  .
 1   T  .  ^  @  ^  .  L
";
        assert_eq!(text, expected);
    }

    #[test]
    fn the_last_move_is_marked() {
        let start = Position::start();
        let mv = Move::parse("a3a4").unwrap();
        let text = board(&start.after(mv), Some(mv));
        assert!(text.contains(" 4  [E] ~ "), "{text}");
        assert!(text.contains(" 3   *  .  W "), "{text}");
    }
}
