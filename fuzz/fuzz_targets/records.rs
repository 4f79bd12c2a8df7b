//! Reading and verifying any bytes as a game record (plain or gzip).
#![no_main]
use libfuzzer_sys::fuzz_target;

// The checks of all three targets; each uses its own.
#[allow(dead_code)]
#[path = "../../tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| {
    fuzz_checks::record_bytes(data);
});
