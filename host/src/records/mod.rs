//! Game records: JSON Lines writing, reading and verification.
