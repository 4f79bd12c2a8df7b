//! Hostile component agents of world `arena:games/farm` (../../../wit), with a few WASI 0.2
//! imports called directly (wit/): each cargo feature turns on one behaviour the sandbox must
//! contain (see tests/hostile.rs). Without a feature the agent passes every turn and declines
//! every offer.

wit_bindgen::generate!({
    path: ["../../../wit", "wit"],
    world: "hostile:component/farm",
    generate_all,
});

#[cfg(any(
    feature = "snoop",
    feature = "allocate",
    feature = "random-bytes",
    feature = "name-lookup"
))]
use arena::games::host::log;

struct Hostile;

impl Guest for Hostile {
    fn init(_setup: Setup) -> Result<(), String> {
        #[cfg(feature = "snoop")]
        snoop();
        #[cfg(feature = "loop-init")]
        let _ = spin();
        Ok(())
    }

    fn trade(_view: View) -> Option<Offer> {
        #[cfg(feature = "allocate")]
        hoard();
        #[cfg(feature = "loop-trade")]
        let _ = spin();
        #[cfg(feature = "random-bytes")]
        random_bytes();
        #[cfg(feature = "name-lookup")]
        name_lookup();
        None
    }

    fn accept_offer(_view: View, _offer: Offer) -> bool {
        false
    }
}

/// Everything WASI 0.2 offers outside the sandbox, each answer logged.
#[cfg(feature = "snoop")]
fn snoop() {
    log(&format!("read /etc/passwd: {:?}", std::fs::read("/etc/passwd").map(|b| b.len())));
    log(&format!("list /: {:?}", std::fs::read_dir("/").map(|d| d.count())));
    log(&format!("write /tmp/x: {:?}", std::fs::write("/tmp/hostile-component", b"x")));
    log(&format!("environment: {:?}", std::env::vars().collect::<Vec<_>>()));
    log(&format!("arguments: {:?}", std::env::args().collect::<Vec<_>>()));
    log(&format!(
        "connect 127.0.0.1:22: {:?}",
        std::net::TcpStream::connect("127.0.0.1:22").map(|_| "connected")
    ));
    log(&format!(
        "bind udp: {:?}",
        std::net::UdpSocket::bind("0.0.0.0:0").map(|_| "bound")
    ));
}

/// A loop the compiler cannot remove.
#[cfg(any(feature = "loop-init", feature = "loop-trade"))]
fn spin() -> u64 {
    let mut n = 0u64;
    loop {
        n = std::hint::black_box(n.wrapping_add(1));
        if n == u64::MAX {
            return n;
        }
    }
}

/// Keeps 1 MiB blocks until the allocator fails (an abort: a trap). The blocks are reserved,
/// not written, so that memory runs out long before fuel.
#[cfg(feature = "allocate")]
fn hoard() {
    let mut blocks = Vec::new();
    loop {
        blocks.push(std::hint::black_box(Vec::<u8>::with_capacity(1 << 20)));
        log(&format!("holding {} MiB", blocks.len()));
    }
}

/// Asks for 4 KiB of random bytes, forever, logging the count of calls every 100: the host's work
/// grows with the bytes, so each call must cost their fuel (the log shows how many were paid).
#[cfg(feature = "random-bytes")]
fn random_bytes() {
    let mut calls = 0u32;
    loop {
        std::hint::black_box(wasi::random::random::get_random_bytes(4096));
        calls += 1;
        if calls % 100 == 0 {
            log(&format!("random calls: {calls}"));
        }
    }
}

/// Looks up a 1 MiB name, forever, logging the count of calls after each: the host copies the
/// name out of memory first, so each call must cost its bytes in fuel.
#[cfg(feature = "name-lookup")]
fn name_lookup() {
    let network = wasi::sockets::instance_network::instance_network();
    let name = "a".repeat(1 << 20);
    let mut calls = 0u32;
    loop {
        let answer = wasi::sockets::ip_name_lookup::resolve_addresses(&network, &name);
        calls += 1;
        log(&format!("lookups: {calls} ({:?})", answer.map(|_| ())));
    }
}

export!(Hostile);
