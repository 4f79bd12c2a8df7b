//! The report's replay viewer of a code war (`viewer/`): the Array as a grid over time, a row per
//! iteration and a column per cell (owner colours, facades, each visit's instruction,
//! segfaults). Its script draws into the report's viewer chrome (`report/viewer/`), which gives
//! the page, the controls and the keys of every viewer; the report writes these files beside its
//! own assets, and `arena serve` serves them the same way.

/// The page that shows one game: `codewar.html?game=N`.
pub const PAGE: &str = "codewar.html";

/// The viewer's own files: name and text.
pub const ASSETS: &[(&str, &str)] = &[
    ("codewar.js", include_str!("viewer/codewar.js")),
    ("codewar.css", include_str!("viewer/codewar.css")),
];
