//! The report writes every game's data script byte for byte as the reference (the report's earlier
//! code over `serde_json::Value`) does, and shows the same message for a record it cannot show:
//! for the games of real leagues, for odd but readable records (keys out of order, escapes, floats,
//! huge numbers, missing or mistyped fields), for records that repeat a key (refused), and for
//! random edits of records.

use std::io::Write;
use std::path::Path;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::reference;
use super::*;

/// The new code's script (as text) or error for a record file.
fn script_of(path: &Path, id: usize, record: &str) -> Result<String, String> {
    match replay::game_script(path, id, record) {
        Ok((_, bytes)) => Ok(String::from_utf8(bytes).expect("scripts are UTF-8")),
        Err(e) => Err(format!("{e:#}")),
    }
}

/// Writes `bytes` as a record file and checks the new code against the reference on it.
fn assert_same_on(dir: &Path, bytes: &[u8]) {
    let path = dir.join("record.jsonl");
    std::fs::write(&path, bytes).unwrap();
    let expected = reference::game_script(&path, 7, "../records/record.jsonl");
    let got = script_of(&path, 7, "../records/record.jsonl");
    assert_eq!(got, expected, "record:\n{}", String::from_utf8_lossy(bytes));
}

/// Every game of a finished league: the replay data the report packed is the reference's script's
/// value, byte for byte, and a game without any shows the reference's error.
fn assert_league_matches_reference(out: &Path) {
    write_report(out).unwrap();
    let league = load_league(out).unwrap();
    let data = script_value(&out.join("report/data.js"), "ARENA_REPORT");
    let rows = rows::decode_rows(&data["games"]);
    assert_eq!(rows.len(), league.games.len());
    for (g, row) in league.games.iter().zip(rows) {
        let record = format!("../{}", g.record);
        let packed = packed_text(out, g.id);
        match reference::game_script(&out.join(&g.record), g.id, &record) {
            Ok(expected) => {
                let expected = expected
                    .strip_prefix("window.ARENA_GAME = ")
                    .and_then(|t| t.strip_suffix(";\n"))
                    .unwrap();
                assert!(
                    packed.as_deref() == Some(expected),
                    "game {}: the data differ",
                    g.id
                );
            }
            Err(e) => {
                assert!(packed.is_none(), "game {}", g.id);
                assert_eq!(row["error"], e.as_str(), "game {}", g.id);
            }
        }
    }
}

#[test]
fn league_games_are_written_as_the_reference_writes_them() {
    let dir = temp("same-farm");
    let out = league(&dir);
    assert_league_matches_reference(&out);
    // A damaged record and a missing one: no script, the reference's message.
    let league_files = load_league(&out).unwrap();
    let [first, second, ..] = &league_files.games[..] else {
        panic!("a league of 12 games")
    };
    std::fs::write(out.join(&first.record), b"{\"type\":\"setup\"\n").unwrap();
    std::fs::remove_file(out.join(&second.record)).unwrap();
    assert_league_matches_reference(&out);
    std::fs::remove_dir_all(&dir).unwrap();

    for (name, players, games, cap) in [("same-solo", 1, 6, 45), ("same-race", 3, 3, 300)] {
        let dir = temp(name);
        let out = farkle_league(&dir, players, games, cap);
        assert_league_matches_reference(&out);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A Little Animal Farm record with a given start position, a load fault, trades, the wolf, the
/// fox, breeding, logs and an end line.
fn farm_record() -> Vec<Value> {
    vec![
        json!({"type":"setup","format":"arena-record","format_version":1,"game":"little-animal-farm",
               "rules_version":1,"seed":18446744073709551615u64,"dice":"seeded","round_cap":300,
               "fault_policy":"forfeit","limits":{"fuel":10},
               "players":[{"seat":0,"name":"a","agent":null},{"seat":1,"name":"b","agent":"ab"},
                          {"seat":2,"name":"c","agent":null}],
               "start":{"herds":[{"rabbit":6},{},{"sheep":1,"small_dog":1}],
                        "stock":{"rabbit":54,"sheep":23,"pig":20,"cow":12,"horse":6,"small_dog":3,"big_dog":2},
                        "to_move":0}}),
        json!({"type":"start","events":[{"type":"fault","seat":2,"decision":"init","kind":"load_failed","detail":"no"},
                                        {"type":"forfeit","seat":2}],
               "logs":[{"seat":2,"text":"bye\u{2028}"}]}),
        json!({"type":"turn","turn":1,"round":1,"seat":0,
               "offer":{"kind":1,"partner":-1,"give":[6,0,0,0,0,0,0],"get":[0,1,0,0,0,0,0]},
               "answer":null,"roll":{"fox":"fox","wolf":"wolf"},
               "events":[{"type":"transfer","from":0,"to":"stock","animals":{"rabbit":6}},
                         {"type":"transfer","from":"stock","to":0,"animals":{"sheep":1}},
                         {"type":"rolled","seat":0,"roll":{"fox":"fox","wolf":"wolf"}},
                         {"type":"wolf","seat":0,"lost":{"sheep":1}}],
               "logs":[{"seat":0,"text":"a \"quote\" and </script>"}]}),
        json!({"type":"turn","turn":2,"round":1,"seat":1,
               "offer":{"kind":2,"partner":0,"give":[1,0,0,0,0,0,0],"get":[0,0,0,0,0,0,9]},
               "answer":false,"roll":{"fox":"rabbit","wolf":"rabbit"},
               "events":[{"type":"answer","seat":0,"trader":1,"accepted":false},
                         {"type":"trade_failed","seat":1,"reason":"declined","code":10},
                         {"type":"rolled","seat":1,"roll":{"fox":"rabbit","wolf":"rabbit"}},
                         {"type":"bred","seat":1,"gained":{"rabbit":1}},
                         {"type":"fox","seat":1,"lost":{}}]}),
        json!({"type":"end","outcome":{"result":"draw","round_cap":true},"rounds":1,"forfeits":[2],
               "final":{"herds":[{},{"rabbit":1},{"sheep":1,"small_dog":1}],
                        "stock":{"rabbit":59,"sheep":24,"pig":20,"cow":12,"horse":6,"small_dog":3,"big_dog":2}},
               "digest":"00"}),
    ]
}

/// A Farkle race of two seats.
fn farkle_record() -> Vec<Value> {
    vec![
        json!({"type":"setup","game":"farkle","format":"arena-record","seed":5,"round_cap":10,
               "target":10000,"fault_policy":"forfeit",
               "players":[{"seat":0,"name":"x","agent":null},{"seat":1,"name":"y","agent":null}]}),
        json!({"type":"start","faults":[],"logs":[{"seat":1,"text":"hi"}]}),
        json!({"type":"turn","turn":1,"round":1,"seat":0,"end":"banked","banked":150,"score":150,
               "rolls":[{"dice":[1,5,2,3,4,6],"draft":[0,1],"action":1,"points":150}]}),
        json!({"type":"turn","turn":2,"round":1,"seat":1,"end":"farkle","banked":0,"score":0,
               "rolls":[{"dice":[2,3,4,6,2,3],"draft":[],"action":0,"points":0}],
               "logs":[{"seat":1,"text":"oh"}]}),
        json!({"type":"end","outcome":{"result":"win","seat":0,"last_standing":false},"rounds":1,
               "forfeits":[],"scores":[150,0],"turns":2,"digest":"00"}),
    ]
}

/// How a record's JSON is spelled; every spelling means the same values to a JSON reader.
#[derive(Clone, Copy, Debug, Default)]
struct Spelling {
    /// Object keys in reverse order.
    reverse: bool,
    /// Every object starts with its first key given an earlier value: refused, a key given twice.
    repeat_first_key: bool,
    /// Non-ASCII characters and `/` escaped (`\u00e9`, `\/`).
    escape: bool,
    /// Spaces around punctuation, and a blank line between lines.
    spaced: bool,
}

fn spell_str(s: &str, sp: Spelling, out: &mut String) {
    if !sp.escape {
        out.push_str(&serde_json::to_string(s).unwrap());
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            '/' => out.push_str("\\/"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
}

fn spell(v: &Value, sp: Spelling, out: &mut String) {
    let gap = if sp.spaced { " " } else { "" };
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(gap);
                }
                spell(item, sp, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            if sp.reverse {
                entries.reverse();
            }
            if sp.repeat_first_key {
                if let Some((k, _)) = entries.first() {
                    entries.insert(0, (k, &Value::Bool(false)));
                }
            }
            out.push('{');
            for (i, (k, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(gap);
                }
                spell_str(k, sp, out);
                out.push(':');
                out.push_str(gap);
                spell(item, sp, out);
            }
            out.push('}');
        }
        Value::String(s) => spell_str(s, sp, out),
        other => out.push_str(&other.to_string()),
    }
}

fn record_text(lines: &[Value], sp: Spelling) -> String {
    let mut out = String::new();
    for line in lines {
        spell(line, sp, &mut out);
        out.push('\n');
        if sp.spaced {
            out.push_str("  \n");
        }
    }
    out
}

#[test]
fn odd_but_readable_records_are_written_as_the_reference_writes_them() {
    let dir = temp("same-odd");
    let spellings = [
        Spelling::default(),
        Spelling {
            reverse: true,
            repeat_first_key: true,
            escape: true,
            spaced: true,
        },
    ];
    for base in [farm_record(), farkle_record()] {
        for sp in spellings {
            assert_same_on(&dir, record_text(&base, sp).as_bytes());
        }
    }
    // Texts a `Value` reads in its own way: repeated keys (refused), floats, `-0`, numbers past
    // 64 bits, escaped keys.
    let farm = record_text(&farm_record(), Spelling::default());
    for (from, to) in [
        (r#""seat":0,"#, r#""seat":0,"seat":1,"#),
        (r#""rounds":1"#, r#""rounds":1.0"#),
        (r#""rounds":1"#, r#""rounds":-0"#),
        (r#""rounds":1"#, r#""rounds":1e400"#),
        (r#""rounds":1"#, r#""rounds":99999999999999999999"#),
        (r#""rounds":1"#, r#""rounds":-9223372036854775809"#),
        (r#""to_move":0"#, r#""to_move":1.5e-7"#),
        (r#""turn":1"#, r#""t\u0075rn":1"#),
        (r#""rabbit":6}"#, r#""rabbit":6.0}"#),
        (r#""rabbit":6}"#, r#""rabbit":-6}"#),
        (r#""rabbit":6}"#, r#""rabbit":9223372036854775808}"#),
        (r#""rabbit":6}"#, r#""rabbit":6,"rabbit":7}"#),
        (r#""name":"a""#, r#""name":"\ud83d\ude00 \u2029""#),
    ] {
        assert!(farm.contains(from), "{from}");
        assert_same_on(&dir, farm.replacen(from, to, 1).as_bytes());
        assert_same_on(&dir, farm.replace(from, to).as_bytes());
    }
    // Records the report cannot show: the same message.
    let farkle = record_text(&farkle_record(), Spelling::default());
    for text in [
        "",
        "\n\n",
        "{\"type\":\"setup\"}\nnot json\n",
        "{\"type\":\"setup\"}\n{\"type\":\"start\"} trailing\n",
        "[1,2]\n",
        "{\"type\":\"start\"}\n",
        "{\"type\":\"setup\",\"game\":\"chess\",\"players\":[]}\n",
        "{\"type\":\"setup\",\"game\":7,\"players\":[]}\n",
        "{\"type\":\"setup\",\"players\":{}}\n",
        "{\"type\":\"setup\",\"players\":[{\"name\":3},{}]}\n",
        &farm.replacen("\"to\":\"stock\"", "\"to\":\"stack\"", 1),
        &farm.replacen("\"from\":0", "\"from\":-1", 1),
        &farm.replacen("\"from\":0", "\"from\":9", 1),
        &farm.replacen("\"from\":0,", "", 1),
        &farm.replacen("\"animals\":{\"rabbit\":6}", "\"animals\":[6]", 1),
        &farm.replacen("\"animals\":{\"rabbit\":6}", "\"animals\":null", 1),
        &farm.replacen("\"animals\":{\"rabbit\":6}", "\"animals\":{\"zebra\":1}", 1),
        &farm.replacen("\"lost\":{\"sheep\":1}", "\"lost\":{\"sheep\":\"1\"}", 1),
        &farm.replacen("\"seat\":0,\"lost\"", "\"seat\":true,\"lost\"", 1),
        &farm.replacen("\"stock\":{\"rabbit\":54", "\"stock\":{\"rabbit\":5.4", 1),
        &farm.replacen("\"herds\":[{\"rabbit\":6}", "\"herds\":[7", 1),
        &farm.replacen("\"final\":{", "\"final\":null,\"x\":{", 1),
        &farm.replacen("\"start\":{", "\"start\":null,\"x\":{", 1),
        &farm.replacen("\"start\":{", "\"start\":4,\"x\":{", 1),
        &farm.replacen("\"events\":[", "\"events\":{\"a\":[", 1),
        &farkle.replacen("\"seat\":1,\"end\"", "\"seat\":2,\"end\"", 1),
        &farkle.replacen("\"seat\":1,\"end\"", "\"end\"", 1),
        &farkle.replacen("\"banked\":150", "\"banked\":150.5", 1),
        &farkle.replacen("\"score\":150", "\"score\":151", 1),
        &farkle.replacen("\"scores\":[150,0]", "\"scores\":[150.0,0]", 1),
        &farkle.replacen("\"scores\":[150,0]", "\"scores\":[150]", 1),
        &farkle.replacen("\"scores\":[150,0]", "\"scores\":null", 1),
    ] {
        assert_same_on(&dir, text.as_bytes());
    }
    // Files that are not text, compressed ones, and no file at all.
    assert_same_on(&dir, b"{\"type\":\"setup\",\"players\":[\"\xff\"]}\n");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(farm.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    assert_same_on(&dir, &gz);
    assert_same_on(&dir, &gz[..gz.len() / 2]);
    let missing = dir.join("missing.jsonl");
    assert_eq!(
        script_of(&missing, 1, "x"),
        reference::game_script(&missing, 1, "x")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Keys that the report reads, or that records have.
const KEYS: [&str; 24] = [
    "type", "seat", "from", "to", "animals", "lost", "gained", "events", "turn", "banked", "score",
    "scores", "final", "herds", "stock", "start", "players", "name", "game", "seed", "to_move",
    "faults", "rabbit", "zebra",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop::sample::select(vec![0i64, 1, 2, 7, -1, i64::MAX, i64::MIN]).prop_map(Value::from),
        Just(json!(u64::MAX)),
        any::<i32>().prop_map(Value::from),
        prop::sample::select(vec![0.5f64, -0.0, 2.0, 1e300]).prop_map(Value::from),
        prop::sample::select(vec![
            "stock",
            "turn",
            "forfeit",
            "transfer",
            "bred",
            "wolf",
            "farkle",
            "little-animal-farm",
            "rabbit",
            "x\u{2028}y",
            "é\"\\/",
        ])
        .prop_map(Value::from),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS.to_vec()), inner), 0..4).prop_map(
                |entries| Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<String, Value>>()
                )
            ),
        ]
    })
}

/// One change to a record: in object number `object` of line `line` (counting the line's own
/// object and those nested in it, depth first), key `key` is set to `value`, or removed.
#[derive(Clone, Debug)]
struct Edit {
    line: usize,
    object: usize,
    key: &'static str,
    value: Option<Value>,
}

fn edit() -> impl Strategy<Value = Edit> {
    (
        any::<usize>(),
        any::<usize>(),
        prop::sample::select(KEYS.to_vec()),
        prop::option::weighted(0.8, value()),
    )
        .prop_map(|(line, object, key, value)| Edit {
            line,
            object,
            key,
            value,
        })
}

fn count_objects(v: &Value) -> usize {
    match v {
        Value::Object(map) => 1 + map.values().map(count_objects).sum::<usize>(),
        Value::Array(items) => items.iter().map(count_objects).sum(),
        _ => 0,
    }
}

/// Object number `n` of `v`, depth first, `v` itself first.
fn nth_object<'v>(v: &'v mut Value, n: &mut usize) -> Option<&'v mut Map<String, Value>> {
    match v {
        Value::Object(map) => {
            if *n == 0 {
                return Some(map);
            }
            *n -= 1;
            map.values_mut().find_map(|item| nth_object(item, n))
        }
        Value::Array(items) => items.iter_mut().find_map(|item| nth_object(item, n)),
        _ => None,
    }
}

fn apply(lines: &mut [Value], e: &Edit) {
    let count = lines.len();
    let line = &mut lines[e.line % count];
    let mut n = e.object % count_objects(line).max(1);
    let Some(map) = nth_object(line, &mut n) else {
        return;
    };
    match &e.value {
        Some(v) => {
            map.insert(e.key.to_owned(), v.clone());
        }
        None => {
            map.remove(e.key);
        }
    }
}

fn spelling() -> impl Strategy<Value = Spelling> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(reverse, repeat_first_key, escape, spaced)| Spelling {
            reverse,
            repeat_first_key,
            escape,
            spaced,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn edited_records_are_written_as_the_reference_writes_them(
        farkle in any::<bool>(),
        edits in prop::collection::vec(edit(), 1..4),
        sp in spelling(),
    ) {
        let mut lines = if farkle { farkle_record() } else { farm_record() };
        for e in &edits {
            apply(&mut lines, e);
        }
        let text = record_text(&lines, sp);
        let dir = std::env::temp_dir().join(format!("arena-report-same-edits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("record.jsonl");
        std::fs::write(&path, &text).unwrap();
        let expected = reference::game_script(&path, 7, "../r.jsonl");
        let got = script_of(&path, 7, "../r.jsonl");
        prop_assert_eq!(got, expected, "record:\n{}", text);
    }
}
