//! `arena new NAME --lang LANG [--game GAME]`: creates a ready-to-build agent in a new folder NAME
//! (`crate::project`) and prints the commands that build and check it, one per line, to be pasted
//! one after the other.
//!
//! Exit status: 0 when the project was created; 2 when NAME exists or cannot be used.

use crate::project::create;
pub use crate::project::NewArgs;

pub fn run(args: NewArgs) -> anyhow::Result<i32> {
    let steps = match create(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e:#}");
            return Ok(2);
        }
    };
    outln!(
        "created {}: a {} agent in {}",
        args.name.display(),
        args.game.title(),
        args.lang
    );
    outln!();
    outln!("Build and check it (one line after the other):");
    outln!();
    for step in steps {
        outln!("    {step}");
    }
    Ok(0)
}
