//! A second core for long texts.
//!
//! On a 50,000-character prompt the engine's work splits into independent parts (the original
//! text's token count, the edits of its lines in pieces, the counts of its two shorter versions).
//! [`start`] hands one part to a helper thread while the caller does another; [`Pending::wait`]
//! collects it.
//!
//! Three rules keep this safe for a server that calls the engine from many threads at once:
//! - One helper thread, started on first use and kept, so its caches (the tokenizer's piece cache,
//!   the allocator's arena) stay warm. A thread started per call was slower than no thread.
//! - It sleeps on a channel between jobs. It never spins: a thread pool whose idle workers
//!   spin-yield cost the proxy up to 0.5 ms of CPU per request.
//! - A job the helper has not begun when its caller needs it is taken back and run by the caller.
//!   When the helper is late or busy with other callers' jobs, a caller waits at most for the one
//!   job the helper has begun, which is why the work is handed over in small pieces.
//!
//! A server whose cores are already shared among requests turns it off with [`set_enabled`].
//!
//! Jobs own their inputs (`'static`), so no borrowed data crosses threads; the results are the
//! same whichever thread computes them, so the output does not depend on scheduling.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

/// Texts shorter than this many bytes are done on one thread: handing work over and waking the
/// helper costs more than it saves below it.
const WORTH_SPLITTING: usize = 10_000;

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns the helper thread on or off for the whole process (on by default).
///
/// It lowers the latency of one long text when a core is idle. A server already busy with other
/// requests should turn it off: there the second thread competes with them for the same cores,
/// and terse's proxy measured 0.2 ms more at p50 with it (18,700-character texts, 200 requests
/// a second on 2 cores).
pub fn set_enabled(enabled: bool) {
    ENABLED.store(enabled, Ordering::Relaxed);
}

/// Whether a text of `bytes` is worth sharing out between two threads.
pub(crate) fn worth_splitting(bytes: usize) -> bool {
    bytes >= WORTH_SPLITTING && ENABLED.load(Ordering::Relaxed)
}

type Job<A> = Box<dyn FnOnce() -> A + Send>;

enum State<A> {
    Queued(Job<A>),
    Running,
    Done(std::thread::Result<A>),
    /// The caller took the job back, or collected its result.
    Gone,
}

struct Slot<A> {
    state: Mutex<State<A>>,
    done: Condvar,
}

impl<A> Slot<A> {
    fn lock(&self) -> MutexGuard<'_, State<A>> {
        // A job's panic is caught, so the lock is never poisoned by one; recover regardless.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What the helper thread receives: a slot whose job it runs if still queued.
trait Task: Send + Sync {
    fn run(&self);
}

impl<A: Send> Task for Slot<A> {
    fn run(&self) {
        let job = {
            let mut state = self.lock();
            match std::mem::replace(&mut *state, State::Running) {
                State::Queued(job) => job,
                other => {
                    // Taken back by its caller meanwhile.
                    *state = other;
                    return;
                }
            }
        };
        let result = catch_unwind(AssertUnwindSafe(job));
        *self.lock() = State::Done(result);
        self.done.notify_one();
    }
}

/// The way to the helper thread (a `Sender` may be shared between threads as it is).
fn helper() -> Option<&'static Sender<Arc<dyn Task>>> {
    static HELPER: OnceLock<Option<Sender<Arc<dyn Task>>>> = OnceLock::new();
    HELPER
        .get_or_init(|| {
            let (send, receive) = channel::<Arc<dyn Task>>();
            std::thread::Builder::new()
                .name("filters-helper".into())
                .spawn(move || {
                    for task in receive {
                        task.run();
                    }
                })
                .ok()
                .map(|_| send)
        })
        .as_ref()
}

/// A job handed to the helper thread.
pub(crate) struct Pending<A> {
    slot: Arc<Slot<A>>,
}

/// Queues `job` for the helper thread and returns at once.
pub(crate) fn start<A: Send + 'static>(job: impl FnOnce() -> A + Send + 'static) -> Pending<A> {
    let slot = Arc::new(Slot {
        state: Mutex::new(State::Queued(Box::new(job))),
        done: Condvar::new(),
    });
    if let Some(sender) = helper() {
        // If the helper is gone the job stays queued and `wait` runs it.
        let _ = sender.send(slot.clone() as Arc<dyn Task>);
    }
    Pending { slot }
}

impl<A> Pending<A> {
    /// The job's result: computed here if the helper has not begun it, else waited for.
    pub(crate) fn wait(self) -> A {
        let mut state = self.slot.lock();
        loop {
            match std::mem::replace(&mut *state, State::Gone) {
                State::Queued(job) => {
                    drop(state);
                    return job();
                }
                State::Done(Ok(result)) => return result,
                State::Done(Err(panic)) => {
                    drop(state);
                    resume_unwind(panic)
                }
                running => {
                    *state = running;
                    state = self
                        .slot
                        .done
                        .wait(state)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                }
            }
        }
    }
}

impl<A> Drop for Pending<A> {
    fn drop(&mut self) {
        // A job nobody will collect is not worth running.
        let mut state = self.slot.lock();
        if matches!(*state, State::Queued(_)) {
            *state = State::Gone;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_gives_its_own_result() {
        let jobs: Vec<_> = (0..64u64).map(|n| start(move || n * n)).collect();
        let results: Vec<u64> = jobs.into_iter().map(Pending::wait).collect();
        assert_eq!(results, (0..64u64).map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn a_job_waits_for_nothing_it_does_not_need() {
        // A dropped job is never collected; the helper must go on to the next one.
        drop(start(|| 1));
        assert_eq!(start(|| 2).wait(), 2);
    }

    #[test]
    fn many_callers_at_once_each_get_theirs() {
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                std::thread::spawn(move || {
                    (0..200u64)
                        .map(|n| start(move || t * 1000 + n).wait())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for (t, thread) in threads.into_iter().enumerate() {
            let got = thread.join().expect("a caller thread");
            let want: Vec<u64> = (0..200u64).map(|n| t as u64 * 1000 + n).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn a_panicking_job_panics_in_its_caller() {
        let pending = start(|| -> u32 { panic!("job failed") });
        let caught = catch_unwind(AssertUnwindSafe(|| pending.wait()));
        assert!(caught.is_err());
        assert_eq!(start(|| 3).wait(), 3, "the helper survives a panicking job");
    }
}
