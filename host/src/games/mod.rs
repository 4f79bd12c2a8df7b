//! Games written as one module each, behind the surface a game plug-in offers: play a game,
//! verify its record as a stream, narrate it, smoke games for `arena check`, the report's replay
//! data and viewer, `arena new` templates, and the game's own league keys.

pub mod jungle;
