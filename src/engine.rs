//! Running the engine from async request handlers.
//!
//! `filters::compress` is synchronous CPU work: about 0.3 ms for 2,000 characters, several
//! milliseconds for 50,000. Short prompts run inline (handing them to another thread would
//! cost more than the work). Long ones run under `block_in_place`, so the worker's other
//! connections move to another thread instead of waiting behind the compression. That needs
//! Pingora's work-stealing (multi-thread) runtime, the default; on any other runtime the
//! work runs inline.

use filters::{Compressed, Options};
use tokio::runtime::{Handle, RuntimeFlavor};

/// Prompts up to this many bytes are compressed inline.
const INLINE_MAX_BYTES: usize = 16 * 1024;

pub fn compress(prompt: &str, options: &Options) -> Compressed {
    let multi_thread = Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
    if prompt.len() > INLINE_MAX_BYTES && multi_thread {
        tokio::task::block_in_place(|| filters::compress(prompt, options))
    } else {
        filters::compress(prompt, options)
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
