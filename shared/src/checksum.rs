//! FNV-1a, 64 bits: the checksum at the end of every binary file the crate writes (network
//! weights, pattern weights, the trainer's checkpoints). Not cryptographic: it catches a
//! damaged or truncated file, not a forged one.

/// The FNV-1a 64-bit hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn published_test_vectors() {
        // From the FNV reference (Fowler, Noll, Vo): the empty string and "a".
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
