//! `arena serve`: host a challenge on the web (see `crate::serve` and docs/SERVER.md), and the
//! host's commands `arena serve admin ...`.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use crate::jobs::db::Db;
use crate::jobs::storage::Storage;
use crate::serve::config::Challenge;
use crate::serve::{admin, serve};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Without --config, serves the default challenge: the first game of `arena play --game`, 2\n\
players, default budgets, data in ./arena-data, on 127.0.0.1:8080. Every key of the challenge file,\n\
the API and the deployment are described in docs/SERVER.md."
)]
pub struct ServeArgs {
    #[command(subcommand)]
    pub admin: Option<ServeCommand>,
    /// Challenge file (TOML)
    #[arg(long, short, global = true)]
    pub config: Option<PathBuf>,
    /// Data folder (default: the challenge file's `data`, else ./arena-data)
    #[arg(long, global = true)]
    pub data: Option<PathBuf>,
    /// Keep everything in this PostgreSQL database instead of SQLite in the data folder, and let
    /// `arena worker` processes on other machines play the ladder's games
    /// (postgres://USER@HOST:PORT/DATABASE; default: the challenge file's `database`)
    #[arg(long, global = true, env = "ARENA_DATABASE", value_name = "URL")]
    pub database: Option<String>,
    /// Address and port to listen on (default: the challenge file's `listen`, else
    /// 127.0.0.1:8080); port 0 picks a free port
    #[arg(long, value_name = "ADDR:PORT")]
    pub listen: Option<SocketAddr>,
}

#[derive(clap::Subcommand, Debug)]
pub enum ServeCommand {
    /// The host's commands; they work while the server runs
    #[command(subcommand)]
    Admin(AdminCommand),
}

#[derive(clap::Subcommand, Debug)]
#[command(
    after_help = "CONTESTANT is a contestant's name as `contestants` lists it, or #ID. \
The commands work while the server runs; it\nnotices changes to contestants within two seconds."
)]
pub enum AdminCommand {
    /// Add a contestant and print their token (shown only this once)
    #[command(
        after_help = "Names are kept in Unicode NFKC, 1 to 40 characters, without \
invisible or formatting characters;\na name that looks like a taken one (other case, letters of \
another script that look the same) is refused."
    )]
    AddContestant {
        /// The name shown on the leaderboard
        name: String,
    },
    /// List the contestants: id, name, and whether they are disabled
    Contestants,
    /// Give a contestant a new token and print it; the old one and its browser sessions stop
    /// working
    RotateToken {
        /// Name or #ID
        contestant: String,
    },
    /// Revoke a contestant's token and sessions, giving no new one (until `rotate-token`)
    RevokeToken {
        /// Name or #ID
        contestant: String,
    },
    /// Rename a contestant (checked as a new name is); records of games already played keep
    /// the old name
    Rename {
        /// Name or #ID
        contestant: String,
        /// The new name
        new_name: String,
    },
    /// Take a contestant out of the challenge: out of the ladder and the final, uploads
    /// refused; their versions, verdicts and games are kept
    Disable {
        /// Name or #ID
        contestant: String,
    },
    /// Bring a disabled contestant back: their last accepted version plays again
    Enable {
        /// Name or #ID
        contestant: String,
    },
    /// Close submissions until `unfreeze` (the ladder keeps playing)
    Freeze,
    /// Open submissions again (until the deadline)
    Unfreeze,
}

fn challenge(args: &ServeArgs) -> anyhow::Result<Challenge> {
    let mut c = match &args.config {
        Some(path) => Challenge::load(path)?,
        None => Challenge::default_challenge(),
    };
    if let Some(d) = &args.data {
        c.data = d.clone();
    }
    if let Some(url) = &args.database {
        crate::jobs::db::check_shared_url(url)?;
        c.database = Some(url.clone());
    }
    if let Some(l) = args.listen {
        c.listen = l;
    }
    Ok(c)
}

pub fn run(args: ServeArgs) -> anyhow::Result<i32> {
    let challenge = challenge(&args)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("arena-http")
        .build()?;
    match args.admin {
        None => rt.block_on(async {
            let name = challenge.name.clone();
            let data = challenge.data.clone();
            serve(challenge, |addr| {
                outln!(
                    "{name}: listening on http://{addr} (data in {})",
                    data.display()
                );
                let _ = std::io::stdout().flush();
            })
            .await
        })?,
        Some(ServeCommand::Admin(cmd)) => rt.block_on(async {
            let storage = Storage::open(&challenge.data)?;
            let db = match &challenge.database {
                Some(url) => Db::open_shared(url).await?,
                None => Db::open_sqlite(storage.root()).await?,
            };
            let r = admin_command(&db, cmd).await;
            db.close().await;
            r
        })?,
    }
    Ok(0)
}

async fn admin_command(db: &Db, cmd: AdminCommand) -> anyhow::Result<()> {
    match cmd {
        AdminCommand::AddContestant { name } => {
            let (name, token) = admin::add_contestant(db, &name).await?;
            outln!(
                "added {:?}; their token (shown only now):\n{token}",
                name.text
            );
        }
        AdminCommand::Contestants => {
            for c in db.contestants().await? {
                let disabled = if c.disabled { "\tdisabled" } else { "" };
                outln!("{}\t{}{disabled}", c.id, c.name);
            }
        }
        AdminCommand::RotateToken { contestant } => {
            let c = admin::find(db, &contestant).await?;
            let token = admin::rotate_token(db, &c).await?;
            outln!(
                "{:?} has a new token (shown only now); the old one no longer works:\n{token}",
                c.name
            );
        }
        AdminCommand::RevokeToken { contestant } => {
            let c = admin::find(db, &contestant).await?;
            admin::revoke_token(db, &c).await?;
            outln!(
                "{:?}'s token and sessions no longer work (`rotate-token` gives a new one)",
                c.name
            );
        }
        AdminCommand::Rename {
            contestant,
            new_name,
        } => {
            let c = admin::find(db, &contestant).await?;
            let name = admin::rename(db, &c, &new_name).await?;
            outln!("{:?} is now {:?}", c.name, name.text);
        }
        AdminCommand::Disable { contestant } => {
            let c = admin::find(db, &contestant).await?;
            admin::set_disabled(db, &c, true).await?;
            outln!(
                "{:?} is out of the ladder and the final; their uploads are refused",
                c.name
            );
        }
        AdminCommand::Enable { contestant } => {
            let c = admin::find(db, &contestant).await?;
            admin::set_disabled(db, &c, false).await?;
            outln!("{:?} is back in the challenge", c.name);
        }
        AdminCommand::Freeze => {
            admin::set_frozen(db, true).await?;
            outln!("submissions are frozen");
        }
        AdminCommand::Unfreeze => {
            admin::set_frozen(db, false).await?;
            outln!("submissions are open (until the deadline, if there is one)");
        }
    }
    Ok(())
}
