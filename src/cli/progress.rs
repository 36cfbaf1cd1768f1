//! A one-line progress bar on standard error, drawn only when standard error is a terminal so
//! that logs and pipes never receive control characters.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const WIDTH: usize = 30;
/// Redrawing more often than this only costs time; the eye cannot follow it.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

pub struct Progress {
    /// Total bytes to read, when known (a regular file); `None` for a pipe.
    total_bytes: Option<u64>,
    last_drawn: Option<Instant>,
    enabled: bool,
}

impl Progress {
    pub fn new(total_bytes: Option<u64>) -> Self {
        Progress {
            total_bytes,
            last_drawn: None,
            enabled: std::io::stderr().is_terminal(),
        }
    }

    /// Redraws the bar if enough time has passed since the last redraw.
    pub fn update(&mut self, bytes_done: u64, lines_done: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self
            .last_drawn
            .is_some_and(|at| now.duration_since(at) < REDRAW_EVERY)
        {
            return;
        }
        self.last_drawn = Some(now);
        let line = match self.total_bytes {
            Some(total) if total > 0 => {
                let fraction = (bytes_done as f64 / total as f64).clamp(0.0, 1.0);
                let filled = (fraction * WIDTH as f64).round() as usize;
                format!(
                    "[{}{}] {:3.0}%  {lines_done} lines",
                    "#".repeat(filled),
                    ".".repeat(WIDTH - filled),
                    fraction * 100.0
                )
            }
            _ => format!("{lines_done} lines"),
        };
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, "\r\x1b[2Kterse: {line}");
        let _ = stderr.flush();
    }

    /// Clears the bar so that what follows starts on a clean line.
    pub fn finish(&mut self) {
        if self.enabled && self.last_drawn.is_some() {
            let mut stderr = std::io::stderr().lock();
            let _ = write!(stderr, "\r\x1b[2K");
            let _ = stderr.flush();
        }
    }
}
