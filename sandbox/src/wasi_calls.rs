//! Every WASI preview 1 function an agent can import, charged in fuel ([`super::host_fuel`]).
//!
//! wasmtime-wasi's linker functions are replaced, name by name, by functions that first charge
//! the call and then do what wasmtime-wasi does (through the same generated functions its linker
//! calls), except `random_get` and `poll_oneoff`, which the arena serves itself. A test checks
//! that every function wasmtime-wasi defines is replaced here, with the same type.

use wasmtime::{Caller, Linker};
use wasmtime_wasi::p1::wasi_snapshot_preview1 as p1;
use wasmtime_wasi::p1::wasi_snapshot_preview1::WasiSnapshotPreview1 as _;

use super::host_fuel::{buffer_bytes, charge, iovec_bytes, SUBSCRIPTION_FUEL};
use super::store::{guest_memory, HostState};
use super::wasi::{MAX_RANDOM_BYTES, WASI_MODULE};

/// The per-call allowance of bytes wasmtime-wasi may copy out of guest memory (its own guard,
/// wasmtime's default; fuel bounds the work long before it).
const HOSTCALL_COPY_BYTES: usize = 128 << 20;

/// The WASI preview 1 functions wasmtime-wasi defines except `random_get` and `poll_oneoff`:
/// whether wasmtime-wasi runs them as async functions, their core types, and the bytes each
/// counts. Hands the table to the macro `$m` (after `$($pre)*`).
macro_rules! wasi_table {
    ($m:ident ! $($pre:tt)*) => { $m! { $($pre)*;
        sync args_get(argv: i32, argv_buf: i32) -> i32, bytes = none;
        sync args_sizes_get(argc: i32, argv_buf_size: i32) -> i32, bytes = none;
        sync environ_get(environ: i32, environ_buf: i32) -> i32, bytes = none;
        sync environ_sizes_get(count: i32, buf_size: i32) -> i32, bytes = none;
        sync clock_res_get(id: i32, out: i32) -> i32, bytes = none;
        sync clock_time_get(id: i32, precision: i64, out: i32) -> i32, bytes = none;
        async fd_advise(fd: i32, offset: i64, len: i64, advice: i32) -> i32, bytes = none;
        sync fd_allocate(fd: i32, offset: i64, len: i64) -> i32, bytes = none;
        async fd_close(fd: i32) -> i32, bytes = none;
        async fd_datasync(fd: i32) -> i32, bytes = none;
        async fd_fdstat_get(fd: i32, out: i32) -> i32, bytes = none;
        sync fd_fdstat_set_flags(fd: i32, flags: i32) -> i32, bytes = none;
        sync fd_fdstat_set_rights(fd: i32, base: i64, inheriting: i64) -> i32, bytes = none;
        async fd_filestat_get(fd: i32, out: i32) -> i32, bytes = none;
        async fd_filestat_set_size(fd: i32, size: i64) -> i32, bytes = none;
        async fd_filestat_set_times(fd: i32, atim: i64, mtim: i64, flags: i32) -> i32, bytes = none;
        async fd_pread(fd: i32, iovs: i32, iovs_len: i32, offset: i64, out: i32) -> i32,
            bytes = |c: &mut Caller<'_, HostState>| iovec_bytes(c, iovs, iovs_len);
        sync fd_prestat_get(fd: i32, out: i32) -> i32, bytes = none;
        sync fd_prestat_dir_name(fd: i32, path: i32, path_len: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        async fd_pwrite(fd: i32, iovs: i32, iovs_len: i32, offset: i64, out: i32) -> i32,
            bytes = |c: &mut Caller<'_, HostState>| iovec_bytes(c, iovs, iovs_len);
        async fd_read(fd: i32, iovs: i32, iovs_len: i32, out: i32) -> i32,
            bytes = |c: &mut Caller<'_, HostState>| iovec_bytes(c, iovs, iovs_len);
        async fd_readdir(fd: i32, buf: i32, buf_len: i32, cookie: i64, out: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(buf_len);
        async fd_renumber(fd: i32, to: i32) -> i32, bytes = none;
        async fd_seek(fd: i32, offset: i64, whence: i32, out: i32) -> i32, bytes = none;
        async fd_sync(fd: i32) -> i32, bytes = none;
        sync fd_tell(fd: i32, out: i32) -> i32, bytes = none;
        async fd_write(fd: i32, iovs: i32, iovs_len: i32, out: i32) -> i32,
            bytes = |c: &mut Caller<'_, HostState>| iovec_bytes(c, iovs, iovs_len);
        async path_create_directory(fd: i32, path: i32, path_len: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        async path_filestat_get(fd: i32, flags: i32, path: i32, path_len: i32, out: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        async path_filestat_set_times(
            fd: i32, flags: i32, path: i32, path_len: i32, atim: i64, mtim: i64, fst: i32
        ) -> i32, bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        async path_link(
            old_fd: i32, old_flags: i32, old_path: i32, old_len: i32, new_fd: i32, new_path: i32,
            new_len: i32
        ) -> i32, bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(old_len) + buffer_bytes(new_len);
        async path_open(
            fd: i32, dirflags: i32, path: i32, path_len: i32, oflags: i32, base: i64,
            inheriting: i64, fdflags: i32, out: i32
        ) -> i32, bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        async path_readlink(fd: i32, path: i32, path_len: i32, buf: i32, buf_len: i32, out: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len) + buffer_bytes(buf_len);
        async path_remove_directory(fd: i32, path: i32, path_len: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        async path_rename(
            fd: i32, old_path: i32, old_len: i32, new_fd: i32, new_path: i32, new_len: i32
        ) -> i32, bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(old_len) + buffer_bytes(new_len);
        async path_symlink(old_path: i32, old_len: i32, fd: i32, new_path: i32, new_len: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(old_len) + buffer_bytes(new_len);
        async path_unlink_file(fd: i32, path: i32, path_len: i32) -> i32,
            bytes = |_: &mut Caller<'_, HostState>| buffer_bytes(path_len);
        sync proc_exit(code: i32) -> (), bytes = none;
        sync proc_raise(signal: i32) -> i32, bytes = none;
        sync sched_yield() -> i32, bytes = none;
        sync sock_accept(fd: i32, flags: i32, out: i32) -> i32, bytes = none;
        sync sock_recv(fd: i32, data: i32, data_len: i32, flags: i32, out_len: i32, out_flags: i32) -> i32,
            bytes = none;
        sync sock_send(fd: i32, data: i32, data_len: i32, flags: i32, out: i32) -> i32, bytes = none;
        sync sock_shutdown(fd: i32, how: i32) -> i32, bytes = none;
    } };
}

/// One WASI function the arena provides: its name and core type, for tools that call each of
/// them (`arena bench`).
#[derive(Clone, Copy, Debug)]
pub struct WasiFunction {
    pub name: &'static str,
    /// WAT names of the parameter types.
    pub params: &'static [&'static str],
    /// Whether it returns an errno (`i32`); `proc_exit` returns nothing.
    pub returns_errno: bool,
}

macro_rules! signatures {
    (; $($mode:ident $name:ident ($($arg:ident: $ty:ty),*) -> $ret:ty, bytes = $bytes:expr;)*) => {
        /// Every WASI preview 1 function an agent can import.
        pub const WASI_FUNCTIONS: &[WasiFunction] = &[
            $(WasiFunction {
                name: stringify!($name),
                params: &[$(stringify!($ty)),*],
                returns_errno: is_i32(stringify!($ret)),
            },)*
            WasiFunction { name: "random_get", params: &["i32", "i32"], returns_errno: true },
            WasiFunction {
                name: "poll_oneoff",
                params: &["i32", "i32", "i32", "i32"],
                returns_errno: true,
            },
        ];
    };
}

impl WasiFunction {
    /// The WAT import of this function as `$f`.
    pub fn import_wat(&self) -> String {
        let result = if self.returns_errno {
            "(result i32)"
        } else {
            ""
        };
        format!(
            r#"(import "{WASI_MODULE}" "{}" (func $f (param {}) {result}))"#,
            self.name,
            self.params.join(" ")
        )
    }

    /// WAT that calls `$f` with every argument 0 and drops what it returns.
    pub fn zero_call_wat(&self) -> String {
        let args: String = self
            .params
            .iter()
            .map(|t| format!("({t}.const 0) "))
            .collect();
        if self.returns_errno {
            format!("(drop (call $f {args}))")
        } else {
            format!("(call $f {args})")
        }
    }
}

const fn is_i32(ty: &str) -> bool {
    matches!(ty.as_bytes(), b"i32")
}

wasi_table!(signatures!);

/// Runs wasmtime-wasi's implementation of `$name` on the caller's memory and WASI context;
/// `$mode` says whether it is one of its async functions (run to completion at once: nothing
/// an agent can reach blocks).
macro_rules! delegate {
    (sync, $caller:ident, $name:ident ($($arg:ident),*)) => {{
        let (mut memory, ctx) = context(&mut $caller)?;
        p1::$name(ctx, &mut memory $(, $arg)*)
    }};
    (async, $caller:ident, $name:ident ($($arg:ident),*)) => {{
        let (mut memory, ctx) = context(&mut $caller)?;
        wasmtime_wasi::runtime::in_tokio(p1::$name(ctx, &mut memory $(, $arg)*))
    }};
}

/// Defines each function as a charged call: `bytes` is a closure of the caller giving the bytes
/// the call counts (its arguments are in scope).
macro_rules! charged {
    ($linker:ident; $($mode:ident $name:ident ($($arg:ident: $ty:ty),*) -> $ret:ty, bytes = $bytes:expr;)*) => {$(
        $linker.func_wrap(
            WASI_MODULE,
            stringify!($name),
            |mut caller: Caller<'_, HostState>, $($arg: $ty),*| -> wasmtime::Result<$ret> {
                #[allow(clippy::redundant_closure_call)]
                let bytes: u64 = ($bytes)(&mut caller);
                charge(&mut caller, bytes)?;
                delegate!($mode, caller, $name($($arg),*))
            },
        )?;
    )*};
}

/// No bytes: the call reads and writes a few fixed-size values.
fn none(_: &mut Caller<'_, HostState>) -> u64 {
    0
}

/// The guest's memory and the WASI context, as wasmtime-wasi's own linker functions take them.
fn context<'a>(
    caller: &'a mut Caller<'_, HostState>,
) -> wasmtime::Result<(
    wiggle::GuestMemory<'a>,
    &'a mut wasmtime_wasi::p1::WasiP1Ctx,
)> {
    let memory =
        guest_memory(caller).ok_or_else(|| wasmtime::Error::msg("the agent exports no memory"))?;
    let (data, state) = memory.data_and_store_mut(caller);
    let ctx = state
        .wasi
        .as_mut()
        .ok_or_else(|| wasmtime::Error::msg("the agent has no WASI context"))?;
    ctx.set_hostcall_fuel(HOSTCALL_COPY_BYTES);
    Ok((wiggle::GuestMemory::Unshared(data), ctx))
}

/// Replaces every WASI preview 1 function of `linker` (already defined by wasmtime-wasi) by its
/// charged version.
pub(crate) fn add_to_linker(linker: &mut Linker<HostState>) -> anyhow::Result<()> {
    linker.allow_shadowing(true);
    wasi_table!(charged! linker);
    linker.func_wrap(WASI_MODULE, "random_get", random_get)?;
    linker.func_wrap(WASI_MODULE, "poll_oneoff", poll_oneoff)?;
    linker.allow_shadowing(false);
    Ok(())
}

// WASI errno values.
const ERRNO_SUCCESS: i32 = 0;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;

/// `random_get(buf, len) -> errno`: the next `len` bytes of the game's [`super::random`] cycle,
/// as wasmtime-wasi would serve them: more than [`MAX_RANDOM_BYTES`] traps; a buffer outside
/// memory traps after the bytes were drawn.
fn random_get(mut caller: Caller<'_, HostState>, buf: i32, len: i32) -> wasmtime::Result<i32> {
    let len = u64::from(len as u32);
    if len > MAX_RANDOM_BYTES {
        charge(&mut caller, 0)?;
        return Err(wasmtime::Error::msg(format!(
            "random_get of {len} bytes: at most {MAX_RANDOM_BYTES} are served in one call"
        )));
    }
    charge(&mut caller, len)?;
    let memory = guest_memory(&mut caller)
        .ok_or_else(|| wasmtime::Error::msg("the agent exports no memory"))?;
    let (data, state) = memory.data_and_store_mut(&mut caller);
    let random = state
        .random
        .as_mut()
        .ok_or_else(|| wasmtime::Error::msg("the agent has no WASI context"))?;
    let start = buf as u32 as usize;
    let len = len as usize;
    match data.get_mut(start..start + len) {
        Some(dst) => random.fill(dst),
        None => {
            random.skip(len);
            return Err(wasmtime::Error::msg(format!(
                "random_get: the buffer of {len} bytes at {start} is outside memory"
            )));
        }
    }
    Ok(ERRNO_SUCCESS)
}

/// Largest number of subscriptions `poll_oneoff` accepts in one call.
const MAX_SUBSCRIPTIONS: u32 = 1024;

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
) -> wasmtime::Result<i32> {
    let n = nsubscriptions as u32;
    if n == 0 || n > MAX_SUBSCRIPTIONS {
        charge(&mut caller, 0)?;
        return Ok(ERRNO_INVAL);
    }
    charge(&mut caller, u64::from(n) * SUBSCRIPTION_FUEL)?;
    let Some(memory) = guest_memory(&mut caller) else {
        return Ok(ERRNO_FAULT);
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
        return Ok(ERRNO_FAULT);
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
    Ok(ERRNO_SUCCESS)
}
