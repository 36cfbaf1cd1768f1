//! Usage accounting off the request path: handlers send a [`UsageRecord`] down an unbounded
//! channel ([`UsageSink::record`] never waits and wakes nothing); [`UsageFlusher`], a Pingora
//! background service, collects them every `usage.flush_interval_ms` and writes them in
//! batches of at most `usage.flush_batch_size` records.
//!
//! Nothing is lost on SIGTERM: when Pingora's shutdown watch fires the flusher writes what it
//! holds and from then on writes each record as it arrives, without holding any across an
//! await (so the runtime stopping cannot drop one). Records still queued when the server has
//! stopped are written by [`UsageFlusher::drain`] from `terse serve` after `run` returns.

use crate::store::{Store, UsageRecord};
use async_trait::async_trait;
use pingora::server::ShutdownWatch;
use pingora::services::background::BackgroundService;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, mpsc};

#[derive(Clone)]
pub struct UsageSink {
    tx: mpsc::UnboundedSender<UsageRecord>,
}

impl UsageSink {
    pub fn record(&self, record: UsageRecord) {
        if self.tx.send(record).is_err() {
            // Only after the flusher is gone, i.e. at the very end of a shutdown.
            tracing::error!("usage record dropped: the usage writer has stopped");
        }
    }
}

pub struct UsageFlusher {
    rx: Mutex<mpsc::UnboundedReceiver<UsageRecord>>,
    store: Arc<dyn Store>,
    interval: Duration,
    batch_size: usize,
}

pub fn channel(
    store: Arc<dyn Store>,
    interval: Duration,
    batch_size: usize,
) -> (UsageSink, UsageFlusher) {
    let (tx, rx) = mpsc::unbounded_channel();
    (
        UsageSink { tx },
        UsageFlusher {
            rx: Mutex::new(rx),
            store,
            interval: interval.max(Duration::from_millis(1)),
            batch_size: batch_size.max(1),
        },
    )
}

impl UsageFlusher {
    async fn write(&self, batch: &mut Vec<UsageRecord>) {
        if batch.is_empty() {
            return;
        }
        match self.store.write_usage(batch).await {
            Ok(()) => tracing::debug!(records = batch.len(), "usage flushed"),
            Err(err) => {
                tracing::error!(error = %err, records = batch.len(), "usage write failed; records kept for the next flush");
                return;
            }
        }
        batch.clear();
    }

    /// Writes everything still queued; called once the server has stopped.
    pub async fn drain(&self) {
        let mut rx = self.rx.lock().await;
        let mut batch = Vec::new();
        while let Ok(record) = rx.try_recv() {
            batch.push(record);
        }
        self.write(&mut batch).await;
        if !batch.is_empty() {
            tracing::error!(
                records = batch.len(),
                "usage could not be written at shutdown"
            );
        }
    }
}

#[async_trait]
impl BackgroundService for UsageFlusher {
    async fn start(&self, mut shutdown: ShutdownWatch) {
        let mut rx = self.rx.lock().await;
        let mut batch: Vec<UsageRecord> = Vec::with_capacity(self.batch_size);
        let mut tick = tokio::time::interval(self.interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Records are collected on each tick, not as they arrive: a receiver waiting on the
        // channel would be woken by every request, a thread wake-up on the request path.
        loop {
            tokio::select! {
                _ = shutdown.changed() => break,
                _ = tick.tick() => {
                    while let Ok(record) = rx.try_recv() {
                        batch.push(record);
                        if batch.len() >= self.batch_size {
                            self.write(&mut batch).await;
                        }
                    }
                    self.write(&mut batch).await;
                }
            }
        }
        // Shutting down: flush, then write each late record at once until the runtime stops.
        while let Ok(record) = rx.try_recv() {
            batch.push(record);
        }
        self.write(&mut batch).await;
        tracing::info!("usage flushed for shutdown");
        while let Some(record) = rx.recv().await {
            batch.push(record);
            while let Ok(record) = rx.try_recv() {
                batch.push(record);
            }
            self.write(&mut batch).await;
        }
    }
}
