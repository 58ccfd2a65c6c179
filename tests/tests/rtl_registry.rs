//! The RTL declarations of the units (`hdl::registry::RtlDecl`, moved from
//! `hdl/src/registry.rs` and `hdl/src/storage.rs`): every listed width
//! combination builds, an unlisted one is refused with the list and the
//! file of the unit's table, and the storage tables of the paper
//! configurations.

mod common;
use common::root;

use hdl::registry::RtlDecl;
use ports::ba::{BaParams, BaTagArray};
use ports::caps::{CapsParams, CapsPrefetcher};
use ports::Params;

#[test]
fn every_listed_ba_geometry_builds() {
    for sets in [1u64, 2, 4, 8, 16, 32, 64, 128, 256] {
        for ways in [1u64, 2, 4, 8, 16] {
            let p = BaParams {
                SETS: sets,
                WAYS: ways,
                ..Default::default()
            };
            p.validate().unwrap();
            assert!(BaTagArray::build(&p).is_ok(), "SETS={sets} WAYS={ways}");
        }
    }
}

/// The refusal names the unit's own table file, which exists.
fn names_its_table(e: &hdl::registry::Unsupported, unit_dir: &str) {
    assert_eq!(e.table, format!("hdl/src/{unit_dir}/build.rs"));
    assert!(root().join(e.table).is_file(), "{}", e.table);
    assert!(e.to_string().contains(e.table), "{e}");
}

#[test]
fn unsupported_geometry_lists_what_is_supported() {
    let p = BaParams {
        LINE_BYTES: 64,
        ..Default::default()
    };
    let u = BaTagArray::build(&p).err().unwrap();
    let e = u.to_string();
    assert!(e.contains("LINE_BYTES = 64"), "{e}");
    assert!(e.contains(BaTagArray::SUPPORTED), "{e}");
    assert_eq!(u.unit, "ba_tag_array");
    names_its_table(&u, "ba");
}

#[test]
fn every_listed_caps_configuration_builds() {
    for (n_cta, entries, cnt_ws) in [
        (8u64, [3u64, 4], &[4u64, 5, 6, 7, 8][..]),
        (2, [1, 2], &[4, 8][..]),
        (16, [3, 4], &[8][..]),
    ] {
        for &cnt_w in cnt_ws {
            for pe in entries {
                for de in entries {
                    let p = CapsParams {
                        N_CTA: n_cta,
                        PERCTA_ENTRIES: pe,
                        DIST_ENTRIES: de,
                        CNT_W: cnt_w,
                        MISPRED_THRESHOLD: (1 << cnt_w) / 2,
                        ..Default::default()
                    };
                    p.validate().unwrap();
                    assert!(CapsPrefetcher::build(&p).is_ok(), "{p:?}");
                }
            }
        }
    }
}

#[test]
fn unsupported_caps_configuration_lists_what_is_supported() {
    let p = CapsParams {
        N_CTA: 4,
        ..Default::default()
    };
    let u = CapsPrefetcher::build(&p).err().unwrap();
    let e = u.to_string();
    assert!(e.contains("N_CTA = 4"), "{e}");
    assert!(e.contains(CapsPrefetcher::SUPPORTED), "{e}");
    assert_eq!(u.unit, "caps_prefetcher");
    names_its_table(&u, "caps");
}

#[test]
fn ba_paper_configuration_has_256_extra_bits() {
    let r = BaTagArray::storage(&BaParams::default());
    assert_eq!(r.paper_field_bits(), 256);
    assert_eq!(r.paper_bits, 256);
    // 128 lines x (1 + 21 + 3 + 2) + response 1 + 3 + 3 + 1 + 32.
    assert_eq!(r.total_bits(), 128 * 27 + 40);
}

#[test]
fn caps_paper_configuration_is_708_bytes() {
    let r = CapsPrefetcher::storage(&CapsParams::default());
    assert_eq!(r.paper_bits, 708 * 8);
    // Our paper fields: lead is 6 bits instead of 8.
    assert_eq!(r.paper_field_bits(), 708 * 8 - 32 * 2);
    // Every register of the RTL: 8,242 flip-flops (8,250 before session
    // 51's read-stage k* registered one-hot, 4 bits instead of k, the
    // cursor's slot one-hot and the job kind, 3 + 8 + 1; 8,206 before session
    // 47's job-B entry per column, 4 x 10, and the read stage's cursor
    // slot one-hot, 8 bits instead of 4; 6,225 before issue
    // 29's pipeline, 6,312 with the generator's address stage only, 7,124
    // before the registered scan compares and rule 3's carry-save product,
    // 7,219 before the second address stage, 7,292 before session 43's
    // strides as magnitude and sign and rule 4's shift in the rules
    // stage, 7,286 before session 45's leading-CTA bit per DIST entry and
    // its registered test (4 + 1), 7,291 before session 44's verify and
    // read stages and the look-up's values per column, re-applied in
    // session 45 with the leading-CTA test carried as one bit).
    assert_eq!(r.total_bits(), 8242);
}

/// `RtlDecl::rtl_type` (what on-demand elaboration instantiates) names
/// exactly the block the width table builds, for every configuration of
/// every unit's suite: a width table or a block signature that changes
/// without it fails here, not in a user's first elaboration.
#[test]
fn rtl_type_names_the_block_the_table_builds() {
    fn short(t: &str) -> String {
        let t = t.replace("::<", "<");
        let (path, args) = t.split_at(t.find('<').unwrap_or(t.len()));
        let name = path.rsplit("::").next().unwrap_or(path);
        format!("{name}{args}")
    }
    fn check<U: cosim::CosimUnit>() {
        for p in U::suite() {
            let built = U::build(&p).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                short(built.type_name()),
                short(&U::rtl_type(&p)),
                "{}: {p:?}",
                U::NAME
            );
        }
    }
    check::<BaTagArray>();
    check::<CapsPrefetcher>();
    check::<ports::snake::SnakePrefetcher>();
    check::<ports::dac::DacExpander>();
}
