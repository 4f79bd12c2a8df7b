//! The report's replay page of a code war (`viewer/`): the Array as a grid over time, a row per
//! iteration and a column per cell (owner colours, facades, each visit's instruction,
//! segfaults), with the controls and keys of the other viewers. The page uses the report's
//! shared `report.css`, `games.js` and `common.js`; the report writes these files beside its own
//! assets, and `arena serve` serves them the same way.

/// The page that shows one game: `codewar.html?game=N`.
pub const PAGE: &str = "codewar.html";

/// The viewer's own files: name and text.
pub const ASSETS: &[(&str, &str)] = &[
    (PAGE, include_str!("viewer/codewar.html")),
    ("codewar.js", include_str!("viewer/codewar.js")),
];
