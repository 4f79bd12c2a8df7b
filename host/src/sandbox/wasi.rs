//! WASI preview 1 for agents that import it: no files, no environment, no arguments, no network;
//! stdout and stderr go to the agent's bounded log; randomness and clocks are derived from the
//! game seed so that a game replays exactly; sleeps return at once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use wasmtime::{Caller, Linker};
use wasmtime_wasi::p1::{self, WasiP1Ctx};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

use super::random::LazyCycle;

use super::log::AgentLog;
use super::player::HostState;

/// Module name of WASI preview 1 imports.
pub const WASI_MODULE: &str = "wasi_snapshot_preview1";

/// Largest `random_get` request served in one call.
pub const MAX_RANDOM_BYTES: u64 = 4096;

/// Bytes of the random cycle behind `random_get` (the same bytes repeat after that).
const RANDOM_CYCLE: usize = 64 << 10;

/// What `clock_time_get(realtime)` answers: 2025-01-01T00:00:00Z, plus the fake monotonic time.
const WALL_START: Duration = Duration::from_secs(1_735_689_600);

/// Largest number of subscriptions `poll_oneoff` accepts in one call.
const MAX_SUBSCRIPTIONS: u32 = 1024;

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

/// The WASI context of one agent for one game.
pub fn context(seed: u64, log: &AgentLog) -> WasiP1Ctx {
    // The random cycles are generated as the agent reads them: most agents read a few bytes or
    // none, and filling 128 KiB up front cost about 100 µs per agent per game.
    let cycle_words = (RANDOM_CYCLE / 4) as u128;
    let secure = LazyCycle::new(random_stream(seed), RANDOM_CYCLE);
    let mut insecure = random_stream(seed);
    insecure.set_word_pos(cycle_words);
    let mut rest = random_stream(seed);
    rest.set_word_pos(2 * cycle_words);
    let hash_seed = (rest.next_u64() as u128) << 64 | rest.next_u64() as u128;
    WasiCtxBuilder::new()
        .stdout(log.pipe())
        .stderr(log.pipe())
        .secure_random(secure)
        .insecure_random(LazyCycle::new(insecure, RANDOM_CYCLE))
        .insecure_random_seed(hash_seed)
        .max_random_size(MAX_RANDOM_BYTES)
        .wall_clock(FakeWall::default())
        .monotonic_clock(FakeMonotonic::default())
        .allow_blocking_current_thread(false)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false)
        .build_p1()
}

/// Adds WASI preview 1 to `linker`, with `poll_oneoff` replaced by one that never blocks.
pub fn add_to_linker(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    p1::add_to_linker_sync(linker, |s: &mut HostState| {
        s.wasi
            .as_mut()
            .expect("a WASI context exists for every agent that imports WASI")
    })?;
    linker.allow_shadowing(true);
    linker.func_wrap(WASI_MODULE, "poll_oneoff", poll_oneoff)?;
    linker.allow_shadowing(false);
    Ok(())
}

// WASI errno values.
const ERRNO_SUCCESS: i32 = 0;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;

const SUBSCRIPTION_SIZE: usize = 48;
const EVENT_SIZE: usize = 32;

/// `poll_oneoff(in, out, nsubscriptions, nevents) -> errno` that reports every subscription as
/// ready at once: a clock subscription (a sleep) returns immediately, without blocking the host.
fn poll_oneoff(
    mut caller: Caller<'_, HostState>,
    input: i32,
    output: i32,
    nsubscriptions: i32,
    nevents: i32,
) -> i32 {
    let n = nsubscriptions as u32;
    if n == 0 || n > MAX_SUBSCRIPTIONS {
        return ERRNO_INVAL;
    }
    let Some(memory) = super::player::guest_memory(&mut caller) else {
        return ERRNO_FAULT;
    };
    let data = memory.data_mut(&mut caller);
    let n = n as usize;
    let (input, output, nevents) = (
        input as u32 as usize,
        output as u32 as usize,
        nevents as u32 as usize,
    );
    let in_end = input.checked_add(n * SUBSCRIPTION_SIZE);
    let out_end = output.checked_add(n * EVENT_SIZE);
    let count_end = nevents.checked_add(4);
    if [in_end, out_end, count_end]
        .iter()
        .any(|end| end.is_none_or(|e| e > data.len()))
    {
        return ERRNO_FAULT;
    }
    for i in 0..n {
        let sub = input + i * SUBSCRIPTION_SIZE;
        let mut userdata = [0u8; 8];
        userdata.copy_from_slice(&data[sub..sub + 8]);
        let tag = data[sub + 8];
        let ev = output + i * EVENT_SIZE;
        let event = &mut data[ev..ev + EVENT_SIZE];
        event.fill(0);
        event[..8].copy_from_slice(&userdata);
        // error (u16) stays 0; type (u8) is the subscription's tag: 0 clock, 1 fd_read, 2 fd_write.
        event[10] = tag;
    }
    data[nevents..nevents + 4].copy_from_slice(&(n as u32).to_le_bytes());
    ERRNO_SUCCESS
}
