//! The code war's agent interface (docs/ABI.md, "Code war"). A code war agent is not a byte-ABI
//! agent: it is a small module that exports [`ENTRY`] and imports what it needs from module
//! [`IMPORT_MODULE`]; its instruction is the 64-bit value the entry returns.
//!
//! ```text
//! bits  0–15  x, a signed 16-bit offset
//! bits 16–31  y, a signed 16-bit offset (copy only; 0 otherwise)
//! bits 32–39  the operation: COPY, NUKE, UPDATE or CLAIM
//! bits 40–63  zero
//! ```
//! Anything else is a no-op. The rules crate (`codewar-rules`) decodes; this module only encodes.

/// The export every code war agent has: `codewar_run() -> i64`.
pub const ENTRY: &str = "codewar_run";

/// The module of the host functions a code war agent may import.
pub const IMPORT_MODULE: &str = "codewar";

/// The custom section the SDK keeps an agent's own state in (any agent may use another way).
pub const STATE_SECTION: &str = "codewar.state";

/// Operation codes (bits 32–39 of the instruction).
pub const COPY: u8 = 1;
pub const NUKE: u8 = 2;
pub const UPDATE: u8 = 3;
pub const CLAIM: u8 = 4;

/// The instruction `op` with offsets `x` and `y`.
pub const fn instruction(op: u8, x: i16, y: i16) -> i64 {
    ((op as i64) << 32) | (((y as u16) as i64) << 16) | ((x as u16) as i64)
}

/// Copy cell `x` (as the agent leaves it) into cell `y`.
pub const fn copy(x: i16, y: i16) -> i64 {
    instruction(COPY, x, y)
}

/// Empty cell `x`.
pub const fn nuke(x: i16) -> i64 {
    instruction(NUKE, x, 0)
}

/// Write the bytes staged for cell `x` into it (its owner stays).
pub const fn update(x: i16) -> i64 {
    instruction(UPDATE, x, 0)
}

/// Make cell `x` the agent's owner's.
pub const fn claim(x: i16) -> i64 {
    instruction(CLAIM, x, 0)
}

/// Do nothing.
pub const NOOP: i64 = 0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_values() {
        assert_eq!(copy(0, 1), 0x1_0001_0000);
        assert_eq!(nuke(13), 0x2_0000_000D);
        assert_eq!(claim(-1), 0x4_0000_FFFF);
        assert_eq!(update(1), 0x3_0000_0001);
    }
}
