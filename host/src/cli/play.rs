//! `arena play` (being written).

#[derive(clap::Args, Debug)]
pub struct PlayArgs {}

pub fn run(_args: PlayArgs) -> anyhow::Result<i32> {
    anyhow::bail!("arena play is not available yet")
}
