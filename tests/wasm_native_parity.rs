//! The example agents compiled to wasm and run in the sandbox decide exactly as the same crates
//! compiled natively: the SDK's glue and the sandbox add nothing and lose nothing.

mod common;

use arena::games::farm::NativePlayer;
use arena::games::farm::{play_game, FarmPlayer, SeededDice, Setup};
use common::example_wasm;

/// The example agents built for wasm play exactly like their native builds (same records), load
/// in the sandbox with no imports but `arena.log`, and never fault.
#[test]
fn wasm_builds_play_exactly_like_native_builds() {
    let sandbox = arena::sandbox::Sandbox::new(arena::games::AGENTS, Default::default()).unwrap();
    fn native(name: &str) -> Box<dyn FarmPlayer> {
        match name {
            "passer" => Box::new(NativePlayer::<passer::Passer>::new().round_cap(300)),
            "greedy" => Box::new(NativePlayer::<greedy::Greedy>::new().round_cap(300)),
            "insurance" => Box::new(NativePlayer::<insurance::Insurance>::new().round_cap(300)),
            "trader" => Box::new(NativePlayer::<trader::Trader>::new().round_cap(300)),
            _ => Box::new(NativePlayer::<shepherd::Shepherd>::new().round_cap(300)),
        }
    }
    for name in ["passer", "greedy", "insurance", "trader", "shepherd"] {
        let module = sandbox.load(&example_wasm(name)).unwrap();
        assert!(
            module.imports().iter().all(|e| e.name == "arena::log"),
            "{name} imports {:?}",
            module.imports()
        );
        for seed in 0..10 {
            let setup = Setup::standard(2, seed, 300);
            let mut wasm = module.player_with_round_cap(300);
            let mut other = native("trader");
            let mut ps: [&mut dyn FarmPlayer; 2] = [&mut wasm, other.as_mut()];
            let from_wasm = play_game(&setup, &mut ps, &mut SeededDice::new(seed));
            let mut same = native(name);
            let mut other = native("trader");
            let mut ps: [&mut dyn FarmPlayer; 2] = [same.as_mut(), other.as_mut()];
            let from_native = play_game(&setup, &mut ps, &mut SeededDice::new(seed));
            assert!(from_wasm.forfeits.is_empty(), "{name} faulted");
            assert_eq!(from_wasm.turns, from_native.turns, "{name}, seed {seed}");
        }
    }
}
