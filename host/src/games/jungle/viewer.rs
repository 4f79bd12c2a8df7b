//! The report's Jungle replay page (`report/jungle.html?game=N`): the board drawn from each
//! position's notation, the last move, captures and both fuel clocks, with the controls and
//! keys of the other viewers. The report writes these files beside its own assets, and
//! `arena serve` serves them the same way.

/// The page.
pub const HTML: &str = include_str!("viewer/jungle.html");
/// Its script (with the report's `common.js`).
pub const JS: &str = include_str!("viewer/jungle.js");
