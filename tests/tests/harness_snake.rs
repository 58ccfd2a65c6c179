//! Snake in the SM harness (issue items 5 and 6): the prefetcher with the
//! L1 in decoupled mode, fed `cache_full` and `bw_util`, and the paper's
//! claims as far as the harness can show them: Snake covers more of LPS
//! than CAPS, the throttle engages when bandwidth saturates, and turning
//! decoupling off lowers accuracy.

mod common;
use common::{counter, kernel, LPS_128};

use harness::metrics::{PrefetchMetrics, UnitCounts};
use harness::{Harness, Kernel, MachineConfig, Metrics};

fn run_on(preset: MachineConfig, k: &Kernel, sets: &[(&str, &str)]) -> Metrics {
    let mut c = preset;
    for (key, v) in sets {
        c.set(key, v).unwrap();
    }
    Harness::new(k, &c)
        .run()
        .unwrap_or_else(|e| panic!("{}: {e}", k.name))
}

fn pf(m: &Metrics) -> &PrefetchMetrics {
    m.prefetch.as_ref().expect("a prefetcher ran")
}

fn decoupled(m: &Metrics) -> &UnitCounts {
    assert_eq!(m.l1.counts.key, "decoupled", "{:?}", m.l1.counts);
    &m.l1.counts
}

#[test]
fn snake_runs_with_the_l1_decoupled_and_its_rules_fire() {
    let k = kernel("lps.toml", LPS_128);
    let m = run_on(MachineConfig::fermi(), &k, &[("prefetcher", "snake")]);
    eprintln!("{}", m.table());
    assert!(m.run.decoupled);
    assert!(m.table().contains("L1 lru (decoupled)"));
    let p = pf(&m);
    let d = decoupled(&m);
    // Prefetches were issued and used, some found the line still in
    // flight; eager wake-up found its warps by their SM slot.
    assert!(p.issued > 500 && p.useful > 100 && p.late > 0, "{p:?}");
    assert!(p.eager_wakeups > 0);
    // Demand hits moved prefetched lines to the L1 side, the L1 side was
    // capped before Snake trained, and the 16 KB storage filled and freed
    // a quarter of itself, each time raising cache_full for one cycle,
    // which the throttle turned into a pause.
    assert!(d.get("flips").unwrap() > 100);
    assert!(d.get("cap_replacements").unwrap() > 0);
    let free_ups = d.get("free_ups").unwrap();
    assert!(free_ups > 0);
    assert_eq!(d.get("lines_freed").unwrap(), free_ups * 128 / 4);
    assert_eq!(p.cache_full_cycles, free_ups);
    assert!(counter(p, "throttled_cycles") >= 50 * free_ups / 2);
    // Every prefetch kind of the chain walker reached the L1.
    assert!(counter(p, "prefetches_chain") > 0 && counter(p, "prefetches_inter") > 0);
    assert!(counter(p, "promotions") > 0 && counter(p, "loops_closed") > 0);
    // Snake's own definitions, printed beside CAPS's.
    let t = m.table();
    assert!(t.contains("timely / demand") && t.contains("cache-full cycles"));
    let json = serde_json::to_value(&m).unwrap();
    assert!(json["l1"]["decoupled"]["free_ups"].as_u64().unwrap() > 0);
    assert!(json["prefetch"]["snake"]["prefetches"].as_u64().unwrap() > 0);
}

#[test]
fn decoupling_follows_the_prefetcher_unless_set() {
    let k = kernel("vector_add.toml", &[]);
    let snake_off = run_on(
        MachineConfig::fermi(),
        &k,
        &[("prefetcher", "snake"), ("decoupled", "off")],
    );
    assert!(!snake_off.run.decoupled && snake_off.l1.counts.key.is_empty());
    assert_eq!(pf(&snake_off).cache_full_cycles, 0);
    let caps = run_on(MachineConfig::fermi(), &k, &[("prefetcher", "caps")]);
    assert!(!caps.run.decoupled);
    let caps_on = run_on(
        MachineConfig::fermi(),
        &k,
        &[("prefetcher", "caps"), ("decoupled", "on")],
    );
    assert!(caps_on.run.decoupled);
    assert!(decoupled(&caps_on).get("flips").unwrap() > 0);
}

/// The Snake paper (§1): "Snake achieves 80% coverage"; against CAPS
/// ("CTA-aware") its coverage is 70 % higher. On the LPS kernel of both
/// papers, Snake's coverage (used prefetches / demand accesses) exceeds
/// CAPS's on the CAPS paper's machine (Fermi, CAPS with PAS) and on the
/// Snake paper's (Volta). The CAPS compared is the one the papers
/// describe, whose rule 2 enqueues no job (`caps.LOOP_JOBS = 0`); this
/// project's revision (`LOOP_JOBS = 1`, every loop iteration prefetched)
/// covers more of LPS than Snake does on Fermi (0.116 against 0.104); on
/// Volta Snake stays ahead (0.33 against 0.22).
#[test]
fn snake_covers_more_of_lps_than_caps() {
    let k = kernel("lps.toml", LPS_128);
    for (preset, caps_sched) in [
        (MachineConfig::fermi(), "pas"),
        (MachineConfig::volta(), "gto"),
    ] {
        let name = preset.preset.clone();
        let caps = run_on(
            preset.clone(),
            &k,
            &[
                ("prefetcher", "caps"),
                ("sched", caps_sched),
                ("caps.LOOP_JOBS", "0"),
            ],
        );
        let snake = run_on(preset, &k, &[("prefetcher", "snake")]);
        let (c, s) = (pf(&caps), pf(&snake));
        eprintln!(
            "{name}: coverage CAPS {:.3} Snake {:.3}; IPC: CAPS {:.3} Snake {:.3}",
            c.coverage, s.coverage, caps.ipc, snake.ipc
        );
        assert!(
            s.coverage > 1.5 * c.coverage && s.coverage > 0.05,
            "{name}: Snake {:.3} vs CAPS {:.3}",
            s.coverage,
            c.coverage
        );
    }
}

/// The Snake paper (§3.3): "When the bandwidth approaches saturation (...
/// 70% of the theoretical peak bandwidth), our throttling mechanism halts
/// prefetching until the bandwidth saturation is resolved (... 50%)".
/// Decoupling is off so that only the bandwidth can throttle.
#[test]
fn the_throttle_engages_when_bandwidth_saturates() {
    let k = kernel("stream.toml", &[]);
    let at = |interval: &str| {
        run_on(
            MachineConfig::fermi(),
            &k,
            &[
                ("prefetcher", "snake"),
                ("decoupled", "off"),
                ("mem_interval", interval),
            ],
        )
    };
    let wide = at("1");
    let narrow = at("4");
    let (w, n) = (pf(&wide), pf(&narrow));
    eprintln!(
        "bandwidth {:.2} / {:.2}; throttled {} / {} cycles; issued {} / {}",
        wide.memory.bandwidth_utilisation,
        narrow.memory.bandwidth_utilisation,
        counter(w, "throttled_cycles"),
        counter(n, "throttled_cycles"),
        w.issued,
        n.issued
    );
    // With bandwidth to spare the throttle never engages ...
    assert!(wide.memory.bandwidth_utilisation < 0.7);
    assert_eq!(counter(w, "throttled_cycles"), 0);
    // ... with a quarter of it the memory is busy (over the whole run,
    // the idle tail included), Snake is halted for most of the run and
    // issues far fewer prefetches.
    assert!(narrow.memory.bandwidth_utilisation > 0.5);
    assert!(counter(n, "throttled_cycles") * 2 > narrow.cycles);
    assert!(n.issued * 4 < w.issued);
    // The same halts with a threshold it cannot reach are gone (bw_util
    // is at most 100; BW_HIGH = 100 needs a fully busy window).
    let lax = run_on(
        MachineConfig::fermi(),
        &k,
        &[
            ("prefetcher", "snake"),
            ("decoupled", "off"),
            ("mem_interval", "4"),
            ("snake.BW_HIGH", "100"),
            ("snake.BW_LOW", "99"),
        ],
    );
    assert!(counter(pf(&lax), "throttled_cycles") < counter(n, "throttled_cycles") / 2);
}

/// The Snake paper (§5, Figure 17): "without decoupling, Snake experiences
/// a 50% loss in accuracy due to early eviction by normal data from the L1
/// data cache". On the Snake paper's machine (Volta preset), turning the
/// decoupled mode off lowers accuracy by both papers' definitions and
/// evicts more prefetches before use.
#[test]
fn turning_decoupling_off_lowers_accuracy() {
    for name in ["vector_add.toml", "atax1.toml"] {
        let k = kernel(name, &[]);
        let at = |d: &str| {
            run_on(
                MachineConfig::volta(),
                &k,
                &[("prefetcher", "snake"), ("decoupled", d)],
            )
        };
        let on = at("on");
        let off = at("off");
        let (a, b) = (pf(&on), pf(&off));
        eprintln!(
            "{name}: accuracy on {:.3} off {:.3}; timely/demand on {:.3} off {:.3}; \
             early-evicted on {} off {}",
            a.accuracy,
            b.accuracy,
            a.timely_per_demand,
            b.timely_per_demand,
            a.early_evicted,
            b.early_evicted
        );
        assert!(a.accuracy > 1.2 * b.accuracy, "{name}");
        assert!(a.timely_per_demand >= b.timely_per_demand, "{name}");
        assert!(
            (a.early_evicted as f64 / a.issued as f64) < (b.early_evicted as f64 / b.issued as f64),
            "{name}"
        );
    }
}
