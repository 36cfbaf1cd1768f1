//! Running the engine from async request handlers.
//!
//! `filters::compress` is synchronous CPU work: about 50 us for 2,000 characters, about 2.5 ms
//! for 50,000. Work up to about a millisecond runs inline: handing it to another thread costs
//! a tenth of a millisecond of wake-ups, measured on the proxy's mode-off path, and meanwhile
//! the runtime's other workers steal this worker's queued tasks. Longer work runs under
//! `block_in_place`, so the worker's other connections move to another thread instead of
//! waiting behind it. That needs Pingora's work-stealing (multi-thread) runtime, the default;
//! on any other runtime the work runs inline.

use filters::{Compressed, Options};
use tokio::runtime::{Handle, RuntimeFlavor};

/// Prompts up to this many bytes are compressed inline (about a millisecond of work).
const INLINE_MAX_BYTES: usize = 24 * 1024;

pub fn compress(prompt: &str, options: &Options) -> Compressed {
    cpu_bound(prompt.len(), || filters::compress(prompt, options))
}

/// Runs engine `work` that costs as much as compressing `len` bytes: inline when short, under
/// `block_in_place` when long (the proxy's input stage, which compresses every text of a body,
/// uses it too).
pub fn cpu_bound<T>(len: usize, work: impl FnOnce() -> T) -> T {
    let multi_thread = Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
    if len > INLINE_MAX_BYTES && multi_thread {
        tokio::task::block_in_place(work)
    } else {
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_prompts_compress_the_same_on_any_runtime() {
        let prompt = "Please note that the build failed. ".repeat(1_000);
        let options = Options::default();
        let direct = filters::compress(&prompt, &options).text;
        let multi = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .build()
            .unwrap();
        let on_multi = multi.block_on(async { compress(&prompt, &options).text });
        let single = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let on_single = single.block_on(async { compress(&prompt, &options).text });
        assert_eq!(on_multi, direct);
        assert_eq!(on_single, direct);
        assert_eq!(compress(&prompt, &options).text, direct);
    }
}
