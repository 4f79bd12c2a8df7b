//! What a component said when it failed, in its own language. A Python or JavaScript agent is an
//! interpreter inside the component: an exception its code does not catch is printed to its
//! stderr (a Python traceback; a JavaScript message and stack), and then the component traps
//! (componentize-py wraps the exception in a Rust panic, componentize-js aborts), which wasmtime
//! reports as "wasm `unreachable` instruction executed": true, and of no use to the agent's
//! author. [`language_error`] reads what the guest wrote during the failed call and gives the
//! error as its language put it, on one line: the exception and message, and the traceback's
//! frames (file, line, function).
//!
//! The text read is the agent's own output, so the fault detail made from it is the same on every
//! machine (the same bytes and inputs print the same traceback) and a record keeps it as it is.

/// Frames kept of a long traceback: the outermost one and the innermost ones.
const INNER_FRAMES: usize = 3;

/// The error a guest printed to its output (`said`: what it wrote during the failed call), on one
/// line, or `None` when it printed none that is recognised: a Python traceback, a JavaScript
/// exception with its stack, or a Rust panic message.
pub fn language_error(said: &str) -> Option<String> {
    python(said)
        .or_else(|| javascript(said))
        .or_else(|| rust_panic(said))
}

/// `IndexError: list index out of range [Python traceback, most recent call last: File
/// "agent.py", line 57, in trade]`, from the last traceback in `said`.
fn python(said: &str) -> Option<String> {
    const START: &str = "Traceback (most recent call last):";
    let start = said.rfind(START)?;
    let mut frames = Vec::new();
    let mut exception = None;
    for line in said[start + START.len()..].lines().skip(1) {
        if let Some(frame) = line.trim_start().strip_prefix("File ") {
            if line.starts_with(' ') {
                frames.push(python_frame(frame));
                continue;
            }
        }
        // Source lines and the `~~~^^^` markers under them are indented; the exception is not.
        if line.starts_with(char::is_whitespace) || line.trim().is_empty() {
            continue;
        }
        exception = Some(line.trim_end());
        break;
    }
    let exception = exception?;
    Some(format!(
        "{exception} [Python traceback, most recent call last: {}]",
        shorten(frames).join("; ")
    ))
}

/// `"/0/agent.py", line 57, in trade` as `File "agent.py", line 57, in trade`: componentize-py
/// puts the agent's folder at `/0/` (`/1/`... for more folders), which says nothing to its author.
fn python_frame(frame: &str) -> String {
    let frame = frame.trim_end();
    let inner = frame.strip_prefix('"').unwrap_or(frame);
    let stripped = inner
        .strip_prefix('/')
        .and_then(|rest| rest.split_once('/'))
        .filter(|(dir, _)| !dir.is_empty() && dir.bytes().all(|b| b.is_ascii_digit()))
        .map(|(_, rest)| rest);
    match stripped {
        Some(rest) => format!("File \"{rest}"),
        None => format!("File {frame}"),
    }
}

/// `can't access property "x", v is undefined [JavaScript stack: trade@agent.js:49:23]`: the
/// line before `Stack:` and the frames after it, without those of componentize-js's own glue
/// (`initializer.js`) and of the glue module the arena's builds add (`.arena-glue.js`).
fn javascript(said: &str) -> Option<String> {
    let lines: Vec<&str> = said.lines().collect();
    let at = lines.iter().rposition(|l| l.trim_end() == "Stack:")?;
    let message = lines[..at]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())?;
    let frames: Vec<String> = lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with(char::is_whitespace) && !l.trim().is_empty())
        .map(|l| l.trim().to_owned())
        .filter(|f| !f.contains("initializer.js:") && !f.contains(".arena-glue.js:"))
        .collect();
    Some(if frames.is_empty() {
        format!("{message} [JavaScript]")
    } else {
        format!(
            "{message} [JavaScript stack: {}]",
            shorten(frames).join("; ")
        )
    })
}

/// `panicked at src/lib.rs:10:5: the message` from Rust's panic output.
fn rust_panic(said: &str) -> Option<String> {
    let start = said.rfind("panicked at ")?;
    let mut lines = said[start..].lines();
    let location = lines.next()?.trim_end().trim_end_matches(':');
    let message = lines.next().map(str::trim).filter(|m| !m.is_empty());
    Some(match message {
        Some(m) => format!("{location}: {m}"),
        None => location.to_owned(),
    })
}

/// A long list of frames cut to the outermost one and the innermost [`INNER_FRAMES`].
fn shorten(mut frames: Vec<String>) -> Vec<String> {
    if frames.len() > INNER_FRAMES + 2 {
        let cut = frames.len() - INNER_FRAMES - 1;
        frames.splice(1..=cut, [format!("... {cut} more")]);
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a componentize-py agent prints when `trade` raises (componentize-py 0.25.1).
    const PYTHON: &str = "round 1\nTraceback (most recent call last):\n  File \"/0/agent.py\", \
        line 57, in trade\nIndexError: list index out of range\n\nthread '<unnamed>' (1) \
        panicked at runtime/src/lib.rs:1280:25:\nPython function threw an unexpected \
        exception\nnote: run with `RUST_BACKTRACE=1` environment variable to display a \
        backtrace\n";

    /// What a componentize-js agent prints when `trade` throws (componentize-js 0.23.0).
    const JAVASCRIPT: &str = "can't access property \"animals\", view.herds[(view.seat + 5)] \
        is undefined\nStack:\n  trade@agent.js:49:23\n  \
        export_trade@/tmp/e48808c06c16/sources/initializer.js:538:15\n\nRedirecting call to \
        abort() to mozalloc_abort\n\n";

    #[test]
    fn a_python_traceback_is_the_exception_and_its_frames() {
        assert_eq!(
            language_error(PYTHON).unwrap(),
            "IndexError: list index out of range [Python traceback, most recent call last: \
             File \"agent.py\", line 57, in trade]"
        );
        let long = "Traceback (most recent call last):\n  File \"/0/agent.py\", line 9, in \
            trade\n    return helper(view)\n           ^^^^^^^^^^^^\n  File \"/0/agent.py\", \
            line 5, in helper\n    return a(1)\n  File \"/0/lib/util.py\", line 2, in a\n  \
            File \"/0/lib/util.py\", line 3, in b\n  File \"/python/x.py\", line 4, in c\n  \
            File \"/0/agent.py\", line 20, in d\n    1 / 0\n    ~~^~~\nZeroDivisionError: \
            division by zero\n";
        assert_eq!(
            language_error(long).unwrap(),
            "ZeroDivisionError: division by zero [Python traceback, most recent call last: \
             File \"agent.py\", line 9, in trade; ... 2 more; File \"lib/util.py\", line 3, in \
             b; File \"/python/x.py\", line 4, in c; File \"agent.py\", line 20, in d]"
        );
    }

    #[test]
    fn a_javascript_exception_is_its_message_and_stack() {
        assert_eq!(
            language_error(JAVASCRIPT).unwrap(),
            "can't access property \"animals\", view.herds[(view.seat + 5)] is undefined \
             [JavaScript stack: trade@agent.js:49:23]"
        );
    }

    /// An agent built for a leaner world is called through the build's glue module: its
    /// frame is not the agent's.
    #[test]
    fn the_frames_of_the_arena_s_glue_module_are_left_out() {
        let said = JAVASCRIPT.replace(
            "trade@agent.js:49:23\n",
            "trade@agent.js:49:23\n  trade@.arena-glue.js:7:48\n",
        );
        assert_eq!(language_error(&said), language_error(JAVASCRIPT));
    }

    #[test]
    fn a_rust_panic_is_its_place_and_message() {
        assert_eq!(
            language_error("thread 'main' panicked at src/lib.rs:10:5:\nno move left\nnote: x\n")
                .unwrap(),
            "panicked at src/lib.rs:10:5: no move left"
        );
    }

    #[test]
    fn other_output_is_no_error() {
        assert_eq!(language_error(""), None);
        assert_eq!(language_error("round 50: buying a cow\n"), None);
        assert_eq!(language_error("Traceback (most recent call last):\n"), None);
    }
}
