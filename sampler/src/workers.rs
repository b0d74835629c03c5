//! Where the detailed simulations run.

use std::sync::{mpsc, Arc, Mutex};

use wsim_sim::{Machine, SimResult};

use crate::detail::{measure, Done, Job};

/// Where the detailed simulations run, how many were handed to them, and the jobs held
/// back while a run is still short (`crate::HOLD`) or to its end (a budget of detail).
pub(crate) struct Workers {
    run: Run,
    submitted: usize,
    held: Option<Held>,
}

/// Jobs held back, and the run's start, from which the run may be simulated whole instead.
struct Held {
    start: Option<Machine>,
    jobs: Vec<Job>,
}

/// On the calling thread one after another, or on worker threads fed through a bounded
/// queue (so that the functional run, which is faster, holds at most `threads` copies
/// waiting).
enum Run {
    Inline(Vec<SimResult<Done>>),
    Pool {
        jobs: Option<mpsc::SyncSender<Job>>,
        results: mpsc::Receiver<SimResult<Done>>,
        handles: Vec<std::thread::JoinHandle<()>>,
    },
}

impl Run {
    fn new(threads: usize) -> Run {
        if threads <= 1 {
            return Run::Inline(Vec::new());
        }
        let (jobs, queue) = mpsc::sync_channel::<Job>(threads);
        let (done, results) = mpsc::channel();
        let queue = Arc::new(Mutex::new(queue));
        let handles = (0..threads)
            .map(|_| {
                let (queue, done) = (Arc::clone(&queue), done.clone());
                std::thread::spawn(move || loop {
                    let job = queue.lock().map(|q| q.recv());
                    let Ok(Ok(job)) = job else { break };
                    if done.send(measure(job)).is_err() {
                        break;
                    }
                })
            })
            .collect();
        Run::Pool {
            jobs: Some(jobs),
            results,
            handles,
        }
    }
}

impl Workers {
    /// `threads` at once; with the run's `start`, or when told to `hold`, holding the
    /// jobs back until `release`.
    pub fn new(threads: usize, start: Option<Machine>, hold: bool) -> Workers {
        Workers {
            run: Run::new(threads),
            submitted: 0,
            held: (hold || start.is_some()).then_some(Held {
                start,
                jobs: Vec::new(),
            }),
        }
    }

    /// The jobs held so far, while they still are (not once released).
    pub fn held(&self) -> Option<&[Job]> {
        self.held.as_ref().map(|h| &h.jobs[..])
    }

    /// Run the held jobs, and from now on every job as it comes.
    pub fn release(&mut self) {
        for job in self.held.take().into_iter().flat_map(|h| h.jobs) {
            self.submit(job);
        }
    }

    /// Drop the held jobs unrun and run the one `whole` makes from the run's start, when
    /// it was kept.
    pub fn replace_held(&mut self, whole: impl FnOnce(Machine) -> Job) {
        if let Some(start) = self.held.take().and_then(|held| held.start) {
            self.submit(whole(start));
        }
    }

    /// Replace the held jobs by what `trim` makes of them.
    pub fn trim_held(&mut self, trim: impl FnOnce(Vec<Job>) -> Vec<Job>) {
        if let Some(held) = &mut self.held {
            held.jobs = trim(std::mem::take(&mut held.jobs));
        }
    }

    pub fn submit(&mut self, job: Job) {
        if let Some(held) = &mut self.held {
            held.jobs.push(job);
            return;
        }
        self.submitted += 1;
        match &mut self.run {
            Run::Inline(results) => results.push(measure(job)),
            Run::Pool { jobs, .. } => {
                // A worker gone means it panicked: `finish` reports the missing result.
                let _ = jobs.as_ref().expect("open until finish").send(job);
            }
        }
    }

    /// Every measured unit, in unit order (a unit's check after it), and the detailed
    /// run's statistics when a job simulated the run whole.
    pub fn finish(mut self) -> SimResult<Done> {
        self.release();
        let expected = self.submitted;
        let results = match self.run {
            Run::Inline(results) => results,
            Run::Pool {
                mut jobs,
                results,
                handles,
            } => {
                jobs.take();
                let all: Vec<_> = results.iter().take(expected).collect();
                for h in handles {
                    let _ = h.join();
                }
                all
            }
        };
        assert_eq!(
            results.len(),
            expected,
            "a detailed sample's thread panicked"
        );
        let (mut all, mut whole) = (Vec::new(), None);
        for r in results {
            let done = r?;
            all.extend(done.measured);
            whole = whole.or(done.whole);
        }
        all.sort_by_key(|m| (m.unit, m.check));
        Ok(Done {
            measured: all,
            whole,
        })
    }
}
