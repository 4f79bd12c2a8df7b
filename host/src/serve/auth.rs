//! Who is asking: contestants' tokens (random, stored hashed), browser sessions, CSRF tokens for
//! forms, and the rules for contestants' names (which must not impersonate each other).
//!
//! A token is 32 random bytes in hex. The database keeps only its SHA-256: tokens are random and
//! long, so a fast hash is enough (nothing to brute-force), and a stolen database gives no
//! token. A browser logs in by posting its token once; it then holds a session cookie (random,
//! `HttpOnly`, `SameSite=Strict`), whose SHA-256 is what the database keeps. Every form carries a
//! CSRF token, an HMAC under the server's secret of the cookie that identifies the browser (the
//! session, or before logging in a random pre-session cookie), checked on every POST.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::records::sha256_hex;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "arena_session";
/// Name of the cookie that ties the login and registration forms to one browser.
pub const PRE_SESSION_COOKIE: &str = "arena_pre";
/// How long a session lasts, in milliseconds.
pub const SESSION_MS: i64 = 30 * 24 * 3600 * 1000;

/// What the database keeps of a token or a session id.
pub fn token_hash(token: &str) -> String {
    sha256_hex(token.as_bytes())
}

/// The CSRF token of the browser holding the cookie value `cookie`.
pub fn csrf_token(secret: &[u8], cookie: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"arena-csrf/1\0");
    mac.update(cookie.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Checks a form's CSRF token against the browser's cookie, in constant time.
pub fn csrf_ok(secret: &[u8], cookie: &str, token: &str) -> bool {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"arena-csrf/1\0");
    mac.update(cookie.as_bytes());
    match hex::decode(token) {
        Ok(bytes) => mac.verify_slice(&bytes).is_ok(),
        Err(_) => false,
    }
}

/// The token of an `Authorization: Bearer TOKEN` header value.
pub fn bearer(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// Whether a request's `Origin` (sent by browsers with every POST) is this server: its host the
/// request's `Host` (or, behind a reverse proxy that sets it, `X-Forwarded-Host`). Ports are
/// left out of the comparison: a proxy's `Host` often has none. A request without `Origin` is
/// not a browser's form or script, and passes.
pub fn same_origin(headers: &axum::http::HeaderMap) -> bool {
    let Some(origin) = headers.get(axum::http::header::ORIGIN) else {
        return true;
    };
    let host_of = |v: &str| -> String {
        let v = v.split_once("://").map_or(v, |(_, rest)| rest);
        let v = v.split('/').next().unwrap_or("");
        let v = if v.starts_with('[') {
            v.split_inclusive(']').next().unwrap_or(v)
        } else {
            v.rsplit_once(':').map_or(v, |(h, _)| h)
        };
        v.to_ascii_lowercase()
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if origin == "null" {
        return false;
    }
    let origin = host_of(origin);
    ["x-forwarded-host", "host"]
        .iter()
        .filter_map(|h| headers.get(*h).and_then(|v| v.to_str().ok()))
        .any(|h| host_of(h.split(',').next().unwrap_or("").trim()) == origin)
}

/// The value of cookie `name` in a `Cookie` header.
pub fn cookie<'h>(header: &'h str, name: &str) -> Option<&'h str> {
    header.split(';').find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name).then_some(v)
    })
}

/// Most characters in a name.
pub const NAME_CHARS: usize = 40;

/// A contestant's name as it is kept and shown, and the key that tells look-alike names apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name in Unicode normalization form NFKC, trimmed, runs of spaces made one.
    pub text: String,
    /// The confusable skeleton (Unicode TS #39) of its lower case: two names with the same key
    /// look alike (`ace`, Cyrillic `асе`, `Ace`), so only one of them may be taken (the
    /// database keeps it, unique). See also [`look_alike`].
    pub key: String,
}

/// Makes a contestant's name canonical and checks it: NFKC (so `café` is one name whichever
/// way its `é` was typed, and full-width letters are letters), trimmed, runs of white space made
/// one space; then 1 to [`NAME_CHARS`] characters, none of them a control, a format character
/// (bidirectional overrides and isolates, zero-width joiners, the soft hyphen, the byte order
/// mark ...), a line or paragraph separator, or a default-ignorable code point, which all either
/// show nothing or change how the text around them is shown.
pub fn check_name(raw: &str) -> Result<Name, String> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    use unicode_security::general_security_profile::IdentifierType;
    use unicode_security::GeneralSecurityProfile;

    let nfkc: String = raw.nfkc().collect();
    let text = nfkc.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(c) = nfkc.chars().find(|&c| {
        c.is_control()
            || matches!(
                c.general_category(),
                GeneralCategory::Format
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
                    | GeneralCategory::Unassigned
                    | GeneralCategory::PrivateUse
                    | GeneralCategory::Surrogate
            )
            || c.identifier_type() == Some(IdentifierType::Default_Ignorable)
    }) {
        return Err(format!(
            "a name cannot hold invisible, control or formatting characters such as U+{:04X}",
            c as u32
        ));
    }
    let n = text.chars().count();
    if n == 0 {
        return Err("a name cannot be empty".into());
    }
    if n > NAME_CHARS {
        return Err(format!(
            "a name has 1 to {NAME_CHARS} characters; {text:?} has {n}"
        ));
    }
    let key = name_key(&text);
    Ok(Name { text, key })
}

/// The look-alike key of a name already in NFKC: the confusable skeleton (Unicode TS #39) of
/// its lower case, so that neither case nor another script's look-alike letters tell two names
/// apart.
pub fn name_key(text: &str) -> String {
    unicode_security::skeleton(&text.to_lowercase()).collect()
}

/// Whether two names (in NFKC) look alike: the same key, or the same skeleton as typed (which
/// catches what lower case hides: `Iris` and `lris`).
pub fn look_alike(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b) || unicode_security::skeleton(a).eq(unicode_security::skeleton(b))
}

/// Failed guesses of the invite code allowed a minute, from all clients together (behind a
/// reverse proxy every client has the same address): 10 a minute make guessing a code of 8
/// random characters take longer than any challenge lasts.
pub const INVITE_GUESSES_PER_MINUTE: usize = 10;

/// Failures allowed in any minute: past them, attempts are refused until the oldest is a minute
/// old.
pub struct Throttle {
    per_minute: usize,
    failures: std::sync::Mutex<std::collections::VecDeque<std::time::Instant>>,
}

impl Throttle {
    pub fn new(per_minute: usize) -> Throttle {
        Throttle {
            per_minute: per_minute.max(1),
            failures: Default::default(),
        }
    }

    /// `Err(seconds to wait)` while the minute's failures are used up.
    pub fn check(&self) -> Result<(), u64> {
        let now = std::time::Instant::now();
        let minute = std::time::Duration::from_secs(60);
        let mut f = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        while f.front().is_some_and(|t| now.duration_since(*t) >= minute) {
            f.pop_front();
        }
        match f.front() {
            Some(oldest) if f.len() >= self.per_minute => {
                Err((minute - now.duration_since(*oldest)).as_secs().max(1))
            }
            _ => Ok(()),
        }
    }

    /// Counts a failure.
    pub fn failed(&self) {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push_back(std::time::Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::new_token;

    #[test]
    fn tokens_are_random_hex_and_hashes_differ_from_them() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }

    #[test]
    fn csrf_tokens_are_bound_to_the_cookie_and_the_secret() {
        let t = csrf_token(b"secret", "cookie-1");
        assert!(csrf_ok(b"secret", "cookie-1", &t));
        assert!(!csrf_ok(b"secret", "cookie-2", &t));
        assert!(!csrf_ok(b"other", "cookie-1", &t));
        assert!(!csrf_ok(b"secret", "cookie-1", ""));
        assert!(!csrf_ok(b"secret", "cookie-1", "zz"));
        assert!(!csrf_ok(b"secret", "cookie-1", "é"));
    }

    #[test]
    fn headers_are_read() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearer "), None);
        assert_eq!(
            cookie("a=1; arena_session=xyz", "arena_session"),
            Some("xyz")
        );
        assert_eq!(cookie("a=1", "arena_session"), None);
    }

    #[test]
    fn names_are_printable_and_short() {
        assert_eq!(check_name("alice").unwrap().text, "alice");
        assert_eq!(
            check_name("<b>Zoë & co</b>").unwrap().text,
            "<b>Zoë & co</b>"
        );
        assert_eq!(check_name("  two   words ").unwrap().text, "two words");
        assert!(check_name("").is_err());
        assert!(check_name("   ").is_err());
        assert!(check_name("a\nb").is_err());
        assert!(check_name(&"x".repeat(41)).is_err());
        assert!(check_name(&"x".repeat(40)).is_ok());
    }

    /// The names of the attack on the server: invisible characters, a right-to-left override,
    /// two Unicode forms of one name, case and another script's look-alike letters.
    #[test]
    fn names_that_impersonate_are_refused_or_made_one() {
        for invisible in [
            "ace\u{200b}",
            "\u{200b}",
            "\u{00ad}",
            "\u{feff}",
            "caf\u{202e}é",
            "a\u{2066}b",
            "x\u{e000}",
        ] {
            assert!(check_name(invisible).is_err(), "{invisible:?} accepted");
        }
        let nfc = check_name("caf\u{e9}").unwrap();
        let nfd = check_name("cafe\u{301}").unwrap();
        assert_eq!(nfc, nfd, "one name in both forms");
        assert_eq!(check_name("ｆｕｌｌ").unwrap().text, "full");
        let ace = check_name("ace").unwrap().key;
        for alike in ["Ace", "ACE", "\u{430}\u{441}\u{435}", "a\u{441}e"] {
            assert_eq!(check_name(alike).unwrap().key, ace, "{alike:?}");
        }
        assert!(look_alike("Iris", "lris") && look_alike("Iris", "iris"));
        assert!(!look_alike("bob", "ace"));
        assert_ne!(check_name("bob").unwrap().key, ace);
    }

    #[test]
    fn origins_are_compared_by_host() {
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut h = axum::http::HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, v.parse().unwrap());
            }
            h
        };
        assert!(same_origin(&headers(&[("host", "127.0.0.1:8080")])));
        assert!(same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ])));
        assert!(same_origin(&headers(&[
            ("host", "arena.example.org"),
            ("origin", "https://Arena.example.org")
        ])));
        assert!(same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("x-forwarded-host", "arena.example.org"),
            ("origin", "https://arena.example.org")
        ])));
        assert!(same_origin(&headers(&[
            ("host", "[::1]:80"),
            ("origin", "http://[::1]:80")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example")
        ])));
        assert!(!same_origin(&headers(&[("host", "a"), ("origin", "null")])));
    }

    #[test]
    fn the_throttle_refuses_past_its_failures_a_minute() {
        let t = Throttle::new(3);
        for _ in 0..3 {
            assert!(t.check().is_ok());
            t.failed();
        }
        let wait = t.check().unwrap_err();
        assert!((59..=60).contains(&wait), "{wait}");
    }

    proptest::proptest! {
        /// Whatever is typed, an accepted name holds nothing invisible, is its own canonical
        /// form, and has the key of every way of typing it.
        #[test]
        fn an_accepted_name_is_canonical_and_visible(raw in "\\PC{0,12}|[a-zA-Z \u{200b}\u{202e}\u{301}\u{430}-\u{44f}]{0,12}") {
            if let Ok(name) = check_name(&raw) {
                proptest::prop_assert_eq!(check_name(&name.text).unwrap(), name.clone());
                let invisible = |c: char| {
                    c.is_control() || matches!(c, '\u{200b}' | '\u{202e}' | '\u{feff}' | '\u{ad}')
                };
                proptest::prop_assert!(!name.text.chars().any(invisible), "{:?}", name.text);
                proptest::prop_assert!(!name.text.starts_with(' ') && !name.text.ends_with(' '));
                if name.text.is_ascii() {
                    let upper = check_name(&name.text.to_uppercase()).unwrap();
                    proptest::prop_assert_eq!(upper.key, name.key);
                }
            }
        }
    }
}
