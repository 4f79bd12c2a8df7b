//! The deadline: submissions close, the ladder stops, and the final round-robin is played with
//! the league engine over each contestant's last accepted version, into the final's output
//! folder (the same files as `arena league` writes, report included). With a shared database its
//! games are enqueued there as `arena league --database` does, and workers on other machines
//! play them with the server's own. A server stopped during the final resumes it from its journal
//! at the next start.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::admin::{FINAL, FINAL_ERROR, FINAL_STANDINGS};
use super::engine::{self, FinalEntrant};
use super::App;
use crate::jobs::now_ms;

/// Waits for the deadline (if there is one) and plays the final once.
pub async fn watch(app: Arc<App>) {
    let Some(deadline) = app.challenge.deadline_ms else {
        return;
    };
    loop {
        match app.db.state(FINAL).await {
            Ok(Some(s)) if s == "done" => {
                app.final_started.store(true, Ordering::SeqCst);
                return;
            }
            Ok(_) => {}
            Err(e) => eprintln!("warning: cannot read the final's state: {e:#}"),
        }
        let wait = deadline - now_ms();
        if wait <= 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(wait.min(1000) as u64)).await;
    }
    app.final_started.store(true, Ordering::SeqCst);
    app.pages.changed();
    app.events
        .send("status", r#"{"submissions":"closed","final":"running"}"#);
    if let Err(e) = play_final(&app).await {
        eprintln!("error: the final could not be played: {e:#}");
        let _ = app.db.set_state(FINAL_ERROR, &format!("{e:#}")).await;
        app.pages.changed();
        app.events
            .send("status", r#"{"submissions":"closed","final":"failed"}"#);
    }
}

async fn play_final(app: &Arc<App>) -> anyhow::Result<()> {
    app.db.set_state(FINAL, "running").await?;
    app.pages.changed();
    // The ladder is over: games it had queued are not played.
    app.db.cancel_scheduled().await?;
    let entrants: Vec<FinalEntrant> = app
        .db
        .active_versions()
        .await?
        .into_iter()
        .map(|v| FinalEntrant {
            path: app.storage.agent_path(&v.sha256),
            name: v.name,
        })
        .collect();
    let c = app.challenge.clone();
    let rules = app.engine.rules().clone();
    let standings = tokio::task::spawn_blocking(move || {
        engine::run_final(
            &c.name,
            &rules,
            &entrants,
            c.final_round.games_per_group,
            c.final_round.seed,
            c.final_dir(),
            &engine::FinalPlayers {
                threads: c.workers,
                database: c.database.clone(),
                double_play: c.final_round.double_play,
            },
        )
    })
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))??;
    let json = serde_json::to_string(&standings)?;
    app.db.set_state(FINAL_STANDINGS, &json).await?;
    app.db.set_state(FINAL, "done").await?;
    app.pages.changed();
    app.events
        .send("status", r#"{"submissions":"closed","final":"done"}"#);
    Ok(())
}
