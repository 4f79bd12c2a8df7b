//! Code war records: the file conventions of every arena record (docs/RECORDS.md: JSON Lines,
//! a `setup` line first, an `end` line with the digest last), with the code war's own lines in
//! between: `module` lines (a module's bytes, by content hash, written when they first enter the
//! Array) and one `iteration` line per iteration (docs/CODEWAR.md, "Records").

pub mod lines;
pub mod modules;
mod verify;

pub use verify::verify_lines;

#[cfg(test)]
mod tests {
    use super::lines::setup;
    use crate::games::codewar::settings::CodewarSettings;
    use crate::games::codewar::tests::verify_record;
    use crate::records::sha256_hex;

    #[test]
    fn a_tampered_agent_hash_is_refused() {
        let names = ["a", "b"];
        let players = names.map(|name| (name, sha256_hex(name.as_bytes())));
        let settings = CodewarSettings::default();
        let limits = serde_json::Map::new();
        let line = setup(
            players.clone(),
            7,
            &settings,
            &limits,
            (100, Default::default()),
        );
        let good = format!("{line}\n");
        // The setup line is good: the module of seat 0 is missing.
        assert_eq!(verify_record(&good).unwrap_err().line, 2);
        let hash = &players[1].1;
        let tampered = good.replace(hash, &hash.to_uppercase());
        assert_eq!(
            verify_record(&tampered).unwrap_err().to_string(),
            format!(
                "line 1: players[1].agent: expected 64 lower-case hex digits or null, found \"{}\"",
                hash.to_uppercase()
            )
        );
    }
}
