//! The BA thesis's reuse-distance profile as pictures and as its
//! cache-size study (Wang 2016, chapters 3-4; the profile itself is
//! `harness::reuse`):
//!
//! * [`profile_svg`] ([`profile`]): `warpgen run ... --reuse-distance FILE.svg` writes one
//!   SVG of stacked panels: the histogram (the seven intervals per set and
//!   fully associative, and Table 1's rd0 / rd1 / rd2), the profile over
//!   time (Figure 13's view: per window of cycles the share of each
//!   interval, with the accesses per window), and per load PC the
//!   intervals and the classes.
//! * [`study()`] ([`mod@study`]): `warpgen reuse --kernel FILE` runs the kernel at each L1
//!   size and associativity (default 16, 32, 48 KB x 4, 8 ways) in
//!   parallel and tabulates, per configuration, the hit rate, rd0 / rd1 /
//!   rd2 and the seven intervals (Figures 7 and 8), with a figure.
//!
//! A run of several kernels (a trace folder) is profiled as their sum, as
//! the thesis does ("every distribution is the sum of all cores and
//! kernels"), its timeline one kernel after the other.

pub mod profile;
pub mod study;

pub use profile::{combined, kernels_name, profile_svg, write_profile};
pub use study::{study, study_command, study_svg, study_table, StudyArgs, StudyRow};
