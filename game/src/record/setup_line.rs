//! The setup line as every game writes it but the oldest (whose records keep their own order of
//! fields): the envelope's fields (what the record is, which game under which rules, who played
//! under which limits), the table's (seed, round cap, fault policy) and the game's own
//! ([`Record::setup_fields`]), all in sorted key order, with `type` last. Written once here, so a
//! game says only what its setup holds besides the table. A setup line is written once per record,
//! so it is built as a map of values (which sorts the keys) rather than a type per game.

use super::jsonl::seats_of;
use super::{Lines, Record, RecordMeta, FORMAT_NAME, FORMAT_VERSION};

/// Writes the setup line of a game of `setup` played by `meta`'s players (an error: `meta` has
/// another number of seats, or limits that are not an object).
pub fn push<R: Record>(
    rules: &R,
    setup: &R::Setup,
    meta: &RecordMeta,
    out: &mut Lines<'_>,
) -> anyhow::Result<()> {
    let (players, limits) = seats_of(meta, rules.players(setup))?;
    let mut fields = rules.setup_fields(setup);
    let table = [
        ("fault_policy", serde_json::to_value(rules.policy(setup))?),
        ("round_cap", rules.round_cap(setup).into()),
        ("seed", rules.seed(setup).into()),
    ];
    let envelope = [
        ("format", FORMAT_NAME.into()),
        ("format_version", FORMAT_VERSION.into()),
        ("game", rules.info().name.into()),
        ("limits", serde_json::to_value(limits)?),
        ("players", serde_json::to_value(players)?),
        ("rules_version", R::RULES_VERSION.into()),
    ];
    for (key, value) in table.into_iter().chain(envelope) {
        fields[key] = value;
    }
    out.push_sorted("setup", fields)?;
    Ok(())
}
