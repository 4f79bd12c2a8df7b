//! The records' digest: SHA-256 computed by `ring`, which must give what any SHA-256 gives, since
//! every published record's `digest` was computed with the `sha2` crate before.

use proptest::prelude::*;
use sha2::{Digest, Sha256};

use crate::record::sha256_hex;

#[test]
fn digest_of_a_published_test_vector() {
    // FIPS 180-2, appendix B.1.
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    // Lengths around the 64-byte block and the 56-byte padding boundary, and longer inputs.
    #[test]
    fn digest_matches_sha2(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let expected: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        prop_assert_eq!(sha256_hex(&bytes), expected);
    }
}
