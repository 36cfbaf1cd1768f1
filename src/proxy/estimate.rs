//! The output-saved estimate: how many completion tokens the brevity directive saved.
//!
//! It is an **estimate**, never a measurement: nobody sees the answer the model would have
//! given without the directive. It is derived from measured data, the `usage` of earlier
//! responses: per brevity level the proxy keeps the mean completion tokens it observed. The
//! saving ratio of a level is `r = 1 - mean(level) / mean(off)`, clamped to 0..0.9, shrunk
//! toward the level's prior (`BrevityLevel::prior_output_saving`) with a weight of
//! `PRIOR_WEIGHT` pseudo-responses: `r = (n * measured + PRIOR_WEIGHT * prior) / (n + PRIOR_WEIGHT)`
//! where `n` is the smaller sample count of the two levels. With no `off` traffic yet the
//! prior alone is used.
//!
//! An answer of `c` completion tokens at ratio `r` would have had `c / (1 - r)` tokens without
//! the directive, so it saved `c * r / (1 - r)`. The response header is written before the
//! answer exists, so it uses the level's mean completion tokens for `c`; the usage record,
//! written after the answer, uses the answer's own `usage`.

use filters::BrevityLevel;
use std::sync::Mutex;

/// Pseudo-responses of weight given to the prior ratio.
const PRIOR_WEIGHT: f64 = 20.0;
/// No level is credited with saving more than this share of the output.
const MAX_RATIO: f64 = 0.9;

#[derive(Clone, Copy, Debug, Default)]
struct Observed {
    responses: u64,
    completion_tokens: u64,
}

impl Observed {
    fn mean(&self) -> Option<f64> {
        (self.responses > 0).then(|| self.completion_tokens as f64 / self.responses as f64)
    }
}

/// Running completion-token statistics per brevity level, shared by all requests.
#[derive(Debug, Default)]
pub struct OutputEstimator {
    levels: Mutex<[Observed; 4]>,
}

fn index(level: BrevityLevel) -> usize {
    match level {
        BrevityLevel::Off => 0,
        BrevityLevel::Lite => 1,
        BrevityLevel::Full => 2,
        BrevityLevel::Ultra => 3,
    }
}

impl OutputEstimator {
    /// Records the completion tokens of a finished response sent at `level`.
    pub fn observe(&self, level: BrevityLevel, completion_tokens: u64) {
        if let Ok(mut levels) = self.levels.lock() {
            let slot = &mut levels[index(level)];
            slot.responses += 1;
            slot.completion_tokens += completion_tokens;
        }
    }

    /// The share of output tokens `level` is estimated to save.
    pub fn ratio(&self, level: BrevityLevel) -> f64 {
        let prior = level.prior_output_saving();
        if level == BrevityLevel::Off {
            return 0.0;
        }
        let Ok(levels) = self.levels.lock() else {
            return prior;
        };
        let (off, at) = (levels[0], levels[index(level)]);
        let (Some(off_mean), Some(at_mean)) = (off.mean(), at.mean()) else {
            return prior;
        };
        if off_mean <= 0.0 {
            return prior;
        }
        let measured = (1.0 - at_mean / off_mean).clamp(0.0, MAX_RATIO);
        let n = off.responses.min(at.responses) as f64;
        ((n * measured + PRIOR_WEIGHT * prior) / (n + PRIOR_WEIGHT)).clamp(0.0, MAX_RATIO)
    }

    /// Estimated tokens saved by an answer of `completion_tokens` at `level`.
    pub fn saved_for(&self, level: BrevityLevel, completion_tokens: u64) -> u64 {
        let ratio = self.ratio(level);
        (completion_tokens as f64 * ratio / (1.0 - ratio)).round() as u64
    }

    /// Estimated tokens saved by the next answer at `level`, before it is known: the level's
    /// mean observed completion tokens stand in for the answer's own.
    pub fn saved_ahead(&self, level: BrevityLevel) -> u64 {
        if level == BrevityLevel::Off {
            return 0;
        }
        let mean = self
            .levels
            .lock()
            .ok()
            .and_then(|levels| levels[index(level)].mean());
        mean.map_or(0, |mean| self.saved_for(level, mean.round() as u64))
    }
}

/// Finds the completion-token count in a response body as it streams past, without buffering
/// it: only the last few bytes are kept so a number split across chunks is still read.
/// OpenAI reports `"completion_tokens": N` (in streams only with `include_usage`), Anthropic
/// `"output_tokens": N` (its final `message_delta` carries the total). The last one seen wins.
#[derive(Debug)]
pub struct UsageScanner {
    key: &'static [u8],
    tail: Vec<u8>,
    last: Option<u64>,
}

/// Longest `key: number` run kept between chunks.
const MAX_PENDING: usize = 64;

impl UsageScanner {
    pub fn openai() -> Self {
        Self::new(b"\"completion_tokens\"")
    }

    pub fn anthropic() -> Self {
        Self::new(b"\"output_tokens\"")
    }

    fn new(key: &'static [u8]) -> Self {
        UsageScanner {
            key,
            tail: Vec::new(),
            last: None,
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) {
        let mut window = std::mem::take(&mut self.tail);
        window.extend_from_slice(chunk);
        let mut from = 0;
        let mut pending = None;
        while let Some(found) = find(&window[from..], self.key) {
            let at = from + found;
            let after = at + self.key.len();
            match parse_number_after_colon(&window[after..]) {
                Some(Some(value)) => self.last = Some(value),
                Some(None) => {}
                None => {
                    // The number may continue in the next chunk: keep the key and what follows.
                    pending = Some(at).filter(|at| window.len() - at <= MAX_PENDING);
                    break;
                }
            }
            from = after;
        }
        // Otherwise keep just enough bytes for a key split across this chunk and the next.
        let keep_from = pending.unwrap_or_else(|| {
            window
                .len()
                .saturating_sub(self.key.len() - 1)
                .max(from.min(window.len()))
        });
        self.tail = window.split_off(keep_from);
    }

    /// The last completion-token count seen, if any.
    pub fn completion_tokens(&self) -> Option<u64> {
        self.last
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `Some(Some(n))` for `: n` followed by a non-digit, `Some(None)` when no number follows,
/// `None` when the input ends before the number does.
fn parse_number_after_colon(bytes: &[u8]) -> Option<Option<u64>> {
    let mut i = 0;
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b':') {
        i += 1;
    }
    let start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    if i == bytes.len() {
        return None;
    }
    if i == start {
        return Some(None);
    }
    Some(
        std::str::from_utf8(&bytes[start..i])
            .ok()
            .and_then(|s| s.parse().ok()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prior_holds_until_both_levels_are_measured() {
        let estimator = OutputEstimator::default();
        assert_eq!(estimator.ratio(BrevityLevel::Full), 0.30);
        assert_eq!(estimator.saved_ahead(BrevityLevel::Full), 0);
        estimator.observe(BrevityLevel::Full, 70);
        assert_eq!(estimator.ratio(BrevityLevel::Full), 0.30);
        assert_eq!(estimator.saved_for(BrevityLevel::Full, 70), 30);
        assert_eq!(estimator.saved_ahead(BrevityLevel::Full), 30);
        assert_eq!(estimator.saved_for(BrevityLevel::Off, 70), 0);
    }

    #[test]
    fn measurements_pull_the_ratio_away_from_the_prior() {
        let estimator = OutputEstimator::default();
        for _ in 0..180 {
            estimator.observe(BrevityLevel::Off, 100);
            estimator.observe(BrevityLevel::Lite, 50);
        }
        // n = 180, measured 0.5, prior 0.15: (180 * 0.5 + 20 * 0.15) / 200 = 0.465
        assert!((estimator.ratio(BrevityLevel::Lite) - 0.465).abs() < 1e-9);
    }

    #[test]
    fn the_scanner_reads_usage_split_across_chunks() {
        let mut scanner = UsageScanner::openai();
        scanner.feed(b"data: {\"usage\":{\"prompt_tokens\":9,\"complet");
        scanner.feed(b"ion_tokens\": 1");
        assert_eq!(scanner.completion_tokens(), None);
        scanner.feed(b"23,\"total_tokens\":132}}\n\n");
        assert_eq!(scanner.completion_tokens(), Some(123));

        let mut scanner = UsageScanner::anthropic();
        scanner.feed(
            b"event: message_start\ndata: {\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}\n\n",
        );
        scanner.feed(b"event: message_delta\ndata: {\"usage\":{\"output_tokens\":57}}\n\n");
        assert_eq!(scanner.completion_tokens(), Some(57));
    }
}
