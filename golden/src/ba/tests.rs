//! Tests of the `ba_tag_array` golden model: the spec's outcome table,
//! replacement and timing, and properties over random stimulus.

use std::collections::HashSet;

use proptest::prelude::*;

use super::*;

const LINE: u64 = 128;

fn params(sets: u64, ways: u64, ba_enable: u64, threshold: Option<u64>) -> BaParams {
    BaParams {
        SETS: sets,
        WAYS: ways,
        LINE_BYTES: LINE,
        ADDR_W: 32,
        BA_ENABLE: ba_enable,
        REUSE_THRESHOLD: threshold,
        BA_POLICY: 0,
    }
}

fn load(addr: u64) -> BaIn {
    BaIn {
        req_valid: true,
        req_addr: addr,
        ..BaIn::default()
    }
}

fn store(addr: u64) -> BaIn {
    BaIn {
        req_write: true,
        ..load(addr)
    }
}

fn idle() -> BaIn {
    BaIn::default()
}

fn flush() -> BaIn {
    BaIn {
        flush: true,
        ..BaIn::default()
    }
}

fn reset() -> BaIn {
    BaIn {
        reset: true,
        ..BaIn::default()
    }
}

/// The expected response: outcome, way and the evicted line address.
fn rsp(outcome: u64, way: u64, evicted: Option<u64>) -> BaOut {
    BaOut {
        rsp_valid: true,
        rsp_outcome: outcome,
        rsp_way: way,
        rsp_evict_valid: evicted.is_some(),
        rsp_evict_addr: evicted.unwrap_or(0),
    }
}

/// One edge with `inputs`; returns the response it decided (on the
/// outputs one edge later: `latency_is_two_cycles` checks that).
fn edge(m: &mut BaModel, inputs: BaIn) -> BaOut {
    m.step(&inputs);
    m.decided()
}

/// Check that the ranks of the valid ways of every set are a
/// permutation of `0..k`, `k` the number of valid ways.
fn ranks_are_permutations(m: &BaModel) -> Result<(), String> {
    for set in 0..m.params().SETS as usize {
        let mut ranks: Vec<u64> = m
            .set_lines(set)
            .iter()
            .filter(|line| line.valid)
            .map(|line| line.rank)
            .collect();
        ranks.sort_unstable();
        let expected: Vec<u64> = (0..ranks.len() as u64).collect();
        if ranks != expected {
            return Err(format!("set {set}: ranks {:?}", m.set_lines(set)));
        }
    }
    Ok(())
}

/// Ranks of the ways of `set` (invalid ways shown as `None`).
fn ranks(m: &BaModel, set: usize) -> Vec<Option<u64>> {
    m.set_lines(set)
        .iter()
        .map(|line| line.valid.then_some(line.rank))
        .collect()
}

/// The spec scenario in set `set` of a `sets`-set cache, WAYS = 2,
/// REUSE_THRESHOLD = 1; with `idle_between` idle cycles after every
/// request (whose outputs must be all 0).
fn run_spec_scenario(sets: u64, set: u64, idle_between: usize) {
    let p = params(sets, 2, 1, Some(1));
    let mut m = BaModel::new(&p);
    // Line addresses of A, B, C, D: tags 5, 6, 7, 9 in set `set`.
    let line_addr = |tag: u64| (tag * sets + set) * LINE;
    let (a, b, c, d) = (line_addr(5), line_addr(6), line_addr(7), line_addr(9));
    // Requests carry a non-zero byte offset; evict addresses must not.
    let offset = 0x24;
    let steps = [
        (a, rsp(outcome::MISS, 0, None)),
        (b, rsp(outcome::MISS, 1, None)),
        (a, rsp(outcome::HIT, 0, None)),
        (c, rsp(outcome::BYPASS, 1, Some(b))),
        (c, rsp(outcome::PSEUDO_HIT, 1, None)),
        (d, rsp(outcome::BYPASS, 0, Some(a))),
        (c, rsp(outcome::HIT, 1, None)),
    ];
    assert_eq!(edge(&mut m, reset()), BaOut::default());
    for (n, (addr, expected)) in steps.iter().enumerate() {
        // The outputs show the response of the request two edges back.
        let shown = (idle_between == 0 && n >= 2) || (idle_between == 1 && n >= 1);
        assert_eq!(m.outputs().rsp_valid, shown);
        assert_eq!(edge(&mut m, load(addr + offset)), *expected, "request {n}");
        ranks_are_permutations(&m).unwrap();
        for _ in 0..idle_between {
            assert_eq!(edge(&mut m, idle()), BaOut::default(), "idle after {n}");
        }
        // Spot checks of the state after some of the steps.
        let s = set as usize;
        match n {
            2 => {
                assert!(m.line(s, 0).reuse, "A reuse=1 after its HIT");
                assert!(!m.line(s, 1).reuse);
                assert_eq!(ranks(&m, s), vec![Some(0), Some(1)]);
            }
            3 => {
                let c_line = m.line(s, 1);
                assert!(c_line.valid && c_line.bypass && !c_line.reuse);
                assert_eq!(c_line.tag, 7);
                assert_eq!(ranks(&m, s), vec![Some(1), Some(0)]);
                assert!(!m.holds_data(c) && m.lookup(c) == Some(1));
            }
            4 => {
                let c_line = m.line(s, 1);
                assert!(c_line.valid && !c_line.bypass && c_line.reuse);
                assert!(m.holds_data(c));
            }
            5 => {
                let d_line = m.line(s, 0);
                assert!(d_line.valid && d_line.bypass && !d_line.reuse);
                assert_eq!(d_line.tag, 9);
                assert_eq!(m.lookup(a), None);
            }
            _ => {}
        }
    }
    // Other sets untouched.
    for other in 0..sets as usize {
        if other != set as usize {
            assert_eq!(m.valid_ways(other), 0);
        }
    }
    assert_eq!(m.valid_lines(), 2);
    assert_eq!(m.data_lines(), 1);
}

#[test]
fn spec_scenario_back_to_back() {
    run_spec_scenario(1, 0, 0);
}

#[test]
fn spec_scenario_spaced() {
    run_spec_scenario(1, 0, 1);
    run_spec_scenario(1, 0, 3);
}

#[test]
fn spec_scenario_in_one_set_of_many() {
    run_spec_scenario(4, 3, 0);
    run_spec_scenario(16, 5, 1);
}

/// Warm-up `A A B B`, then the loop `A B C D E` (5 lines, 4 ways, one
/// set) repeated. After the first pass, plain LRU misses on every access;
/// the bypass-aware policy keeps the reused lines A and B and hits them
/// on every pass, bypassing the streaming lines C, D, E.
///
/// (From reset, with no line reused yet, both policies choose the same
/// victims, so a warm-up with reuse is needed for them to differ; see
/// `ba_matches_lru_until_first_reuse`.)
#[test]
fn lru_thrashes_where_bypass_aware_hits() {
    let addr = |line: u64| line * LINE;
    let (a, b, c, d, e) = (addr(0), addr(1), addr(2), addr(3), addr(4));
    let warm_up = [a, a, b, b];
    let pass = [a, b, c, d, e];

    let run = |ba_enable: u64| -> Vec<Vec<BaOut>> {
        let mut m = BaModel::new(&params(1, 4, ba_enable, None));
        edge(&mut m, reset());
        for &x in &warm_up {
            edge(&mut m, load(x));
        }
        (0..6)
            .map(|_| {
                pass.iter()
                    .map(|&x| {
                        let out = edge(&mut m, load(x));
                        ranks_are_permutations(&m).unwrap();
                        out
                    })
                    .collect()
            })
            .collect()
    };

    let lru = run(0);
    for (n, responses) in lru.iter().enumerate().skip(1) {
        for (k, out) in responses.iter().enumerate() {
            assert_eq!(out.rsp_outcome, outcome::MISS, "LRU pass {n} access {k}");
            // The victim is the LRU line, the one touched 4 accesses ago.
            let victim = pass[(k + 1) % pass.len()];
            assert!(out.rsp_evict_valid);
            assert_eq!(out.rsp_evict_addr, victim);
        }
    }
    // Exact steady state of plain LRU: the ways rotate.
    assert_eq!(lru[2][0], rsp(outcome::MISS, 2, Some(b)));

    let ba = run(1);
    for (n, responses) in ba.iter().enumerate().skip(1) {
        let outcomes: Vec<u64> = responses.iter().map(|o| o.rsp_outcome).collect();
        use outcome::{BYPASS, HIT};
        assert_eq!(outcomes, vec![HIT, HIT, BYPASS, BYPASS, BYPASS], "pass {n}");
        assert_eq!(responses[0].rsp_way, 0);
        assert_eq!(responses[1].rsp_way, 1);
    }
    // First pass: E displaces C (LRU among the reuse=0 ways C, D), then
    // C displaces D; both held data.
    assert_eq!(ba[0][4], rsp(outcome::BYPASS, 2, Some(c)));
    assert_eq!(ba[1][2], rsp(outcome::BYPASS, 3, Some(d)));
    // Later passes only replace bypass tags: nothing is evicted.
    for responses in &ba[2..] {
        assert!(responses.iter().all(|o| !o.rsp_evict_valid));
    }
}

#[test]
fn lru_baseline_replaces_least_recently_used() {
    let mut m = BaModel::new(&params(2, 2, 0, None));
    // Set 1 of 2: line numbers 1, 3, 5 (tags 0, 1, 2).
    let (a, b, c) = (LINE, 3 * LINE, 5 * LINE);
    assert_eq!(edge(&mut m, load(a)), rsp(outcome::MISS, 0, None));
    assert_eq!(edge(&mut m, load(b)), rsp(outcome::MISS, 1, None));
    assert_eq!(edge(&mut m, load(a)), rsp(outcome::HIT, 0, None));
    // B is the LRU.
    assert_eq!(edge(&mut m, load(c)), rsp(outcome::MISS, 1, Some(b)));
    assert_eq!(ranks(&m, 1), vec![Some(1), Some(0)]);
    let c_line = m.line(1, 1);
    assert!(c_line.valid && !c_line.bypass && !c_line.reuse);
    assert_eq!(edge(&mut m, load(b)), rsp(outcome::MISS, 0, Some(a)));
    assert_eq!(m.valid_ways(0), 0);
}

#[test]
fn bypass_victim_choice_follows_threshold() {
    // One set, 4 ways; lines 0..=3 filled, then lines 0 and 1 reused.
    // Ranks afterwards: way1 0, way0 1, way3 2, way2 3; reuse: 1 1 0 0.
    let setup = |threshold: u64| {
        let mut m = BaModel::new(&params(1, 4, 1, Some(threshold)));
        for line in [0, 1, 2, 3, 0, 1] {
            edge(&mut m, load(line * LINE));
        }
        assert_eq!(ranks(&m, 0), vec![Some(1), Some(0), Some(3), Some(2)]);
        m
    };
    // Z = 2 >= 2: LRU among reuse=0 is way 2 (rank 3).
    let mut m = setup(2);
    assert_eq!(
        edge(&mut m, load(8 * LINE)),
        rsp(outcome::BYPASS, 2, Some(2 * LINE))
    );
    assert_eq!(ranks(&m, 0), vec![Some(2), Some(1), Some(0), Some(3)]);
    // Z = 2 < 3: LRU among reuse=1 is way 0 (rank 1).
    let mut m = setup(3);
    assert_eq!(
        edge(&mut m, load(8 * LINE)),
        rsp(outcome::BYPASS, 0, Some(0))
    );
    assert_eq!(ranks(&m, 0), vec![Some(0), Some(1), Some(3), Some(2)]);
    // Threshold 0, Z = 2 > 0: LRU among reuse=0.
    let mut m = setup(0);
    assert_eq!(
        edge(&mut m, load(8 * LINE)),
        rsp(outcome::BYPASS, 2, Some(2 * LINE))
    );

    // Threshold 0 and Z = 0: LRU among reuse=1 (every way).
    let mut m = BaModel::new(&params(1, 2, 1, Some(0)));
    for line in [0, 1, 0, 1] {
        edge(&mut m, load(line * LINE));
    }
    assert_eq!(
        edge(&mut m, load(4 * LINE)),
        rsp(outcome::BYPASS, 0, Some(0))
    );
    // A bypass victim held no data: nothing evicted. Z = 1 >= 0: LRU
    // among reuse=0 is the bypass tag of line 4 in way 0.
    assert_eq!(edge(&mut m, load(6 * LINE)), rsp(outcome::BYPASS, 0, None));
}

fn prefetch(addr: u64) -> BaIn {
    BaIn {
        req_prefetch: true,
        ..load(addr)
    }
}

/// The prefetch-fill rules P1 to P4 of the unit document, on one 4-way
/// set whose lines 0 and 1 were reused (threshold 2).
#[test]
fn prefetch_fills_allocate_and_do_not_mark_reuse() {
    let mut m = BaModel::new(&params(1, 4, 1, Some(2)));
    for line in [0, 1, 2, 3, 0, 1] {
        edge(&mut m, load(line * LINE));
    }
    // Ranks: way1 0, way0 1, way3 2, way2 3; reuse 1 1 0 0.
    let before = m.set_lines(0).to_vec();
    // P1: a prefetch of a line holding data changes nothing, not even LRU.
    assert_eq!(edge(&mut m, prefetch(2 * LINE)), rsp(outcome::HIT, 2, None));
    assert_eq!(m.set_lines(0), &before[..]);
    // P4: a prefetch in a full set is a MISS over rule 4's victim (Z = 2
    // >= 2: the LRU of the reuse = 0 ways, way 2), which holds data.
    assert_eq!(
        edge(&mut m, prefetch(8 * LINE)),
        rsp(outcome::MISS, 2, Some(2 * LINE))
    );
    let l = m.line(0, 2);
    assert!(l.valid && !l.bypass && !l.reuse && l.rank == 0);
    assert!(m.holds_data(8 * LINE));
    // A demand load of it is a HIT and marks it reused.
    assert_eq!(edge(&mut m, load(8 * LINE)), rsp(outcome::HIT, 2, None));
    assert!(m.line(0, 2).reuse);
    // A load bypasses (Z = 1 < 2: LRU of the reused ways, way 0) ...
    assert_eq!(
        edge(&mut m, load(9 * LINE)),
        rsp(outcome::BYPASS, 0, Some(0))
    );
    assert!(m.line(0, 0).bypass);
    // ... P2: then its prefetch fills the bypass tag without marking reuse.
    assert_eq!(
        edge(&mut m, prefetch(9 * LINE)),
        rsp(outcome::PSEUDO_HIT, 0, None)
    );
    let l = m.line(0, 0);
    assert!(l.valid && !l.bypass && !l.reuse && l.rank == 0);
    // A store ignores the prefetch bit: WRITE_EVICT.
    let st = BaIn {
        req_prefetch: true,
        ..store(9 * LINE)
    };
    assert_eq!(
        edge(&mut m, st),
        rsp(outcome::WRITE_EVICT, 0, Some(9 * LINE))
    );
    // P3: into the invalid way, like a load MISS.
    assert_eq!(
        edge(&mut m, prefetch(12 * LINE)),
        rsp(outcome::MISS, 0, None)
    );
    // With BA_ENABLE = 0 a prefetch miss replaces the least recently used
    // way, as a load miss does.
    let mut m = BaModel::new(&params(1, 2, 0, None));
    edge(&mut m, load(0));
    edge(&mut m, load(LINE));
    assert_eq!(
        edge(&mut m, prefetch(2 * LINE)),
        rsp(outcome::MISS, 0, Some(0))
    );
}

/// The second reading (`BA_POLICY = 1`, rules Q1 to Q4 of the unit
/// document) on one 4-way set, threshold 2.
#[test]
fn second_reading_bypasses_only_a_set_of_reused_lines() {
    let p = BaParams {
        BA_POLICY: 1,
        ..params(1, 4, 1, Some(2))
    };
    let mut m = BaModel::new(&p);
    for line in [0, 1, 2, 3] {
        assert_eq!(edge(&mut m, load(line * LINE)).rsp_outcome, outcome::MISS);
    }
    // Q3: full, Z = 4 >= 2: a MISS over the LRU never-reused way (way 0),
    // where the first reading bypasses.
    assert_eq!(edge(&mut m, load(4 * LINE)), rsp(outcome::MISS, 0, Some(0)));
    assert!(m.holds_data(4 * LINE));
    // Reuse lines 1, 2, 3 and 4: Z = 0.
    for line in [1, 2, 3, 4] {
        assert_eq!(edge(&mut m, load(line * LINE)).rsp_outcome, outcome::HIT);
    }
    // Q4: every line reused: BYPASS over the LRU way (way 1, line 1).
    assert_eq!(
        edge(&mut m, load(5 * LINE)),
        rsp(outcome::BYPASS, 1, Some(LINE))
    );
    assert!(m.line(0, 1).bypass);
    // Z = 1 (the bypass tag) < 2: Q3 misses over the LRU reused way (line
    // 2 in way 2); the bypass tag stays.
    assert_eq!(
        edge(&mut m, load(6 * LINE)),
        rsp(outcome::MISS, 2, Some(2 * LINE))
    );
    // Z = 2 (the bypass tag of line 5, line 6) >= 2: of the two never-reused
    // ways the bypass tag goes first (it holds no data).
    assert_eq!(edge(&mut m, load(7 * LINE)), rsp(outcome::MISS, 1, None));
    assert!(!m.line(0, 1).bypass && m.holds_data(7 * LINE));
    // The first reading on the same start bypasses at once.
    let mut m = BaModel::new(&params(1, 4, 1, Some(2)));
    for line in [0, 1, 2, 3] {
        edge(&mut m, load(line * LINE));
    }
    assert_eq!(edge(&mut m, load(4 * LINE)).rsp_outcome, outcome::BYPASS);
}

#[test]
fn write_evict_clears_line_and_reranks() {
    let mut m = BaModel::new(&params(1, 4, 1, None));
    let (a, b, c, d) = (0x1000, 0x2080, 0x3100, 0x4180);
    for x in [a, b, c] {
        edge(&mut m, load(x));
    }
    assert_eq!(ranks(&m, 0), vec![Some(2), Some(1), Some(0), None]);
    // Store to B (way 1): evicted, with its line address.
    assert_eq!(
        edge(&mut m, store(b + 4)),
        rsp(outcome::WRITE_EVICT, 1, Some(b))
    );
    assert_eq!(m.line(0, 1), LineState::default());
    assert_eq!(ranks(&m, 0), vec![Some(1), None, Some(0), None]);
    // Store to the MRU line C: A moves up to rank 0.
    assert_eq!(
        edge(&mut m, store(c)),
        rsp(outcome::WRITE_EVICT, 2, Some(c))
    );
    assert_eq!(ranks(&m, 0), vec![Some(0), None, None, None]);
    // A load of B fills the lowest invalid way again.
    assert_eq!(edge(&mut m, load(b)), rsp(outcome::MISS, 1, None));
    assert_eq!(ranks(&m, 0), vec![Some(1), Some(0), None, None]);

    // Store to a bypass tag: WRITE_EVICT, nothing held data.
    for x in [c, d] {
        edge(&mut m, load(x));
    }
    assert_eq!(m.valid_ways(0), 4);
    let e = 0x5000;
    let bypass = edge(&mut m, load(e));
    assert_eq!(bypass.rsp_outcome, outcome::BYPASS);
    let way = bypass.rsp_way;
    assert_eq!(edge(&mut m, store(e)), rsp(outcome::WRITE_EVICT, way, None));
    assert!(!m.line(0, way as usize).valid);
    assert_eq!(m.valid_ways(0), 3);
    ranks_are_permutations(&m).unwrap();
}

#[test]
fn write_miss_changes_nothing() {
    let mut m = BaModel::new(&params(2, 2, 1, None));
    for x in [0, 2 * LINE, LINE, 0] {
        edge(&mut m, load(x));
    }
    let before = m.sets.clone();
    // Absent line in a partly filled set, and in a full set.
    assert_eq!(
        edge(&mut m, store(3 * LINE)),
        rsp(outcome::WRITE_MISS, 0, None)
    );
    assert_eq!(
        edge(&mut m, store(4 * LINE)),
        rsp(outcome::WRITE_MISS, 0, None)
    );
    assert_eq!(m.sets, before);
}

#[test]
fn flush_alone_invalidates_everything_without_response() {
    let mut m = BaModel::new(&params(4, 2, 1, None));
    for line in 0..8 {
        edge(&mut m, load(line * LINE));
    }
    edge(&mut m, load(0));
    assert_eq!(m.valid_lines(), 8);
    // The flush cycle still shows a response (registered, two edges back),
    // and the edge of the flush shows the last one.
    assert_eq!(m.outputs(), rsp(outcome::MISS, 1, None));
    assert_eq!(edge(&mut m, flush()), BaOut::default());
    assert_eq!(m.outputs(), rsp(outcome::HIT, 0, None));
    assert_eq!(m.valid_lines(), 0);
    for set in 0..4 {
        for way in 0..2 {
            assert_eq!(m.line(set, way), LineState::default());
        }
    }
    assert_eq!(edge(&mut m, load(0)), rsp(outcome::MISS, 0, None));
}

#[test]
fn flush_with_request_flushes_first() {
    let mut m = BaModel::new(&params(1, 2, 1, None));
    let (a, b) = (0, LINE);
    edge(&mut m, load(a));
    edge(&mut m, load(b));
    // B was in way 1; after the flush it is a MISS into way 0.
    let flush_load = BaIn {
        flush: true,
        ..load(b)
    };
    assert_eq!(edge(&mut m, flush_load), rsp(outcome::MISS, 0, None));
    assert_eq!(m.valid_lines(), 1);
    assert_eq!(m.lookup(b), Some(0));
    assert_eq!(m.lookup(a), None);
    // A store with a flush always misses.
    let flush_store = BaIn {
        flush: true,
        ..store(b)
    };
    assert_eq!(edge(&mut m, flush_store), rsp(outcome::WRITE_MISS, 0, None));
    assert_eq!(m.valid_lines(), 0);
}

#[test]
fn reset_in_the_middle() {
    let mut m = BaModel::new(&params(2, 2, 1, None));
    for line in [0, 1, 2, 3, 0] {
        edge(&mut m, load(line * LINE));
    }
    assert_eq!(m.valid_lines(), 4);
    // Reset with a request and a flush: both ignored, and the response of
    // the last request (still waiting in the model) is dropped.
    assert_eq!(m.decided(), rsp(outcome::HIT, 0, None));
    let reset_everything = BaIn {
        reset: true,
        flush: true,
        ..load(5 * LINE)
    };
    assert_eq!(edge(&mut m, reset_everything), BaOut::default());
    assert_eq!(m.valid_lines(), 0);
    for set in 0..2 {
        for way in 0..2 {
            assert_eq!(m.line(set, way), LineState::default());
        }
    }
    // Several reset cycles, then everything starts again from empty.
    assert_eq!(edge(&mut m, reset()), BaOut::default());
    assert_eq!(edge(&mut m, load(5 * LINE)), rsp(outcome::MISS, 0, None));
    assert_eq!(edge(&mut m, load(LINE)), rsp(outcome::MISS, 1, None));
    assert_eq!(edge(&mut m, load(5 * LINE)), rsp(outcome::HIT, 0, None));
    // Reset right after a request: its response is dropped.
    assert_eq!(edge(&mut m, reset()), BaOut::default());
    assert_eq!(m.outputs(), BaOut::default());
    assert_eq!(edge(&mut m, idle()), BaOut::default());
}

#[test]
fn address_bits_above_addr_w_are_ignored() {
    let p = BaParams {
        SETS: 4,
        WAYS: 2,
        LINE_BYTES: 16,
        ADDR_W: 12,
        BA_ENABLE: 1,
        REUSE_THRESHOLD: None,
        BA_POLICY: 0,
    };
    let mut m = BaModel::new(&p);
    // 0xabc: offset 0xc, set 3, tag 0x2a (6 bits).
    assert_eq!(m.set_and_tag(0xabc), (3, 0x2a));
    assert_eq!(m.set_and_tag(0xffff_fabc), (3, 0x2a));
    assert_eq!(m.line_addr(3, 0x2a), 0xab0);
    assert_eq!(edge(&mut m, load(0x5_5abc)), rsp(outcome::MISS, 0, None));
    assert_eq!(edge(&mut m, load(0xab0)), rsp(outcome::HIT, 0, None));
    edge(&mut m, load(0xfb0));
    assert_eq!(
        edge(&mut m, load(0x1_0070)),
        rsp(outcome::BYPASS, 1, Some(0xfb0))
    );
    assert_eq!(
        edge(&mut m, store(u64::MAX << 12 | 0xab5)),
        rsp(outcome::WRITE_EVICT, 0, Some(0xab0))
    );
}

#[test]
fn full_width_addresses() {
    let p = BaParams {
        ADDR_W: 64,
        ..BaParams::default()
    };
    let mut m = BaModel::new(&p);
    let high = 0xffff_ffff_ffff_ff80; // set 15, largest tag
    assert_eq!(edge(&mut m, load(high + 0x7f)), rsp(outcome::MISS, 0, None));
    assert_eq!(m.line(15, 0).tag, (1 << 53) - 1);
    assert_eq!(
        edge(&mut m, store(high)),
        rsp(outcome::WRITE_EVICT, 0, Some(high))
    );
}

#[test]
fn single_way_cache() {
    let mut m = BaModel::new(&params(1, 1, 1, None));
    assert_eq!(edge(&mut m, load(0)), rsp(outcome::MISS, 0, None));
    // REUSE_THRESHOLD = 0, Z = 1 > 0: the only way is the victim.
    assert_eq!(edge(&mut m, load(LINE)), rsp(outcome::BYPASS, 0, Some(0)));
    assert_eq!(edge(&mut m, load(LINE)), rsp(outcome::PSEUDO_HIT, 0, None));
    assert_eq!(edge(&mut m, load(LINE)), rsp(outcome::HIT, 0, None));
    // Z = 0: LRU among reuse=1, the same way.
    assert_eq!(edge(&mut m, load(0)), rsp(outcome::BYPASS, 0, Some(LINE)));
}

#[test]
#[should_panic(expected = "WAYS")]
fn rejects_invalid_params() {
    let _ = BaModel::new(&params(1, 3, 1, None));
}

// ----- property tests -----

/// A small configuration: few tags so that hits are frequent.
fn small_params() -> impl Strategy<Value = BaParams> {
    (
        0u32..3,
        0u32..4,
        0u32..3,
        0u32..4,
        0u64..2,
        any::<Option<u8>>(),
        0u64..2,
    )
        .prop_map(
            |(set_bits, way_bits, line_choice, tag_choice, ba_enable, threshold, policy)| {
                let line_bits = [2, 4, 7][line_choice as usize];
                let ways = 1u64 << way_bits;
                // Mostly the narrowest address allowed (at least 8 bits), so
                // that addresses wrap; sometimes a 32-bit address.
                let addr_w = match tag_choice {
                    3 => 32,
                    tag_bits => (line_bits + set_bits + tag_bits + 1).max(8),
                };
                BaParams {
                    SETS: 1 << set_bits,
                    WAYS: ways,
                    LINE_BYTES: 1 << line_bits,
                    ADDR_W: addr_w as u64,
                    BA_ENABLE: ba_enable,
                    REUSE_THRESHOLD: threshold.map(|t| t as u64 % (ways + 1)),
                    BA_POLICY: policy,
                }
            },
        )
}

/// One cycle of stimulus, in terms independent of the configuration.
#[derive(Clone, Debug)]
struct Cycle {
    reset: bool,
    flush: bool,
    req_valid: bool,
    write: bool,
    /// `req_prefetch` (also on stores, where it must be ignored).
    prefetch: bool,
    /// Line number (wrapped to the configuration's line count x 4).
    line: u64,
    /// Byte offset within the line, and bits above ADDR_W.
    noise: u64,
}

fn cycles(max_len: usize) -> impl Strategy<Value = Vec<Cycle>> {
    let cycle = (
        0u8..100,
        0u8..100,
        0u8..100,
        0u8..100,
        0u8..100,
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(|(r, f, v, w, pf, line, noise)| Cycle {
            reset: r < 2,
            flush: f < 3,
            req_valid: v < 80,
            write: w < 25,
            prefetch: pf < 25,
            line,
            noise,
        });
    proptest::collection::vec(cycle, 1..max_len)
}

fn to_inputs(p: &BaParams, c: &Cycle) -> BaIn {
    let addr_mask = mask(p.ADDR_W as u32);
    let line = c.line % (p.lines() * 4);
    let offset = c.noise % p.LINE_BYTES;
    let above = c.noise & !addr_mask;
    BaIn {
        reset: c.reset,
        req_valid: c.req_valid,
        req_addr: ((line * p.LINE_BYTES + offset) & addr_mask) | above,
        req_write: c.write,
        req_prefetch: c.prefetch,
        req_resv: 0,
        flush: c.flush,
    }
}

/// Run `stimulus` from reset, checking the invariants after every edge
/// against a shadow set of the lines holding data, kept from the
/// responses alone.
fn check_invariants(p: &BaParams, stimulus: &[Cycle]) -> Result<(), TestCaseError> {
    let mut m = BaModel::new(p);
    let addr_mask = mask(p.ADDR_W as u32);
    let mut resident: HashSet<u64> = HashSet::new();
    m.step(&reset());
    prop_assert_eq!(m.outputs(), BaOut::default());
    // What the previous edge decided: the outputs after this edge.
    let mut waiting = BaOut::default();
    for (cycle, c) in stimulus.iter().enumerate() {
        let inputs = to_inputs(p, c);
        let set_before = m.set_lines(m.set_and_tag(inputs.req_addr).0).to_vec();
        // The line of the request before the edge (for the prefetch rules).
        let before = m.lookup(inputs.req_addr).map(|way| {
            let (set, _) = m.set_and_tag(inputs.req_addr);
            m.line(set, way)
        });
        m.step(&inputs);
        // Latency: the outputs show the previous edge's decision (none
        // across a reset).
        let shown = if inputs.reset {
            BaOut::default()
        } else {
            waiting
        };
        prop_assert_eq!(m.outputs(), shown, "cycle {}", cycle);
        let out = m.decided();
        waiting = out;
        let ctx = format!("cycle {cycle}, inputs {inputs:?}, outputs {out:?}");

        prop_assert!(ranks_are_permutations(&m).is_ok(), "{}", ctx);
        prop_assert!(m.valid_lines() as u64 <= p.lines(), "{}", ctx);
        prop_assert_eq!(out.rsp_valid, inputs.req_valid && !inputs.reset, "{}", ctx);
        if !out.rsp_valid {
            prop_assert_eq!(out, BaOut::default(), "{}", ctx);
        }
        prop_assert!(out.rsp_outcome <= outcome::WRITE_MISS, "{}", ctx);
        prop_assert!(out.rsp_way < p.WAYS, "{}", ctx);
        if p.BA_ENABLE == 0 {
            prop_assert!(out.rsp_outcome != outcome::BYPASS, "{}", ctx);
            prop_assert!(out.rsp_outcome != outcome::PSEUDO_HIT, "{}", ctx);
            prop_assert!(m.sets.iter().flatten().all(|l| !l.bypass), "{}", ctx);
        }
        if out.rsp_evict_valid {
            prop_assert_eq!(out.rsp_evict_addr & !addr_mask, 0, "{}", ctx);
            prop_assert_eq!(out.rsp_evict_addr % p.LINE_BYTES, 0, "{}", ctx);
        } else {
            prop_assert_eq!(out.rsp_evict_addr, 0, "{}", ctx);
        }

        // The second reading: a load bypasses only a full set whose every
        // line was reused (rule Q4), and the oldest never-reused way of a
        // set is a bypass tag whenever the set has one (why Q3 needs no
        // preference for bypass tags).
        if p.BA_POLICY == 1 && p.BA_ENABLE == 1 {
            if out.rsp_outcome == outcome::BYPASS && !inputs.flush {
                prop_assert!(set_before.iter().all(|l| l.valid && l.reuse), "{}", ctx);
            }
            for set in 0..p.SETS as usize {
                let lines = m.set_lines(set);
                if lines.iter().any(|l| l.valid && l.bypass) {
                    let oldest = lines
                        .iter()
                        .filter(|l| l.valid && !l.reuse)
                        .max_by_key(|l| l.rank)
                        .unwrap();
                    prop_assert!(oldest.bypass, "{} set {}: {:?}", ctx, set, lines);
                }
            }
        }

        // Prefetch fills: never a bypass, the line holds data afterwards,
        // and its reuse bit is the one it had (0 for a new line).
        if out.rsp_valid && inputs.req_prefetch && !inputs.req_write {
            prop_assert!(out.rsp_outcome != outcome::BYPASS, "{}", ctx);
            prop_assert!(m.holds_data(inputs.req_addr), "{}", ctx);
            let (set, _) = m.set_and_tag(inputs.req_addr);
            let after = m.line(set, m.lookup(inputs.req_addr).unwrap());
            let was_flushed = inputs.flush;
            match before.filter(|_| !was_flushed) {
                Some(b) => {
                    prop_assert_eq!(after.reuse, b.reuse, "{}", ctx);
                    if !b.bypass {
                        prop_assert_eq!(after, b, "{}: P1 changes nothing", ctx);
                    }
                }
                None => prop_assert!(!after.reuse, "{}", ctx),
            }
        }

        // Shadow of the lines holding data.
        if inputs.reset || inputs.flush {
            resident.clear();
        }
        if out.rsp_valid {
            let line = inputs.req_addr & addr_mask & !(p.LINE_BYTES - 1);
            if out.rsp_evict_valid {
                prop_assert!(resident.remove(&out.rsp_evict_addr), "{}", ctx);
            }
            match out.rsp_outcome {
                outcome::HIT => {
                    // Filled earlier and not evicted since.
                    prop_assert!(resident.contains(&line), "{}", ctx);
                }
                outcome::MISS | outcome::PSEUDO_HIT => {
                    prop_assert!(resident.insert(line), "{}", ctx);
                }
                outcome::WRITE_EVICT if out.rsp_evict_valid => {
                    prop_assert_eq!(out.rsp_evict_addr, line, "{}", ctx);
                }
                _ => prop_assert!(!resident.contains(&line), "{}", ctx),
            }
        }
        prop_assert_eq!(m.data_lines(), resident.len(), "{}", ctx);
        for &line in &resident {
            prop_assert!(m.holds_data(line), "{} line {:#x}", ctx, line);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Ranks stay permutations, a HIT always follows an earlier fill of
    /// the same line with no eviction in between, the array never holds
    /// more than SETS * WAYS lines, and idle outputs are all 0.
    #[test]
    fn invariants_hold_on_random_stimulus(p in small_params(), stimulus in cycles(400)) {
        check_invariants(&p, &stimulus)?;
    }

    /// Until some line is reused (HIT or PSEUDO_HIT), the bypass-aware
    /// policy picks the same ways as plain LRU and holds the same tags:
    /// BYPASS exactly where LRU replaces its victim.
    #[test]
    fn ba_matches_lru_until_first_reuse(p in small_params(), stimulus in cycles(200)) {
        let lru_params = BaParams { BA_ENABLE: 0, ..p.clone() };
        let ba_params = BaParams { BA_ENABLE: 1, ..p };
        let mut lru = BaModel::new(&lru_params);
        let mut ba = BaModel::new(&ba_params);
        for c in &stimulus {
            let inputs = BaIn { reset: false, flush: false, ..to_inputs(&ba_params, c) };
            let (set, _) = lru.set_and_tag(inputs.req_addr);
            let set_was_full = lru.valid_ways(set) == lru_params.WAYS as usize;
            let lru_out = edge(&mut lru, inputs);
            let ba_out = edge(&mut ba, inputs);
            prop_assert_eq!(lru_out.rsp_valid, ba_out.rsp_valid);
            prop_assert_eq!(lru_out.rsp_way, ba_out.rsp_way);
            if lru_out.rsp_outcome == outcome::HIT {
                prop_assert!(
                    ba_out.rsp_outcome == outcome::HIT
                        || ba_out.rsp_outcome == outcome::PSEUDO_HIT
                );
                break;
            }
            let expected_ba_outcome = match lru_out.rsp_outcome {
                // The second reading misses while a line was never reused.
                outcome::MISS if set_was_full && !inputs.req_prefetch && ba_params.BA_POLICY == 0 => {
                    outcome::BYPASS
                }
                other => other,
            };
            prop_assert_eq!(ba_out.rsp_outcome, expected_ba_outcome);
            // BA may displace a bypass tag where LRU displaces data; a
            // line BA reports as evicted is also evicted by LRU.
            if ba_out.rsp_evict_valid {
                prop_assert!(lru_out.rsp_evict_valid);
                prop_assert_eq!(lru_out.rsp_evict_addr, ba_out.rsp_evict_addr);
            }
            for set in 0..lru_params.SETS as usize {
                for way in 0..lru_params.WAYS as usize {
                    let (l, b) = (lru.line(set, way), ba.line(set, way));
                    prop_assert_eq!((l.valid, l.tag, l.rank), (b.valid, b.tag, b.rank));
                }
            }
        }
    }
}

/// The latency table of `docs/units/ba_tag_array.md`: a request accepted
/// at edge t answers during the cycle after edge t + 1, back-to-back
/// requests to one set each see the one before, and a reset at edge t + 1
/// drops the answer.
#[test]
fn latency_is_two_cycles() {
    let mut m = BaModel::new(&params(1, 2, 1, None));
    m.step(&reset());
    m.step(&load(0));
    assert_eq!(m.outputs(), BaOut::default(), "not in the cycle after t");
    m.step(&load(0));
    assert_eq!(m.outputs(), rsp(outcome::MISS, 0, None), "after t + 1");
    m.step(&idle());
    assert_eq!(
        m.outputs(),
        rsp(outcome::HIT, 0, None),
        "saw the MISS before it"
    );
    m.step(&idle());
    assert_eq!(m.outputs(), BaOut::default());
    m.step(&load(LINE));
    m.step(&reset());
    assert_eq!(m.outputs(), BaOut::default(), "dropped by the reset");
    m.step(&idle());
    assert_eq!(m.outputs(), BaOut::default());
}
