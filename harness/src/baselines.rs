//! The baseline prefetchers the CAPS paper compares against (its §III and
//! §VI), as golden models in the prefetcher slot (`--prefetcher intra`,
//! `inter`, `mta`, `nlp`, `lap`). They have no RTL: a baseline is a [`Baseline`]
//! entry in [`BASELINES`] (its choice name and a constructor), and the
//! harness offers it wherever it offers a unit's choice.
//!
//! The L1 slot has model-only baselines the same way: an [`L1Baseline`]
//! entry in [`L1_BASELINES`] (`--l1 bypass`, the BA-cache thesis's "simple
//! bypassing which bypass all cache requests", [`super::bypass`]), with the
//! checks it needs of the machine.
//!
//! INTRA, INTER and MTA keep their tables without a size limit (the paper
//! gives none), LAP the last [`LAP_BLOCKS`] blocks. All queue their
//! prefetches in an output queue of [`QUEUE_DEPTH`] entries below demand
//! priority, like CAPS's; a prefetch that finds the queue full is dropped
//! and counted. Their counters: loads seen, triggers (a stride confirmed,
//! a miss for NLP, a block's second miss for LAP), prefetches queued and
//! dropped.
//!
//! - **INTRA** (§III-A, "intra-warp stride prefetching"): "if each thread
//!   within a warp loads array data from memory repeatedly in a loop then
//!   stride prefetching is initiated to prefetch data for future loop
//!   iterations of each thread". Per (warp, PC): the last address of the
//!   warp's lowest request and the stride between its last two executions
//!   (a warp's entries go when its CTA slot gets a new CTA: the new warps'
//!   first executions are not another iteration);
//!   when the same non-zero stride is seen twice in a row, each of the
//!   load's requests is prefetched one stride ahead (the next iteration),
//!   at most [`MAX_LINES`] of them.
//! - **INTER** (§III-B, "inter-warp stride prefetching"): "detects a base
//!   address and a stride value across different warps based on warp id
//!   ... issues prefetches for future warps from a current warp using the
//!   base address and warp-id differences", "regardless what CTA each warp
//!   belongs to". Per PC: the last warp (its slot in the SM) and address,
//!   and the stride per warp; when a load confirms the stride (its address
//!   difference over its warp-id difference equals it), the next
//!   [`INTER_DEGREE`] warps' addresses are prefetched.
//! - **MTA** (§VI's description of many-thread aware prefetching, its reference 9):
//!   "applies the intra-warp prefetching for iterative loads having regular
//!   strides within a warp, otherwise makes prefetch requests for other
//!   warps when regular address distances are detected among warps". Both
//!   tables train on every load; a load the warp has executed before
//!   (iterative) prefetches by INTRA's rule, any other by INTER's.
//! - **NLP** (§III-C and §VI): "sends prefetch requests for the next cache
//!   line if one cache line is missed": on every demand miss that goes to
//!   memory, the next line.
//! - **LAP** (§VI's description of locality-aware prefetching, its reference 17): "a
//!   macro block of 4 cache lines is prefetched if more than or equal to
//!   two cache lines are missed within each macro block of L1 data cache":
//!   per aligned block of 4 lines, the lines that missed; at the second,
//!   the block's lines that have not missed are prefetched, once (the
//!   block is then done until its record is dropped: the table keeps the
//!   last [`LAP_BLOCKS`] blocks).

use std::collections::{HashMap, VecDeque};

use crate::config::{MachineConfig, MachineConfigError};
use crate::counts::UnitCounts;
use crate::error::HarnessError;
use crate::roles::{Choice, L1Role, LoadInfo, PrefetchOffer, PrefetcherRole, WarpRef};

/// Output queue depth of a baseline prefetcher (CAPS's `PFQ_DEPTH`).
pub const QUEUE_DEPTH: usize = 4;
/// Most requests of one load INTRA prefetches for its next iteration.
pub const MAX_LINES: usize = 4;
/// Warps ahead INTER prefetches for (the distance of the CAPS paper's
/// Figure 1 at which a CTA of 8 warps is still mostly inside).
pub const INTER_DEGREE: u64 = 4;
/// Macro blocks LAP remembers (least recently missed dropped first).
pub const LAP_BLOCKS: usize = 64;

/// A baseline prefetcher: its choice and how to build it.
pub struct Baseline {
    /// Name and help for `--prefetcher`.
    pub choice: Choice,
    /// A fresh instance for one SM, for lines of the given size.
    pub build: fn(u64) -> Box<dyn PrefetcherRole>,
}

/// The baseline prefetchers, in the order `--prefetcher` lists them.
pub static BASELINES: &[Baseline] = &[
    Baseline {
        choice: Choice {
            name: "intra",
            help: "baseline: intra-warp stride prefetching (CAPS paper III-A), golden model only",
        },
        build: |line| Box::new(Prefetcher::<Intra>::new(line)),
    },
    Baseline {
        choice: Choice {
            name: "inter",
            help: "baseline: inter-warp stride prefetching, CTA-agnostic (CAPS paper III-B), golden model only",
        },
        build: |line| Box::new(Prefetcher::<Inter>::new(line)),
    },
    Baseline {
        choice: Choice {
            name: "mta",
            help: "baseline: many-thread aware prefetching, intra- else inter-warp (CAPS paper VI, [9]), golden model only",
        },
        build: |line| Box::new(Prefetcher::<Mta>::new(line)),
    },
    Baseline {
        choice: Choice {
            name: "nlp",
            help: "baseline: next-line prefetching on a miss (CAPS paper III-C), golden model only",
        },
        build: |line| Box::new(Prefetcher::<Nlp>::new(line)),
    },
    Baseline {
        choice: Choice {
            name: "lap",
            help: "baseline: locality-aware macro-block prefetching (CAPS paper VI, [17]), golden model only",
        },
        build: |line| Box::new(Prefetcher::<Lap>::new(line)),
    },
];

/// The baseline named `name`, if any.
pub fn find(name: &str) -> Option<&'static Baseline> {
    BASELINES.iter().find(|b| b.choice.name == name)
}

/// A model-only L1 tag array: its choice, how to build it and what it
/// requires of the machine.
pub struct L1Baseline {
    /// Name and help for `--l1`.
    pub choice: Choice,
    /// A fresh instance for one SM of the machine.
    pub build: fn(&MachineConfig) -> Box<dyn L1Role>,
    /// The machine checks run by [`MachineConfig::validate`] when it is
    /// selected (as a unit's `check_machine`), given the L1 role's choices
    /// (for the fix an error names).
    pub check_machine: fn(&MachineConfig, &[&str]) -> Result<(), MachineConfigError>,
}

/// The model-only L1 tag arrays, in the order `--l1` lists them (after the
/// native `lru` and the units' choices).
pub static L1_BASELINES: &[L1Baseline] = &[L1Baseline {
    choice: Choice {
        name: crate::bypass::NAME,
        help: "baseline: bypass every request, cache nothing (BA thesis 5.5, simple bypassing), golden model only",
    },
    build: |_| Box::new(crate::bypass::BypassAll::new()),
    check_machine: crate::bypass::check_machine,
}];

/// The L1 baseline named `name`, if any.
pub fn find_l1(name: &str) -> Option<&'static L1Baseline> {
    L1_BASELINES.iter().find(|b| b.choice.name == name)
}

/// The output queue and the counters both baselines share.
#[derive(Default)]
struct Out {
    q: VecDeque<PrefetchOffer>,
    loads: u64,
    pushed: u64,
    dropped: u64,
    confirmed: u64,
}

impl Out {
    fn push(&mut self, addr: u64, warp: u64) {
        if self.q.len() >= QUEUE_DEPTH {
            self.dropped += 1;
            return;
        }
        self.pushed += 1;
        self.q.push_back(PrefetchOffer {
            addr: addr & 0xFFFF_FFFF,
            warp: WarpRef::Sm(warp),
            span: 0,
        });
    }
}

/// Signed difference of two 32-bit addresses.
fn diff(a: u64, b: u64) -> i64 {
    (a.wrapping_sub(b) & 0xFFFF_FFFF) as u32 as i32 as i64
}

/// What distinguishes one baseline: its tables and its rule.
trait Rule: Default {
    /// Counter key and table label.
    const KEY: &'static str;
    const LABEL: &'static str;
    /// A CTA was placed in slot `slot`.
    fn cta_launch(&mut self, _slot: u32) {}
    /// A demand load whose lowest request is at `addr`: train, and queue
    /// prefetches in `out` (counting confirmed strides there).
    fn load(&mut self, _ld: &LoadInfo<'_>, _addr: u64, _out: &mut Out) {}
    /// A demand miss of line `line` (lines of `line_bytes`).
    fn miss(&mut self, _line: u64, _sm_warp: u32, _line_bytes: u64, _out: &mut Out) {}
}

/// A baseline prefetcher: its rule, the output queue, the line size.
struct Prefetcher<R: Rule> {
    rule: R,
    out: Out,
    line: u64,
}

impl<R: Rule> Prefetcher<R> {
    fn new(line: u64) -> Self {
        Prefetcher {
            rule: R::default(),
            out: Out::default(),
            line,
        }
    }
}

impl<R: Rule> PrefetcherRole for Prefetcher<R> {
    fn miss(&mut self, line: u64, sm_warp: u32) {
        self.rule.miss(line, sm_warp, self.line, &mut self.out);
    }

    fn cta_launch(&mut self, slot: u32) {
        self.rule.cta_launch(slot);
    }

    fn load(&mut self, ld: &LoadInfo<'_>) {
        self.out.loads += 1;
        if let Some(&addr) = ld.firsts.first() {
            self.rule.load(ld, addr, &mut self.out);
        }
    }

    fn offer(&self) -> Option<PrefetchOffer> {
        self.out.q.front().copied()
    }

    fn accept(&mut self) {
        self.out.q.pop_front();
    }

    fn busy(&self) -> bool {
        !self.out.q.is_empty()
    }

    fn needs_every_cycle(&self) -> bool {
        false
    }

    fn step(&mut self, reset: bool) -> Result<(), HarnessError> {
        if reset {
            *self = Prefetcher::new(self.line);
        }
        Ok(())
    }

    fn counts(&self) -> UnitCounts {
        let o = &self.out;
        UnitCounts {
            key: R::KEY,
            label: R::LABEL,
            counters: vec![
                ("loads", o.loads),
                ("triggers", o.confirmed),
                ("prefetches", o.pushed),
                ("queue_full_drops", o.dropped),
            ],
            summary: format!(
                "{} loads, {} triggers, {} prefetches queued ({} dropped, queue full)",
                o.loads, o.confirmed, o.pushed, o.dropped
            ),
        }
    }

    fn finish(&mut self) -> Result<(), HarnessError> {
        Ok(())
    }
}

/// INTRA: per (CTA slot, warp in the CTA, PC), the last address and
/// stride.
#[derive(Default)]
struct Intra {
    table: HashMap<(u32, u32, u64), (u64, i64)>,
}

impl Rule for Intra {
    const KEY: &'static str = "intra";
    const LABEL: &'static str = "INTRA";

    fn cta_launch(&mut self, slot: u32) {
        self.table.retain(|&(c, _, _), _| c != slot);
    }

    fn load(&mut self, ld: &LoadInfo<'_>, addr: u64, out: &mut Out) {
        let key = (ld.cta_slot, ld.warp, ld.pc);
        let stride = match self.table.get(&key) {
            Some(&(last, s)) => {
                let d = diff(addr, last);
                if d != 0 && d == s {
                    out.confirmed += 1;
                    for &a in ld.firsts.iter().take(MAX_LINES) {
                        out.push(a.wrapping_add(d as u64), ld.sm_warp as u64);
                    }
                }
                d
            }
            None => 0,
        };
        self.table.insert(key, (addr, stride));
    }
}

/// INTER: per PC, the last warp slot and address and the stride per warp.
#[derive(Default)]
struct Inter {
    table: HashMap<u64, (u32, u64, i64)>,
}

impl Rule for Inter {
    const KEY: &'static str = "inter";
    const LABEL: &'static str = "INTER";

    fn load(&mut self, ld: &LoadInfo<'_>, addr: u64, out: &mut Out) {
        let w = ld.sm_warp;
        let mut stride = 0;
        if let Some(&(lw, last, s)) = self.table.get(&ld.pc) {
            let dw = w as i64 - lw as i64;
            let d = diff(addr, last);
            if dw != 0 && d % dw == 0 {
                stride = d / dw;
                if stride != 0 && stride == s {
                    out.confirmed += 1;
                    for k in 1..=INTER_DEGREE {
                        let a = addr.wrapping_add((stride * k as i64) as u64);
                        out.push(a, w as u64 + k);
                    }
                }
            } else {
                stride = s;
            }
        }
        self.table.insert(ld.pc, (w, addr, stride));
    }
}

/// MTA: INTRA's rule for a load the warp has executed before, else
/// INTER's; both tables train on every load.
#[derive(Default)]
struct Mta {
    intra: Intra,
    inter: Inter,
}

impl Rule for Mta {
    const KEY: &'static str = "mta";
    const LABEL: &'static str = "MTA";

    fn cta_launch(&mut self, slot: u32) {
        self.intra.cta_launch(slot);
    }

    fn load(&mut self, ld: &LoadInfo<'_>, addr: u64, out: &mut Out) {
        let iterative = self
            .intra
            .table
            .contains_key(&(ld.cta_slot, ld.warp, ld.pc));
        let mut unused = Out::default();
        let (a, b) = if iterative {
            (out, &mut unused)
        } else {
            (&mut unused, out)
        };
        self.intra.load(ld, addr, a);
        self.inter.load(ld, addr, b);
    }
}

/// NLP: the next line of every demand miss.
#[derive(Default)]
struct Nlp;

impl Rule for Nlp {
    const KEY: &'static str = "nlp";
    const LABEL: &'static str = "NLP";

    fn miss(&mut self, line: u64, sm_warp: u32, line_bytes: u64, out: &mut Out) {
        out.confirmed += 1;
        out.push(line.wrapping_add(line_bytes), sm_warp as u64);
    }
}

/// LAP: per macro block of 4 lines, the lines that missed (a bit each;
/// 0xF once prefetched), most recently missed last.
#[derive(Default)]
struct Lap {
    blocks: VecDeque<(u64, u8)>,
}

impl Rule for Lap {
    const KEY: &'static str = "lap";
    const LABEL: &'static str = "LAP";

    fn miss(&mut self, line: u64, sm_warp: u32, line_bytes: u64, out: &mut Out) {
        let block = line / (4 * line_bytes);
        let bit = 1u8 << ((line / line_bytes) % 4);
        let mut mask = match self.blocks.iter().position(|&(b, _)| b == block) {
            Some(i) => self.blocks.remove(i).expect("present").1,
            None => 0,
        };
        if mask != 0xF {
            mask |= bit;
            if mask.count_ones() >= 2 {
                out.confirmed += 1;
                for k in 0..4u64 {
                    if mask & (1 << k) == 0 {
                        out.push((block * 4 + k) * line_bytes, sm_warp as u64);
                    }
                }
                mask = 0xF;
            }
        }
        self.blocks.push_back((block, mask));
        if self.blocks.len() > LAP_BLOCKS {
            self.blocks.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ld(pc: u64, sm_warp: u32, addr: u64) -> (u64, u32, [u64; 1]) {
        (pc, sm_warp, [addr])
    }

    fn feed(p: &mut dyn PrefetcherRole, (pc, w, a): (u64, u32, [u64; 1])) {
        p.load(&LoadInfo {
            pc,
            cta_slot: 0,
            warp: w,
            sm_warp: w,
            lines: &[a[0] & !127],
            firsts: &a,
            first_addr: a[0],
            uniform: true,
            span: 0,
            cta_end: 64,
            indirect: false,
        });
    }

    fn drain(p: &mut dyn PrefetcherRole) -> Vec<(u64, WarpRef)> {
        let mut v = Vec::new();
        while let Some(o) = p.offer() {
            v.push((o.addr, o.warp));
            p.accept();
        }
        v
    }

    #[test]
    fn intra_prefetches_the_next_iteration_once_the_stride_repeats() {
        let mut p = Prefetcher::<Intra>::new(128);
        feed(&mut p, ld(8, 3, 0x1000));
        feed(&mut p, ld(8, 3, 0x1400));
        assert!(drain(&mut p).is_empty(), "one stride is not yet a pattern");
        feed(&mut p, ld(8, 3, 0x1800));
        assert_eq!(drain(&mut p), vec![(0x1C00, WarpRef::Sm(3))]);
        // Another warp's iterations are its own.
        feed(&mut p, ld(8, 4, 0x9000));
        assert!(drain(&mut p).is_empty());
        // A new CTA in the slot: its warps start afresh.
        p.cta_launch(0);
        feed(&mut p, ld(8, 3, 0x1C00));
        feed(&mut p, ld(8, 3, 0x2000));
        assert!(drain(&mut p).is_empty());
        // A broken stride stops it until it repeats again.
        feed(&mut p, ld(8, 3, 0x1900));
        feed(&mut p, ld(8, 3, 0x2000));
        assert!(drain(&mut p).is_empty());
        assert_eq!(p.counts().counters[1], ("triggers", 1));
    }

    #[test]
    fn inter_prefetches_the_next_warps_regardless_of_ctas() {
        let mut p = Prefetcher::<Inter>::new(128);
        feed(&mut p, ld(8, 0, 0x1000));
        feed(&mut p, ld(8, 1, 0x1080));
        assert!(drain(&mut p).is_empty());
        // Warp 3 confirms 0x80 per warp: warps 4.. are prefetched, whatever
        // CTA they belong to; the queue holds four.
        feed(&mut p, ld(8, 3, 0x1180));
        let got = drain(&mut p);
        assert_eq!(
            got,
            (1..=4)
                .map(|k| (0x1180 + 0x80 * k, WarpRef::Sm(3 + k)))
                .collect::<Vec<_>>()
        );
        // The queue overflows when nothing drains it.
        feed(&mut p, ld(8, 5, 0x1280));
        feed(&mut p, ld(8, 6, 0x1300));
        assert_eq!(p.counts().counters[3], ("queue_full_drops", 4));
    }

    #[test]
    fn mta_uses_intra_for_iterations_and_inter_otherwise() {
        let mut p = Prefetcher::<Mta>::new(128);
        // First executions by warps 0, 1, 3: INTER's rule.
        feed(&mut p, ld(8, 0, 0x1000));
        feed(&mut p, ld(8, 1, 0x1080));
        feed(&mut p, ld(8, 3, 0x1180));
        assert_eq!(drain(&mut p).len(), 4);
        // Warp 3 iterates (0x400 per iteration, twice): INTRA's rule only.
        feed(&mut p, ld(8, 3, 0x1580));
        assert!(drain(&mut p).is_empty());
        feed(&mut p, ld(8, 3, 0x1980));
        assert_eq!(drain(&mut p), vec![(0x1D80, WarpRef::Sm(3))]);
    }

    #[test]
    fn nlp_and_lap_prefetch_on_misses() {
        let mut p = Prefetcher::<Nlp>::new(128);
        p.miss(0x1000, 2);
        assert_eq!(drain(&mut p), vec![(0x1080, WarpRef::Sm(2))]);
        let mut p = Prefetcher::<Lap>::new(128);
        // Block 0x1000..0x1200: one miss, nothing; a second, the other two.
        p.miss(0x1080, 1);
        assert!(drain(&mut p).is_empty());
        p.miss(0x1180, 1);
        assert_eq!(
            drain(&mut p),
            vec![(0x1000, WarpRef::Sm(1)), (0x1100, WarpRef::Sm(1))]
        );
        // Done: later misses in the block prefetch nothing.
        p.miss(0x1000, 1);
        p.miss(0x1100, 1);
        assert!(drain(&mut p).is_empty());
    }
}
