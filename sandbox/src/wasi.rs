//! WASI preview 1 for agents that import it: no files, no environment, no arguments, no network;
//! stdout and stderr go to the agent's bounded log; randomness and clocks are derived from the
//! game seed so that a game replays exactly; sleeps return at once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use wasmtime::Linker;
use wasmtime_wasi::p1::{self, WasiP1Ctx};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

use super::random::{LazyCycle, RandomBytes, SharedCycle};

use super::log::AgentLog;
use super::store::HostState;

/// Module name of WASI preview 1 imports.
pub const WASI_MODULE: &str = "wasi_snapshot_preview1";

/// Largest `random_get` request served in one call.
pub const MAX_RANDOM_BYTES: u64 = 4096;

/// Bytes of the random cycle behind `random_get` (the same bytes repeat after that).
const RANDOM_CYCLE: usize = 64 << 10;

/// What `clock_time_get(realtime)` answers: 2025-01-01T00:00:00Z, plus the fake monotonic time.
const WALL_START: Duration = Duration::from_secs(1_735_689_600);

/// A monotonic clock that advances 1 µs each time it is read: loops that wait for time to pass
/// terminate, and nothing depends on the host's real time.
#[derive(Default)]
struct FakeMonotonic {
    now: AtomicU64,
}

impl FakeMonotonic {
    fn tick(&self) -> u64 {
        self.now.fetch_add(1_000, Ordering::Relaxed)
    }
}

impl HostMonotonicClock for FakeMonotonic {
    fn resolution(&self) -> u64 {
        1_000
    }
    fn now(&self) -> u64 {
        self.tick()
    }
}

/// A wall clock that starts at [`WALL_START`] and advances 1 µs per read.
#[derive(Default)]
struct FakeWall {
    mono: FakeMonotonic,
}

impl HostWallClock for FakeWall {
    fn resolution(&self) -> Duration {
        Duration::from_micros(1)
    }
    fn now(&self) -> Duration {
        WALL_START + Duration::from_nanos(self.mono.tick())
    }
}

/// The ChaCha8 stream behind an agent's randomness in a game: its first [`RANDOM_CYCLE`] bytes
/// are the secure random cycle, the next ones the insecure cycle, then the hash seed.
fn random_stream(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x5741_5349_5F52_4E47)
}

/// The WASI context of one agent for one game, and the bytes its `random_get` serves (the same
/// bytes wasmtime-wasi would serve from the context's secure random source).
pub(crate) fn context(seed: u64, log: &AgentLog) -> (WasiP1Ctx, RandomBytes) {
    let (mut builder, random, _) = builder(seed, log);
    (builder.build_p1(), random)
}

/// The random sources of a component's WASI 0.2 context, which the arena's `get-random-bytes`
/// and `get-insecure-random-bytes` read too (`component_linker`).
pub(crate) struct ComponentRandom {
    pub(crate) secure: SharedCycle,
    pub(crate) insecure: SharedCycle,
}

/// The WASI context of one component agent for one game: the same capabilities (none), log,
/// randomness and clocks as [`context`] gives a core module (WASI 0.2 serves randomness from
/// the context's secure random source, so the same bytes as preview 1's `random_get`), and its
/// random sources.
pub(crate) fn context_p2(seed: u64, log: &AgentLog) -> (wasmtime_wasi::WasiCtx, ComponentRandom) {
    let (mut builder, _, random) = builder(seed, log);
    (builder.build(), random)
}

/// What both WASI contexts are made of.
fn builder(seed: u64, log: &AgentLog) -> (WasiCtxBuilder, RandomBytes, ComponentRandom) {
    // The random cycles are generated as the agent reads them: most agents read a few bytes or
    // none, and filling 128 KiB up front cost about 100 µs per agent per game.
    let cycle_words = (RANDOM_CYCLE / 4) as u128;
    let secure = SharedCycle::new(LazyCycle::new(random_stream(seed), RANDOM_CYCLE));
    let mut insecure = random_stream(seed);
    insecure.set_word_pos(cycle_words);
    let mut rest = random_stream(seed);
    rest.set_word_pos(2 * cycle_words);
    let hash_seed = (rest.next_u64() as u128) << 64 | rest.next_u64() as u128;
    let random = RandomBytes::new(random_stream(seed), RANDOM_CYCLE / 4);
    let insecure = SharedCycle::new(LazyCycle::new(insecure, RANDOM_CYCLE));
    let mut builder = WasiCtxBuilder::new();
    builder
        .stdout(log.pipe())
        .stderr(log.pipe())
        .secure_random(secure.clone())
        .insecure_random(insecure.clone())
        .insecure_random_seed(hash_seed)
        .max_random_size(MAX_RANDOM_BYTES)
        .wall_clock(FakeWall::default())
        .monotonic_clock(FakeMonotonic::default())
        .allow_blocking_current_thread(false)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    (builder, random, ComponentRandom { secure, insecure })
}

/// Adds WASI preview 1 to `linker`: wasmtime-wasi's functions, each replaced by one that
/// charges fuel first (`wasi_calls`), with `random_get` and `poll_oneoff` served by the arena.
pub fn add_to_linker(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    p1::add_to_linker_sync(linker, |s: &mut HostState| {
        s.wasi
            .as_mut()
            .expect("a WASI context exists for every agent that imports WASI")
    })?;
    super::wasi_calls::add_to_linker(linker)
}
