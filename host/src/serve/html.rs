//! HTML for the pages: the templates (askama, in `templates/`) and the values they show.
//! Templates escape every value for HTML unless told otherwise, so everything a contestant
//! controls (names, verdicts, logs, fault details) is escaped without anyone having to remember
//! it; the only values put in unescaped are parts of the page rendered by these templates
//! themselves (`|safe` on a `body` or a list). Names in running text are wrapped in `<bdi>`, so
//! that a right-to-left name cannot reorder the words around it. The pages' scripts write such
//! text with `textContent`, never as HTML; pages load no inline script (the
//! Content-Security-Policy forbids it).

use askama::Template;

use super::ladder::Leaderboard;

/// A whole page: the head, the navigation bar, `body` (HTML made by the other templates) and
/// the scripts named in `scripts` (files served under `/static/`).
#[derive(Template)]
#[template(path = "layout.html")]
pub struct Layout<'a> {
    pub challenge: &'a str,
    pub title: &'a str,
    /// The contestant looking at the page, if logged in.
    pub viewer: Option<&'a str>,
    /// Whether self-registration is open.
    pub registration: bool,
    pub body: &'a str,
    pub scripts: &'a [&'a str],
    /// The projector's large type.
    pub projector: bool,
}

/// Renders a template (rendering into a string fails only if a value's `Display` does).
pub fn render(t: &impl Template) -> String {
    t.render()
        .unwrap_or_else(|e| format!("<p class=\"error\">cannot render the page: {e}</p>"))
}

/// The line saying whether submissions are open, until when, and how the final stands.
#[derive(Template)]
#[template(path = "status.html")]
pub struct Status<'a> {
    pub closed: Option<&'a str>,
    pub deadline: Option<String>,
    pub final_running: bool,
    pub final_done: bool,
}

/// The front page: the status line, the final's standings once played (above the ladder), the
/// leaderboard and the latest games; each part a template of its own, rendered already.
#[derive(Template)]
#[template(path = "front.html")]
pub struct Front<'a> {
    pub status: &'a str,
    pub final_table: Option<&'a str>,
    pub board: &'a str,
    pub games: &'a str,
}

/// The projector's page: the status line and the leaderboard.
#[derive(Template)]
#[template(path = "projector.html")]
pub struct Projector<'a> {
    pub status: &'a str,
    pub board: &'a str,
}

/// One line of the leaderboard, numbers made text.
pub struct BoardLine<'a> {
    pub rank: usize,
    pub name: &'a str,
    pub contestant: i64,
    pub version: i64,
    pub games: u32,
    pub wins: u32,
    pub rating: String,
    pub interval: String,
    pub faults: u32,
}

/// The leaderboard table; `live.js` redraws its body from the event stream.
#[derive(Template)]
#[template(path = "leaderboard.html")]
pub struct Board<'a> {
    pub measure: &'a str,
    pub turns: bool,
    pub agents: Vec<BoardLine<'a>>,
}

impl<'a> Board<'a> {
    pub fn of(board: &'a Leaderboard) -> Board<'a> {
        let turns = board.measure == "turns";
        let digits = if turns { 1 } else { 0 };
        Board {
            measure: board.measure,
            turns,
            agents: board
                .agents
                .iter()
                .map(|e| BoardLine {
                    rank: e.rank,
                    name: &e.name,
                    contestant: e.contestant,
                    version: e.version,
                    games: e.games,
                    wins: e.wins,
                    rating: num(e.rating, digits),
                    interval: num(e.interval, digits),
                    faults: e.faults,
                })
                .collect(),
        }
    }
}

/// One line of the final's standings.
pub struct FinalLine {
    pub rank: usize,
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub rating: String,
    pub interval: String,
}

#[derive(Template)]
#[template(path = "final.html")]
pub struct FinalTable {
    pub standings: Vec<FinalLine>,
}

/// A game in a list: its seats' labels and the winner's.
pub struct GameLine {
    pub id: i64,
    pub names: Vec<String>,
    pub winner: Option<String>,
}

/// A list of games with links to their replays; `label` marks an agent page's list with the
/// label of its playing version (`live.js` adds that version's new games).
#[derive(Template)]
#[template(path = "games.html")]
pub struct Games<'a> {
    pub id: &'a str,
    pub label: Option<String>,
    pub games: Vec<GameLine>,
}

/// An agent's standing on its page.
pub struct AgentStanding<'a> {
    pub sha: &'a str,
    pub rank: usize,
    pub of: usize,
    pub games: u32,
    pub wins: u32,
    pub measure: &'a str,
    pub rating: String,
    pub interval: String,
}

#[derive(Template)]
#[template(path = "agent.html")]
pub struct Agent<'a> {
    pub id: i64,
    pub version: i64,
    pub standing: Option<AgentStanding<'a>>,
    /// The games list ([`Games`], rendered).
    pub games: Option<String>,
}

/// One of the contestant's versions on their page.
pub struct VersionLine {
    pub number: i64,
    pub active: bool,
    /// `checking`, `accepted` or `refused`.
    pub status: &'static str,
    pub verdict: &'static str,
    pub reason: Option<String>,
    pub size: i64,
    pub when: String,
    pub sha: String,
    pub report: String,
}

/// A fault of the contestant's own agent.
pub struct FaultLine {
    pub game: i64,
    pub kind: String,
    pub decision: String,
    pub detail: String,
}

#[derive(Template)]
#[template(path = "me.html")]
pub struct Me<'a> {
    /// The status line ([`Status`], rendered).
    pub status: &'a str,
    pub error: Option<&'a str>,
    pub csrf: &'a str,
    pub max_kib: u64,
    pub disabled: bool,
    pub versions: Vec<VersionLine>,
    /// The games of the version that plays ([`Games`], rendered).
    pub games: Option<String>,
    pub faults: Vec<FaultLine>,
    /// Whether this server builds Python sources, and JavaScript sources.
    pub python: bool,
    pub javascript: bool,
    /// The `arena` command offered at `/download/arena`.
    pub download: Option<Download>,
    pub timing: &'static Timing,
    pub editor: Option<Editor>,
}

/// The code editor of `/me` (a text area that `editor.js` makes a code editor).
pub struct Editor {
    /// The opponents Test may play: the game's built-in agents, the agents on the ladder.
    pub opponents: Vec<Choice>,
    /// Seat-swapped pairs of games Test plays against each opponent.
    pub test_pairs: u32,
    pub tests_per_hour: u32,
    /// `python` or `javascript`: the language of `source`.
    pub lang: &'static str,
    pub source: String,
    /// The game's templates in the languages the server builds.
    pub python: Option<String>,
    pub javascript: Option<String>,
}

/// One choice of a list: the value sent, the words shown.
pub struct Choice {
    pub value: String,
    pub label: String,
}

/// How long the long steps of an upload take, in seconds, for the page's words: measured on the
/// 2-core machine of docs/PERFORMANCE.md ("From a source upload to its verdict"), loaded by
/// other builds as a contest's server may be.
pub struct Timing {
    /// A Python agent's build.
    pub python_s: &'static str,
    /// A JavaScript agent's build.
    pub javascript_s: &'static str,
    /// A component's first compile and its check's smoke games.
    pub compile_s: &'static str,
}

/// The figures of docs/PERFORMANCE.md.
pub const TIMING: Timing = Timing {
    python_s: "20 to 50",
    javascript_s: "20",
    compile_s: "20 to 40",
};

/// The server's own executable, offered for download.
pub struct Download {
    pub version: String,
    pub platform: String,
    pub sha256: String,
    pub mib: String,
}

#[derive(Template)]
#[template(path = "login.html")]
pub struct Login<'a> {
    pub csrf: &'a str,
    pub registration: bool,
}

#[derive(Template)]
#[template(path = "register.html")]
pub struct Register<'a> {
    pub csrf: &'a str,
}

#[derive(Template)]
#[template(path = "registered.html")]
pub struct Registered<'a> {
    pub name: &'a str,
    pub token: &'a str,
}

#[derive(Template)]
#[template(path = "error.html")]
pub struct ErrorPage<'a> {
    pub message: &'a str,
}

/// A number with `digits` decimals, or a dash.
pub fn num(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        _ => "–".into(),
    }
}

/// A time as UTC text, from milliseconds since 1970.
pub fn time(ms: i64) -> String {
    match crate::utc::text(ms.div_euclid(1000)) {
        Some(t) => format!("{t} UTC"),
        // Beyond the years 9999 either way: no time the server itself records.
        None => format!("{ms} ms after 1970 UTC"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_that_could_open_markup_is_escaped() {
        let evil = r#"<script>alert("x")</script> & 'y'"#;
        let body = render(&Games {
            id: "recent",
            label: Some(evil.into()),
            games: vec![GameLine {
                id: 1,
                names: vec![evil.into(), "b".into()],
                winner: Some(evil.into()),
            }],
        });
        let p = render(&Layout {
            challenge: "<C>",
            title: "<T>",
            viewer: Some("<img src=x>"),
            registration: true,
            body: &body,
            scripts: &["live.js"],
            projector: false,
        });
        assert!(!p.contains("<img") && !p.contains("<script>alert"), "{p}");
        assert!(!p.contains("<C>") && !p.contains("<T>"));
        assert!(p.contains("&#60;script&#62;alert("), "{p}");
        assert!(
            p.contains(r#"<script src="/static/live.js"></script>"#),
            "{p}"
        );
        assert!(p.contains("<bdi>"), "names are isolated: {p}");
    }

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time(-1), "1969-12-31 23:59:59 UTC");
        assert_eq!(time(951_868_799_999), "2000-02-29 23:59:59 UTC");
        assert_eq!(time(1_796_146_200_000), "2026-12-01 17:30:00 UTC");
        assert_eq!(num(Some(1.234), 1), "1.2");
        assert_eq!(num(None, 1), "–");
    }
}
