//! A cell's code in the arena: a module's bytes with their SHA-256, shared by every copy.

use std::fmt;
use std::sync::Arc;

use crate::sandbox::{digest, Digest};

/// A module's bytes and digest. Cloning shares them.
#[derive(Clone, PartialEq, Eq)]
pub struct Snippet {
    bytes: Arc<[u8]>,
    digest: Digest,
}

impl Snippet {
    pub fn new(bytes: impl Into<Arc<[u8]>>) -> Snippet {
        let bytes = bytes.into();
        let digest = digest(&bytes);
        Snippet { bytes, digest }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn digest(&self) -> &Digest {
        &self.digest
    }

    /// The digest as 64 lower-case hex digits (records).
    pub fn hash(&self) -> String {
        hex::encode(self.digest)
    }
}

impl AsRef<[u8]> for Snippet {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl fmt::Debug for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Snippet({} bytes, {})",
            self.bytes.len(),
            &self.hash()[..12]
        )
    }
}
