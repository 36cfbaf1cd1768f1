//! FNV-1a-style hashing, eight bytes a step, for the stages' own tables and sets. Their keys are
//! short words and lines of the one text being compressed, looked up once per word or line, so
//! a simple hash beats SipHash; flood resistance does not matter for a set that lives for one
//! call.

#[derive(Clone, Copy, Default)]
pub struct BuildFnv;

pub struct Fnv(u64);

impl std::hash::BuildHasher for BuildFnv {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes per step: lines of prose are hashed whole for the duplicate check.
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            self.0 = (self.0 ^ u64::from_le_bytes(eight)).wrapping_mul(0x0100_0000_01b3);
            self.0 ^= self.0 >> 29;
        }
        for b in words.remainder() {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
