//! Checks a game's record reader makes of what names a seat or an agent, with the message that
//! says which field is wrong: a seat number must be a seat of the game, and an agent is named by
//! the SHA-256 of its module (64 lower-case hex digits) or `null`.

use super::{fail, VerifyError};

/// `seat`, found in the field `what`, is a seat of a game of `players` seats.
pub fn seat_in(seat: usize, players: usize, what: &str) -> Result<(), String> {
    if seat < players {
        Ok(())
    } else {
        Err(format!(
            "{what}: {seat} is not a seat of this {players}-player game"
        ))
    }
}

/// Every agent of the setup line (line 1), seat by seat, is named by 64 lower-case hex digits, or
/// `null` (`None`).
pub fn agent_hashes<'a>(
    agents: impl IntoIterator<Item = Option<&'a str>>,
) -> Result<(), VerifyError> {
    for (i, hash) in agents.into_iter().enumerate() {
        let Some(hash) = hash else { continue };
        let is_hex =
            hash.len() == 64 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !is_hex {
            return Err(fail(
                1,
                format!(
                    "players[{i}].agent: expected 64 lower-case hex digits or null, found \"{hash}\""
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_beyond_the_game_is_named() {
        assert_eq!(seat_in(1, 2, "seat"), Ok(()));
        assert_eq!(
            seat_in(2, 2, "events[0].seat").unwrap_err(),
            "events[0].seat: 2 is not a seat of this 2-player game"
        );
    }

    #[test]
    fn an_agent_is_a_sha256_or_null() {
        let lower = "ab".repeat(32);
        let upper = "AB".repeat(32);
        assert!(agent_hashes([None, None]).is_ok());
        assert!(agent_hashes([None, Some(&lower[..])]).is_ok());
        assert_eq!(
            agent_hashes([Some(&upper[..]), Some(&lower[..])])
                .unwrap_err()
                .to_string(),
            format!(
                "line 1: players[0].agent: expected 64 lower-case hex digits or null, found \"{}\"",
                "AB".repeat(32)
            )
        );
    }
}
