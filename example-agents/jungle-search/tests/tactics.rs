//! The search agent on small positions: it wins when it can, stops a den threat, does not trade
//! its elephant for a wolf, and spends only its share of the clock (measured with the SDK's
//! native fuel stand-in, which the search charges `NODE_FUEL` per node).

use arena_abi::jungle::{Clock, Observation};
use arena_abi::{game, Decision, Envelope, ABI_VERSION};
use arena_agent_sdk::fuel;
use arena_agent_sdk::jungle::{Move, Position};
use arena_agent_sdk::{JungleAgent, JungleView};
use jungle_search::search::{CHECK_EVERY, NODE_FUEL};
use jungle_search::{budget, SearchAgent, RESERVE};

const ROOMY: Clock = Clock {
    mine: 200_000_000,
    theirs: 200_000_000,
    increment: 1_000_000,
    decision_cap: 10_000_000,
};

fn view(text: &str, clock: Clock) -> JungleView {
    let p = Position::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let env = Envelope {
        abi_version: ABI_VERSION,
        game: game::JUNGLE,
        decision: Decision::JungleMove,
        seat: p.side_to_move().index() as u32,
        players: 2,
        turn: p.ply() + 1,
        round: p.ply() / 2 + 1,
        payload_len: 0,
    };
    JungleView::from_observation(&env, &Observation::new(&p, 400, clock, &[])).unwrap()
}

/// The agent's move, with the stand-in given this decision's fuel as the SDK's handler does.
fn choose(agent: &mut SearchAgent, v: &JungleView) -> Move {
    fuel::native::set(v.clock.this_decision() as i64);
    let mv = agent.choose_move(v);
    assert!(v.position.is_legal(mv), "{mv} in {}", v.position);
    mv
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

#[test]
fn enters_the_den() {
    let mut a = SearchAgent::new(1);
    assert_eq!(
        choose(&mut a, &view("2t4/3R3/7/7/7/7/7/7/l6 w", ROOMY)),
        mv("d8d9")
    );
}

#[test]
fn takes_the_piece_threatening_its_den() {
    // The second player's cat on d2 would enter d1 next: the dog on c2 takes it. The lion
    // could take the wolf on g6 instead, and the game would be lost.
    let mut a = SearchAgent::new(2);
    let v = view("7/7/7/6w/6L/7/7/2Dc3/6t w", ROOMY);
    assert_eq!(choose(&mut a, &v), mv("c2d2"));
}

#[test]
fn does_not_give_the_elephant_for_a_wolf() {
    // The elephant on d4 could take the wolf on d5, but the rat on d6 would take it back.
    let mut a = SearchAgent::new(3);
    let v = view("6l/7/7/3r3/3w3/3E3/7/7/T6 w", ROOMY);
    assert_ne!(choose(&mut a, &v), mv("d4d5"));
}

#[test]
fn plays_the_only_move() {
    let mut a = SearchAgent::new(4);
    // The first player's cat on a1 may only go to b1: the second player's dog on a2 outranks
    // it.
    let v = view("6t/7/7/7/7/7/7/d6/C6 w", ROOMY);
    assert_eq!(choose(&mut a, &v), mv("a1b1"));
}

#[test]
fn budget_is_a_share_of_the_clock_within_the_decision() {
    let clock = Clock {
        mine: 50_000_000,
        theirs: 0,
        increment: 2_000_000,
        decision_cap: 10_000_000,
    };
    // 50M / 25 + 3/4 of 2M.
    assert_eq!(budget(&clock, 10_000_000), 3_500_000);
    // Never more than what the decision may use, less an eighth and the reserve.
    assert_eq!(budget(&clock, 3_000_000), 3_000_000 - 375_000 - RESERVE);
    assert!(budget(&clock, 100_000) < 0);
}

#[test]
fn spends_no_more_than_its_share() {
    let start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w";
    let mut spent = Vec::new();
    for mine in [5_000_000, 20_000_000, 100_000_000] {
        let clock = Clock {
            mine,
            theirs: mine,
            increment: 0,
            decision_cap: 10_000_000,
        };
        let mut a = SearchAgent::new(5);
        let v = view(start, clock);
        choose(&mut a, &v);
        let used = clock.this_decision() as i64 - fuel::native::left();
        let share = budget(&clock, clock.this_decision() as i64);
        assert_eq!(used, a.nodes() as i64 * NODE_FUEL);
        // It stops at most one check interval after its share is spent.
        assert!(
            used <= share + CHECK_EVERY as i64 * NODE_FUEL,
            "{used} > {share}"
        );
        assert!(used > 0);
        spent.push(used);
    }
    // More clock, more thought.
    assert!(spent[0] < spent[1] && spent[1] < spent[2], "{spent:?}");
}

#[test]
fn almost_out_of_fuel_it_answers_without_searching() {
    let clock = Clock {
        mine: RESERVE as u64 / 2,
        theirs: 0,
        increment: 0,
        decision_cap: 10_000_000,
    };
    let mut a = SearchAgent::new(6);
    let v = view("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w", clock);
    choose(&mut a, &v);
    assert_eq!(a.nodes(), 0);
}
