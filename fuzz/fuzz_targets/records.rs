//! Reading and verifying any bytes as a game record (plain or gzip).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    arena::games::farm::fuzz_checks::record_bytes(data);
});
