//! Bit-width arithmetic shared by every unit (`conventions.md`).

/// Number of bits needed to index `n` items, minimum 1 (`conventions.md`).
pub fn clog2(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// Exact base-2 logarithm of a power of two (0 for 1).
pub fn log2_exact(n: u64) -> u32 {
    debug_assert!(n.is_power_of_two());
    n.trailing_zeros()
}

/// Mask of the low `width` bits.
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clog2_matches_conventions() {
        assert_eq!(clog2(1), 1);
        assert_eq!(clog2(2), 1);
        assert_eq!(clog2(3), 2);
        assert_eq!(clog2(8), 3);
        assert_eq!(clog2(9), 4);
        assert_eq!(clog2(48), 6);
    }

    #[test]
    fn mask_widths() {
        assert_eq!(mask(1), 1);
        assert_eq!(mask(32), 0xffff_ffff);
        assert_eq!(mask(64), u64::MAX);
    }
}
