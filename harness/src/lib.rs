//! The golden SM harness (`sm_harness.md`): a cycle-level model of one
//! streaming multiprocessor, or of all `n_sm` of them sharing the memory
//! below their L1s (`sms = all`), that runs kernels written in a small TOML
//! format and drives the golden models of the units every cycle, each in
//! its role slot (prefetcher, L1, expander) — and, through [`Probe`]s,
//! their RTL in lock-step and stimulus recorders.
//!
//! ```no_run
//! use harness::{Harness, Kernel, MachineConfig};
//! let kernel = Kernel::from_file("kernels/lps.toml".as_ref(), &[], 1).unwrap();
//! let mut cfg = MachineConfig::fermi();
//! cfg.set("prefetcher", "caps").unwrap();
//! cfg.set("sched", "pas").unwrap();
//! let metrics = Harness::new(&kernel, &cfg).run().unwrap();
//! println!("{}", metrics.table());
//! ```
//!
//! Modules: [`affine`] (the tuples of DAC's affine warp), `decouple`
//! (DAC's decoupling of a kernel and its affine warp; the SM's side of DAC
//! is `sm/dac_side.rs`), [`config`] (the machine and its keys), [`presets`]
//! (the papers' machines), [`kernel`] (the file format, its errors and
//! the compiler), [`expr`] (expressions and their classification),
//! [`memsys`] (the memory below the L1: the flat model and the
//! interconnect / L2 / DRAM hierarchy), `decoupled` (the L1's decoupled
//! mode for Snake, its rules in that module's source), [`metrics`] (what
//! a run measures, with the definitions of every figure), [`counts`] (a
//! unit's own counters), [`reuse`] (the BA thesis's reuse-distance
//! profile and its stack-distance structure), [`roles`] (the role slots
//! the cycle loop talks to), [`lanes`] (a load's shape across its lanes:
//! Snake's `ld_uniform` per row of the block and `ld_span`), [`registry`] (how a unit declares itself for
//! a role, the generic wrapper of its golden model and probes, the table
//! of units, and the machine's choices checked through it), [`stimulus`]
//! (the stimulus files), [`trace`] (Accel-Sim trace reading), `sched`
//! (the warp schedulers), `occupancy` (CTAs resident per SM), `hash` (the
//! line hasher). The cycle loop itself is documented in the `sm` module
//! source.
//!
//! Probes and recorders attach to a unit by name:
//!
//! ```no_run
//! # use harness::{Harness, Kernel, MachineConfig};
//! # let kernel = Kernel::from_file("kernels/lps.toml".as_ref(), &[], 1).unwrap();
//! let mut cfg = MachineConfig::fermi();
//! cfg.enable_unit("ba_tag_array").unwrap(); // l1 = ba
//! let metrics = Harness::new(&kernel, &cfg)
//!     .record("ba_tag_array", "ba.jsonl")
//!     .run()
//!     .unwrap();
//! ```

pub mod adapters;
pub mod affine;
pub(crate) mod affine_warp;
pub mod baselines;
pub mod bypass;
pub mod catt;
pub mod config;
pub mod counts;
pub(crate) mod decouple;
pub(crate) mod decoupled;
pub mod error;
pub mod expr;
pub(crate) mod hash;
pub mod input_file;
pub mod interwarp;
pub mod kernel;
pub(crate) mod l1;
pub mod lanes;
pub mod memsys;
pub mod metrics;
pub(crate) mod occupancy;
pub mod options;
pub mod presets;
pub mod registry;
pub mod reuse;
pub mod roles;
pub mod runner;
pub(crate) mod sched;
pub(crate) mod sm;
pub mod stimulus;
pub(crate) mod text;
pub mod trace;

pub use config::{
    Decoupling, InstrClass, Latencies, MachineConfig, MachineConfigError, MemModel, SchedPolicy,
    SmScope,
};
pub use error::HarnessError;
pub use expr::{Class, ExprClass};
pub use kernel::{ArrayInfo, Kernel, KernelError, MemInstrInfo};
pub use metrics::{DacMetrics, Metrics, SmSummary, UnitCounts};
pub use options::{Progress, ProgressFn, RunOptions};
pub use registry::{
    role_choices, unit_params, Attached, HarnessUnit, PrefetchFigure, Switch, UnitContext,
    UnitEntry, UNITS,
};
pub use roles::{
    BlockShape, Choice, DeqResponse, EnqTuple, ExpanderRole, L1Outcome, L1Plan, L1Response, L1Role,
    LoadInfo, PrefetchOffer, PrefetcherRole, Pressure, Role, RoleObject, TupleCmp, TupleKind,
    WarpRef,
};
pub use runner::{run, Harness};
pub use stimulus::{read_stimulus, replay, StimulusFile, StimulusWriter};
