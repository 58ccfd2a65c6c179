//! The role slots of the modelled SM: what the cycle loop (`sm.rs`) asks of
//! the unit in each slot, and nothing about which unit fills it.
//!
//! A slot is filled either by the harness's own native behaviour (no
//! prefetcher; the harness's LRU tag array) or by a unit's golden model
//! wrapped in its role adapter (`harness/src/adapters/<unit>.rs`), chosen by
//! name in the machine configuration (`prefetcher = caps`, `l1 = ba`). The
//! adapters turn these calls into the unit's port values; the harness never
//! sees a unit's ports, so a new prefetcher or L1 policy is its own files
//! plus one line in `ports::for_each_unit!`.
//!
//! The calls of one cycle follow the cycle order documented in the `sm`
//! module: requests and observations during the cycle, then one `step`
//! (the clock edge) per unit, prefetcher first.

use crate::counts::UnitCounts;
use crate::error::HarnessError;

/// A slot of the SM that a unit can fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The L1 prefetcher ([`PrefetcherRole`]): sees CTA launches and the
    /// coalesced demand loads; its prefetches enter the L1 below demand
    /// priority. Machine key `prefetcher`; native choice `none`.
    Prefetcher,
    /// The L1 tag array ([`L1Role`]): decides hit, miss, bypass and
    /// evictions for every line request. Machine key `l1`; native choice
    /// `lru`.
    L1,
    /// The slot beside the warp scheduler where an expansion unit
    /// ([`ExpanderRole`]) turns the tuples of DAC's affine warp, which
    /// executes the kernel's affine stream ahead of the other warps
    /// (`harness::decouple`), into per-warp records. Machine key `expander`;
    /// native choice `none`.
    Expander,
}

impl Role {
    /// Every role, in the order the harness steps and lists them.
    pub const ALL: [Role; 3] = [Role::Prefetcher, Role::L1, Role::Expander];

    /// The machine-configuration key (and command-line option) that
    /// selects the slot's choice: `prefetcher`, `l1`, `expander`.
    pub fn key(self) -> &'static str {
        match self {
            Role::Prefetcher => "prefetcher",
            Role::L1 => "l1",
            Role::Expander => "expander",
        }
    }

    /// The choice that fills the slot with the harness's own behaviour
    /// (no unit model), with its one-line help.
    pub fn native(self) -> Choice {
        match self {
            Role::Prefetcher => Choice {
                name: "none",
                help: "no prefetching",
            },
            Role::L1 => Choice {
                name: "lru",
                help: "the harness's own LRU tag array (allocate on a load miss)",
            },
            Role::Expander => Choice {
                name: "none",
                help: "no expansion unit",
            },
        }
    }
}

/// One name a role slot can be set to, with its one-line help (for
/// `--prefetcher` / `--l1` and their `--help`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The name in the machine configuration and on the command line.
    pub name: &'static str,
    /// What choosing it means, in one line.
    pub help: &'static str,
}

/// A unit attached to the run, as the role object the SM talks to.
pub enum RoleObject {
    /// Fills [`Role::Prefetcher`].
    Prefetcher(Box<dyn PrefetcherRole>),
    /// Fills [`Role::L1`].
    L1(Box<dyn L1Role>),
    /// Fills [`Role::Expander`].
    Expander(Box<dyn ExpanderRole>),
}

impl RoleObject {
    /// The role this object fills.
    pub fn role(&self) -> Role {
        match self {
            RoleObject::Prefetcher(_) => Role::Prefetcher,
            RoleObject::L1(_) => Role::L1,
            RoleObject::Expander(_) => Role::Expander,
        }
    }
}

/// A demand load issued this cycle, as the prefetcher observes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadInfo<'a> {
    /// The load instruction's PC.
    pub pc: u64,
    /// CTA slot of the issuing warp (0..resident CTAs).
    pub cta_slot: u32,
    /// Index of the issuing warp within its CTA.
    pub warp: u32,
    /// The issuing warp's slot in the SM (0..`max_warps`).
    pub sm_warp: u32,
    /// The coalesced line addresses of the load, ascending.
    pub lines: &'a [u64],
    /// Per line of `lines`: the lowest byte address the warp touches in
    /// it (the request address CAPS sees: sub-line strides can be
    /// learnt).
    pub firsts: &'a [u64],
    /// The address of the lowest active thread (modulo 2^32).
    pub first_addr: u64,
    /// The active lanes of each row of the block are one stride apart, the
    /// same stride in every row (Snake's `ld_uniform`:
    /// [`LaneShape::uniform`](crate::lanes::LaneShape::uniform)).
    pub uniform: bool,
    /// Bytes from the first to the last active lane's address, 0 if below
    /// it, at most 4095 (Snake's `ld_span`:
    /// [`LaneShape::span`](crate::lanes::LaneShape::span)).
    pub span: u32,
    /// One past the last warp slot of the issuing warp's CTA (Snake's
    /// `ld_cta_end`): CTA slot `s` holds warp slots `[s * wpc, (s + 1) *
    /// wpc)` (`sm/launch.rs`).
    pub cta_end: u32,
    /// The address depends on loaded data (the machine's `caps_hint` and
    /// the kernel's classification; always false for traces).
    pub indirect: bool,
}

/// The warp a prefetch is for, as the prefetcher names it (eager wake-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpRef {
    /// By CTA slot and index within the CTA (CAPS's `pf_cta`, `pf_warp`).
    InCta {
        /// CTA slot (0..resident CTAs).
        cta_slot: u64,
        /// Index within the CTA.
        warp: u64,
    },
    /// By the warp's slot in the SM (Snake's `pf_warp`, fed from
    /// [`LoadInfo::sm_warp`]).
    Sm(u64),
}

/// The prefetch a prefetcher offers during this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefetchOffer {
    /// Byte address to prefetch (the harness takes its line).
    pub addr: u64,
    /// The warp the prefetch is for (eager wake-up; a warp that does not
    /// exist, or is not waiting, is simply not woken).
    pub warp: WarpRef,
    /// The footprint to prefetch, bytes beyond `addr` (Snake's `pf_span`;
    /// 0 for one line): the L1 takes every line of `[addr, addr + span]`,
    /// one prefetch request per line, up to the machine's
    /// `snake_span_lines` (a wider footprint prefetches its first line
    /// only; `sm/prefetches.rs`).
    pub span: u32,
}

/// What the cache and the memory model report to the prefetcher every
/// cycle (Snake's throttle inputs, `snake.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pressure {
    /// The L1 found no free space for the previous cycle's allocation and
    /// freed lines ([`L1Role::cache_full`]).
    pub cache_full: bool,
    /// Lower-memory bandwidth utilisation over the machine's `bw_window`,
    /// percent (0..=100).
    pub bw_util: u32,
}

/// Whether warp `warp` (index within its CTA) is a leading warp for the
/// prefetch-aware scheduler when no prefetcher says otherwise: warp 0 of
/// each CTA.
pub fn default_leading_warp(warp: u32) -> bool {
    warp == 0
}

/// The prefetcher slot: what the SM tells a prefetcher and asks of it.
pub trait PrefetcherRole {
    /// A CTA was placed in slot `slot` this cycle (its warps are ready).
    fn cta_launch(&mut self, slot: u32);
    /// A demand load issued this cycle (at most one per cycle).
    fn load(&mut self, ld: &LoadInfo<'_>);
    /// The prefetch offered during this cycle (from the state at the start
    /// of the cycle), if any. It stays offered until [`Self::accept`]ed.
    fn offer(&self) -> Option<PrefetchOffer>;
    /// The L1 took the offered prefetch this cycle (issued it, or dropped
    /// it because its line is present or in flight). Without this call the
    /// offer is held: back-pressure.
    fn accept(&mut self);
    /// Whether the prefetcher still has work that will produce a prefetch
    /// (an offer, queued jobs, a busy generator): the harness does not
    /// report a deadlock while it has.
    fn busy(&self) -> bool;
    /// Whether every cycle must be simulated (a golden model stepped every
    /// cycle); when false, idle cycles may be skipped (`fast_forward`).
    fn needs_every_cycle(&self) -> bool;
    /// This cycle's cache and memory pressure, given every simulated cycle
    /// before [`Self::step`]. Prefetchers without a throttle ignore it.
    fn pressure(&mut self, _p: Pressure) {}
    /// A demand request of warp slot `sm_warp` missed the L1 this cycle
    /// and went to memory for line `line` (not a merge into a request in
    /// flight). Ignored by default (the miss-driven baselines use it).
    fn miss(&mut self, _line: u64, _sm_warp: u32) {}
    /// Whether warp `warp` (index within its CTA) is a leading warp, which
    /// the prefetch-aware scheduler (`sched = pas`) promotes and issues
    /// first. The default marks warp 0 of each CTA, as without a
    /// prefetcher ([`default_leading_warp`]).
    fn leading_warp(&self, warp: u32) -> bool {
        default_leading_warp(warp)
    }
    /// How many distinct load PCs a leading warp issues before the
    /// prefetch-aware scheduler clears its marker (`sm_harness.md`,
    /// revision 3: the prefetcher's PerCTA entries); `None` (the default):
    /// only a load PC the warp issued before clears it.
    fn leading_loads(&self) -> Option<u32> {
        None
    }
    /// The clock edge of this cycle; `reset` is this cycle's reset input.
    /// An error is a probe's (lock-step difference, stimulus file).
    fn step(&mut self, reset: bool) -> Result<(), HarnessError>;
    /// The prefetcher's own event counters and their table line, for the
    /// run's metrics.
    fn counts(&self) -> UnitCounts;
    /// The run ended normally: finish the probes (flush recordings).
    fn finish(&mut self) -> Result<(), HarnessError>;
}

/// What the L1 tag array decided for a line request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum L1Outcome {
    /// Load: the tag is present and holds data.
    Hit,
    /// Load: the tag is absent; a line is allocated.
    Miss,
    /// Load: the tag is absent and the request is not cached (BA).
    Bypass,
    /// Load: a bypass tag is present; the line is now fetched into the
    /// cache (BA).
    PseudoHit,
    /// Store: the tag was present and is invalidated.
    WriteEvict,
    /// Store: the tag is absent.
    WriteMiss,
}

impl L1Outcome {
    /// Upper-case name, as in `ba_cache.md`'s outcome table (`HIT`, ...).
    pub fn name(self) -> &'static str {
        match self {
            L1Outcome::Hit => "HIT",
            L1Outcome::Miss => "MISS",
            L1Outcome::Bypass => "BYPASS",
            L1Outcome::PseudoHit => "PSEUDO_HIT",
            L1Outcome::WriteEvict => "WRITE_EVICT",
            L1Outcome::WriteMiss => "WRITE_MISS",
        }
    }
}

/// What a load or prefetch request of a line made now would be decided
/// ([`L1Role::plan`]), known before the SM takes an MSHR (`sm_harness.md`,
/// revision 3: "the L1 policy decides first").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum L1Plan {
    /// The line holds data: a hit.
    Hit,
    /// A way is allocated (`MISS`, or BA's `PSEUDO_HIT`): the SM takes an
    /// MSHR, and the way stays reserved until [`L1Role::fill`].
    Allocate,
    /// Not cached (`BYPASS`): the request goes to memory without an MSHR
    /// and its response returns to the warp directly.
    Bypass,
    /// The request must allocate but every way of its set is reserved (in
    /// flight) or pinned: nothing is decided, the request is retried (a
    /// prefetch is dropped).
    ReservationFail,
}

/// The tag array's response to the previous cycle's request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L1Response {
    /// The decision.
    pub outcome: L1Outcome,
    /// Line address of a line holding data that the request displaced.
    pub evicted: Option<u64>,
}

/// The L1 slot: the tag array, with the port timing of `ba_tag_array`: a
/// request made in a cycle is decided against the state at the start of
/// the cycle, updates the state at the edge, and its response is read
/// during the next cycle.
pub trait L1Role {
    /// A load of `addr` now would hit (the tag is present and holds data).
    fn holds_data(&self, addr: u64) -> bool;
    /// What a load (`prefetch`: a prefetch) request of `addr` made this
    /// cycle would be decided, against the state at the start of the cycle
    /// (fills and pins of this cycle included). The SM asks before it
    /// takes an MSHR and sends a request only when the plan is not
    /// [`L1Plan::ReservationFail`]; the response must then agree with the
    /// plan (checked). Default: a hit when the line holds data, else an
    /// allocation (a tag array without reservations never fails).
    fn plan(&self, addr: u64, _prefetch: bool) -> L1Plan {
        if self.holds_data(addr) {
            L1Plan::Hit
        } else {
            L1Plan::Allocate
        }
    }
    /// The line of `addr`, whose way a load miss or a prefetch allocated
    /// (reserved), is back from memory this cycle: its way is released
    /// (no longer in flight, a victim again). Takes effect at once. Nothing
    /// by default.
    fn fill(&mut self, _addr: u64) {}
    /// Make a request this cycle (at most one per cycle).
    fn request(&mut self, addr: u64, write: bool);
    /// Make a prefetch request this cycle (instead of [`Self::request`]):
    /// the harness sends one only for a line that is neither present nor
    /// in flight, and the line is allocated. By default a prefetch is
    /// allocated as a load miss is.
    fn request_prefetch(&mut self, addr: u64) {
        self.request(addr, false)
    }
    /// The response during this cycle to the previous cycle's request
    /// (`None` when there was none).
    fn response(&self) -> Option<L1Response>;
    /// The clock edge of this cycle; `reset` is this cycle's reset input.
    /// An error is a probe's.
    fn step(&mut self, reset: bool) -> Result<(), HarnessError>;
    /// Whether every cycle must be simulated (see
    /// [`PrefetcherRole::needs_every_cycle`]). False by default: a tag
    /// array modelled in the harness alone (the native LRU, the
    /// baselines) changes only on requests; a unit's golden model with
    /// probes beside it says true.
    fn needs_every_cycle(&self) -> bool {
        false
    }
    /// The run ended normally: finish the probes. Nothing to finish by
    /// default (no unit model, no probes).
    fn finish(&mut self) -> Result<(), HarnessError> {
        Ok(())
    }
    /// Lines holding data that the previous cycle's request displaced
    /// besides [`L1Response::evicted`] (a bulk free-up), appended to `out`
    /// during this cycle. None by default.
    fn take_freed(&mut self, _out: &mut Vec<u64>) {}
    /// Whether the previous cycle's request found the cache without free
    /// space (`cache_full`, read during this cycle). Never by default.
    fn cache_full(&self) -> bool {
        false
    }
    /// The prefetcher offered its first prefetch this cycle: it has
    /// trained. Ignored by default.
    fn prefetcher_trained(&mut self) {}
    /// The tag array's own event counters for the run's metrics (none by
    /// default).
    fn counts(&self) -> UnitCounts {
        UnitCounts::default()
    }
    /// Whether the tag array can pin lines ([`Self::set_locked`], DAC's
    /// lock counters). False by default.
    fn supports_locks(&self) -> bool {
        false
    }
    /// Pin (`true`) or unpin the line of `addr`, present or not: a pinned
    /// line is never chosen as a victim (the harness pins at most `ways -
    /// 1` lines of a set). Takes effect at once (before this cycle's
    /// request is decided). Ignored by default.
    fn set_locked(&mut self, _addr: u64, _locked: bool) {}
}

/// What a tuple of the affine warp asks the expansion unit for
/// (`dac.md`, `enq_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TupleKind {
    /// The address of a store (records only).
    Addr,
    /// The address of a load: records plus an early memory request per
    /// record.
    Data,
    /// A branch condition: one predicate mask per warp.
    Pred,
}

/// A signed comparison of a predicate tuple (`dac.md`, `enq_cmp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TupleCmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

/// A tuple the affine warp enqueues: `v = base + tx*off_tx + ty*off_ty +
/// cx*off_cx + cy*off_cy` (modulo 2^32) with what to make of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnqTuple {
    /// Records or predicate masks.
    pub kind: TupleKind,
    /// The tuple's five 32-bit terms: base, off_tx, off_ty, off_cx,
    /// off_cy.
    pub terms: [u32; 5],
    /// Access size in bytes for addresses: 1, 2 or 4.
    pub size: u32,
    /// The comparison of a predicate.
    pub cmp: TupleCmp,
    /// The scalar a predicate compares with (signed 32-bit).
    pub scalar: u32,
    /// `enq_guard`: a predicate sets each warp's guard mask; an address
    /// tuple is expanded under it (`docs/units/dac_expander.md`, "Guard
    /// masks").
    pub guard: bool,
}

/// The thread-block shape the expansion unit expands over (`dac.md`,
/// `cfg_*`), held for the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockShape {
    /// log2 of blockDim.x (for a 1-D block, of the smallest power of two
    /// that holds it).
    pub bdx_log2: u32,
    /// Threads per CTA.
    pub threads: u32,
    /// Warps per CTA.
    pub warps_per_cta: u32,
}

/// The response to the previous cycle's dequeue (`dac.md`, `rsp_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeqResponse {
    /// Something was popped (the queue was not empty).
    pub hit: bool,
    /// Region start of an address record.
    pub addr: u64,
    /// Chunk mask of an address record; the predicate mask of a predicate.
    pub mask: u32,
    /// Access size in bytes of an address record: 1, 2 or 4.
    pub size: u32,
    /// The warp's final record of its tuple.
    pub last: bool,
}

/// The expander slot: what DAC's affine warp and the non-affine warps ask
/// of the expansion unit, and what the SM tells it. Warps are named by
/// the unit's numbering: warp `wi` of the CTA in slot `c` is `c *
/// warps_per_cta + wi`.
pub trait ExpanderRole {
    /// The block shape, given every cycle (the unit's `cfg_*` inputs).
    fn shape(&mut self, s: BlockShape);
    /// A CTA with index `(x, y)` became active in slot `slot` this cycle.
    fn cta_launch(&mut self, slot: u32, x: u32, y: u32);
    /// The CTA in slot `slot` finished this cycle (at most one per cycle).
    fn cta_done(&mut self, slot: u32);
    /// Whether a tuple enqueued this cycle is taken (`enq_ready`).
    fn can_enqueue(&self) -> bool;
    /// Enqueue a tuple this cycle (only when [`Self::can_enqueue`]).
    fn enqueue(&mut self, t: &EnqTuple);
    /// The early memory request offered during this cycle: the byte
    /// address of a 128-byte line (`mem_valid`, `mem_addr`).
    fn early_request(&self) -> Option<u64>;
    /// The SM took the early request this cycle (`mem_ready`).
    fn accept_early(&mut self);
    /// Dequeue warp `warp`'s next record this cycle: an address record, or
    /// a predicate mask when `pred` (at most one dequeue per cycle).
    fn dequeue(&mut self, warp: u32, pred: bool);
    /// The response during this cycle to the previous cycle's dequeue.
    fn response(&self) -> Option<DeqResponse>;
    /// Tuples in the unit (`atq_count`), the one being expanded included.
    fn tuples_held(&self) -> u64;
    /// Warps whose predicate mask took the fast and the slow path so far.
    fn pred_paths(&self) -> (u64, u64);
    /// Warps a guarded address tuple skipped because its warp's guard mask
    /// enabled no lane (`stat_guard_skips`).
    fn guard_skips(&self) -> u64;
    /// Whether every cycle must be simulated (see
    /// [`PrefetcherRole::needs_every_cycle`]).
    fn needs_every_cycle(&self) -> bool;
    /// The clock edge of this cycle; `reset` is this cycle's reset input.
    /// An error is a probe's.
    fn step(&mut self, reset: bool) -> Result<(), HarnessError>;
    /// The unit's own event counters for the run's metrics.
    fn counts(&self) -> UnitCounts;
    /// The run ended normally: finish the probes.
    fn finish(&mut self) -> Result<(), HarnessError>;
}
