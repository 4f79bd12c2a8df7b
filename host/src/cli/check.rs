//! `arena check` (being written).

#[derive(clap::Args, Debug)]
pub struct CheckArgs {}

pub fn run(_args: CheckArgs) -> anyhow::Result<i32> {
    anyhow::bail!("arena check is not available yet")
}
