//! A game's component world for the sandbox ([`component_world!`](crate::component_world)): its
//! name, exports, type interface and WIT file, and how a prepared world is instantiated and
//! started. It is the same for every game but for the types `wasmtime`'s `bindgen!` generates
//! from the game's world, which is why it is a macro over them.

/// What the expansion of [`component_world!`](crate::component_world) names.
#[doc(hidden)]
pub mod __paths {
    pub use arena_sandbox::{wrong_world, ComponentWorld, HostState, Init, WorldPre};
}

/// The world `arena:games/GAME@1.0.0` of a game (file `wit/GAME.wit`), for the sandbox: the
/// module `bindings` that `bindgen!` makes of it, the unit struct `World` (a `ComponentWorld`),
/// the `WorldPre` of the generated `Pre<HostState>` (an agent's `init` is given its seat,
/// players, seed and round cap) and `fn instance`, an instance as the generated world type (a
/// `wrong_world` error for another game's). The WIT package is the folder `wit` beside the
/// invoking crate's.
///
/// ```text
/// arena_game::component_world! {
///     /// World `arena:games/dominoes`, for the sandbox.
///     pub struct DominoesWorld for "dominoes" in mod bindings {
///         world: Dominoes,
///         pre: DominoesPre,
///         exports: ["init", "place"],
///     }
/// }
/// ```
///
/// A world whose bindings are made otherwise (`bindgen!` with `with`) names them, its WIT file
/// and its instance function: `struct W for "G" { bindings: b, world: B, pre: P, exports: [..],
/// wit: include_str!(..) } fn g;`.
#[macro_export]
macro_rules! component_world {
    (
        $(#[$meta:meta])*
        $vis:vis struct $World:ident for $game:tt in mod $bindings:ident {
            world: $Bound:ident,
            pre: $Pre:ident,
            exports: [$($export:literal),* $(,)?] $(,)?
        }
    ) => {
        #[doc = concat!("The typed exports of world `", $game, "`, generated from the WIT package.")]
        pub mod $bindings {
            ::wasmtime::component::bindgen!({ path: "../wit", world: $game });
        }

        $crate::component_world! {
            $(#[$meta])*
            $vis struct $World for $game {
                bindings: $bindings,
                world: $Bound,
                pre: $Pre,
                exports: [$($export),*],
                wit: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../wit/", $game, ".wit")),
            }
            /// An agent's instance as this world's.
            fn instance;
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $World:ident for $game:literal {
            bindings: $bindings:ident,
            world: $Bound:ident,
            pre: $Pre:ident,
            exports: [$($export:literal),* $(,)?],
            wit: $wit:expr $(,)?
        }
        $(#[$imeta:meta])*
        fn $instance:ident;
    ) => {
        $(#[$meta])*
        $vis struct $World;

        impl $crate::component::__paths::ComponentWorld for $World {
            fn name(&self) -> &'static str {
                concat!("arena:games/", $game, "@1.0.0")
            }

            fn exports(&self) -> &'static [&'static str] {
                &[$($export),*]
            }

            fn type_interfaces(&self) -> &'static [&'static str] {
                &[concat!("arena:games/", $game, "-types@1.0.0")]
            }

            fn wit_file(&self) -> (&'static str, &'static str) {
                (concat!("wit/", $game, ".wit"), $wit)
            }

            fn prepare(
                &self,
                pre: ::wasmtime::component::InstancePre<$crate::component::__paths::HostState>,
            ) -> ::wasmtime::Result<Box<dyn $crate::component::__paths::WorldPre>> {
                Ok(Box::new($bindings::$Pre::new(pre)?))
            }
        }

        impl $crate::component::__paths::WorldPre
            for $bindings::$Pre<$crate::component::__paths::HostState>
        {
            fn instantiate(
                &self,
                store: &mut ::wasmtime::Store<$crate::component::__paths::HostState>,
            ) -> ::wasmtime::Result<Box<dyn ::std::any::Any + Send>> {
                Ok(Box::new($bindings::$Pre::instantiate(self, store)?))
            }

            fn init(
                &self,
                instance: &(dyn ::std::any::Any + Send),
                store: &mut ::wasmtime::Store<$crate::component::__paths::HostState>,
                init: &$crate::component::__paths::Init,
            ) -> ::wasmtime::Result<Result<(), String>> {
                let setup = $bindings::arena::games::types::Setup {
                    seat: init.seat as u32,
                    players: init.players as u32,
                    seed: init.seed,
                    round_cap: init.round_cap,
                };
                $instance(instance)?.call_init(store, setup)
            }

            /// This world, whichever world of its game the sandbox asked to prepare it.
            fn world_name(&self) -> Option<&'static str> {
                Some(concat!("arena:games/", $game, "@1.0.0"))
            }
        }

        $(#[$imeta])*
        fn $instance(
            instance: &(dyn ::std::any::Any + Send),
        ) -> ::wasmtime::Result<&$bindings::$Bound> {
            (instance as &dyn ::std::any::Any)
                .downcast_ref::<$bindings::$Bound>()
                .ok_or_else(|| $crate::component::__paths::wrong_world($game))
        }
    };
}
