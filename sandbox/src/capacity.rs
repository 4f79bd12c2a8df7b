//! How many agent instances a sandbox can hold at once, within the address space it is given.
//!
//! Every instance reserves a 4 GiB linear-memory region plus guard pages (address space, not
//! memory: WebAssembly code then needs no bounds checks), in the pool when the sandbox is made or
//! at instantiation otherwise. Under an address-space limit (`RLIMIT_AS`, `ulimit -v`) only a
//! few fit: the sandbox reserves what fits, callers learn how many games they can play at once
//! ([`super::Sandbox::games_at_once`]), and a limit too small for one game is refused with a
//! message that says what to change. Memory is bounded with a cgroup instead (docs/SECURITY.md).

use anyhow::bail;

/// Address space one pool slot takes: the 4 GiB reservation, a 32 MiB guard and the table
/// slots; measured at 4,328,849,408 bytes with the arena's pool settings (a test checks this
/// stays an upper bound).
pub(crate) const SLOT_ADDRESS_SPACE: u64 = (4 << 30) + (34 << 20);

/// Address space the pool takes whatever its size (measured: 2.13 GB; a test checks it).
pub(crate) const POOL_ADDRESS_SPACE: u64 = 9 << 28;

/// Address space left for everything else under a limit: thread stacks, allocator arenas,
/// compiled code, records.
pub(crate) const HEADROOM: u64 = 1 << 30;

/// The soft address-space limit of this process and the address space it uses now, in bytes;
/// `None` when there is no limit.
pub(crate) fn address_space() -> Option<(u64, u64)> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes a valid rlimit struct.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // rlim_t is u64 on Linux, not everywhere.
    #[allow(clippy::unnecessary_cast)]
    let limit = lim.rlim_cur as u64;
    Some((limit, used_address_space()))
}

/// VmSize of this process.
pub(crate) fn used_address_space() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmSize:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib << 10)
}

/// How many of `wanted` instances fit in the address space left: `wanted` without a limit.
pub(crate) fn instances_that_fit(wanted: u32) -> u32 {
    match address_space() {
        None => wanted,
        Some((limit, used)) => {
            let room = limit.saturating_sub(used + HEADROOM + POOL_ADDRESS_SPACE);
            wanted.min(u32::try_from(room / SLOT_ADDRESS_SPACE).unwrap_or(u32::MAX))
        }
    }
}

/// The error when `instances` cannot seat a game of `players`.
pub(crate) fn too_few(instances: u32, players: usize) -> anyhow::Result<()> {
    let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
    match address_space() {
        Some((limit, _)) => bail!(
            "the address-space limit of this process (RLIMIT_AS, `ulimit -v`) is {:.1} GiB: \
             room for {instances} agent instance(s), and a game of {players} needs {players} \
             (each instance reserves {:.1} GiB of address space, not of memory). Raise or remove \
             the limit (`ulimit -v unlimited`) and bound the arena's memory with a cgroup \
             instead, e.g. `systemd-run --user --scope -p MemoryMax=4G arena ...` \
             (docs/SECURITY.md)",
            gib(limit),
            gib(SLOT_ADDRESS_SPACE)
        ),
        None => bail!(
            "the sandbox holds {instances} agent instance(s) at once, and a game of {players} \
             needs {players}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::{engine_allocating, Allocation};
    use super::super::Limits;
    use super::*;

    /// Runs the test named `name` alone in a child process of this test binary (address space is
    /// measured for the whole process: other tests' sandboxes must not be counted), and returns
    /// whether this is that child.
    fn alone(name: &str) -> bool {
        if std::env::var_os("ARENA_TEST_ALONE").is_some() {
            return true;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--test-threads=1", "--nocapture"])
            .env("ARENA_TEST_ALONE", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"));
        false
    }

    #[test]
    fn the_pool_takes_no_more_address_space_than_the_estimates() {
        if !alone("capacity::tests::the_pool_takes_no_more_address_space_than_the_estimates") {
            return;
        }
        let limits = Limits::default();
        for n in [1u32, 5] {
            let before = used_address_space();
            let engine = engine_allocating(&limits, Allocation::Pool, n).unwrap();
            let taken = used_address_space() - before;
            assert!(
                taken <= POOL_ADDRESS_SPACE + u64::from(n) * SLOT_ADDRESS_SPACE,
                "{n} slots took {taken} bytes"
            );
            assert!(
                taken >= u64::from(n) * (4 << 30),
                "{n} slots took only {taken} bytes"
            );
            drop(engine);
        }
    }
}
