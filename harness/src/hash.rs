//! The harness's hashing: a fast, deterministic hasher for line addresses
//! ([`FxBuild`] for `HashMap`s and `HashSet`s keyed by line), used by the
//! SM, the L1 tag arrays and the reuse profile.

use std::hash::{BuildHasherDefault, Hasher};

/// A fast, deterministic hasher for line addresses.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Builder of [`FxHasher`]s.
pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
