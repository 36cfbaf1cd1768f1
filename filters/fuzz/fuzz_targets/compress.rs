//! Fuzzes the whole engine: any text, every mode, every option. The invariants are the ones the
//! property tests check (`tests/support/invariants.rs`): no panic, deterministic output, never
//! more tokens, truthful statistics, integrity or the original text, every guard item kept.
#![no_main]

#[path = "../../tests/support/invariants.rs"]
mod invariants;

use filters::Mode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the protect flags and the tokenizer; the rest is the prompt.
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    for mode in Mode::ALL {
        let options = invariants::options_from_bits(mode, flags);
        if let Err(broken) = invariants::check(&text, &options) {
            panic!("{broken}");
        }
    }
});
