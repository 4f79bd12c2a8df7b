//! The example agents compiled to wasm and run in the sandbox decide exactly as the same crates
//! compiled natively: the SDK's glue and the sandbox add nothing and lose nothing.

mod common;

use arena::game::{play_seeded, Native, Player};
use arena::games::farm::{native, Farm, Setup};
use common::example_wasm;

/// The example agents built for wasm play exactly like their native builds (same records), load
/// in the sandbox with no imports but `arena.log`, and never fault.
#[test]
fn wasm_builds_play_exactly_like_native_builds() {
    let sandbox =
        arena::sandbox::Sandbox::new(arena::games::registry().agents(), Default::default())
            .unwrap();
    fn strategy(name: &str) -> Native {
        match name {
            "passer" => native::<passer::Passer>(),
            "greedy" => native::<greedy::Greedy>(),
            "insurance" => native::<insurance::Insurance>(),
            "trader" => native::<trader::Trader>(),
            _ => native::<shepherd::Shepherd>(),
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
            let (same, trader) = (strategy(name), strategy("trader"));
            let mut wasm = module.player_with_round_cap(300);
            let mut other = trader.player::<Farm>().unwrap();
            let mut ps: [&mut dyn Player<Farm>; 2] = [&mut wasm, &mut *other];
            let from_wasm = play_seeded(&Farm, &setup, &mut ps).unwrap();
            let mut same = same.player::<Farm>().unwrap();
            let mut other = trader.player::<Farm>().unwrap();
            let mut ps: [&mut dyn Player<Farm>; 2] = [&mut *same, &mut *other];
            let from_native = play_seeded(&Farm, &setup, &mut ps).unwrap();
            assert!(from_wasm.end.forfeits.is_empty(), "{name} faulted");
            assert_eq!(from_wasm.turns, from_native.turns, "{name}, seed {seed}");
        }
    }
}
