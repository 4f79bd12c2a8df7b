//! What the arena prints to a terminal is sanitized. Names, logs, fault details, record fields
//! and error messages quoting a file can come from an agent or from a file someone handed over;
//! printed raw, their control characters would reach the terminal, where ESC and OSC sequences
//! can move the cursor, rewrite a line (a `FAIL` shown as `ok`), set the window title or worse.
//! Every such text goes through [`line`] (one line: a newline in it is shown as `\n`) or
//! [`block`] (several lines: its newlines stay line breaks) before it is printed.
//!
//! Shown visibly, as an escape that cannot act: the C0 controls and DEL (`\x1b`, `\r`, `\x7f`),
//! the C1 controls (`\u{9b}`, which some terminals take as CSI), and the characters that reorder
//! or break lines in a terminal without being control characters (bidirectional overrides and
//! isolates, the line and paragraph separators). Everything else, other scripts and emoji
//! included, is printed as it is.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` for one line of output: every character that could act on a terminal, newlines
/// included, shown as an escape.
pub fn line(text: &str) -> Cow<'_, str> {
    escape(text, false)
}

/// `text` for several lines of output: as [`line`], but `\n` and tabs stay as they are.
pub fn block(text: &str) -> Cow<'_, str> {
    escape(text, true)
}

/// The lines of an agent's log, each ready to print after a prefix of the caller's: the log's
/// line breaks stay line breaks, and nothing else in it reaches the terminal raw.
pub fn log_lines(text: &str) -> impl Iterator<Item = Cow<'_, str>> {
    text.lines().map(line)
}

/// Whether `c` acts on a terminal (or on the way it lays out a line) instead of being shown.
fn is_active(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Bidirectional embeddings, overrides and isolates, and the implicit marks.
            '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            // Line and paragraph separators.
            | '\u{2028}' | '\u{2029}'
        )
}

fn escape(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let kept = |c: char| keep_lines && (c == '\n' || c == '\t');
    if !text.chars().any(|c| is_active(c) && !kept(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !is_active(c) || kept(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    Cow::Owned(out)
}

/// A duration in milliseconds for people: `12.3 ms`.
pub fn millis(d: std::time::Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_left_alone() {
        for t in [
            "ok  game-000001.jsonl",
            "naïve 🐇 Ωmega",
            "path\\with\\backslashes",
            "",
        ] {
            assert!(matches!(line(t), Cow::Borrowed(s) if s == t));
            assert!(matches!(block(t), Cow::Borrowed(s) if s == t));
        }
    }

    #[test]
    fn escape_and_osc_sequences_are_shown_not_sent() {
        // Cursor to column 1, erase the line, then a forged verdict; an OSC window title.
        let forged = "bad\r\x1b[2K\x1b[1Gok  game.jsonl\x1b]0;pwned\x07";
        let shown = line(forged);
        assert_eq!(
            shown,
            "bad\\r\\x1b[2K\\x1b[1Gok  game.jsonl\\x1b]0;pwned\\x07"
        );
        assert!(!shown.chars().any(char::is_control));
    }

    #[test]
    fn c1_controls_del_and_reordering_characters_are_escaped() {
        assert_eq!(line("a\u{9b}31mb\u{7f}"), "a\\u{9b}31mb\\x7f");
        assert_eq!(line("x\u{202e}gnp.exe"), "x\\u{202e}gnp.exe");
        assert_eq!(line("one\u{2028}two"), "one\\u{2028}two");
        assert_eq!(line("nul\0"), "nul\\x00");
    }

    #[test]
    fn a_block_keeps_its_line_breaks_and_tabs_but_not_carriage_returns() {
        assert_eq!(block("a\tb\nc\r\n"), "a\tb\nc\\r\n");
        assert_eq!(line("a\tb\nc"), "a\\tb\\nc");
    }
}
