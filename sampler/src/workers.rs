//! Where the detailed simulations run.

use std::sync::{mpsc, Arc, Mutex};

use wsim_sim::SimResult;

use crate::detail::{measure, Job, Measured};

/// Where the detailed simulations run: on the calling thread one after another, or on
/// worker threads fed through a bounded queue (so that the functional run, which is
/// faster, holds at most `threads` copies waiting).
pub(crate) enum Workers {
    Inline(Vec<SimResult<Measured>>),
    Pool {
        jobs: Option<mpsc::SyncSender<Job>>,
        results: mpsc::Receiver<SimResult<Measured>>,
        handles: Vec<std::thread::JoinHandle<()>>,
    },
}

impl Workers {
    pub fn new(threads: usize) -> Workers {
        if threads <= 1 {
            return Workers::Inline(Vec::new());
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
        Workers::Pool {
            jobs: Some(jobs),
            results,
            handles,
        }
    }

    pub fn submit(&mut self, job: Job) {
        match self {
            Workers::Inline(results) => results.push(measure(job)),
            Workers::Pool { jobs, .. } => {
                // A worker gone means it panicked: `finish` reports the missing result.
                let _ = jobs.as_ref().expect("open until finish").send(job);
            }
        }
    }

    /// Every result, in unit order.
    pub fn finish(self, expected: usize) -> SimResult<Vec<Measured>> {
        let mut all = match self {
            Workers::Inline(results) => results,
            Workers::Pool {
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
        }
        .into_iter()
        .collect::<SimResult<Vec<Measured>>>()?;
        assert_eq!(all.len(), expected, "a detailed sample's thread panicked");
        all.sort_by_key(|m| m.unit);
        Ok(all)
    }
}
