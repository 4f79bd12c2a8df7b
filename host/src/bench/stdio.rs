//! The conventional design, as a baseline: every agent is a separate process that reads one JSON
//! line per decision on stdin and answers one JSON line on stdout (as Halite, CodinGame and chess
//! testers do). [`serve`] is the agent side (the `arena-stdio-agent` binary wraps a native
//! strategy with it); [`Process`] is the host side, one process per player per game. A request
//! carries the decision's ABI bytes (base64), the answer the bytes the strategy wrote back: the
//! same bytes a sandboxed agent sees, for any game with strategies.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::game::{Fault, FaultKind, NativeAgent, NativeReply, Question, BUFFER_SIZE};

/// What the host sends, one JSON object per line.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Request {
    Init {
        bytes: String,
    },
    Decide {
        seat: usize,
        decision: usize,
        allowance: Option<u64>,
        bytes: String,
    },
}

/// What the agent answers, one JSON object per line: what the export returned, the fuel it
/// charged, the bytes it wrote at the start of the buffer (as many as it returned).
#[derive(Serialize, Deserialize)]
struct Answer {
    ret: i32,
    #[serde(default)]
    fuel: u64,
    #[serde(default)]
    bytes: String,
    #[serde(default)]
    fault: Option<Fault>,
}

/// The agent side: answers the host's requests on stdin with `agent` until stdin closes.
pub fn serve(mut agent: Box<dyn NativeAgent>) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut buf = vec![0u8; BUFFER_SIZE];
    for line in stdin.lock().lines() {
        let request: Request = serde_json::from_str(&line?)?;
        let answer = match request {
            Request::Init { bytes } => {
                let n = decode_into(&bytes, &mut buf)?;
                let ret = agent.init(&mut buf, n);
                Answer {
                    ret,
                    fuel: 0,
                    bytes: String::new(),
                    fault: None,
                }
            }
            Request::Decide {
                seat,
                decision,
                allowance,
                bytes,
            } => {
                let n = decode_into(&bytes, &mut buf)?;
                let q = Question {
                    seat,
                    decision,
                    allowance,
                };
                let reply = agent.decide(&q, &mut buf, n);
                match reply.ret {
                    Ok(ret) => Answer {
                        ret,
                        fuel: reply.fuel,
                        bytes: BASE64.encode(&buf[..(ret.max(0) as usize).min(buf.len())]),
                        fault: None,
                    },
                    Err(fault) => Answer {
                        ret: 0,
                        fuel: reply.fuel,
                        bytes: String::new(),
                        fault: Some(fault),
                    },
                }
            }
        };
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
    Ok(())
}

/// Decodes `bytes` (base64) into the start of `buf`; returns their length.
fn decode_into(bytes: &str, buf: &mut [u8]) -> anyhow::Result<usize> {
    let decoded = BASE64.decode(bytes)?;
    anyhow::ensure!(
        decoded.len() <= buf.len(),
        "more bytes than the buffer holds"
    );
    buf[..decoded.len()].copy_from_slice(&decoded);
    Ok(decoded.len())
}

/// The host side: an agent that is a child process speaking JSON lines, started at `init`.
pub struct Process {
    program: PathBuf,
    strategy: String,
    child: Option<(Child, BufWriter<ChildStdin>, BufReader<ChildStdout>)>,
    line: String,
}

impl Process {
    pub fn new(program: &Path, strategy: &str) -> Process {
        Process {
            program: program.to_path_buf(),
            strategy: strategy.to_owned(),
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

    fn start(&mut self) -> Result<(), Fault> {
        self.stop();
        let mut child = Command::new(&self.program)
            .arg(&self.strategy)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::new(FaultKind::LoadFailed, format!("cannot start: {e}")))?;
        let stdin = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        self.child = Some((child, stdin, stdout));
        Ok(())
    }

    fn stop(&mut self) {
        if let Some((mut child, stdin, _)) = self.child.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

impl NativeAgent for Process {
    fn init(&mut self, buf: &mut [u8], len: usize) -> i32 {
        if self.start().is_err() {
            return -1;
        }
        let request = Request::Init {
            bytes: BASE64.encode(&buf[..len]),
        };
        self.ask(&request).map_or(-1, |a| a.ret)
    }

    fn decide(&mut self, q: &Question, buf: &mut [u8], len: usize) -> NativeReply {
        let request = Request::Decide {
            seat: q.seat,
            decision: q.decision,
            allowance: q.allowance,
            bytes: BASE64.encode(&buf[..len]),
        };
        let answer = match self.ask(&request) {
            Ok(a) => a,
            Err(fault) => {
                return NativeReply {
                    ret: Err(fault),
                    fuel: 0,
                }
            }
        };
        if let Some(fault) = answer.fault {
            return NativeReply {
                ret: Err(fault),
                fuel: answer.fuel,
            };
        }
        match decode_into(&answer.bytes, buf) {
            Ok(_) => NativeReply {
                ret: Ok(answer.ret),
                fuel: answer.fuel,
            },
            Err(e) => NativeReply {
                ret: Err(Fault::new(
                    FaultKind::BadAnswer,
                    format!("unreadable answer: {e}"),
                )),
                fuel: answer.fuel,
            },
        }
    }
}
