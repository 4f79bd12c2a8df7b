//! What changed between the settings a league was started with and those of the league file now:
//! a refused `--resume` names each change, and `--resume --extend` accepts a league whose only
//! change is new agents.
//!
//! The settings are the JSON object of `runner::settings_json` (kept in the journal's header and
//! in `standings.json`): the game's keys, `limits` (the budgets), and `agents` (name and code hash
//! of each, in the league file's order).

use serde_json::Value;

/// One phrase per change from `old` to `new` (empty when they are equal).
pub fn describe(old: &Value, new: &Value) -> Vec<String> {
    let mut changes = Vec::new();
    for key in keys(old, new) {
        let (a, b) = (&old[key.as_str()], &new[key.as_str()]);
        if a == b {
            continue;
        }
        match key.as_str() {
            "agents" => changes.extend(agent_changes(a, b)),
            "limits" => {
                for k in keys(a, b) {
                    if a[k.as_str()] != b[k.as_str()] {
                        changes.push(format!(
                            "budget `{k}` was {}, is now {}",
                            shown(&a[k.as_str()]),
                            shown(&b[k.as_str()])
                        ));
                    }
                }
            }
            _ => changes.push(format!("`{key}` was {}, is now {}", shown(a), shown(b))),
        }
    }
    changes
}

/// True when `new` is `old` with agents added: every other setting, and every agent of `old` with
/// its code, is the same.
pub fn only_agents_added(old: &Value, new: &Value) -> bool {
    let (a, b) = (agents(&old["agents"]), agents(&new["agents"]));
    let others_equal = keys(old, new)
        .iter()
        .all(|k| k == "agents" || old[k.as_str()] == new[k.as_str()]);
    others_equal
        && b.len() > a.len()
        && a.iter()
            .all(|(name, hash)| b.iter().any(|(n, h)| n == name && h == hash))
}

/// The agents' changes: removed, added, code changed, or only listed in another order.
fn agent_changes(old: &Value, new: &Value) -> Vec<String> {
    let (a, b) = (agents(old), agents(new));
    let mut changes = Vec::new();
    for (name, hash) in &a {
        match b.iter().find(|(n, _)| n == name) {
            None => changes.push(format!("agent `{name}` was removed")),
            Some((_, h)) if h != hash => {
                changes.push(format!("agent `{name}`'s code changed"));
            }
            Some(_) => {}
        }
    }
    for (name, _) in &b {
        if !a.iter().any(|(n, _)| n == name) {
            changes.push(format!("agent `{name}` was added"));
        }
    }
    if changes.is_empty() {
        changes.push("the agents are listed in another order".into());
    }
    changes
}

/// `(name, code hash)` of each agent of a settings' `agents` array.
fn agents(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            (
                a["name"].as_str().unwrap_or("?").to_owned(),
                a["sha256"].to_string(),
            )
        })
        .collect()
}

/// The keys of two objects, in order, each once.
fn keys(a: &Value, b: &Value) -> Vec<String> {
    let mut keys: Vec<String> = [a, b]
        .iter()
        .filter_map(|v| v.as_object())
        .flat_map(|o| o.keys().cloned())
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

fn shown(v: &Value) -> String {
    match v {
        Value::Null => "not set".into(),
        v => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn settings(round_cap: u32, fuel: u64, agents: &[(&str, &str)]) -> Value {
        json!({
            "game": "little-animal-farm",
            "round_cap": round_cap,
            "limits": {"fuel_per_decision": fuel, "memory_bytes": 1},
            "agents": agents.iter().map(|(n, h)| json!({"name": n, "sha256": h})).collect::<Vec<_>>(),
        })
    }

    #[test]
    fn each_change_is_named() {
        let old = settings(300, 10, &[("a", "1"), ("b", "2"), ("c", "3")]);
        assert!(describe(&old, &old).is_empty());
        let new = settings(200, 20, &[("a", "1"), ("b", "9"), ("d", "4")]);
        assert_eq!(
            describe(&old, &new),
            [
                "agent `b`'s code changed",
                "agent `c` was removed",
                "agent `d` was added",
                "budget `fuel_per_decision` was 10, is now 20",
                "`round_cap` was 300, is now 200",
            ]
        );
        let reordered = settings(300, 10, &[("b", "2"), ("a", "1"), ("c", "3")]);
        assert_eq!(
            describe(&old, &reordered),
            ["the agents are listed in another order"]
        );
    }

    #[test]
    fn a_league_grows_only_by_new_agents_with_the_same_settings() {
        let old = settings(300, 10, &[("a", "1"), ("b", "2")]);
        let grown = settings(300, 10, &[("c", "3"), ("a", "1"), ("b", "2")]);
        assert!(only_agents_added(&old, &grown));
        assert!(!only_agents_added(&old, &old));
        assert!(!only_agents_added(
            &old,
            &settings(301, 10, &[("a", "1"), ("b", "2"), ("c", "3")])
        ));
        assert!(!only_agents_added(
            &old,
            &settings(300, 10, &[("a", "1"), ("b", "5"), ("c", "3")])
        ));
        assert!(!only_agents_added(
            &old,
            &settings(300, 10, &[("a", "1"), ("c", "3"), ("d", "4")])
        ));
    }
}
