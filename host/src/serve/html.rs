//! HTML for the pages: escaping and the layout every page shares. Everything a contestant
//! controls (names, verdicts, logs, fault details) goes through [`esc`] before it is shown; the
//! pages' scripts write such text with `textContent`, never as HTML. Pages load no inline script
//! (the Content-Security-Policy forbids it).

use std::fmt::Write;

/// Text made safe to put inside HTML elements and quoted attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Who is looking at a page, for its navigation bar.
pub enum Viewer<'a> {
    Anonymous,
    Contestant(&'a str),
}

/// A whole page: the head, the navigation bar, `body`, and the scripts named in `scripts`
/// (files served under `/static/`).
pub fn page(
    challenge: &str,
    title: &str,
    viewer: &Viewer,
    registration: bool,
    body: &str,
    scripts: &[&str],
) -> String {
    let mut nav =
        String::from(r#"<a href="/">Leaderboard</a> <a href="/projector">Projector</a> "#);
    match viewer {
        Viewer::Anonymous => {
            nav.push_str(r#"<a href="/login">Log in</a> "#);
            if registration {
                nav.push_str(r#"<a href="/register">Register</a> "#);
            }
        }
        Viewer::Contestant(name) => {
            let _ = write!(nav, r#"<a href="/me">My agent ({})</a> "#, esc(name));
        }
    }
    let mut s = String::with_capacity(body.len() + 1024);
    let _ = write!(
        s,
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — {challenge}</title>
<link rel="stylesheet" href="/static/serve.css">
</head>
<body>
<header class="top"><span class="challenge">{challenge}</span><nav>{nav}</nav></header>
<main>
<h1>{title}</h1>
{body}
</main>
"#,
        title = esc(title),
        challenge = esc(challenge),
    );
    for script in scripts {
        let _ = writeln!(s, r#"<script src="/static/{script}"></script>"#);
    }
    s.push_str("</body>\n</html>\n");
    s
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
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_that_could_open_markup_is_escaped() {
        assert_eq!(
            esc(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
        let p = page(
            "<C>",
            "<T>",
            &Viewer::Contestant("<img src=x>"),
            true,
            "",
            &[],
        );
        assert!(!p.contains("<img"));
        assert!(!p.contains("<C>") && !p.contains("<T>"));
    }

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(time(1_796_146_200_000), "2026-12-01 17:30:00 UTC");
        assert_eq!(num(Some(1.234), 1), "1.2");
        assert_eq!(num(None, 1), "–");
    }
}
