//! A bounded cache of compressed texts.
//!
//! Compression is deterministic and per text, and a conversation resends its whole history
//! (and usually the same system prompt) on every turn, so most texts of a request were already
//! compressed by an earlier one. The cache returns the earlier result for a byte-identical text
//! with the same options. An entry keeps its original text and a hit compares it in full, so a
//! hash collision can never substitute another prompt. When the entries exceed the byte budget
//! the cache starts over (simple, and the working set refills within a few requests).

use filters::{Options, Shortened, Tokenizer};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// Bytes of original plus compressed text the cache may hold.
const BUDGET_BYTES: usize = 32 * 1024 * 1024;
/// Token counts remembered (mode `off`), 16 bytes of key and 8 of count each.
const MAX_COUNTS: usize = 200_000;
/// Texts shorter than this are compressed again (hashing would cost about as much).
const MIN_CACHED_BYTES: usize = 256;

struct Entry {
    original: String,
    shortened: Shortened,
}

#[derive(Default)]
struct Entries {
    map: HashMap<(u64, Options), Arc<Entry>>,
    bytes: usize,
}

/// The process-wide cache of the proxy's input stage.
#[derive(Default)]
pub struct CompressionCache {
    entries: Mutex<Entries>,
    /// Token counts of texts forwarded unchanged (mode `off`), by hash only: a collision could
    /// only misstate a telemetry number, never change a prompt.
    counts: Mutex<HashMap<(u64, Tokenizer), usize>>,
}

fn text_hash(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

fn key(text: &str, options: &Options) -> (u64, Options) {
    (text_hash(text), *options)
}

impl CompressionCache {
    pub fn global() -> &'static CompressionCache {
        static CACHE: OnceLock<CompressionCache> = OnceLock::new();
        CACHE.get_or_init(CompressionCache::default)
    }

    /// The remembered token count of `text`, if it was counted before.
    pub fn known_count(&self, text: &str, tokenizer: Tokenizer) -> Option<usize> {
        if text.len() < MIN_CACHED_BYTES {
            return Some(filters::count_tokens(text, tokenizer));
        }
        let counts = self.counts.lock().ok()?;
        counts.get(&(text_hash(text), tokenizer)).copied()
    }

    /// Counts `text` and remembers the count.
    pub fn count(&self, text: &str, tokenizer: Tokenizer) -> usize {
        let tokens = filters::count_tokens(text, tokenizer);
        if text.len() >= MIN_CACHED_BYTES
            && let Ok(mut counts) = self.counts.lock()
        {
            if counts.len() >= MAX_COUNTS {
                counts.clear();
            }
            counts.insert((text_hash(text), tokenizer), tokens);
        }
        tokens
    }

    /// `filters::shorten(text, options)`, from the cache when this text was compressed before.
    pub fn shorten(&self, text: &str, options: &Options) -> Shortened {
        if text.len() < MIN_CACHED_BYTES {
            return filters::shorten(text, options);
        }
        let key = key(text, options);
        let hit = self
            .entries
            .lock()
            .ok()
            .and_then(|entries| entries.map.get(&key).cloned());
        if let Some(entry) = hit.filter(|entry| entry.original == text) {
            return entry.shortened.clone();
        }
        let shortened = filters::shorten(text, options);
        let size = text.len() + shortened.text.len();
        if let Ok(mut entries) = self.entries.lock() {
            if entries.bytes + size > BUDGET_BYTES {
                entries.map.clear();
                entries.bytes = 0;
            }
            if size <= BUDGET_BYTES {
                entries.bytes += size;
                let entry = Arc::new(Entry {
                    original: text.to_string(),
                    shortened: shortened.clone(),
                });
                entries.map.insert(key, entry);
            }
        }
        shortened
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use filters::Mode;

    #[test]
    fn a_hit_returns_what_the_engine_returns() {
        let cache = CompressionCache::default();
        let text = "I would really like you to please basically just help me, thanks. ".repeat(8);
        let options = Options::with_mode(Mode::Aggressive);
        let engine = filters::compress(&text, &options);
        let first = cache.shorten(&text, &options);
        let second = cache.shorten(&text, &options);
        assert_eq!(first, second);
        assert_eq!(second.text, engine.text);
        assert_eq!(second.original_tokens, engine.stats.original_tokens);
        assert_eq!(second.final_tokens, engine.stats.final_tokens);
        assert!(second.integrity_passed);
        let other_mode = cache.shorten(&text, &Options::with_mode(Mode::Conservative));
        assert_eq!(
            other_mode.text,
            filters::compress(&text, &Options::with_mode(Mode::Conservative)).text
        );
    }

    #[test]
    fn counts_are_remembered_per_tokenizer() {
        let cache = CompressionCache::default();
        let text = "Count these words once, then remember them. ".repeat(10);
        assert_eq!(cache.known_count(&text, Tokenizer::O200kBase), None);
        let counted = cache.count(&text, Tokenizer::O200kBase);
        assert_eq!(counted, filters::count_tokens(&text, Tokenizer::O200kBase));
        assert_eq!(
            cache.known_count(&text, Tokenizer::O200kBase),
            Some(counted)
        );
        assert_eq!(cache.known_count(&text, Tokenizer::Cl100kBase), None);
    }
}
