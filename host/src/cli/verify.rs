//! `arena verify` (being written).

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {}

pub fn run(_args: VerifyArgs) -> anyhow::Result<i32> {
    anyhow::bail!("arena verify is not available yet")
}
