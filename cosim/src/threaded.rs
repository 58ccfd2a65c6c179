//! [`ThreadedProbe`]: a probe that runs another probe on a worker thread.
//!
//! The SM harness calls its probes on the simulation's thread, once per
//! cycle. A lock-step checker there costs the RTL's evaluation on top of
//! the harness's own work; on two cores, handing the cycles to a worker in
//! batches makes a run cost about the slower of the two instead of their
//! sum (the same split as [`crate::run_lockstep`], where the golden model
//! runs ahead on a second thread).
//!
//! The inner probe is built on the worker by a closure, so it needs not be
//! `Send` (the RustHDL back-end is not). Batches of [`BATCH`] cycles go
//! through a bounded channel (the harness runs at most a few batches
//! ahead) and come back empty to be refilled. A difference is therefore
//! reported to the harness up to a few batches after the cycle it happened
//! in; the report itself (the [`Mismatch`]: cycle, ports, input history,
//! waveform) is the inner probe's, exact to the cycle.

use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

use golden::check::{Probe, ProbeError};

/// Cycles handed to the worker at a time.
pub const BATCH: usize = 1024;

type Batch = (Vec<u64>, Vec<u64>);

/// A probe running on a worker thread (module documentation).
pub struct ThreadedProbe {
    n_in: usize,
    n_out: usize,
    ins: Vec<u64>,
    exps: Vec<u64>,
    tx: Option<SyncSender<Batch>>,
    recycled: Receiver<Batch>,
    done: Receiver<Result<(), ProbeError>>,
    worker: Option<JoinHandle<()>>,
    failed: bool,
}

impl ThreadedProbe {
    /// Build a probe with `make` on a new worker thread and feed it cycles
    /// of `n_in` inputs and `n_out` outputs. An error from `make` is
    /// returned here.
    pub fn spawn<F>(n_in: usize, n_out: usize, make: F) -> anyhow::Result<Self>
    where
        F: FnOnce() -> anyhow::Result<Box<dyn Probe>> + Send + 'static,
    {
        let (tx, rx) = sync_channel::<Batch>(4);
        let (free_tx, recycled) = channel::<Batch>();
        let (done_tx, done) = channel::<Result<(), ProbeError>>();
        let (ready_tx, ready_rx) = channel::<Result<(), String>>();
        let worker = std::thread::Builder::new()
            .name("warpgen-lockstep".into())
            .spawn(move || {
                let mut probe = match make() {
                    Ok(p) => {
                        let _ = ready_tx.send(Ok(()));
                        p
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(format!("{e:#}")));
                        return;
                    }
                };
                // Ends when the harness side hangs up (finish or drop).
                for (ins, exps) in rx {
                    for (i, e) in ins.chunks_exact(n_in).zip(exps.chunks_exact(n_out)) {
                        if let Err(err) = probe.cycle(i, e) {
                            let _ = done_tx.send(Err(err));
                            return;
                        }
                    }
                    let _ = free_tx.send((ins, exps));
                }
                let _ = done_tx.send(probe.finish());
            })?;
        match ready_rx.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let _ = worker.join();
                anyhow::bail!("{e}");
            }
            Err(_) => {
                let _ = worker.join();
                anyhow::bail!("the lock-step worker thread stopped while starting");
            }
        }
        Ok(ThreadedProbe {
            n_in,
            n_out,
            ins: Vec::with_capacity(BATCH * n_in),
            exps: Vec::with_capacity(BATCH * n_out),
            tx: Some(tx),
            recycled,
            done,
            worker: Some(worker),
            failed: false,
        })
    }

    /// Hand the filled batch to the worker.
    fn flush(&mut self) -> Result<(), ProbeError> {
        if self.ins.is_empty() {
            return Ok(());
        }
        let (mut ins, mut exps) = self.recycled.try_recv().unwrap_or_else(|_| {
            (
                Vec::with_capacity(BATCH * self.n_in),
                Vec::with_capacity(BATCH * self.n_out),
            )
        });
        ins.clear();
        exps.clear();
        let full = (
            std::mem::replace(&mut self.ins, ins),
            std::mem::replace(&mut self.exps, exps),
        );
        let sent = self.tx.as_ref().is_some_and(|tx| tx.send(full).is_ok());
        if sent {
            Ok(())
        } else {
            // The worker stopped: it found a difference (or failed).
            Err(self
                .worker_result()
                .err()
                .unwrap_or_else(|| ProbeError::Io("the lock-step worker stopped early".into())))
        }
    }

    /// Wait for the worker's verdict and join it.
    fn worker_result(&mut self) -> Result<(), ProbeError> {
        self.failed = true;
        self.tx = None;
        let verdict = self.done.recv();
        let joined = self.worker.take().map(JoinHandle::join);
        match (verdict, joined) {
            (Ok(r), _) => r,
            (Err(_), Some(Err(panic))) => Err(ProbeError::Io(format!(
                "the lock-step worker panicked: {}",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)")
            ))),
            (Err(_), _) => Err(ProbeError::Io(
                "the lock-step worker ended without a verdict".into(),
            )),
        }
    }
}

impl Probe for ThreadedProbe {
    fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
        if self.failed {
            return Err(ProbeError::Io(
                "the lock-step checker already reported a difference".into(),
            ));
        }
        debug_assert_eq!(inputs.len(), self.n_in);
        debug_assert_eq!(golden.len(), self.n_out);
        self.ins.extend_from_slice(inputs);
        self.exps.extend_from_slice(golden);
        if self.ins.len() >= BATCH * self.n_in {
            self.flush()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), ProbeError> {
        if self.failed {
            return Ok(());
        }
        self.flush()?;
        self.worker_result()
    }
}

impl Drop for ThreadedProbe {
    fn drop(&mut self) {
        // Hang up so the worker's loop ends, then wait for it.
        self.tx = None;
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use golden::check::Mismatch;

    /// The (inputs, golden outputs) of each cycle a probe saw.
    type Seen = Vec<(Vec<u64>, Vec<u64>)>;

    /// Records what it sees; fails at cycle `fail_at`.
    struct Recorder {
        seen: std::sync::Arc<std::sync::Mutex<Seen>>,
        fail_at: Option<usize>,
        finished: std::sync::Arc<std::sync::atomic::AtomicBool>,
    }

    impl Probe for Recorder {
        fn cycle(&mut self, inputs: &[u64], golden: &[u64]) -> Result<(), ProbeError> {
            let mut seen = self.seen.lock().unwrap();
            if Some(seen.len()) == self.fail_at {
                return Err(ProbeError::Mismatch(Box::new(Mismatch {
                    unit: "u",
                    backend: "b",
                    config: "c".into(),
                    stimulus: "s".into(),
                    cycle: seen.len() as u64,
                    diffs: Vec::new(),
                    expected: Vec::new(),
                    recent_inputs: Vec::new(),
                    vcd: None,
                })));
            }
            seen.push((inputs.to_vec(), golden.to_vec()));
            Ok(())
        }
        fn finish(&mut self) -> Result<(), ProbeError> {
            self.finished
                .store(true, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        }
    }

    fn run(cycles: usize, fail_at: Option<usize>) -> (Result<usize, ProbeError>, Seen, bool) {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (s2, f2) = (seen.clone(), finished.clone());
        let mut p = ThreadedProbe::spawn(2, 1, move || {
            Ok(Box::new(Recorder {
                seen: s2,
                fail_at,
                finished: f2,
            }) as Box<dyn Probe>)
        })
        .unwrap();
        let mut result = Ok(cycles);
        for c in 0..cycles {
            let c = c as u64;
            if let Err(e) = p.cycle(&[c, c * 3], &[c + 7]) {
                result = Err(e);
                break;
            }
        }
        if result.is_ok() {
            if let Err(e) = p.finish() {
                result = Err(e);
            }
        }
        drop(p);
        let seen = seen.lock().unwrap().clone();
        (
            result,
            seen,
            finished.load(std::sync::atomic::Ordering::SeqCst),
        )
    }

    #[test]
    fn every_cycle_reaches_the_inner_probe_in_order_and_finish_is_forwarded() {
        for cycles in [0, 1, BATCH - 1, BATCH, 3 * BATCH + 5] {
            let (r, seen, finished) = run(cycles, None);
            assert_eq!(r.unwrap(), cycles);
            assert!(finished, "finish not forwarded");
            assert_eq!(seen.len(), cycles);
            for (c, (i, e)) in seen.iter().enumerate() {
                let c = c as u64;
                assert_eq!(
                    (i.as_slice(), e.as_slice()),
                    (&[c, c * 3][..], &[c + 7][..])
                );
            }
        }
    }

    #[test]
    fn a_difference_is_reported_with_its_own_cycle() {
        for (cycles, at) in [(5, 3), (10 * BATCH, 2 * BATCH + 17), (BATCH + 1, BATCH)] {
            let (r, seen, finished) = run(cycles, Some(at));
            match r {
                Err(ProbeError::Mismatch(m)) => assert_eq!(m.cycle, at as u64),
                other => panic!("expected a mismatch, got {other:?}"),
            }
            assert_eq!(seen.len(), at);
            assert!(!finished);
        }
    }

    #[test]
    fn an_error_building_the_probe_is_returned_at_once() {
        let e = ThreadedProbe::spawn(1, 1, || anyhow::bail!("no model"))
            .err()
            .unwrap();
        assert!(e.to_string().contains("no model"), "{e}");
    }
}
