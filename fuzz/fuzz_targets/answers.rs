//! `decode_trade_answer` / `decode_accept_answer` on any length, return value and buffer.
#![no_main]
use libfuzzer_sys::fuzz_target;

// The checks of all three targets; each uses its own.
#[allow(dead_code)]
#[path = "../../tests/fuzz_checks/mod.rs"]
mod fuzz_checks;

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let len = i32::from_le_bytes(data[..4].try_into().unwrap());
    let ret = i32::from_le_bytes(data[4..8].try_into().unwrap());
    fuzz_checks::answers(len, ret, &data[8..]);
});
