//! The instruction an agent returns, as a 64-bit integer (docs/CODEWAR.md, "Instructions").
//!
//! ```text
//! bits  0–15  x, a signed 16-bit offset (two's complement)
//! bits 16–31  y, a signed 16-bit offset (copy only; 0 for the others)
//! bits 32–39  the operation: 1 copy, 2 nuke, 3 update, 4 claim
//! bits 40–63  zero
//! ```
//!
//! Written in hexadecimal the value reads `0xOP_YYYY_XXXX`: copy x=0 to y=1 is `0x1_0001_0000`,
//! nuke +13 is `0x2_0000_000D`, claim −1 is `0x4_0000_FFFF`. Anything that is not exactly one of
//! these (another operation, a bit set above bit 39, a y with an operation other than copy, an
//! offset whose absolute value is not below the Array's size) is a no-op, as Perlwar treats a
//! return value that matches no instruction.

/// Operation codes (bits 32–39).
pub mod op {
    pub const COPY: u8 = 1;
    pub const NUKE: u8 = 2;
    pub const UPDATE: u8 = 3;
    pub const CLAIM: u8 = 4;
}

/// One instruction, with offsets relative to the executing agent's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    /// Anything that is not an instruction.
    Noop,
    /// Perlwar's `x:y`: copy `$_[x]` as it is after the agent ran into cell `y`.
    Copy { x: i16, y: i16 },
    /// Perlwar's `!x`: empty cell `x`.
    Nuke { x: i16 },
    /// Perlwar's `~x`: cell `x` takes the bytes the agent staged for it; its owner stays.
    Update { x: i16 },
    /// Perlwar's `^x`: cell `x` now belongs to the agent's owner.
    Claim { x: i16 },
}

impl Instruction {
    /// Reads a returned value for an Array of `array_size` cells; see the module documentation.
    pub fn decode(value: i64, array_size: u32) -> Instruction {
        let v = value as u64;
        if v >> 40 != 0 {
            return Instruction::Noop;
        }
        let x = v as u16 as i16;
        let y = (v >> 16) as u16 as i16;
        let in_range = |o: i16| i32::from(o).unsigned_abs() < array_size;
        if !in_range(x) || !in_range(y) {
            return Instruction::Noop;
        }
        match (v >> 32) as u8 {
            op::COPY => Instruction::Copy { x, y },
            op::NUKE if y == 0 => Instruction::Nuke { x },
            op::UPDATE if y == 0 => Instruction::Update { x },
            op::CLAIM if y == 0 => Instruction::Claim { x },
            _ => Instruction::Noop,
        }
    }

    /// The value an agent returns for this instruction (`Noop` is 0).
    pub const fn encode(self) -> i64 {
        const fn pack(op: u8, x: i16, y: i16) -> i64 {
            ((op as i64) << 32) | (((y as u16) as i64) << 16) | ((x as u16) as i64)
        }
        match self {
            Instruction::Noop => 0,
            Instruction::Copy { x, y } => pack(op::COPY, x, y),
            Instruction::Nuke { x } => pack(op::NUKE, x, 0),
            Instruction::Update { x } => pack(op::UPDATE, x, 0),
            Instruction::Claim { x } => pack(op::CLAIM, x, 0),
        }
    }

    /// The name used in records and narration: `copy`, `nuke`, `update`, `claim` or `noop`.
    pub const fn name(self) -> &'static str {
        match self {
            Instruction::Noop => "noop",
            Instruction::Copy { .. } => "copy",
            Instruction::Nuke { .. } => "nuke",
            Instruction::Update { .. } => "update",
            Instruction::Claim { .. } => "claim",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_values() {
        assert_eq!(Instruction::Copy { x: 0, y: 1 }.encode(), 0x1_0001_0000);
        assert_eq!(Instruction::Nuke { x: 13 }.encode(), 0x2_0000_000D);
        assert_eq!(Instruction::Claim { x: -1 }.encode(), 0x4_0000_FFFF);
        assert_eq!(Instruction::Update { x: 1 }.encode(), 0x3_0000_0001);
        assert_eq!(
            Instruction::decode(0x1_0001_0000, 100),
            Instruction::Copy { x: 0, y: 1 }
        );
        assert_eq!(
            Instruction::decode(0x4_0000_FFFF, 100),
            Instruction::Claim { x: -1 }
        );
    }

    #[test]
    fn anything_else_is_a_noop() {
        let n = 97;
        for v in [
            0,
            -1,
            0x5_0000_0001,      // unknown operation
            0x1_0000_0000_0001, // a bit above bit 39
            0x2_0001_0001,      // nuke with a y
            0x2_0000_0061,      // nuke +97: |x| = N
            0x2_0000_FF9F,      // nuke -97
            0x1_0061_0000,      // copy to +97
            i64::MIN,
        ] {
            assert_eq!(Instruction::decode(v, n), Instruction::Noop, "{v:#x}");
        }
        assert_eq!(
            Instruction::decode(0x2_0000_0060, n),
            Instruction::Nuke { x: 96 }
        );
        assert_eq!(
            Instruction::decode(0x2_0000_FFA0, n),
            Instruction::Nuke { x: -96 }
        );
    }

    #[test]
    fn round_trip_in_range() {
        for x in -5i16..=5 {
            for y in -5i16..=5 {
                let c = Instruction::Copy { x, y };
                assert_eq!(Instruction::decode(c.encode(), 6), c);
            }
            for i in [
                Instruction::Nuke { x },
                Instruction::Update { x },
                Instruction::Claim { x },
            ] {
                assert_eq!(Instruction::decode(i.encode(), 6), i);
            }
        }
    }
}
