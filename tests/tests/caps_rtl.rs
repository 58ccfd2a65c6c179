//! The CAPS RTL on its own (moved from `hdl/src/caps_prefetcher.rs`): the
//! Figure 9 scenarios as exact prefetch sequences, random stimulus against
//! a plain cycle model of the contract written for this test only, the
//! Verilog of other configurations (port names, determinism, Verilator
//! lint), and Icarus running the emitted Verilog against the rust-hdl
//! simulation. The RTL is driven through `cosim`'s RustHDL back-end.

mod common;
use common::{lint_text, tool, verilator};

use cosim::rusthdl::RustHdlBackend;
use cosim::testbench::{testbench, Recording};
use cosim::RtlBackend;
use eda::Tool;
use hdl::registry::RtlDecl;
use ports::caps::{CapsIn, CapsOut, CapsParams, CapsPrefetcher};
use ports::{Params, UnitSpec};

/// Drives the built unit cycle by cycle through the RustHDL back-end.
struct Drv {
    p: CapsParams,
    u: RustHdlBackend,
}

impl Drv {
    fn new(p: &CapsParams) -> Self {
        p.validate().unwrap();
        Drv {
            p: p.clone(),
            u: RustHdlBackend::new(CapsPrefetcher::build(p).unwrap()),
        }
    }

    /// Apply `i`, sample the outputs, clock a rising edge.
    fn cycle(&mut self, i: &CapsIn) -> CapsOut {
        let v = CapsPrefetcher::in_values(&self.p, i);
        let mut o = vec![0; CapsPrefetcher::outputs(&self.p).len()];
        self.u.cycle(&v, &mut o);
        CapsPrefetcher::out_from_values(&self.p, &o)
    }
}

const PC: u64 = 0x0000_0a40;
const BASES: [u64; 3] = [0x1000_0000, 0x2345_6700, 0x0abc_0000];

fn load(cta: u64, warp: u64) -> CapsIn {
    CapsIn {
        cfg_warps_per_cta: 3,
        pf_ready: true,
        ld_valid: true,
        ld_pc: PC,
        ld_cta: cta,
        ld_warp: warp,
        ld_count: 1,
        ld_addr: [BASES[cta as usize] + 0x100 * warp, 0, 0, 0],
        ..Default::default()
    }
}

/// Run `loads` (cycle, cta, warp) after a reset in cycle 0 with
/// `pf_ready = 1`; every prefetch as (cycle seen, addr, cta, warp).
fn run(p: &CapsParams, loads: &[(u64, u64, u64)], cycles: u64) -> Vec<(u64, u64, u64, u64)> {
    let mut d = Drv::new(p);
    let mut out = Vec::new();
    for t in 0..cycles {
        let mut i = CapsIn {
            cfg_warps_per_cta: 3,
            pf_ready: true,
            reset: t == 0,
            ..Default::default()
        };
        if let Some(&(_, c, w)) = loads.iter().find(|l| l.0 == t) {
            i = load(c, w);
        }
        let o = d.cycle(&i);
        if o.pf_valid {
            out.push((t, o.pf_addr, o.pf_cta, o.pf_warp));
        } else {
            assert_eq!((o.pf_addr, o.pf_cta, o.pf_warp), (0, 0, 0), "cycle {t}");
        }
    }
    out
}

fn pf(t: u64, cta: u64, warp: u64) -> (u64, u64, u64, u64) {
    (t, BASES[cta as usize] + 0x100 * warp, cta, warp)
}

#[test]
fn figure9a_spaced() {
    let p = CapsParams::default();
    // A0, B0, C0, then A1 at edge 10 and A2 at edge 20.
    let got = run(
        &p,
        &[(2, 0, 0), (3, 1, 0), (4, 2, 0), (10, 0, 1), (20, 0, 2)],
        40,
    );
    // First prefetch during the cycle after edge t+8 (the load applied at
    // t+1, its job in the FIFO at t+3, taken at t+4, the prefetch selected
    // at t+5, in the first address stage at t+6, in the second at t+7, in
    // the output queue at t+8).
    let want = vec![pf(19, 1, 1), pf(20, 2, 1), pf(29, 1, 2), pf(30, 2, 2)];
    assert_eq!(got, want);
}

#[test]
fn figure9a_back_to_back() {
    let p = CapsParams::default();
    let got = run(
        &p,
        &[(2, 0, 0), (3, 1, 0), (4, 2, 0), (5, 0, 1), (6, 0, 2)],
        30,
    );
    // Job A1: in the FIFO at 8, taken at 9, B1 selected at 10 (in the
    // output queue at 13), C1 at 11, ends at 12; job A2 taken at 13, B2
    // selected at 14, C2 at 15.
    let want = vec![pf(14, 1, 1), pf(15, 2, 1), pf(18, 1, 2), pf(19, 2, 2)];
    assert_eq!(got, want);
}

#[test]
fn figure9b_spaced() {
    let p = CapsParams::default();
    let got = run(&p, &[(2, 0, 0), (10, 0, 1), (20, 1, 0), (30, 2, 0)], 45);
    // A1 trains, prefetches nothing; B0 -> B1, B2; C0 -> C1, C2.
    let want = vec![pf(29, 1, 1), pf(30, 1, 2), pf(39, 2, 1), pf(40, 2, 2)];
    assert_eq!(got, want);
}

#[test]
fn figure9b_back_to_back_sees_later_ctas() {
    // Contract, further choice 6: job A of A1 runs after B0 and C0
    // registered their bases.
    let p = CapsParams::default();
    let got = run(&p, &[(2, 0, 0), (3, 0, 1), (4, 1, 0), (5, 2, 0)], 30);
    let want = vec![
        pf(12, 1, 1),
        pf(13, 2, 1),
        pf(16, 1, 1),
        pf(17, 1, 2),
        pf(20, 2, 1),
        pf(21, 2, 2),
    ];
    assert_eq!(got, want);
}

#[test]
fn small_configuration_runs_figure9a() {
    let p = CapsParams {
        N_CTA: 2,
        PERCTA_ENTRIES: 2,
        DIST_ENTRIES: 1,
        MAX_ADDRS: 2,
        JOBQ_DEPTH: 1,
        PFQ_DEPTH: 1,
        ..Default::default()
    };
    // Two CTAs: A0, B0, A1, A2 spaced, then A1', A2' back to back:
    // with one job slot, the job of A2' is dropped while A1''s job
    // is still queued (A1''s job enters the FIFO at edge 33 and is taken
    // only at edge 34, when A2''s arrives).
    let got = run(
        &p,
        &[
            (2, 0, 0),
            (3, 1, 0),
            (10, 0, 1),
            (20, 0, 2),
            (30, 0, 1),
            (31, 0, 2),
        ],
        45,
    );
    let want = vec![pf(19, 1, 1), pf(29, 1, 2), pf(39, 1, 1)];
    assert_eq!(got, want);
}

/// Like [`run`], with CTA launches: `launches` (cycle, slot).
fn run_launch(
    p: &CapsParams,
    loads: &[(u64, u64, u64)],
    launches: &[(u64, u64)],
    cycles: u64,
) -> Vec<(u64, u64, u64, u64)> {
    let mut d = Drv::new(p);
    let mut out = Vec::new();
    for t in 0..cycles {
        let mut i = CapsIn {
            cfg_warps_per_cta: 3,
            pf_ready: true,
            reset: t == 0,
            ..Default::default()
        };
        if let Some(&(_, c, w)) = loads.iter().find(|l| l.0 == t) {
            i = load(c, w);
        }
        if let Some(&(_, slot)) = launches.iter().find(|l| l.0 == t) {
            i.cta_launch_valid = true;
            i.cta_launch_slot = slot;
        }
        let o = d.cycle(&i);
        if o.pf_valid {
            out.push((t, o.pf_addr, o.pf_cta, o.pf_warp));
        }
    }
    out
}

/// The leading CTA is one CTA (contract, "The leading CTA"): a CTA
/// launched into the slot that trained the stride gets job B for its
/// leading warp, but its trailing warps create no job A.
#[test]
fn relaunched_leading_slot_creates_no_job_a() {
    let p = CapsParams::default();
    // B0 registers; A0, A1 train (job A: B1); slot 0 relaunched at 20;
    // its leading warp at 25 (job B: warps 1, 2); its warp 2 at 35
    // verifies only (on the slot reading, job A would prefetch B2 at 44).
    let got = run_launch(
        &p,
        &[(2, 1, 0), (3, 0, 0), (4, 0, 1), (25, 0, 0), (35, 0, 2)],
        &[(20, 0)],
        50,
    );
    assert_eq!(got, vec![pf(13, 1, 1), pf(34, 0, 1), pf(35, 0, 2)]);
    // The launch at the edge that applies the training (accepted at 4):
    // the allocation's own job A stands, the entry starts without the
    // right; the new CTA's leading warp gets job B, its trailing warp
    // creates no job A.
    let got = run_launch(
        &p,
        &[(2, 1, 0), (3, 0, 0), (4, 0, 1), (20, 0, 0), (30, 0, 2)],
        &[(5, 0)],
        45,
    );
    assert_eq!(got, vec![pf(13, 1, 1), pf(29, 0, 1), pf(30, 0, 2)]);
    // A trailing load accepted at the edge before its slot's launch is
    // applied first: job A for B2.
    let got = run_launch(
        &p,
        &[(2, 1, 0), (3, 0, 0), (4, 0, 1), (25, 0, 2)],
        &[(26, 0)],
        40,
    );
    assert_eq!(got, vec![pf(13, 1, 1), pf(34, 1, 2)]);
}

/// The unit's Verilog as warpgen emits it, after the checks of the port
/// names and determinism.
fn emit_checked(p: &CapsParams) -> String {
    let v = cosim::emit_verilog::<CapsPrefetcher>(p).unwrap();
    assert!(
        v == cosim::emit_verilog::<CapsPrefetcher>(p).unwrap(),
        "not deterministic"
    );
    assert!(!v.contains('$'), "identifier with `$`");
    for k in 0..p.MAX_ADDRS {
        assert!(v.contains(&format!(" ld_addr{k};")), "port ld_addr{k}");
    }
    assert!(!v.contains("ld_addr__"));
    v
}

fn lint(p: &CapsParams) {
    let v = emit_checked(p);
    if !verilator() {
        return;
    }
    let r = lint_text(&v, "caps_prefetcher");
    assert!(r.clean, "{}", r.raw);
}

#[test]
fn verilog_lints_clean_paper() {
    lint(&CapsParams::default());
}

#[test]
fn verilog_lints_clean_small() {
    lint(&CapsParams {
        N_CTA: 2,
        PERCTA_ENTRIES: 2,
        DIST_ENTRIES: 1,
        MAX_ADDRS: 1,
        JOBQ_DEPTH: 1,
        PFQ_DEPTH: 1,
        ..Default::default()
    });
}

// -----------------------------------------------------------------
// A plain cycle model of the contract, written from
// `docs/units/caps_prefetcher.md` for this test only (LRU by update
// time stamps, rule 4 by per-address division), and random stimulus.

#[derive(Clone, Copy, Default)]
struct MEntry {
    valid: bool,
    pc: u64,
    lead: u64,
    n: usize,
    base: [u64; 4],
    stamp: u64,
}

#[derive(Clone, Copy, Default)]
struct MDist {
    valid: bool,
    pc: u64,
    stride: u64,
    cnt: u64,
    lead_cta: u64,
    /// No CTA launch into `lead_cta` since the allocation.
    live: bool,
    stamp: u64,
}

#[derive(Clone, Copy, Debug)]
enum MJob {
    A { pc: u64, w: u64, c: u64, s: u64 },
    B { c: u64, pc: u64 },
}

struct Model {
    p: CapsParams,
    cta: Vec<Vec<MEntry>>,
    dist: Vec<MDist>,
    jobs: std::collections::VecDeque<MJob>,
    job: Option<MJob>,
    pos: u64,
    k: u64,
    /// The generator's read stage and two address stages: the prefetch
    /// produced at the last edge (`stage`), the edge before (`stage2`) and
    /// the edge before that, entering the output queue at the next edge
    /// (`stage3`).
    stage: Option<(u64, u64, u64)>,
    stage2: Option<(u64, u64, u64)>,
    stage3: Option<(u64, u64, u64)>,
    /// The eligible load accepted at the last edge (pc, cta, warp, n,
    /// addresses), applied at the next, before that edge's launch.
    held: Option<(u64, u64, u64, usize, [u64; 4])>,
    /// The job made at the last edge and the one made the edge before,
    /// which enters the job FIFO at the next edge.
    held_job: Option<MJob>,
    held_job2: Option<MJob>,
    pfq: std::collections::VecDeque<(u64, u64, u64)>,
    time: u64,
    /// Events seen (coverage of the stimulus).
    ev: std::collections::BTreeMap<&'static str, usize>,
}

fn victim(stamps: &[(bool, u64)]) -> usize {
    if let Some(i) = stamps.iter().position(|e| !e.0) {
        return i;
    }
    (0..stamps.len()).min_by_key(|&i| stamps[i].1).unwrap()
}

impl Model {
    fn new(p: &CapsParams) -> Self {
        Model {
            p: p.clone(),
            cta: vec![vec![MEntry::default(); p.PERCTA_ENTRIES as usize]; p.N_CTA as usize],
            dist: vec![MDist::default(); p.DIST_ENTRIES as usize],
            jobs: Default::default(),
            job: None,
            pos: 0,
            k: 0,
            stage: None,
            stage2: None,
            stage3: None,
            held: None,
            held_job: None,
            held_job2: None,
            pfq: Default::default(),
            time: 0,
            ev: Default::default(),
        }
    }

    fn amask(&self) -> u64 {
        ports::mask(self.p.ADDR_W as u32)
    }

    fn find(&self, c: u64, pc: u64) -> Option<usize> {
        self.cta[c as usize]
            .iter()
            .position(|e| e.valid && e.pc == pc)
    }

    fn dfind(&self, pc: u64) -> Option<usize> {
        self.dist.iter().position(|d| d.valid && d.pc == pc)
    }

    /// Warp distance times stride, modulo 2^ADDR_W.
    fn mul(&self, w: u64, lead: u64, s: u64) -> u64 {
        (w.wrapping_sub(lead)).wrapping_mul(s) & self.amask()
    }

    /// The generator's step on the current tables: (prefetch, next
    /// job state (job, pos, k)).
    #[allow(clippy::type_complexity)]
    fn gen(&self, cfg: u64) -> (Option<(u64, u64, u64)>, (Option<MJob>, u64, u64), bool) {
        let job = self.job.unwrap();
        let (pos, k) = (self.pos, self.k);
        match job {
            MJob::A { pc, w, c, s } => {
                for c2 in 0..self.p.N_CTA {
                    if c2 == c || c2 < pos {
                        continue;
                    }
                    let Some(e) = self.find(c2, pc) else { continue };
                    let e = self.cta[c2 as usize][e];
                    if e.lead == w || (c2 == pos && k as usize >= e.n) {
                        continue;
                    }
                    let ks = if c2 == pos { k } else { 0 };
                    let addr = (e.base[ks as usize] + self.mul(w, e.lead, s)) & self.amask();
                    let next = if (ks as usize + 1) < e.n {
                        (Some(job), c2, ks + 1)
                    } else {
                        (Some(job), c2 + 1, 0)
                    };
                    return (Some((addr, c2, w)), next, false);
                }
                (None, (None, pos, k), false)
            }
            MJob::B { c, pc } => {
                let (Some(e), Some(d)) = (self.find(c, pc), self.dfind(pc)) else {
                    return (None, (None, pos, k), false);
                };
                let e = self.cta[c as usize][e];
                let stride = self.dist[d].stride;
                let w2 = if pos != e.lead { pos } else { pos + 1 };
                if w2 >= cfg {
                    return (None, (None, pos, k), false);
                }
                if k as usize >= e.n {
                    return (None, (Some(job), w2 + 1, 0), true);
                }
                let addr = (e.base[k as usize] + self.mul(w2, e.lead, stride)) & self.amask();
                let next = if (k as usize + 1) < e.n {
                    (Some(job), w2, k + 1)
                } else {
                    (Some(job), w2 + 1, 0)
                };
                (Some((addr, c, w2)), next, false)
            }
        }
    }

    /// One cycle: the outputs (the output queue's head), then the edge:
    /// reset, or the generator, the queue, a launch and the load.
    fn cycle(&mut self, i: &CapsIn) -> CapsOut {
        let out = match self.pfq.front() {
            Some(&(a, c, w)) => CapsOut {
                pf_valid: true,
                pf_addr: a,
                pf_cta: c,
                pf_warp: w,
            },
            None => CapsOut::default(),
        };
        if i.reset {
            let ev = std::mem::take(&mut self.ev);
            *self = Model::new(&self.p);
            self.ev = ev;
            return out;
        }
        self.time += 1;
        let wmask = ports::mask(self.p.WARP_IDX_W as u32);
        let cmask = self.p.N_CTA - 1;
        let cfg = i.cfg_warps_per_cta & wmask;
        // The queues' fullness at the start of the cycle (the read and
        // address stages count as output queue entries; an entry popped at
        // this edge makes room).
        let popped = usize::from(out.pf_valid && i.pf_ready);
        let pfq_full = self.pfq.len()
            + usize::from(self.stage.is_some())
            + usize::from(self.stage2.is_some())
            + usize::from(self.stage3.is_some())
            - popped
            >= self.p.PFQ_DEPTH as usize;
        let jobs_full = self.jobs.len() >= self.p.JOBQ_DEPTH as usize;
        let push_pf = self.generator_edge(cfg, pfq_full);
        if out.pf_valid && i.pf_ready {
            self.pfq.pop_front();
        }
        if let Some(x) = self.stage3.take() {
            self.pfq.push_back(x);
        }
        self.stage3 = self.stage2.take();
        self.stage2 = self.stage.take();
        self.stage = push_pf;
        // The load held since the last edge, then this cycle's launch; the
        // job made two edges ago enters the job FIFO.
        let job = self
            .held
            .take()
            .and_then(|(pc, c, w, n, a)| self.load(pc, c, w, n, a));
        if i.cta_launch_valid {
            let slot = i.cta_launch_slot & cmask;
            for e in self.cta[slot as usize].iter_mut() {
                e.valid = false;
            }
            // The new CTA is not the leading CTA of the slot's DIST entries.
            for d in self.dist.iter_mut() {
                if d.lead_cta == slot {
                    d.live = false;
                }
            }
        }
        let older = std::mem::replace(&mut self.held_job, job);
        if let Some(j) = std::mem::replace(&mut self.held_job2, older) {
            if !jobs_full {
                *self.ev.entry("job pushed").or_default() += 1;
                self.jobs.push_back(j);
            } else {
                *self.ev.entry("job dropped").or_default() += 1;
            }
        }
        let n = (i.ld_count & 63) as usize;
        if !(i.ld_valid && !i.ld_indirect && n >= 1 && n <= self.p.MAX_ADDRS as usize) {
            return out;
        }
        let am = self.amask();
        let pc = i.ld_pc & ports::mask(self.p.PC_W as u32);
        let c = i.ld_cta & cmask;
        let w = i.ld_warp & wmask;
        let mut a = [0u64; 4];
        for (x, y) in a.iter_mut().zip(i.ld_addr).take(n) {
            *x = y & am;
        }
        self.held = Some((pc, c, w, n, a));
        out
    }

    /// The generator's edge, on the tables at the start of the cycle: a
    /// step of the running job (the prefetch to push, unless the output
    /// queue is full), or the next job taken.
    fn generator_edge(&mut self, cfg: u64, pfq_full: bool) -> Option<(u64, u64, u64)> {
        let mut push_pf = None;
        if self.job.is_some() {
            let (pf, (job, pos, k), skip) = self.gen(cfg);
            if skip || job.is_none() {
                *self.ev.entry("gen skip/end").or_default() += 1;
                self.job = job;
                self.pos = pos;
                self.k = k;
            } else if pfq_full {
                *self.ev.entry("gen stall").or_default() += 1;
            } else {
                *self.ev.entry("gen push").or_default() += 1;
                push_pf = pf;
                self.job = job;
                self.pos = pos;
                self.k = k;
            }
        } else if let Some(j) = self.jobs.pop_front() {
            *self.ev.entry("job taken").or_default() += 1;
            self.job = Some(j);
            self.pos = 0;
            self.k = 0;
        }
        push_pf
    }

    /// The rules on an eligible load of `pc` by warp `w` of CTA `c` with
    /// `n` addresses `a`: the job it enqueues, if any.
    fn load(&mut self, pc: u64, c: u64, w: u64, n: usize, a: [u64; 4]) -> Option<MJob> {
        let am = self.amask();
        let d = self.dfind(pc);
        let thr = self.p.MISPRED_THRESHOLD;
        let mut job = None;
        let now = self.time;
        match self.find(c, pc) {
            None => {
                let t = &mut self.cta[c as usize];
                let v = victim(&t.iter().map(|e| (e.valid, e.stamp)).collect::<Vec<_>>());
                t[v] = MEntry {
                    valid: true,
                    pc,
                    lead: w,
                    n,
                    base: a,
                    stamp: now,
                };
                if let Some(d) = d {
                    if self.dist[d].cnt < thr {
                        *self.ev.entry("rule1 job B").or_default() += 1;
                        job = Some(MJob::B { c, pc });
                    }
                }
            }
            Some(e) => {
                let pe = self.cta[c as usize][e];
                if w == pe.lead {
                    *self.ev.entry("rule2").or_default() += 1;
                    let ent = &mut self.cta[c as usize][e];
                    ent.base = a;
                    ent.n = n;
                    ent.stamp = now;
                    // LOOP_JOBS: the next iteration's bases, job B.
                    if let Some(d) = d {
                        if self.p.LOOP_JOBS == 1 && self.dist[d].cnt < thr {
                            *self.ev.entry("rule2 job B").or_default() += 1;
                            job = Some(MJob::B { c, pc });
                        }
                    }
                } else if let Some(d) = d {
                    let dd = self.dist[d];
                    let bad = n != pe.n
                        || (0..n)
                            .any(|k| (pe.base[k] + self.mul(w, pe.lead, dd.stride)) & am != a[k]);
                    if bad && dd.cnt < ports::mask(self.p.CNT_W as u32) {
                        *self.ev.entry("rule3 mispredict").or_default() += 1;
                        self.dist[d].cnt += 1;
                    }
                    // CNT_DECAY: a right prediction pays one back.
                    if !bad && self.p.CNT_DECAY == 1 && dd.cnt > 0 {
                        *self.ev.entry("rule3 decay").or_default() += 1;
                        self.dist[d].cnt -= 1;
                    }
                    if !dd.live && c == dd.lead_cta && self.dist[d].cnt < thr {
                        *self.ev.entry("rule3 leading CTA ended").or_default() += 1;
                    }
                    if dd.live && c == dd.lead_cta && self.dist[d].cnt < thr {
                        *self.ev.entry("rule3 job A").or_default() += 1;
                        job = Some(MJob::A {
                            pc,
                            w,
                            c,
                            s: dd.stride,
                        });
                    }
                } else if n != pe.n {
                    *self.ev.entry("rule4 n differs").or_default() += 1;
                    self.cta[c as usize][e].valid = false;
                } else {
                    job = self.rule4(pc, c, w, n, a, e);
                }
            }
        }
        job
    }

    /// Rule 4 on a load by another warp than the leader, for a PC with no
    /// stride yet (entry `e` of CTA `c`, with as many addresses): trains a
    /// stride (job A) or invalidates the entry.
    fn rule4(&mut self, pc: u64, c: u64, w: u64, n: usize, a: [u64; 4], e: usize) -> Option<MJob> {
        let am = self.amask();
        let now = self.time;
        let pe = self.cta[c as usize][e];
        let delta = w as i64 - pe.lead as i64;
        let ad = delta.unsigned_abs();
        if !ad.is_power_of_two() {
            return None;
        }
        let m = ad.trailing_zeros();
        let bits = self.p.ADDR_W as u32;
        let mut ss = Vec::new();
        let mut ok = true;
        for (x, b) in a.iter().zip(pe.base).take(n) {
            let diff = x.wrapping_sub(b) & am;
            if diff & ((1u64 << m) - 1) != 0 {
                ok = false;
            }
            // Sign-extend to 64 bits, shift arithmetically.
            let sx = ((diff << (64 - bits)) as i64) >> (64 - bits);
            let mut q = (sx >> m) as u64;
            if delta < 0 {
                q = q.wrapping_neg();
            }
            ss.push(q & am);
        }
        if !ok || ss.iter().any(|&x| x != ss[0]) {
            *self.ev.entry("rule4 invalidate").or_default() += 1;
            self.cta[c as usize][e].valid = false;
            None
        } else if ss[0] != 0 {
            *self.ev.entry("rule4 train").or_default() += 1;
            let v = victim(
                &self
                    .dist
                    .iter()
                    .map(|e| (e.valid, e.stamp))
                    .collect::<Vec<_>>(),
            );
            self.dist[v] = MDist {
                valid: true,
                pc,
                stride: ss[0],
                cnt: 0,
                lead_cta: c,
                live: true,
                stamp: now,
            };
            Some(MJob::A { pc, w, c, s: ss[0] })
        } else {
            None
        }
    }
}

/// xorshift64*: deterministic stimulus without extra dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Random loads from a few striding PCs (plus noise, broadcasts,
/// indirect and ineligible loads, launches, back-pressure, resets).
fn random_inputs(p: &CapsParams, seed: u64, cycles: usize) -> Vec<CapsIn> {
    const NPC: u64 = 6;
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let ncta = p.N_CTA;
    let strides: [u64; NPC as usize] = [0x80, 0xffff_ff00, 0, 0x180, 0x40, 0x200];
    let mut bases: Vec<u64> = (0..ncta * NPC).map(|_| r.next() & 0xffff_ff80).collect();
    let mut cfg = 3 + r.below(5);
    let mut v = Vec::with_capacity(cycles);
    for t in 0..cycles {
        let mut i = CapsIn {
            reset: t == 0 || r.below(1000) < 3,
            cfg_warps_per_cta: cfg,
            pf_ready: r.chance(70),
            ..Default::default()
        };
        if r.chance(2) {
            let slot = r.below(ncta);
            i.cta_launch_valid = true;
            i.cta_launch_slot = slot;
            for j in 0..NPC {
                bases[(slot * NPC + j) as usize] = r.next() & 0xffff_ff80;
            }
        }
        if r.chance(1) {
            cfg = r.below(9);
            i.cfg_warps_per_cta = cfg;
        }
        if r.chance(60) {
            let c = r.below(ncta);
            let j = r.below(NPC);
            let w = r.below(cfg + 2);
            let base = bases[(c * NPC + j) as usize];
            let n = match r.below(100) {
                0..=84 => 1 + j % p.MAX_ADDRS,
                85..=94 => 1 + r.below(p.MAX_ADDRS),
                _ => r.below(40),
            };
            i.ld_valid = true;
            i.ld_pc = 0x100 + 8 * j;
            i.ld_cta = c;
            i.ld_warp = w;
            i.ld_count = n;
            i.ld_indirect = r.chance(3);
            for k in 0..4 {
                let mut a = base
                    .wrapping_add(0x80 * k as u64)
                    .wrapping_add(w.wrapping_mul(strides[j as usize]));
                if r.chance(2) {
                    a ^= 1 << r.below(12);
                }
                i.ld_addr[k] = a & 0xffff_ffff;
            }
        }
        v.push(i);
    }
    v
}

fn compare_with_model(p: &CapsParams, seed: u64, cycles: usize) -> usize {
    compare_with_model_ev(p, seed, cycles).0
}

/// [`compare_with_model`], with the contract model's event counts.
fn compare_with_model_ev(
    p: &CapsParams,
    seed: u64,
    cycles: usize,
) -> (usize, std::collections::BTreeMap<&'static str, usize>) {
    let ins = random_inputs(p, seed, cycles);
    let mut d = Drv::new(p);
    let mut m = Model::new(p);
    let mut pfs = 0;
    for (t, i) in ins.iter().enumerate() {
        let got = d.cycle(i);
        let want = m.cycle(i);
        assert_eq!(got, want, "seed {seed} cycle {t}: inputs {i:?}");
        pfs += (got.pf_valid && i.pf_ready) as usize;
    }
    eprintln!("seed {seed}: {pfs} prefetches, events {:?}", m.ev);
    (pfs, m.ev)
}

#[test]
fn random_against_contract_model_paper() {
    let p = CapsParams {
        MISPRED_THRESHOLD: 6,
        ..Default::default()
    };
    let mut pfs = 0;
    let mut ended = 0;
    for seed in 1..=4 {
        let (n, ev) = compare_with_model_ev(&p, seed, 3000);
        pfs += n;
        ended += ev.get("rule3 leading CTA ended").copied().unwrap_or(0);
    }
    assert!(pfs > 300, "too few prefetches ({pfs}) to mean anything");
    // Trailing loads of a CTA launched into a leading slot (no job A).
    assert!(ended > 0, "the stimulus never relaunches a leading slot");
}

#[test]
fn random_against_contract_model_odd_sizes() {
    // Each value of LOOP_JOBS and CNT_DECAY among them.
    for (seed, n_cta, ent, loop_jobs, decay) in
        [(21, 16, 3, 1, 0), (22, 8, 3, 0, 1), (23, 16, 4, 1, 1)]
    {
        let p = CapsParams {
            N_CTA: n_cta,
            PERCTA_ENTRIES: ent,
            DIST_ENTRIES: 7 - ent,
            LOOP_JOBS: loop_jobs,
            CNT_DECAY: decay,
            MISPRED_THRESHOLD: 20,
            JOBQ_DEPTH: 3,
            PFQ_DEPTH: 2,
            ..Default::default()
        };
        let pfs = compare_with_model(&p, seed, 2000);
        assert!(pfs > 100, "too few prefetches ({pfs})");
    }
}

/// The emitted Verilog, simulated by Icarus Verilog, gives the outputs of
/// the rust-hdl simulation cycle for cycle (random stimulus; `cosim`'s
/// self-checking test bench, cycle 0 before the first reset edge not
/// checked).
#[test]
fn iverilog_matches_rust_simulation() {
    if !tool(Tool::Iverilog) {
        return;
    }
    for (tag, p) in [
        (
            "iv_paper",
            CapsParams {
                MISPRED_THRESHOLD: 6,
                ..Default::default()
            },
        ),
        (
            "iv_small",
            CapsParams {
                N_CTA: 2,
                PERCTA_ENTRIES: 2,
                DIST_ENTRIES: 1,
                MAX_ADDRS: 2,
                JOBQ_DEPTH: 1,
                PFQ_DEPTH: 3,
                MISPRED_THRESHOLD: 3,
                ..Default::default()
            },
        ),
    ] {
        let ins = random_inputs(&p, 77, 1500);
        let mut d = Drv::new(&p);
        let mut rec = Recording {
            reset_cycles: 1,
            ..Default::default()
        };
        let widths: Vec<u32> = CapsPrefetcher::inputs(&p).iter().map(|q| q.width).collect();
        for i in &ins {
            let o = d.cycle(i);
            let v = CapsPrefetcher::in_values(&p, i);
            rec.inputs.push(
                v.iter()
                    .zip(&widths)
                    .map(|(x, w)| x & ports::mask(*w))
                    .collect(),
            );
            rec.outputs.push(CapsPrefetcher::out_values(&p, &o));
        }
        let design = eda::TempVerilog::new(&emit_checked(&p), "caps_prefetcher").unwrap();
        let tb = eda::TempVerilog::new(
            &testbench::<CapsPrefetcher>(&p, &rec, "rust-hdl simulation"),
            "tb_caps_prefetcher",
        )
        .unwrap();
        let text =
            eda::run_iverilog_testbench(&[tb.path(), design.path()], "tb_caps_prefetcher").unwrap();
        assert!(text.contains("PASS"), "{tag}: {text}");
    }
}

#[test]
fn random_against_contract_model_small() {
    for (seed, m, jq, pq) in [(11, 1, 1, 1), (12, 2, 1, 2), (13, 4, 3, 1), (14, 3, 2, 5)] {
        let p = CapsParams {
            N_CTA: 2,
            PERCTA_ENTRIES: 1 + seed % 2,
            DIST_ENTRIES: 1 + (seed / 2) % 2,
            MAX_ADDRS: m,
            JOBQ_DEPTH: jq,
            PFQ_DEPTH: pq,
            MISPRED_THRESHOLD: 3,
            ..Default::default()
        };
        let pfs = compare_with_model(&p, seed, 3000);
        assert!(pfs > 50, "too few prefetches ({pfs})");
    }
}
