//! Who is asking: contestants' tokens (random, stored hashed), browser sessions, CSRF tokens for
//! forms, and the rules for contestants' names.
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

/// `N` bytes from the operating system's random source.
pub fn random_bytes<const N: usize>() -> anyhow::Result<[u8; N]> {
    let mut b = [0u8; N];
    ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut b)
        .map_err(|_| anyhow::anyhow!("the system's random source failed"))?;
    Ok(b)
}

/// A new token (or session id): 32 random bytes as 64 hex digits.
pub fn new_token() -> anyhow::Result<String> {
    Ok(hex(&random_bytes::<32>()?))
}

/// What the database keeps of a token or a session id.
pub fn token_hash(token: &str) -> String {
    sha256_hex(token.as_bytes())
}

/// The CSRF token of the browser holding the cookie value `cookie`.
pub fn csrf_token(secret: &[u8], cookie: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"arena-csrf/1\0");
    mac.update(cookie.as_bytes());
    hex(&mac.finalize().into_bytes())
}

/// Checks a form's CSRF token against the browser's cookie, in constant time.
pub fn csrf_ok(secret: &[u8], cookie: &str, token: &str) -> bool {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"arena-csrf/1\0");
    mac.update(cookie.as_bytes());
    match unhex(token) {
        Some(bytes) => mac.verify_slice(&bytes).is_ok(),
        None => false,
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

/// The value of cookie `name` in a `Cookie` header.
pub fn cookie<'h>(header: &'h str, name: &str) -> Option<&'h str> {
    header.split(';').find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == name).then_some(v)
    })
}

/// Checks a contestant's name: 1 to 40 characters of printable text, no spaces at either end.
/// Names are shown everywhere (escaped) and name the final's agents.
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if n == 0 || n > 40 {
        return Err(format!("a name has 1 to 40 characters; {name:?} has {n}"));
    }
    if name.trim() != name {
        return Err("a name cannot start or end with a space".into());
    }
    if name.chars().any(|c| c.is_control()) {
        return Err("a name cannot hold control characters".into());
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(check_name("alice").is_ok());
        assert!(check_name("<b>Zoë & co</b>").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name(" alice").is_err());
        assert!(check_name("a\nb").is_err());
        assert!(check_name(&"x".repeat(41)).is_err());
    }
}
