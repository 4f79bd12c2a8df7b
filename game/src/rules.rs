//! The rules of a game as a state machine, in the manner of OpenSpiel's `Game` and `State`: a
//! start state from a setup (the table's seed, round cap, fault policy and the game's settings);
//! who decides next ([`Next`]: one seat, several seats at once, the dice, or nobody: the end); a
//! seat's observation, which is the payload of the ABI; the answer, checked and applied by the
//! rules, which close a record turn when one is complete; and the end with its outcome.
//!
//! Everything else is written once by the host over this trait ([`crate::play`]): the game loop
//! with the sandbox's budgets, clocks ([`Question::allowance`]) and the fault policy; the players
//! (sandboxed core modules and components, native strategies, a record's answers); the record
//! writer and the verifier, which replays the recorded answers through the same loop.

use std::ops::ControlFlow;

pub use arena_sandbox::{Init, WasmPlayer};

use crate::{Fault, FaultKind, FaultPolicy, GameInfo, Host, Summary, Table};

/// Who decides next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// One seat decides.
    Seat(usize),
    /// Several seats decide at once: each is asked without seeing the others' answers, and the
    /// rules apply the answers together ([`Rules::apply_together`]).
    Seats(Seats),
    /// The dice decide: `count` dice of `faces` faces each.
    Chance(Dice),
    /// The game is over ([`Rules::end`]).
    End,
}

/// A set of seats (at most 64), in seat order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats(u64);

impl Seats {
    /// The seats of `seats`.
    pub fn of(seats: impl IntoIterator<Item = usize>) -> Seats {
        let mut set = Seats::default();
        for s in seats {
            set.insert(s);
        }
        set
    }

    pub fn insert(&mut self, seat: usize) {
        assert!(seat < 64, "a table has at most 64 seats");
        self.0 |= 1 << seat;
    }

    pub fn contains(&self, seat: usize) -> bool {
        seat < 64 && self.0 & (1 << seat) != 0
    }

    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The seats, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..64).filter(|&s| self.contains(s))
    }
}

/// A throw of dice: `count` dice of `faces` faces each; each die shows `0..faces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dice {
    pub count: u8,
    pub faces: u8,
}

/// What a seat is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    pub seat: usize,
    /// The decision: its index in the game's `AgentInterface::decisions`.
    pub decision: usize,
    /// The most fuel this decision may use, for a game that runs a clock; `None`: the sandbox's
    /// budget per decision.
    pub allowance: Option<u64>,
}

impl Question {
    /// `seat` is asked the decision `decision`, on the sandbox's budget per decision.
    pub fn new(seat: usize, decision: usize) -> Question {
        Question {
            seat,
            decision,
            allowance: None,
        }
    }

    /// The same question, on a clock that allows the decision `fuel` at the most.
    pub fn on_clock(self, fuel: u64) -> Question {
        Question {
            allowance: Some(fuel),
            ..self
        }
    }
}

/// A seat's decision as the rules receive it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided<A> {
    pub seat: usize,
    pub decision: usize,
    pub answered: Answered<A>,
    /// Fuel the decision used (0 for a player that is not metered).
    pub fuel: u64,
    /// What the agent logged while deciding (not empty).
    pub log: Option<String>,
}

/// An answer, before the rules judge it, or the fault of a decision without one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered<A> {
    Answer(A),
    /// `forfeit`: the table's fault policy puts the seat out of the game (each game says what a
    /// lost move is otherwise, and may end the game sooner: a loss on time).
    Fault {
        fault: Fault,
        forfeit: bool,
    },
}

/// How a seat's agent started the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// A fault while loading: the seat forfeits, whatever the policy.
    pub fault: Option<Fault>,
    /// What the agent logged while loading (not empty).
    pub log: Option<String>,
}

/// The faults a game counts, as the rules report them while they apply answers (the league's
/// fault notes, `arena verify`'s counts): a decision's fault, or a fault the rules find in a
/// readable answer (an illegal move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    pub notes: Vec<crate::FaultNote>,
}

impl Faults {
    /// A fault of `seat` in the decision named `decision` (`init` while loading).
    pub fn note(&mut self, seat: usize, decision: &str, fault: &Fault) {
        self.notes.push(crate::FaultNote {
            seat,
            decision: decision.to_owned(),
            kind: fault.kind.name().to_owned(),
            detail: fault.detail.clone(),
        });
    }
}

/// The rules of a game: its state machine, and the translation of its observations and answers
/// to and from the agents' ABI.
pub trait Rules: Send + Sync + Sized + 'static {
    /// Everything that determines a game apart from the answers and the dice (its record's setup
    /// line): players, seed, round cap, fault policy, the game's settings.
    type Setup: Clone + Send + Sync + 'static;
    /// A game being played.
    type State;
    /// What a seat is shown when asked (the ABI payload is made of it).
    type Observation<'s>
    where
        Self: 's;
    /// An answer as the agent gave it, before the rules judge it.
    type Answer: Clone;
    /// A finished record turn (one `turn` line, or the lines the game writes per turn).
    type Turn: Send + 'static;
    /// How the game ended.
    type End: Send + 'static;

    fn info(&self) -> &'static GameInfo;

    /// The setup of a game of `table`, the host's limits given (a clock's cap per decision).
    fn setup(&self, table: &Table, host: &Host<'_>) -> anyhow::Result<Self::Setup>;

    /// Players at the table.
    fn players(&self, setup: &Self::Setup) -> usize;

    /// What the agent of `seat` is told when it starts (seed of its own randomness, round cap).
    fn init(&self, setup: &Self::Setup, seat: usize) -> Init;

    /// The fault policy of the game.
    fn policy(&self, setup: &Self::Setup) -> FaultPolicy;

    /// The game's seed (of its dice, and of the agents' own randomness); `None` when the dice
    /// are given with the game (a studied position, whose record carries its rolls).
    fn seed(&self, setup: &Self::Setup) -> Option<u64>;

    /// The game once every seat's agent has started. A seat whose agent faulted while loading
    /// forfeits (the rules note nothing: the loop notes load faults as `init`).
    fn start(&self, setup: &Self::Setup, loaded: &[Loaded]) -> Self::State;

    /// Who decides next. It may play the game's own stages first (those that need no decision).
    fn next(&self, state: &mut Self::State) -> Next;

    /// What `seat` is asked, and what it is shown. Observing may change the state (what the seat
    /// has seen since its previous decision).
    fn observe<'s>(
        &self,
        state: &'s mut Self::State,
        seat: usize,
    ) -> (Question, Self::Observation<'s>);

    /// Applies a seat's decision (after [`Next::Seat`]); the faults the rules count go to
    /// `faults`.
    fn apply(&self, state: &mut Self::State, decided: Decided<Self::Answer>, faults: &mut Faults);

    /// Applies the decisions of several seats at once (after [`Next::Seats`]), in seat order. By
    /// default one after the other: a game of simultaneous moves applies them together.
    fn apply_together(
        &self,
        state: &mut Self::State,
        decided: Vec<Decided<Self::Answer>>,
        faults: &mut Faults,
    ) {
        for d in decided {
            self.apply(state, d, faults);
        }
    }

    /// Applies a throw of the dice (after [`Next::Chance`]); `None`: the given dice ran out, and
    /// the game ends unfinished.
    fn roll(&self, state: &mut Self::State, faces: Option<&[u8]>) {
        let _ = (state, faces);
    }

    /// A record turn the game has finished since it was last asked, if any.
    fn turn(&self, state: &mut Self::State) -> Option<Self::Turn>;

    /// The end of a game over ([`Next::End`]).
    fn end(&self, state: Self::State) -> Self::End;

    /// What the league keeps of the game (the faults are the loop's: leave them empty).
    fn summary(&self, end: &Self::End) -> Summary;

    /// Writes the envelope and the observation for a core module's (or a native strategy's)
    /// decision into `buf`; returns the length written.
    fn encode(&self, q: &Question, obs: &Self::Observation<'_>, buf: &mut [u8]) -> usize;

    /// Reads the answer a core module's decision export returned (`ret`) and left in `buf`. An
    /// unreadable answer is a `bad_answer` fault; a readable one is judged by the rules later.
    fn decode(&self, q: &Question, ret: i32, buf: &[u8]) -> Result<Self::Answer, Fault>;

    /// A component agent's decision, through its world's typed exports
    /// ([`WasmPlayer::call_component`]).
    fn call_component(
        &self,
        q: &Question,
        obs: &Self::Observation<'_>,
        player: &mut WasmPlayer,
    ) -> Result<Self::Answer, Fault> {
        let _ = (q, obs, player);
        Err(Fault::new(
            FaultKind::LoadFailed,
            format!("{} has no component agents", self.info().title),
        ))
    }
}

/// Takes a game's parts as it is played: the record writer, the verifier, a terminal that tells
/// the game as it goes. Either method can stop the game.
pub trait Sink<R: Rules> {
    /// The game once every agent started (before the first decision).
    fn start(&mut self, rules: &R, state: &R::State) -> ControlFlow<()>;
    /// A record turn, as soon as the rules finished it.
    fn turn(&mut self, rules: &R, turn: R::Turn) -> ControlFlow<()>;
}
