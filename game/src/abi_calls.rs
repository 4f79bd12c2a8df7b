//! What a game's rules say alike about calling its agents when they answer one decision: the
//! byte ABI's bytes are written by the game's ABI module and its answer read back by it; a
//! component is asked through the game's component module. Each game of one decision wrote the
//! same three forwarding methods of [`Rules`](crate::Rules); [`abi_calls!`](crate::abi_calls)
//! writes them once.

/// Inside an `impl Rules` of a game of one decision, the methods `encode`, `decode` and
/// `call_component` over the game's own functions: `encode(obs, buf) -> usize` writes the
/// envelope and observation, `decode(ret, buf)` reads the answer (or its `bad_answer` fault),
/// and `component(player, obs)` asks a component agent.
///
/// ```text
/// arena_game::abi_calls! {
///     encode: abi::encode_observation,
///     decode: abi::read_answer,
///     component: component::choose,
/// }
/// ```
#[macro_export]
macro_rules! abi_calls {
    (encode: $encode:path, decode: $decode:path, component: $component:path $(,)?) => {
        fn encode(
            &self,
            _q: &$crate::rules::Question,
            obs: &Self::Observation<'_>,
            buf: &mut [u8],
        ) -> usize {
            $encode(obs, buf)
        }

        fn decode(
            &self,
            _q: &$crate::rules::Question,
            ret: i32,
            buf: &[u8],
        ) -> Result<Self::Answer, $crate::Fault> {
            $decode(ret, buf)
        }

        fn call_component(
            &self,
            _q: &$crate::rules::Question,
            obs: &Self::Observation<'_>,
            player: &mut $crate::rules::WasmPlayer,
        ) -> Result<Self::Answer, $crate::Fault> {
            $component(player, obs)
        }
    };
}
