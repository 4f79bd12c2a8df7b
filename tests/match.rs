//! `arena match NEW OLD`: paired games, the SPRT's verdicts and exit statuses, determinism across
//! thread counts, and a match's folder as a league's (it verifies and reports).

mod common;

use std::path::Path;

use common::{example_wasm, result_files, run, temp_dir, text};
use serde_json::Value;

fn wasm(name: &str) -> String {
    example_wasm(name).display().to_string()
}

/// Runs `arena match` with `args` and `--json`; returns the exit status and the parsed output.
fn json_match(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["match", "--json"];
    all.extend_from_slice(args);
    let out = run(&all);
    let code = out.status.code().expect("exit status");
    let value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON on stdout ({e}):\n{}", text(&out)));
    (code, value)
}

fn verify_league(dir: &Path) {
    let out = run(&["verify", "--league", &dir.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("league ok"), "{}", text(&out));
}

/// The match's figures without the folder it was kept in.
fn figures(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("output");
    v
}

#[test]
fn a_fixed_length_match_counts_every_pair_and_the_same_seed_gives_the_same_match() {
    let dir = temp_dir("match-fixed");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let (new, old) = (wasm("shepherd"), wasm("greedy"));
    let base = [new.as_str(), old.as_str(), "--games", "40", "--seed", "7"];
    let with = |threads: &str, out: &Path| {
        let mut args = base.to_vec();
        let out = out.display().to_string();
        args.extend_from_slice(&["--threads", threads, "--output", &out]);
        json_match(&args)
    };
    let (code, a) = with("1", &one);
    assert_eq!(code, 0, "{a}");
    assert_eq!(a["verdict"], "fixed_length");
    assert_eq!(
        (a["games"].as_u64(), a["pairs"].as_u64()),
        (Some(40), Some(20))
    );
    let counts: Vec<u64> = a["elo"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(counts.len(), 5);
    assert_eq!(counts.iter().sum::<u64>(), 20, "{counts:?}");
    let games = &a["elo"]["games"];
    let wdl = ["wins", "draws", "losses"].map(|k| games[k].as_u64().unwrap());
    assert_eq!(wdl.iter().sum::<u64>(), 40);
    // NEW's half-points counted by pair and by game agree.
    let pair_points: u64 = counts.iter().enumerate().map(|(k, c)| k as u64 * c).sum();
    assert_eq!(pair_points, 2 * wdl[0] + wdl[1]);
    assert!(a["sprt"].is_null());

    let (code, b) = with("2", &two);
    assert_eq!(code, 0);
    assert_eq!(figures(a), figures(b));
    assert_eq!(result_files(&one), result_files(&two));
    verify_league(&one);
    let report = run(&["report", &one.display().to_string()]);
    assert!(report.status.success(), "{}", text(&report));
    assert!(one.join("report/index.html").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sprt_accepts_h1_for_a_clearly_stronger_agent_and_stops_at_the_same_pair_on_any_thread_count()
{
    let dir = temp_dir("match-h1");
    let (one, two) = (dir.join("one"), dir.join("two"));
    let (new, old) = (wasm("shepherd"), wasm("passer"));
    let with = |threads: &str, out: &Path| {
        let out = out.display().to_string();
        json_match(&[
            &new,
            &old,
            "--sprt",
            "elo0=0,elo1=20",
            "--games",
            "400",
            "--threads",
            threads,
            "--output",
            &out,
        ])
    };
    let (code, a) = with("1", &one);
    assert_eq!(code, 0, "{a}");
    assert_eq!(a["verdict"], "h1_accepted");
    let games = a["games"].as_u64().unwrap();
    assert!(games < 400, "stopped early: {games}");
    assert!(a["sprt"]["llr"].as_f64().unwrap() > a["sprt"]["upper"].as_f64().unwrap());
    let (code, b) = with("2", &two);
    assert_eq!(code, 0);
    assert_eq!(figures(a), figures(b));
    // The folder is the league of the games counted, whatever ran past the verdict.
    assert_eq!(result_files(&one), result_files(&two));
    let records = std::fs::read_dir(one.join("records")).unwrap().count() as u64;
    assert_eq!(records, games);
    verify_league(&one);
    verify_league(&two);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_sprt_accepts_h0_for_an_equal_or_a_weaker_agent() {
    let (greedy, passer, shepherd) = (wasm("greedy"), wasm("passer"), wasm("shepherd"));
    for (new, old) in [(&passer, &shepherd), (&greedy, &greedy)] {
        let (code, v) = json_match(&[new, old, "--sprt", "elo0=0,elo1=20", "--games", "2000"]);
        assert_eq!(code, 1, "{v}");
        assert_eq!(v["verdict"], "h0_accepted");
        assert!(v["games"].as_u64().unwrap() < 2000);
        assert!(v["sprt"]["llr"].as_f64().unwrap() < v["sprt"]["lower"].as_f64().unwrap());
    }
}

#[test]
fn the_game_limit_before_a_verdict_exits_3() {
    let greedy = wasm("greedy");
    let (code, v) = json_match(&[&greedy, &greedy, "--sprt", "--games", "4"]);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["verdict"], "limit_reached");
    assert_eq!(v["games"], 4);
    let llr = v["sprt"]["llr"].as_f64().unwrap();
    assert!(
        v["sprt"]["lower"].as_f64().unwrap() <= llr && llr <= v["sprt"]["upper"].as_f64().unwrap()
    );
}

#[test]
fn usage_errors_exit_2_with_a_message_naming_the_fault() {
    let dir = temp_dir("match-usage");
    let (greedy, shepherd, planner) = (wasm("greedy"), wasm("shepherd"), wasm("farkle-planner"));
    let (greedy, shepherd, planner) = (greedy.as_str(), shepherd.as_str(), planner.as_str());
    let missing = dir.join("missing.wasm").display().to_string();
    let taken = dir.join("taken");
    std::fs::create_dir_all(&taken).unwrap();
    std::fs::write(taken.join("journal.jsonl"), "{}\n").unwrap();
    let taken = taken.display().to_string();
    for (args, message) in [
        (vec![greedy, shepherd, "--games", "7"], "even number"),
        (vec![greedy, shepherd, "--games", "0"], "even number"),
        (
            vec![greedy, shepherd, "--sprt", "elo1=ten"],
            "--sprt: elo1=ten",
        ),
        (
            vec![greedy, shepherd, "--sprt", "elo0=5,elo1=5"],
            "elo0 must be below elo1",
        ),
        (
            vec![greedy, shepherd, "--sprt", "turns1=2"],
            "unknown key `turns1`",
        ),
        (vec![greedy, &missing], "OLD: agent"),
        (vec![greedy, planner], "no game in common"),
        (
            vec![greedy, shepherd, "--game", "farkle"],
            "cannot play --game farkle",
        ),
        (vec![greedy, shepherd, "--threads", "0"], "--threads"),
        (vec![greedy, shepherd, "--output", &taken], "--fresh"),
        (vec![greedy, shepherd, "--fresh"], "--output"),
        (vec![greedy], "OLD"),
    ] {
        let mut all = vec!["match"];
        all.extend(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", text(&out));
        assert!(text(&out).contains(message), "{all:?}: {}", text(&out));
        assert!(out.stdout.is_empty(), "{all:?}: nothing on stdout");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn farkle_is_matched_solo_on_shared_seeds_and_races_as_the_farm() {
    let dir = temp_dir("match-farkle");
    let (planner, one_and_done) = (wasm("farkle-planner"), wasm("farkle-one-and-done"));
    let out = dir.join("solo").display().to_string();
    let (code, v) = json_match(&[
        &planner,
        &one_and_done,
        "--sprt",
        "--games",
        "400",
        "--output",
        &out,
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["mode"].as_str(), v["verdict"].as_str()),
        (Some("solo"), Some("h1_accepted"))
    );
    let d = &v["turns"]["difference"];
    assert!(
        d["mean"].as_f64().unwrap() < 0.0,
        "the planner is faster: {v}"
    );
    assert!(d["upper"].as_f64().unwrap() < 0.0);
    assert_eq!(d["pairs"], v["pairs"]);
    verify_league(Path::new(&out));

    let (code, v) = json_match(&[&one_and_done, &planner, "--sprt", "--games", "400"]);
    assert_eq!(
        (code, v["verdict"].as_str()),
        (1, Some("h0_accepted")),
        "{v}"
    );

    let (code, v) = json_match(&[&planner, &one_and_done, "--race", "--games", "20"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["mode"], "head_to_head");
    let sum: u64 = v["elo"]["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(sum, 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_text_output_states_the_figures_and_the_verdict() {
    let (shepherd, passer) = (wasm("shepherd"), wasm("passer"));
    let out = run(&[
        "match", &shepherd, &passer, "--sprt", "elo1=20", "--games", "400",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "shepherd (NEW) vs passer (OLD): Little Animal Farm",
        "pairs by NEW's points",
        "SPRT elo0=0,elo1=20,alpha=0.05,beta=0.05,model=logistic: LLR",
        "verdict: H1 accepted: NEW is better (exit status 0)",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in:\n{stdout}");
    }
    let help = run(&["match", "--help"]);
    assert!(help.status.success());
    for expected in [
        "--sprt",
        "elo0=0,elo1=10",
        "turns0=0,turns1=0.5",
        "Exit status: 0 H1",
    ] {
        assert!(text(&help).contains(expected), "{expected:?}");
    }
}
