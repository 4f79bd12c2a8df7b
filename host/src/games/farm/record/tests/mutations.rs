//! Every single-field edit of a record must be rejected: by the digest as written, and, for
//! everything the game derives (counts, rolls, answers, outcomes, seats), by the replay alone
//! when the editor also recomputed the digest.

use serde_json::Value;

use super::positions::explicit_fox_record;
use super::strategy::{random_game, Style};
use crate::games::farm::record::record_to_string;
use crate::games::farm::{FaultPolicy, GameRecord};
use crate::records::{sha256_hex, RecordMeta};

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn path_text(path: &[Step]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            Step::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k)
            }
            Step::Index(i) => s.push_str(&format!("[{i}]")),
        }
    }
    s
}

/// Paths of every scalar in `v`.
fn scalars(v: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                path.push(Step::Key(k.clone()));
                scalars(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Step::Index(i));
                scalars(x, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn at<'v>(v: &'v mut Value, path: &[Step]) -> &'v mut Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

const NAME_LISTS: &[&[&str]] = &[
    &[
        "rabbit",
        "sheep",
        "pig",
        "cow",
        "horse",
        "small_dog",
        "big_dog",
        "fox",
        "wolf",
    ],
    &[
        "wrong_type",
        "invalid_amount",
        "not_enough_animals",
        "no_such_player",
        "self_trade",
        "partner_out",
        "partner_not_enough_animals",
        "unequal_trade",
        "many_to_many",
        "declined",
    ],
    &["init", "trade", "accept"],
    &[
        "trap",
        "stack_overflow",
        "decision_fuel",
        "game_fuel",
        "memory_limit",
        "timeout",
        "bad_answer",
        "load_failed",
    ],
    &["win", "draw", "unfinished"],
    &["seeded", "explicit"],
    &["forfeit", "lose_move"],
    super::EVENT_TYPES,
    &["setup", "start", "turn", "end"],
];

/// Changes one scalar to another plausible value.
fn mutate(v: &mut Value, last_key: Option<&str>) {
    *v = match v.clone() {
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Value::from(u.wrapping_add(1)),
            (None, Some(i)) => Value::from(i + 1),
            _ => Value::from(0),
        },
        Value::String(s) if s == "stock" => Value::from(0),
        Value::String(s) => {
            let rotated = NAME_LISTS.iter().find_map(|list| {
                let i = list.iter().position(|&n| n == s)?;
                Some(list[(i + 1) % list.len()].to_string())
            });
            Value::String(rotated.unwrap_or_else(|| format!("{s}x")))
        }
        Value::Null if last_key == Some("answer") => Value::Bool(true),
        Value::Null => Value::from(0),
        other => other,
    }
}

/// Renames one animal key of every herd object (`{"sheep":3}` → `{"pig":3}`): the animal kind of
/// a count is a field too.
fn animal_key_renames(v: &Value, path: &mut Vec<Step>, out: &mut Vec<(Vec<Step>, String, String)>) {
    if let Value::Object(m) = v {
        for k in m.keys() {
            if let Some(a) = farm_rules::Animal::from_name(k) {
                let other = farm_rules::ANIMALS[(a.index() + 1) % farm_rules::KINDS];
                if !m.contains_key(other.name()) {
                    out.push((path.clone(), k.clone(), other.name().to_string()));
                }
            }
        }
        for (k, x) in m {
            path.push(Step::Key(k.clone()));
            animal_key_renames(x, path, out);
            path.pop();
        }
    } else if let Value::Array(a) = v {
        for (i, x) in a.iter().enumerate() {
            path.push(Step::Index(i));
            animal_key_renames(x, path, out);
            path.pop();
        }
    }
}

/// Joins lines, recomputing the end line's digest as a careful forger would.
fn with_fresh_digest(lines: &[Value]) -> String {
    let mut body = String::new();
    for l in &lines[..lines.len() - 1] {
        body.push_str(&serde_json::to_string(l).unwrap());
        body.push('\n');
    }
    let mut end = lines[lines.len() - 1].clone();
    end["digest"] = Value::String(sha256_hex(body.as_bytes()));
    body + &serde_json::to_string(&end).unwrap() + "\n"
}

/// Whether replay alone (digest recomputed) must notice an edit at `path` of a line of type `ty`.
/// The offer, debug logs, fault kinds and details, names, limits, seed, round cap and fault policy
/// are what the players and the organiser chose: only the digest protects them.
fn derived(ty: &str, line: &Value, path: &[Step]) -> bool {
    let p = path_text(path);
    let in_fault_event = |p: &str| {
        p.starts_with("events[") && (p.ends_with(".kind") || p.ends_with(".detail")) && {
            let i: usize = p["events[".len()..p.find(']').unwrap()].parse().unwrap();
            line["events"][i]["type"] == "fault"
        }
    };
    match ty {
        "setup" => {
            [
                "format",
                "format_version",
                "game",
                "rules_version",
                "dice",
                "type",
            ]
            .contains(&p.as_str())
                || (p.starts_with("players[") && p.ends_with(".seat"))
        }
        "start" => !p.starts_with("logs") && !in_fault_event(&p),
        "turn" => !p.starts_with("offer") && !p.starts_with("logs") && !in_fault_event(&p),
        "end" => p != "digest",
        _ => true,
    }
}

fn check_all_mutations(record: &GameRecord) -> usize {
    let text = record_to_string(record, &RecordMeta::anonymous(record.setup.players)).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The forger's machinery itself must not break a good record.
    crate::games::registry()
        .verify_record(&with_fresh_digest(&lines))
        .expect("re-serialized record verifies");

    let mut checked = 0;
    for (li, line) in lines.iter().enumerate() {
        let ty = line["type"].as_str().unwrap().to_string();
        let mut paths = Vec::new();
        scalars(line, &mut Vec::new(), &mut paths);
        let mut edits: Vec<(String, bool, Value)> = Vec::new();
        for path in paths {
            let mut edited = line.clone();
            let last = match path.last() {
                Some(Step::Key(k)) => Some(k.as_str()),
                _ => None,
            };
            mutate(at(&mut edited, &path), last);
            edits.push((path_text(&path), derived(&ty, line, &path), edited));
        }
        let mut renames = Vec::new();
        animal_key_renames(line, &mut Vec::new(), &mut renames);
        for (path, from, to) in renames {
            let mut edited = line.clone();
            let obj = at(&mut edited, &path).as_object_mut().unwrap();
            let n = obj.remove(&from).unwrap();
            obj.insert(to.clone(), n);
            let p = format!("{}.{from}->{to}", path_text(&path));
            edits.push((p, derived(&ty, line, &path), edited));
        }
        for (p, must_replay_catch, edited) in edits {
            let mut mutated = lines.clone();
            mutated[li] = edited;
            let plain: String = mutated
                .iter()
                .map(|l| serde_json::to_string(l).unwrap() + "\n")
                .collect();
            assert!(
                crate::games::registry().verify_record(&plain).is_err(),
                "line {} {p}: edit accepted with the old digest",
                li + 1
            );
            if must_replay_catch {
                let forged = with_fresh_digest(&mutated);
                assert!(
                    crate::games::registry().verify_record(&forged).is_err(),
                    "line {} {p}: edit accepted with a recomputed digest\n{forged}",
                    li + 1
                );
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn every_single_field_edit_is_rejected() {
    let style = Style {
        fault_rate: 6,
        load_fault_rate: 3,
    };
    let mut total = 0;
    for (seed, players, policy) in [
        (1, 2, FaultPolicy::Forfeit),
        (2, 3, FaultPolicy::LoseMove),
        (3, 4, FaultPolicy::Forfeit),
        (4, 2, FaultPolicy::LoseMove),
        (5, 6, FaultPolicy::LoseMove),
    ] {
        total += check_all_mutations(&random_game(seed, players, 6, policy, style));
    }
    assert!(total > 1000, "only {total} edits tried");
}

#[test]
fn every_single_field_edit_of_an_explicit_dice_record_is_rejected() {
    assert!(check_all_mutations(&explicit_fox_record()) > 20);
}
