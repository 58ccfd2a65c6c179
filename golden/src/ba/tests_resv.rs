//! Tests of the reservation rules of the `ba_tag_array` golden model
//! (`req_resv`, issue 27; the unit document's section "Reservation"): one
//! test per rule, then a property over random reserved masks.

use proptest::prelude::*;

use super::*;

const LINE: u64 = 128;

/// One set of four ways.
fn params(ba_enable: u64, threshold: Option<u64>, policy: u64) -> BaParams {
    BaParams {
        SETS: 1,
        WAYS: 4,
        LINE_BYTES: LINE,
        ADDR_W: 32,
        BA_ENABLE: ba_enable,
        REUSE_THRESHOLD: threshold,
        BA_POLICY: policy,
    }
}

fn load(line: u64, resv: u64) -> BaIn {
    BaIn {
        req_valid: true,
        req_addr: line * LINE,
        req_resv: resv,
        ..BaIn::default()
    }
}

fn prefetch(line: u64, resv: u64) -> BaIn {
    BaIn {
        req_prefetch: true,
        ..load(line, resv)
    }
}

fn store(line: u64, resv: u64) -> BaIn {
    BaIn {
        req_write: true,
        ..load(line, resv)
    }
}

fn rsp(outcome: u64, way: u64, evicted_line: Option<u64>) -> BaOut {
    BaOut {
        rsp_valid: true,
        rsp_outcome: outcome,
        rsp_way: way,
        rsp_evict_valid: evicted_line.is_some(),
        rsp_evict_addr: evicted_line.map_or(0, |l| l * LINE),
    }
}

fn edge(m: &mut BaModel, inputs: BaIn) -> BaOut {
    m.step(&inputs);
    m.decided()
}

/// Lines 0..3 fill ways 0..3, then lines 0 and 1 are hit: reuse 1 1 0 0,
/// ranks (way order) 1 0 3 2.
fn filled(p: &BaParams) -> BaModel {
    let mut m = BaModel::new(p);
    for line in [0, 1, 2, 3, 0, 1] {
        edge(&mut m, load(line, 0));
    }
    m
}

#[test]
fn present_tag_ignores_reservation() {
    let mut m = filled(&params(1, Some(2), 0));
    // A load of a reserved line merges with it: HIT, reuse set, MRU.
    assert_eq!(edge(&mut m, load(2, 0b1111)), rsp(outcome::HIT, 2, None));
    assert!(m.line(0, 2).reuse && m.line(0, 2).rank == 0);
    // A prefetch of a reserved line holding data: HIT, nothing changes.
    let before = m.set_lines(0).to_vec();
    assert_eq!(
        edge(&mut m, prefetch(3, 0b1111)),
        rsp(outcome::HIT, 3, None)
    );
    assert_eq!(m.set_lines(0), &before[..]);
}

/// A store to a reserved line is a write miss (GPGPU-Sim: only a HIT
/// takes the write-hit path): the line in flight stays; an unreserved line
/// is write-evicted as before.
#[test]
fn a_store_to_a_reserved_line_is_a_write_miss() {
    let mut m = filled(&params(1, Some(2), 0));
    let before = m.set_lines(0).to_vec();
    assert_eq!(
        edge(&mut m, store(2, 0b0100)),
        rsp(outcome::WRITE_MISS, 0, None)
    );
    assert_eq!(m.set_lines(0), &before[..]);
    assert_eq!(
        edge(&mut m, store(2, 0b1011)),
        rsp(outcome::WRITE_EVICT, 2, Some(2))
    );
    assert!(!m.line(0, 2).valid);
    assert_eq!(
        edge(&mut m, store(9, 0b1111)),
        rsp(outcome::WRITE_MISS, 0, None)
    );
}

#[test]
fn a_reserved_invalid_way_is_not_filled() {
    // Inconsistent input (an invalid way is never reserved), masked anyway.
    for ba in [0, 1] {
        let mut m = BaModel::new(&params(ba, None, 0));
        assert_eq!(edge(&mut m, load(0, 0b0011)), rsp(outcome::MISS, 2, None));
        // Ways 0, 1, 3 invalid, all reserved, way 2 valid and reserved: no
        // way is free. LRU must allocate: RESV_FAIL; BA bypasses.
        let before = m.set_lines(0).to_vec();
        let want = if ba == 0 {
            outcome::RESV_FAIL
        } else {
            outcome::BYPASS
        };
        assert_eq!(edge(&mut m, load(5, 0b1111)), rsp(want, 0, None));
        assert_eq!(m.set_lines(0), &before[..]);
    }
}

#[test]
fn lru_skips_reserved_victims_and_fails_when_all_are_reserved() {
    let mut m = BaModel::new(&params(0, None, 0));
    for line in 0..4 {
        edge(&mut m, load(line, 0));
    }
    // Ranks 3 2 1 0: the LRU way 0 is reserved, way 1 is next.
    assert_eq!(
        edge(&mut m, load(4, 0b0001)),
        rsp(outcome::MISS, 1, Some(1))
    );
    let before = m.set_lines(0).to_vec();
    assert_eq!(
        edge(&mut m, load(5, 0b1111)),
        rsp(outcome::RESV_FAIL, 0, None)
    );
    assert_eq!(m.set_lines(0), &before[..]);
    // A prefetch fill into the fully reserved set: the same.
    assert_eq!(
        edge(&mut m, prefetch(5, 0b1111)),
        rsp(outcome::RESV_FAIL, 0, None)
    );
    assert_eq!(m.set_lines(0), &before[..]);
    // Released again: the LRU way 0 is the victim.
    assert_eq!(edge(&mut m, load(5, 0)), rsp(outcome::MISS, 0, Some(0)));
}

#[test]
fn bypass_victim_skips_reserved_ways() {
    // Threshold 1: Z = 2 >= 1 picks the LRU never-reused way, way 2 ...
    let p = params(1, Some(1), 0);
    let mut m = filled(&p);
    assert_eq!(edge(&mut m, load(8, 0)), rsp(outcome::BYPASS, 2, Some(2)));
    // ... and with way 2 reserved, way 3 (Z = 1 >= 1).
    let mut m = filled(&p);
    assert_eq!(
        edge(&mut m, load(8, 0b0100)),
        rsp(outcome::BYPASS, 3, Some(3))
    );
    assert!(m.line(0, 3).bypass);
    assert!(m.line(0, 2).valid && m.line(0, 2).tag == 2);
}

#[test]
fn threshold_counts_only_ways_not_reserved() {
    // Threshold 2: unreserved, Z = 2 >= 2 takes way 2 (never reused); with
    // way 2 reserved, Z = 1 < 2 and the victim is the LRU reused way, 0.
    let p = params(1, Some(2), 0);
    let mut m = filled(&p);
    assert_eq!(edge(&mut m, load(8, 0)), rsp(outcome::BYPASS, 2, Some(2)));
    let mut m = filled(&p);
    assert_eq!(
        edge(&mut m, load(8, 0b0100)),
        rsp(outcome::BYPASS, 0, Some(0))
    );
}

#[test]
fn bypass_needs_no_way() {
    let mut m = filled(&params(1, Some(2), 0));
    let before = m.set_lines(0).to_vec();
    assert_eq!(edge(&mut m, load(8, 0b1111)), rsp(outcome::BYPASS, 0, None));
    assert_eq!(m.set_lines(0), &before[..]);
    assert_eq!(m.lookup(8 * LINE), None);
}

#[test]
fn prefetch_skips_reserved_victims_and_is_dropped_when_all_are_reserved() {
    let mut m = filled(&params(1, Some(1), 0));
    assert_eq!(
        edge(&mut m, prefetch(8, 0b0100)),
        rsp(outcome::MISS, 3, Some(3))
    );
    assert!(m.holds_data(8 * LINE));
    let before = m.set_lines(0).to_vec();
    assert_eq!(
        edge(&mut m, prefetch(9, 0b1111)),
        rsp(outcome::RESV_FAIL, 0, None)
    );
    assert_eq!(m.set_lines(0), &before[..]);
}

#[test]
fn second_reading_counts_only_ways_not_reserved() {
    let p = params(1, Some(2), 1);
    // Unreserved: Z = 2 > 0, a MISS over way 2.
    let mut m = filled(&p);
    assert_eq!(edge(&mut m, load(8, 0)), rsp(outcome::MISS, 2, Some(2)));
    // The never-reused ways reserved: nothing free to replace, BYPASS over
    // the LRU reused way.
    let mut m = filled(&p);
    assert_eq!(
        edge(&mut m, load(8, 0b1100)),
        rsp(outcome::BYPASS, 0, Some(0))
    );
    // Every way reserved: Z = 0, BYPASS with nothing stored.
    let mut m = filled(&p);
    let before = m.set_lines(0).to_vec();
    assert_eq!(edge(&mut m, load(8, 0b1111)), rsp(outcome::BYPASS, 0, None));
    assert_eq!(m.set_lines(0), &before[..]);
}

/// One random request: (line 0..7, kind 0 load / 1 prefetch / 2 store,
/// reserved mask).
fn request() -> impl Strategy<Value = (u64, u8, u64)> {
    (0u64..7, 0u8..3, 0u64..16)
}

proptest! {
    /// Whatever the masks: a reserved way's line is never replaced by a
    /// load or prefetch of an absent tag, RESV_FAIL and a way-less BYPASS
    /// change nothing, and RESV_FAIL happens only when every way is
    /// reserved.
    #[test]
    fn reserved_lines_are_never_replaced(
        mode in 0u64..3,
        reqs in proptest::collection::vec(request(), 1..60),
    ) {
        let p = params((mode > 0) as u64, None, (mode == 2) as u64);
        let mut m = BaModel::new(&p);
        for (line, kind, resv) in reqs {
            let inputs = match kind {
                0 => load(line, resv),
                1 => prefetch(line, resv),
                _ => store(line, resv),
            };
            let before = m.set_lines(0).to_vec();
            let absent = m.lookup(line * LINE).is_none();
            let out = edge(&mut m, inputs);
            let after = m.set_lines(0);
            if out.rsp_outcome == outcome::RESV_FAIL {
                prop_assert_eq!(resv, 0b1111);
                prop_assert!(kind < 2 && absent);
                prop_assert_eq!(out, rsp(outcome::RESV_FAIL, 0, None));
                prop_assert_eq!(after, &before[..]);
            }
            if kind < 2 && absent {
                for way in 0..4 {
                    if (resv >> way) & 1 == 1 {
                        prop_assert_eq!(after[way].valid, before[way].valid);
                        prop_assert_eq!(after[way].tag, before[way].tag);
                        prop_assert_eq!(after[way].bypass, before[way].bypass);
                    }
                }
                if resv == 0b1111 && out.rsp_outcome == outcome::BYPASS {
                    prop_assert_eq!(out, rsp(outcome::BYPASS, 0, None));
                    prop_assert_eq!(after, &before[..]);
                }
            }
        }
    }
}
