//! Work spread over the cores: each worker takes the next item until none
//! is left, and the results come back in the items' order.
//!
//! Validation, compression and verification all have many small, uneven
//! items (most skills hold one to three files of very different sizes), so
//! a shared counter balances better than fixed chunks. Where the items are
//! found one by one (discovery), [`pipeline`] checks each as it is found. A panic in a worker
//! is a bug; it is propagated, not turned into a missing result.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

/// `f` applied to every item on up to `threads` threads (0: one per core),
/// in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            mine.push((i, f(item)));
        }
        mine
    };
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// `f` applied on up to `threads` worker threads (0: one per core) to each
/// item `produce` emits while it runs on the calling thread, so that the
/// work starts before the last item is known; the results come back in the
/// order emitted, with what `produce` returned.
pub fn pipeline<T, R, P>(
    threads: usize,
    produce: impl FnOnce(&mut dyn FnMut(&T)) -> P,
    f: impl Fn(&T) -> R + Sync,
) -> (P, Vec<R>)
where
    T: Clone + Send,
    R: Send,
{
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if threads <= 1 {
        let mut results = Vec::new();
        let produced = produce(&mut |item| results.push(f(item)));
        return (produced, results);
    }
    let (send, receive) = mpsc::channel::<(usize, T)>();
    let receive = Mutex::new(receive);
    let work = || {
        let mut mine = Vec::new();
        loop {
            // The lock is held while waiting: the other workers wait on it
            // instead of on the channel, and the next item goes to one.
            let next = match receive.lock() {
                Ok(receiver) => receiver.recv(),
                Err(poisoned) => poisoned.into_inner().recv(),
            };
            let Ok((i, item)) = next else { break };
            mine.push((i, f(&item)));
        }
        mine
    };
    let (produced, mut done) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        let mut emitted = 0;
        let produced = produce(&mut |item| {
            // A worker gone means it panicked: its join below says so.
            let _ = send.send((emitted, item.clone()));
            emitted += 1;
        });
        drop(send);
        let done: Vec<(usize, R)> = workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect();
        (produced, done)
    });
    done.sort_by_key(|(i, _)| *i);
    (produced, done.into_iter().map(|(_, r)| r).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_on_any_thread_count() {
        let items: Vec<u32> = (0..1000).collect();
        for threads in [0, 1, 2, 7] {
            let out = map(&items, threads, |x| x * 2);
            assert_eq!(out, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        }
        assert!(map(&[] as &[u32], 4, |x| *x).is_empty());
    }

    #[test]
    fn a_pipeline_keeps_the_order_emitted_on_any_thread_count() {
        for threads in [0, 1, 2, 7] {
            let (last, out) = pipeline(
                threads,
                |emit| {
                    for x in 0..1000u32 {
                        emit(&x);
                    }
                    999
                },
                |x| x * 2,
            );
            assert_eq!(last, 999);
            assert_eq!(out, (0..1000u32).map(|x| x * 2).collect::<Vec<_>>());
        }
        let (_, none) = pipeline(2, |_| (), |x: &u32| *x);
        assert!(none.is_empty());
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_pipeline_worker_panic_is_propagated() {
        pipeline(
            2,
            |emit| (0..100u32).for_each(|x| emit(&x)),
            |x| if *x == 50 { panic!("boom") } else { *x },
        );
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn a_worker_panic_is_propagated() {
        let items: Vec<u32> = (0..100).collect();
        map(&items, 2, |x| if *x == 50 { panic!("boom") } else { *x });
    }
}
