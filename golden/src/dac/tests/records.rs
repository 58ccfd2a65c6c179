//! Address records: granularities, offsets, 2-D blocks, slots, memory
//! requests.

use super::bench::*;
use crate::dac::*;

// ----- address records -----

#[test]
fn byte_granularity_uses_32_byte_regions() {
    let t = addr_tuple(kind::ADDR, 0x1000, 1, gran::BYTE);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1000, 0xFFFF_FFFF, gran::BYTE, true)]
    );
    // Misaligned by 16: two regions.
    let t = addr_tuple(kind::ADDR, 0x1010, 1, gran::BYTE);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![
            rec(0x1000, 0xFFFF_0000, gran::BYTE, false),
            rec(0x1020, 0x0000_FFFF, gran::BYTE, true),
        ]
    );
    // Four bytes per thread: eight lanes per region, every fourth chunk.
    let t = addr_tuple(kind::ADDR, 0x1000, 4, gran::BYTE);
    let got = &expand_1d(&t, 32).got_addr[0];
    assert_eq!(got.len(), 4);
    for (i, r) in got.iter().enumerate() {
        assert_eq!(
            *r,
            rec(0x1000 + 32 * i as u32, 0x1111_1111, gran::BYTE, i == 3)
        );
    }
}

#[test]
fn half_word_granularity_uses_64_byte_regions() {
    let t = addr_tuple(kind::ADDR, 0x1000, 2, gran::HALF);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1000, 0xFFFF_FFFF, gran::HALF, true)]
    );
    let t = addr_tuple(kind::ADDR, 0x1000, 4, gran::HALF);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![
            rec(0x1000, 0x5555_5555, gran::HALF, false),
            rec(0x1040, 0x5555_5555, gran::HALF, true),
        ]
    );
    // Lanes in one region with repeated chunks: offset 1 at half-word
    // granularity (two lanes per chunk).
    let t = addr_tuple(kind::ADDR, 0x1000, 1, gran::HALF);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1000, 0x0000_FFFF, gran::HALF, true)]
    );
}

#[test]
fn a_zero_offset_is_one_record_with_one_chunk() {
    let t = addr_tuple(kind::ADDR, 0x1234, 0, gran::WORD);
    assert_eq!(
        expand_1d(&t, 32).got_addr[0],
        vec![rec(0x1200, 1 << 13, gran::WORD, true)]
    );
}

#[test]
fn negative_offsets() {
    // Descending within one line.
    assert_eq!(
        expand_1d(&word_tuple(0x17C, neg(4)), 32).got_addr[0],
        vec![rec(0x100, 0xFFFF_FFFF, gran::WORD, true)]
    );
    // Lane 0 alone in its line, then the line below.
    assert_eq!(
        expand_1d(&word_tuple(0x100, neg(4)), 32).got_addr[0],
        vec![
            rec(0x100, 0x1, gran::WORD, false),
            rec(0x80, 0xFFFF_FFFE, gran::WORD, true),
        ]
    );
    // Wrapping below address 0.
    assert_eq!(
        expand_1d(&word_tuple(0x8, neg(4)), 32).got_addr[0],
        vec![
            rec(0, 0b111, gran::WORD, false),
            rec(0xFFFF_FF80, 0xFFFF_FFF8, gran::WORD, true),
        ]
    );
}

#[test]
fn a_region_revisited_later_is_a_new_record() {
    // Lanes alternate between two lines: no merging of non-adjacent runs.
    // 2-D block 2 x 16: tx alternates 0, 1; off_tx = 128, off_ty = 4.
    let mut tb = Tb::new(&DacParams::default(), 1, 32, 1);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 4,
        ..word_tuple(0x1000, 128)
    });
    tb.drain();
    let got = &tb.got_addr[0];
    assert_eq!(got.len(), 32);
    for (l, r) in got.iter().enumerate() {
        let (tx, ty) = (l as u32 % 2, l as u32 / 2);
        assert_eq!(*r, rec(0x1000 + 128 * tx, 1 << ty, gran::WORD, l == 31));
    }
}

#[test]
fn two_d_block_narrower_than_a_warp() {
    // blockDim = 8 x 8, row pitch 256 bytes.
    let mut tb = Tb::new(&DacParams::default(), 3, 64, 2);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 0x100,
        ..word_tuple(0x4000, 4)
    });
    tb.drain();
    for wi in 0..2u32 {
        let expect: Vec<Record> = (0..4u32)
            .map(|r| rec(0x4000 + 0x100 * (4 * wi + r), 0xFF, gran::WORD, r == 3))
            .collect();
        assert_eq!(tb.got_addr[wi as usize], expect, "warp {wi}");
    }
}

#[test]
fn two_d_block_wider_than_a_warp() {
    // blockDim = 64 x 2: warps 0, 1 are row 0, warps 2, 3 row 1.
    let mut tb = Tb::new(&DacParams::default(), 6, 128, 4);
    tb.launch(0, 0, 0);
    tb.enq(&Tuple {
        off_ty: 0x1000,
        ..word_tuple(0x10000, 4)
    });
    tb.drain();
    for (wi, addr) in [0x10000, 0x10080, 0x11000, 0x11080].into_iter().enumerate() {
        assert_eq!(
            tb.got_addr[wi],
            vec![rec(addr, 0xFFFF_FFFF, gran::WORD, true)],
            "warp {wi}"
        );
    }
}

#[test]
fn partial_last_warp() {
    let tb = expand_1d(&word_tuple(0x100, 4), 40);
    assert_eq!(
        tb.got_addr[0],
        vec![rec(0x100, 0xFFFF_FFFF, gran::WORD, true)]
    );
    assert_eq!(tb.got_addr[1], vec![rec(0x180, 0xFF, gran::WORD, true)]);
    // 40 threads with offset 8: the partial warp's 8 lanes fit one line.
    let tb = expand_1d(&word_tuple(0x0, 8), 40);
    assert_eq!(tb.got_addr[0].len(), 2);
    assert_eq!(tb.got_addr[1], vec![rec(0x100, 0x5555, gran::WORD, true)]);
}

#[test]
fn several_slots_and_cta_indices() {
    let p = DacParams::default();
    let mut tb = Tb::with_1d(&p, 64);
    tb.launch(0, 1, 0);
    tb.launch(2, 2, 3);
    tb.launch(5, 0xFFFF, 1);
    tb.enq(&Tuple {
        off_cx: 0x10000,
        off_cy: 0x100_0000,
        ..word_tuple(0x100, 4)
    });
    tb.drain();
    let base = |cx: u32, cy: u32| {
        0x100u32
            .wrapping_add(cx.wrapping_mul(0x10000))
            .wrapping_add(cy.wrapping_mul(0x100_0000))
    };
    for (slot, cx, cy) in [(0usize, 1, 0), (2, 2, 3), (5, 0xFFFF, 1)] {
        for wi in 0..2 {
            let a = base(cx, cy) + 0x80 * wi as u32;
            assert_eq!(
                tb.got_addr[slot * 2 + wi],
                vec![rec(a, 0xFFFF_FFFF, gran::WORD, true)],
                "slot {slot} warp {wi}"
            );
        }
    }
    // Inactive slots get nothing.
    for slot in [1usize, 3, 4, 6, 7] {
        assert!(tb.got_addr[2 * slot].is_empty() && tb.got_addr[2 * slot + 1].is_empty());
    }
}

#[test]
fn data_records_issue_one_line_request_each_in_order() {
    let mut tb = Tb::one_d(64);
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0x2000, 8, gran::WORD));
    tb.drain();
    let lines: Vec<u64> = tb.mem.iter().map(|&(_, a)| a).collect();
    assert_eq!(lines, vec![0x2000, 0x2080, 0x2100, 0x2180]);
    assert_eq!(tb.got_addr[0].len(), 2);
    assert_eq!(tb.got_addr[1].len(), 2);
    // Byte regions: the request is for the line containing the region.
    let mut tb = Tb::one_d(32);
    tb.launch(0, 0, 0);
    tb.enq(&addr_tuple(kind::DATA, 0x10A0, 1, gran::BYTE));
    tb.drain();
    assert_eq!(
        tb.got_addr[0],
        vec![rec(0x10A0, 0xFFFF_FFFF, gran::BYTE, true)]
    );
    assert_eq!(
        tb.mem.iter().map(|&(_, a)| a).collect::<Vec<_>>(),
        vec![0x1080]
    );
    assert_eq!(tb.m.stats().mem_requests, 1);
    assert_eq!(tb.m.stats().mem_taken, 1);
}

#[test]
fn addr_tuples_issue_no_memory_request() {
    let tb = expand_1d(&word_tuple(0x2000, 128), 64);
    assert!(tb.mem.is_empty());
    assert_eq!(tb.m.stats().records_pushed, 64);
}
