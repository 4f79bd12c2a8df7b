//! The documentation tests of the arena's crates (abi, the rules, the host) check docs/*.md
//! against the code it describes. They read the docs the same way, written once here: a file of
//! `docs/`, the section under a heading, a table of codes and names in the code's order, and
//! numbers with thousands separators as the docs and pages write them.

use std::fmt::Display;
use std::path::Path;

/// The text of `docs/<name>` (say `ABI.md`) of the repository.
pub fn doc(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of the section that starts with `heading` (say `## Jungle`), up to the next heading
/// of its level.
pub fn section(text: &str, heading: &str) -> String {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading:?}"));
    let level = heading.split(' ').next().unwrap();
    let body = &text[start + heading.len() + 2..];
    let end = body.find(&format!("\n{level} ")).unwrap_or(body.len());
    body[..end].to_string()
}

/// Asserts that `text` has a row ``| code | `name` |`` for each of `rows` (a code's list in the
/// code's order, say every reason a move is refused), and names them in that order.
pub fn assert_code_table<C: Display, N: Display>(text: &str, rows: &[(C, N)], what: &str) {
    let mut last = None;
    for (code, name) in rows {
        assert!(
            text.contains(&format!("| {code} | `{name}` |")),
            "{what} {code} {name}"
        );
        let at = text.find(&format!("`{name}`"));
        assert!(at > last, "{what} {name} is out of order");
        last = at;
    }
}

/// `n` with a comma between groups of three digits: 60,000,000.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|g| std::str::from_utf8(g).expect("ASCII digits"))
        .collect();
    groups.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_from_the_right() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(60_000_000), "60,000,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_section_ends_at_the_next_heading_of_its_level() {
        let text = "# T\n\n## A\none\n### A1\ntwo\n## B\nthree\n";
        assert_eq!(section(text, "## A"), "one\n### A1\ntwo");
        assert_eq!(section(text, "## B"), "three\n");
    }

    #[test]
    fn a_code_table_is_checked_row_by_row_and_in_order() {
        let text = "| 1 | `a` |\n| 2 | `b` |\n";
        assert_code_table(text, &[(1, "a"), (2, "b")], "row");
        let swapped =
            std::panic::catch_unwind(|| assert_code_table(text, &[(2, "b"), (1, "a")], "row"));
        assert!(swapped.is_err());
        let missing = std::panic::catch_unwind(|| assert_code_table(text, &[(3, "c")], "row"));
        assert!(missing.is_err());
    }
}
