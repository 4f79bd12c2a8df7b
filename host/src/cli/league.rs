//! `arena league` (being written).

#[derive(clap::Args, Debug)]
pub struct LeagueArgs {}

pub fn run(_args: LeagueArgs) -> anyhow::Result<i32> {
    anyhow::bail!("arena league is not available yet")
}
