//! The conventional design, as a baseline: every agent is a separate process that reads one JSON
//! line per decision on stdin and answers one JSON line on stdout (as Halite, CodinGame and chess
//! testers do). [`serve`] is the agent side (the `arena-stdio-agent` binary wraps a native
//! strategy with it); [`StdioPlayer`] is the host side, one process per player per game.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use farm_rules::{check_offer, Herd, Offer, Position, MAX_PLAYERS};
use serde::{Deserialize, Serialize};

use crate::games::farm::record::format::{EventJson, OfferJson};
use crate::games::farm::{AcceptView, Event, FarmPlayer, Fault, FaultKind, Observation};

/// What the host sends, one JSON object per line.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    Start {
        seat: usize,
        players: usize,
        seed: u64,
        round_cap: u32,
    },
    Trade {
        state: State,
    },
    Accept {
        state: State,
        trader: usize,
        offer: OfferJson,
    },
}

/// The game as an observation shows it.
#[derive(Serialize, Deserialize)]
pub struct State {
    pub seat: usize,
    pub to_move: usize,
    pub turn: u32,
    pub round: u32,
    pub out: u8,
    pub stock: [u32; 7],
    pub herds: Vec<[u32; 7]>,
    pub events: Vec<EventJson>,
}

/// What the agent answers, one JSON object per line.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
pub enum Answer {
    Offer { offer: OfferJson },
    Accept { accept: bool },
    Ready { ready: bool },
}

impl State {
    fn of(obs: &Observation) -> State {
        let p = obs.position;
        State {
            seat: obs.seat,
            to_move: obs.to_move,
            turn: obs.turn,
            round: obs.round,
            out: p.out,
            stock: p.stock.0,
            herds: p.seated().iter().map(|h| h.0).collect(),
            events: obs.events.iter().map(EventJson::from).collect(),
        }
    }

    fn position(&self) -> Result<Position, String> {
        if !(2..=MAX_PLAYERS).contains(&self.herds.len()) {
            return Err("bad number of herds".into());
        }
        let mut pos = Position::new(self.herds.len());
        for (slot, h) in pos.herds.iter_mut().zip(&self.herds) {
            *slot = Herd(*h);
        }
        pos.stock = Herd(self.stock);
        pos.out = self.out;
        Ok(pos)
    }
}

/// The agent side: answers requests on stdin with the native strategy `strategy` (a fresh one
/// for every game) until stdin closes.
pub fn serve(strategy: &str) -> anyhow::Result<()> {
    let mut player = super::strategies::native_player(strategy, 0)
        .ok_or_else(|| anyhow::anyhow!("unknown strategy {strategy:?}"))?;
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in stdin.lines() {
        let line = line?;
        let request: Request = serde_json::from_str(&line)?;
        let answer = match request {
            Request::Start {
                seat,
                players,
                seed,
                round_cap,
            } => {
                player =
                    super::strategies::native_player(strategy, round_cap).expect("known strategy");
                Answer::Ready {
                    ready: player.start(seat, players, seed).is_ok(),
                }
            }
            Request::Trade { state } => {
                let (pos, events) = decode(&state)?;
                let obs = observation(&state, &pos, &events);
                let offer = player.trade(&obs).unwrap_or(Offer::PASS);
                Answer::Offer {
                    offer: offer.into(),
                }
            }
            Request::Accept {
                state,
                trader,
                offer,
            } => {
                let (pos, events) = decode(&state)?;
                let obs = observation(&state, &pos, &events);
                let offer = Offer::from(offer);
                let accept = match check_offer(&pos, trader, &offer) {
                    Ok(Some(trade)) => player
                        .accept(
                            &obs,
                            &AcceptView {
                                trader,
                                offer,
                                trade,
                            },
                        )
                        .unwrap_or(false),
                    _ => false,
                };
                Answer::Accept { accept }
            }
        };
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}

fn decode(state: &State) -> anyhow::Result<(Position, Vec<Event>)> {
    let pos = state.position().map_err(anyhow::Error::msg)?;
    let events = state
        .events
        .iter()
        .map(|e| e.to_event().map_err(anyhow::Error::msg))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((pos, events))
}

fn observation<'a>(state: &State, pos: &'a Position, events: &'a [Event]) -> Observation<'a> {
    Observation {
        seat: state.seat,
        to_move: state.to_move,
        turn: state.turn,
        round: state.round,
        position: pos,
        events,
    }
}

/// The host side: a player whose agent is a child process speaking JSON lines.
pub struct StdioPlayer {
    program: PathBuf,
    args: Vec<String>,
    round_cap: u32,
    child: Option<(Child, BufWriter<ChildStdin>, BufReader<ChildStdout>)>,
    line: String,
}

impl StdioPlayer {
    pub fn new(program: &Path, args: &[String], round_cap: u32) -> StdioPlayer {
        StdioPlayer {
            program: program.to_path_buf(),
            args: args.to_vec(),
            round_cap,
            child: None,
            line: String::new(),
        }
    }

    fn ask(&mut self, request: &Request) -> Result<Answer, Fault> {
        let fault = |what: String| Fault::new(FaultKind::BadAnswer, what);
        let (_, stdin, stdout) = self
            .child
            .as_mut()
            .ok_or_else(|| fault("the agent process is not running".into()))?;
        serde_json::to_writer(&mut *stdin, request).map_err(|e| fault(e.to_string()))?;
        stdin
            .write_all(b"\n")
            .and_then(|_| stdin.flush())
            .map_err(|e| fault(e.to_string()))?;
        self.line.clear();
        stdout
            .read_line(&mut self.line)
            .map_err(|e| fault(e.to_string()))?;
        serde_json::from_str(&self.line).map_err(|e| fault(format!("unreadable answer: {e}")))
    }

    fn stop(&mut self) {
        if let Some((mut child, stdin, _)) = self.child.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

impl Drop for StdioPlayer {
    fn drop(&mut self) {
        self.stop();
    }
}

impl FarmPlayer for StdioPlayer {
    fn start(&mut self, seat: usize, players: usize, seed: u64) -> Result<(), Fault> {
        self.stop();
        let mut child = Command::new(&self.program)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::new(FaultKind::LoadFailed, format!("cannot start: {e}")))?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        self.child = Some((child, stdin, stdout));
        let request = Request::Start {
            seat,
            players,
            seed,
            round_cap: self.round_cap,
        };
        match self.ask(&request)? {
            Answer::Ready { ready: true } => Ok(()),
            _ => Err(Fault::new(FaultKind::LoadFailed, "the agent did not start")),
        }
    }

    fn trade(&mut self, obs: &Observation) -> Result<Offer, Fault> {
        match self.ask(&Request::Trade {
            state: State::of(obs),
        })? {
            Answer::Offer { offer } => Ok(offer.into()),
            _ => Err(Fault::new(FaultKind::BadAnswer, "expected an offer")),
        }
    }

    fn accept(&mut self, obs: &Observation, view: &AcceptView) -> Result<bool, Fault> {
        match self.ask(&Request::Accept {
            state: State::of(obs),
            trader: view.trader,
            offer: view.offer.into(),
        })? {
            Answer::Accept { accept } => Ok(accept),
            _ => Err(Fault::new(FaultKind::BadAnswer, "expected an answer")),
        }
    }
}
