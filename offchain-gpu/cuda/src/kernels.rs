//! The CUDA C source of the device kernels (compiled at run time with NVRTC) and host mirrors
//! of their arithmetic, which the unit tests hold against `pog_primitives` without a GPU.
//!
//! Kernels:
//! - `gen_<gen>_<store>`: one Philox4x32-10 block per thread; the elements of precision `<gen>`
//!   are rounded (ties to even) to the mantissa of `<store>` when it has fewer bits, and written
//!   in `<store>`'s storage format. A chunk of `kc` columns along k of `lines` lines is stored
//!   line-major: `[lines][kc]`, contiguous along k.
//! - `gen_fp8_int8`: fp8 elements as their int8 significands `±(8 + m)`, for the int8 path (one
//!   exact int8 GEMM with int32 accumulation; `pog_primitives::pricing`).
//! - `int32_to_f32`: the int8 path's int32 C scaled into fp32 in place (`/ 64`).
//! - `mem_fill`, `mem_walk`: the memory-hard phase's dataset items and walks; `mem_walk_groups`:
//!   whole groups of walks from the cache alone, to open walks once the dataset is gone
//!   (`pog_primitives::memory`, bit for bit; not in rounds yet).
//! - `hash_leaves`: Keccak-256 of each 1,024-byte leaf of C.
//! - `hash_nodes`: Keccak-256 of each pair of 32-byte children.
//! - `gather_words`: copies `count` runs of `words` u32 from given offsets into one buffer.

use pog_primitives::Precision;

/// CUDA C source of every kernel of the crate.
pub const SOURCE: &str = r#"
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned char u8;

// ---------------------------------------------------------------- Philox4x32-10
#define PH_M0 0xD2511F53u
#define PH_M1 0xCD9E8D57u
#define PH_W0 0x9E3779B9u
#define PH_W1 0xBB67AE85u

__device__ __forceinline__ void philox4x32_10(u32 c[4], u32 k0, u32 k1) {
#pragma unroll
	for (int r = 0; r < 10; r++) {
		if (r > 0) { k0 += PH_W0; k1 += PH_W1; }
		u32 hi0 = __umulhi(PH_M0, c[0]), lo0 = PH_M0 * c[0];
		u32 hi1 = __umulhi(PH_M1, c[2]), lo1 = PH_M1 * c[2];
		u32 n0 = hi1 ^ c[1] ^ k0;
		u32 n2 = hi0 ^ c[3] ^ k1;
		c[0] = n0; c[1] = lo1; c[2] = n2; c[3] = lo0;
	}
}

// Element bits from a W-bit slot: sign = top bit of the slot, P random mantissa bits at the
// bottom, value +-(1 + m/2^P); rounded to Q mantissa bits (ties to even) when Q < P; stored as
// ST: 0 = fp32 bits (fp32, tf32), 1 = fp16, 2 = bf16, 3 = fp8 e4m3, 4 = the int8 significand
// +-(2^Q + m) (the int8 path; Q <= 6).
template <int W, int P, int Q, int ST>
__device__ __forceinline__ u32 element_bits(u32 slot) {
	u32 sign = (slot >> (W - 1)) & 1u;
	u32 mant = slot & ((1u << P) - 1u);
	u32 x = (sign << 31) | (127u << 23) | (mant << (23 - P));
	if (Q < P) {
		const u32 drop = (Q < P) ? (23 - Q) : 1;
		u32 half = 1u << (drop - 1);
		u32 lsb = (x >> drop) & 1u;
		x = (x + half - 1u + lsb) & ~((1u << drop) - 1u);
	}
	u32 e = (x >> 23) & 0xFFu;
	if (ST == 0) return x;
	if (ST == 1) return (sign << 15) | ((e - 112u) << 10) | ((x >> 13) & 0x3FFu);
	if (ST == 2) return x >> 16;
	if (ST == 4) {
		u32 mag = (1u << Q) | ((x >> (23 - Q)) & ((1u << Q) - 1u));
		return sign ? ((256u - mag) & 0xFFu) : mag;
	}
	return (sign << 7) | ((e - 120u) << 3) | ((x >> 20) & 7u);
}

// One thread per Philox block: E = 128/W elements of one line, SB storage bytes each.
template <int W, int P, int Q, int ST, int SB>
__device__ __forceinline__ void gen_chunk(u8* out, u32 lines, u32 kc, u32 k0, u32 key0, u32 key1, u32 s2m, u32 s3) {
	const int E = 128 / W;
	const int BYTES = E * SB;
	const int WORDS = BYTES / 4;
	const u32 bpl = kc / E;
	const u64 total = (u64)lines * bpl;
	for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (u64)gridDim.x * blockDim.x) {
		u32 line = (u32)(i / bpl);
		u32 b = (u32)(i - (u64)line * bpl);
		u32 c[4] = {k0 / E + b, line, s2m, s3};
		philox4x32_10(c, key0, key1);
		u32 packed[WORDS];
#pragma unroll
		for (int j = 0; j < WORDS; j++) packed[j] = 0u;
#pragma unroll
		for (int e = 0; e < E; e++) {
			u32 w = c[(e * W) >> 5];
			u32 slot = (W == 32) ? w : ((w >> ((e * W) & 31)) & ((1u << (W & 31)) - 1u));
			u32 v = element_bits<W, P, Q, ST>(slot);
			packed[(e * SB) >> 2] |= v << (((e * SB) & 3) * 8);
		}
		u8* dst = out + ((u64)line * kc + (u64)b * E) * SB;
		if (BYTES % 16 == 0) {
#pragma unroll
			for (int j = 0; j < BYTES / 16; j++)
				((uint4*)dst)[j] = make_uint4(packed[4 * j], packed[4 * j + 1], packed[4 * j + 2], packed[4 * j + 3]);
		} else if (BYTES == 8) {
			((uint2*)dst)[0] = make_uint2(packed[0], packed[1 % WORDS]);
		} else {
			((u32*)dst)[0] = packed[0];
		}
	}
}

#define GEN(NAME, W, P, Q, ST, SB) \
	extern "C" __global__ void __launch_bounds__(256) NAME(u8* out, u32 lines, u32 kc, u32 k0, u32 key0, u32 key1, u32 s2m, u32 s3) { \
		gen_chunk<W, P, Q, ST, SB>(out, lines, kc, k0, key0, key1, s2m, s3); \
	}
// generated precision: fp32 (32, 23), tf32 (16, 10), fp16 (16, 10), bf16 (8, 7), fp8 (4, 3)
// stored as: fp32 (Q 23, ST 0, 4 B), tf32 (10, 0, 4), fp16 (10, 1, 2), bf16 (7, 2, 2), fp8 (3, 3, 1)
#define GEN_ALL(G, W, P) \
	GEN(gen_##G##_fp32, W, P, 23, 0, 4) \
	GEN(gen_##G##_tf32, W, P, 10, 0, 4) \
	GEN(gen_##G##_fp16, W, P, 10, 1, 2) \
	GEN(gen_##G##_bf16, W, P, 7, 2, 2) \
	GEN(gen_##G##_fp8, W, P, 3, 3, 1)
GEN_ALL(fp32, 32, 23)
GEN_ALL(tf32, 16, 10)
GEN_ALL(fp16, 16, 10)
GEN_ALL(bf16, 8, 7)
GEN_ALL(fp8, 4, 3)
// the int8 path: fp8 elements as int8 significands
GEN(gen_fp8_int8, 4, 3, 3, 4, 1)

// The int8 path's C, accumulated exactly in int32, as fp32 in place: c[i] = (float)c[i] * scale.
extern "C" __global__ void int32_to_f32(u32* c, u64 count, float scale) {
	for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x) {
		float v = (float)(int)c[i] * scale;
		c[i] = __float_as_uint(v);
	}
}

// ---------------------------------------------------------------- Keccak-256
__constant__ u64 KECCAK_RC[24] = {
	0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808Aull, 0x8000000080008000ull,
	0x000000000000808Bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
	0x000000000000008Aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000Aull,
	0x000000008000808Bull, 0x800000000000008Bull, 0x8000000000008089ull, 0x8000000000008003ull,
	0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800Aull, 0x800000008000000Aull,
	0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull
};

__device__ __forceinline__ u64 rotl64(u64 x, int n) { return (x << n) | (x >> (64 - n)); }

__device__ __forceinline__ void keccak_f1600(u64 s[25]) {
	const int ROTC[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
	const int PILN[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};
#pragma unroll 1
	for (int round = 0; round < 24; round++) {
		u64 c[5];
#pragma unroll
		for (int x = 0; x < 5; x++) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
#pragma unroll
		for (int x = 0; x < 5; x++) {
			u64 d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
#pragma unroll
			for (int y = 0; y < 25; y += 5) s[y + x] ^= d;
		}
		u64 t = s[1];
#pragma unroll
		for (int i = 0; i < 24; i++) {
			int j = PILN[i];
			u64 tmp = s[j];
			s[j] = rotl64(t, ROTC[i]);
			t = tmp;
		}
#pragma unroll
		for (int y = 0; y < 25; y += 5) {
			u64 b0 = s[y], b1 = s[y + 1], b2 = s[y + 2], b3 = s[y + 3], b4 = s[y + 4];
			s[y] = b0 ^ (~b1 & b2);
			s[y + 1] = b1 ^ (~b2 & b3);
			s[y + 2] = b2 ^ (~b3 & b4);
			s[y + 3] = b3 ^ (~b4 & b0);
			s[y + 4] = b4 ^ (~b0 & b1);
		}
		s[0] ^= KECCAK_RC[round];
	}
}

// Rate 136 bytes = 17 lanes; a 1,024-byte leaf is 128 lanes: 7 full blocks and 9 lanes, then
// the original Keccak padding (0x01 after the data, 0x80 in the last byte of the block).
extern "C" __global__ void __launch_bounds__(128) hash_leaves(const u64* __restrict__ c, u64* __restrict__ out, u64 num_leaves) {
	for (u64 leaf = (u64)blockIdx.x * blockDim.x + threadIdx.x; leaf < num_leaves; leaf += (u64)gridDim.x * blockDim.x) {
		const u64* p = c + leaf * 128;
		u64 s[25];
#pragma unroll
		for (int i = 0; i < 25; i++) s[i] = 0ull;
#pragma unroll 1
		for (int blk = 0; blk < 7; blk++) {
#pragma unroll
			for (int j = 0; j < 17; j++) s[j] ^= __ldg(p + blk * 17 + j);
			keccak_f1600(s);
		}
#pragma unroll
		for (int j = 0; j < 9; j++) s[j] ^= __ldg(p + 119 + j);
		s[9] ^= 0x01ull;
		s[16] ^= 0x8000000000000000ull;
		keccak_f1600(s);
		u64* o = out + leaf * 4;
		o[0] = s[0]; o[1] = s[1]; o[2] = s[2]; o[3] = s[3];
	}
}

// Inner nodes: keccak256(left || right), 64 bytes = 8 lanes in one block.
extern "C" __global__ void __launch_bounds__(128) hash_nodes(const u64* __restrict__ below, u64* __restrict__ above, u64 count) {
	for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (u64)gridDim.x * blockDim.x) {
		const u64* p = below + i * 8;
		u64 s[25];
#pragma unroll
		for (int j = 0; j < 25; j++) s[j] = 0ull;
#pragma unroll
		for (int j = 0; j < 8; j++) s[j] = p[j];
		s[8] ^= 0x01ull;
		s[16] ^= 0x8000000000000000ull;
		keccak_f1600(s);
		u64* o = above + i * 4;
		o[0] = s[0]; o[1] = s[1]; o[2] = s[2]; o[3] = s[3];
	}
}

// ---------------------------------------------------------------- memory-hard phase
// pog_primitives::memory, bit for bit: 64-byte items of 16 LE u32 words; expand(x) =
// keccak256(x || 0) || keccak256(x || 1); fnv(a, b) = a * 0x01000193 ^ b.
#define MEM_FNV 0x01000193u

// Keccak-256 (original padding) of len <= 135 bytes, one block.
__device__ __forceinline__ void keccak256_small(const u8* msg, int len, u64 out[4]) {
	u64 s[25];
#pragma unroll
	for (int i = 0; i < 25; i++) s[i] = 0ull;
	for (int i = 0; i < len; i++) s[i >> 3] ^= (u64)msg[i] << (8 * (i & 7));
	s[len >> 3] ^= 0x01ull << (8 * (len & 7));
	s[16] ^= 0x8000000000000000ull;
	keccak_f1600(s);
	out[0] = s[0]; out[1] = s[1]; out[2] = s[2]; out[3] = s[3];
}

// item = expand(msg[0..len]); msg has room for one more byte.
__device__ __forceinline__ void mem_expand(u8* msg, int len, u32 item[16]) {
#pragma unroll 1
	for (int half = 0; half < 2; half++) {
		msg[len] = (u8)half;
		u64 h[4];
		keccak256_small(msg, len + 1, h);
#pragma unroll
		for (int k = 0; k < 4; k++) {
			item[half * 8 + 2 * k] = (u32)h[k];
			item[half * 8 + 2 * k + 1] = (u32)(h[k] >> 32);
		}
	}
}

__device__ __forceinline__ void mem_bytes(const u32 item[16], u8 out[65]) {
#pragma unroll
	for (int w = 0; w < 16; w++) {
		out[4 * w] = (u8)item[w]; out[4 * w + 1] = (u8)(item[w] >> 8);
		out[4 * w + 2] = (u8)(item[w] >> 16); out[4 * w + 3] = (u8)(item[w] >> 24);
	}
}

// mix[w] = fnv(mix[w], item[w]) for the 64-byte item at `item` (read-only, 16-byte aligned).
__device__ __forceinline__ void mem_fold(u32 mix[16], const u32* __restrict__ item) {
	const uint4* p = (const uint4*)item;
#pragma unroll
	for (int q = 0; q < 4; q++) {
		uint4 v = __ldg(p + q);
		mix[4 * q] = mix[4 * q] * MEM_FNV ^ v.x; mix[4 * q + 1] = mix[4 * q + 1] * MEM_FNV ^ v.y;
		mix[4 * q + 2] = mix[4 * q + 2] * MEM_FNV ^ v.z; mix[4 * q + 3] = mix[4 * q + 3] * MEM_FNV ^ v.w;
	}
}

// item = dataset item `index`, folded from `parents` items of the cache (cache_mask + 1 items, a
// power of two).
__device__ __forceinline__ void mem_item(const u32* __restrict__ cache, u32 cache_mask, u64 index, u32 parents,
		u32 item[16]) {
	const u32* c = cache + (index & cache_mask) * 16;
	u32 mix[16];
#pragma unroll
	for (int w = 0; w < 16; w++) mix[w] = c[w];
	mix[0] ^= (u32)index; mix[1] ^= (u32)(index >> 32);
	u8 buf[65];
	mem_bytes(mix, buf);
	mem_expand(buf, 64, mix);
#pragma unroll 4
	for (u32 j = 0; j < parents; j++) {
		u32 pick = mix[0];
#pragma unroll
		for (int w = 1; w < 16; w++) pick = (j % 16 == (u32)w) ? mix[w] : pick;
		u32 parent = ((((u32)index ^ j) * MEM_FNV) ^ pick) & cache_mask;
		mem_fold(mix, cache + (u64)parent * 16);
	}
	mem_bytes(mix, buf);
	mem_expand(buf, 64, item);
}

// dataset[t] = dataset item first + t.
extern "C" __global__ void __launch_bounds__(128) mem_fill(const u32* __restrict__ cache, u32 cache_mask,
		u32* __restrict__ dataset, u64 first, u64 count, u32 parents) {
	for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += (u64)gridDim.x * blockDim.x) {
		u32 item[16];
		mem_item(cache, cache_mask, first + t, parents, item);
		uint4* d = (uint4*)(dataset + t * 16);
#pragma unroll
		for (int q = 0; q < 4; q++) d[q] = make_uint4(item[4 * q], item[4 * q + 1], item[4 * q + 2], item[4 * q + 3]);
	}
}

// out[t] = keccak256 of walk first_walk + t's final mix: `reads` data-dependent reads of the
// dataset (`items` items); prefix = "pog/mem/walk" || seed (44 bytes), then the walk as 8 bytes.
// PARTIAL (a cheater's instrument, never the agent's answer): only items below `resident` are
// read from `dataset`; the others are made again from the cache, as a card that cannot hold the
// whole dataset must.
// GROUPS (opening walks after the phase, the dataset gone): thread t runs walk
// groups[t / group_walks] · group_walks + t mod group_walks, every item made from the cache.
template <bool PARTIAL>
__device__ __forceinline__ void mem_walk_body(const u32* __restrict__ dataset, u64 items, const u8* __restrict__ prefix,
		u64 first_walk, u32 count, u32 reads, u64* __restrict__ out,
		u64 resident, const u32* __restrict__ cache, u32 cache_mask, u32 parents,
		const u64* __restrict__ groups, u32 group_walks) {
	for (u32 t = blockIdx.x * blockDim.x + threadIdx.x; t < count; t += gridDim.x * blockDim.x) {
		u64 walk = groups ? groups[t / group_walks] * group_walks + t % group_walks : first_walk + t;
		u8 buf[65];
		for (int i = 0; i < 44; i++) buf[i] = prefix[i];
#pragma unroll
		for (int i = 0; i < 8; i++) buf[44 + i] = (u8)(walk >> (8 * i));
		u32 mix[16];
		mem_expand(buf, 52, mix);
		for (u32 r = 0; r < reads; r++) {
			u32 sel = mix[0], nxt = mix[1];
#pragma unroll
			for (int w = 1; w < 16; w++) {
				sel = (r % 16 == (u32)w) ? mix[w] : sel;
				nxt = ((r + 1) % 16 == (u32)w) ? mix[w] : nxt;
			}
			nxt = ((r + 1) % 16 == 0) ? mix[0] : nxt;
			u32 hi = (((u32)walk ^ r) * MEM_FNV) ^ sel;
			u64 idx = (((u64)hi << 32) | nxt) % items;
			if (PARTIAL && idx >= resident) {
				u32 item[16];
				mem_item(cache, cache_mask, idx, parents, item);
#pragma unroll
				for (int w = 0; w < 16; w++) mix[w] = mix[w] * MEM_FNV ^ item[w];
			} else {
				mem_fold(mix, dataset + idx * 16);
			}
		}
		mem_bytes(mix, buf);
		u64 h[4];
		keccak256_small(buf, 64, h);
		out[4 * t] = h[0]; out[4 * t + 1] = h[1]; out[4 * t + 2] = h[2]; out[4 * t + 3] = h[3];
	}
}

extern "C" __global__ void __launch_bounds__(128) mem_walk(const u32* __restrict__ dataset, u64 items,
		const u8* __restrict__ prefix, u64 first_walk, u32 count, u32 reads, u64* __restrict__ out) {
	mem_walk_body<false>(dataset, items, prefix, first_walk, count, reads, out, items, dataset, 0, 0, nullptr, 1);
}

extern "C" __global__ void __launch_bounds__(128) mem_walk_partial(const u32* __restrict__ dataset, u64 items,
		const u8* __restrict__ prefix, u64 first_walk, u32 count, u32 reads, u64* __restrict__ out,
		u64 resident, const u32* __restrict__ cache, u32 cache_mask, u32 parents) {
	mem_walk_body<true>(dataset, items, prefix, first_walk, count, reads, out, resident, cache, cache_mask, parents, nullptr, 1);
}

// Every walk of the `groups` listed (count = groups · group_walks threads), from the cache alone:
// what opening a walk needs once the dataset is gone (its group's results, to rebuild the path).
extern "C" __global__ void __launch_bounds__(128) mem_walk_groups(u64 items, const u8* __restrict__ prefix,
		const u64* __restrict__ groups, u32 group_walks, u32 count, u32 reads, u64* __restrict__ out,
		const u32* __restrict__ cache, u32 cache_mask, u32 parents) {
	mem_walk_body<true>(cache, items, prefix, 0, count, reads, out, 0, cache, cache_mask, parents, groups, group_walks);
}

// out[i * words + w] = src[offsets[i] + w]
extern "C" __global__ void gather_words(const u32* __restrict__ src, const u64* __restrict__ offsets, u32 count, u32 words, u32* __restrict__ out) {
	u64 total = (u64)count * words;
	for (u64 idx = (u64)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += (u64)gridDim.x * blockDim.x) {
		u32 item = (u32)(idx / words);
		u32 w = (u32)(idx - (u64)item * words);
		out[idx] = src[offsets[item] + w];
	}
}
"#;

/// Short name of a precision inside kernel names.
pub fn short_name(p: Precision) -> &'static str {
	match p {
		Precision::Fp32 => "fp32",
		Precision::Tf32 => "tf32",
		Precision::Fp16 => "fp16",
		Precision::Bf16 => "bf16",
		Precision::Fp8E4M3 => "fp8",
	}
}

/// Name of the kernel generating `generated`-precision elements stored as `stored`.
pub fn gen_kernel_name(generated: Precision, stored: Precision) -> String {
	format!("gen_{}_{}", short_name(generated), short_name(stored))
}

/// Name of the kernel generating fp8 elements as int8 significands (the int8 path).
pub const INT8_GEN_KERNEL: &str = "gen_fp8_int8";

/// Names of every generation kernel (5 × 5, and the int8 path's).
pub fn gen_kernel_names() -> Vec<String> {
	let mut out = Vec::new();
	for g in Precision::ALL {
		for s in Precision::ALL {
			out.push(gen_kernel_name(g, s));
		}
	}
	out.push(INT8_GEN_KERNEL.into());
	out
}

/// Host mirror of the int8 path's `element_bits` (storage 4): the int8 significand of the fp8
/// element made from `slot`, as a byte.
pub fn int8_significand_byte(slot: u32) -> u8 {
	let p = Precision::Fp8E4M3;
	p.significand(p.element_from_random(slot)) as i8 as u8
}

/// Bytes one element takes in `stored`'s storage format (tf32 is stored as fp32).
pub fn storage_bytes(stored: Precision) -> usize {
	stored.storage_bits() as usize / 8
}

/// Host mirror of the kernel's `element_bits`: the element of precision `generated` made from
/// `slot`, rounded to `stored`'s mantissa (ties to even) when that has fewer bits, in `stored`'s
/// storage format.
pub fn element_bits(generated: Precision, stored: Precision, slot: u32) -> u32 {
	let (w, p) = (generated.slot_bits(), generated.mantissa_bits());
	let q = stored.mantissa_bits();
	let sign = (slot >> (w - 1)) & 1;
	let mant = slot & ((1u32 << p) - 1);
	let mut x = (sign << 31) | (127 << 23) | (mant << (23 - p));
	if q < p {
		let drop = 23 - q;
		let half = 1u32 << (drop - 1);
		let lsb = (x >> drop) & 1;
		x = (x + half - 1 + lsb) & !((1u32 << drop) - 1);
	}
	let e = (x >> 23) & 0xFF;
	match stored {
		Precision::Fp32 | Precision::Tf32 => x,
		Precision::Fp16 => (sign << 15) | ((e - 112) << 10) | ((x >> 13) & 0x3FF),
		Precision::Bf16 => x >> 16,
		Precision::Fp8E4M3 => (sign << 7) | ((e - 120) << 3) | ((x >> 20) & 7),
	}
}

/// The exact value of element bits in `stored`'s storage format (for host-side comparisons).
pub fn stored_value(stored: Precision, bits: u32) -> f32 {
	match stored {
		Precision::Fp32 | Precision::Tf32 => f32::from_bits(bits),
		Precision::Bf16 => f32::from_bits(bits << 16),
		Precision::Fp16 => {
			let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
			let e = ((bits >> 10) & 0x1F) as i32 - 15;
			sign * (1.0 + (bits & 0x3FF) as f32 / 1024.0) * 2f32.powi(e)
		},
		Precision::Fp8E4M3 => {
			let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
			let e = ((bits >> 3) & 0xF) as i32 - 7;
			sign * (1.0 + (bits & 7) as f32 / 8.0) * 2f32.powi(e)
		},
	}
}

/// The constants of an integer array named `name` in [`SOURCE`] (`name[..] = { a, b, ... }`),
/// for the tests that rebuild the kernels' Keccak on the host.
pub fn source_array(name: &str) -> Vec<u64> {
	let start = SOURCE.find(&format!("{name}[")).expect("array in the kernel source");
	let open = start + SOURCE[start..].find('{').expect("{");
	let close = open + SOURCE[open..].find('}').expect("}");
	SOURCE[open + 1..close]
		.split(',')
		.map(|t| {
			let t = t.trim().trim_end_matches("ull").trim_end_matches('u');
			match t.strip_prefix("0x") {
				Some(hex) => u64::from_str_radix(hex, 16).expect("hex"),
				None => t.parse().expect("decimal"),
			}
		})
		.collect()
}

#[cfg(test)]
mod tests {
	use super::*;
	use pog_primitives::{
		commitment::{keccak256_concat, leaf_hash},
		cpu::round_mantissa,
	};

	fn slots(p: Precision) -> Vec<u32> {
		let w = p.slot_bits();
		if w <= 16 {
			(0..1u32 << w).collect()
		} else {
			let mut x = 0x1234_5678u32;
			(0..100_000)
				.map(|_| {
					x ^= x << 13;
					x ^= x >> 17;
					x ^= x << 5;
					x
				})
				.chain([0, u32::MAX, 0x8000_0000, 0x7FFF_FFFF, 0x0000_1000, 0x0000_0FFF])
				.collect()
		}
	}

	#[test]
	fn honest_elements_equal_the_protocol() {
		for p in Precision::ALL {
			for r in slots(p) {
				assert_eq!(element_bits(p, p, r), p.element_from_random(r), "{p:?} {r:#x}");
			}
		}
	}

	/// The int8 path's bytes, as the kernel makes them (magnitude 8 + the 3 mantissa bits, negated
	/// in two's complement for a set sign bit), are 8 × the fp8 element's value: the significand.
	#[test]
	fn int8_path_bytes_are_the_fp8_significands() {
		for slot in 0..16u32 {
			let mag = 8 | (slot & 7);
			let kernel = if slot & 8 != 0 { (256 - mag) & 0xFF } else { mag } as u8;
			assert_eq!(kernel, int8_significand_byte(slot), "slot {slot}");
			let value = Precision::Fp8E4M3.to_f32(Precision::Fp8E4M3.element_from_random(slot));
			assert_eq!(f32::from(kernel as i8), value * 8.0, "slot {slot}");
		}
		assert!(SOURCE.contains("GEN(gen_fp8_int8, 4, 3, 3, 4, 1)"));
		assert!(gen_kernel_names().iter().any(|n| n == INT8_GEN_KERNEL));
	}

	#[test]
	fn lower_precision_elements_are_the_rounded_values() {
		for g in Precision::ALL {
			for s in Precision::ALL {
				for r in slots(g) {
					let value = g.to_f32(g.element_from_random(r));
					let expect = round_mantissa(value, s.mantissa_bits());
					let got = stored_value(s, element_bits(g, s, r));
					assert_eq!(got, expect, "{g:?} -> {s:?} slot {r:#x}");
				}
			}
		}
	}

	#[test]
	fn every_generation_kernel_is_in_the_source() {
		// GEN_ALL expands gen_<g>_<s> for every stored format; every generated precision is listed.
		for g in Precision::ALL {
			assert!(SOURCE.contains(&format!("GEN_ALL({},", short_name(g))), "{g:?}");
		}
		assert_eq!(gen_kernel_names().len(), 25 + 1, "and the int8 path's");
		for s in ["fp32", "tf32", "fp16", "bf16", "fp8"] {
			assert!(SOURCE.contains(&format!("GEN(gen_##G##_{s},")), "{s}");
		}
	}

	fn keccak_f(s: &mut [u64; 25], rc: &[u64], rotc: &[u64], piln: &[u64]) {
		for round_constant in rc {
			let mut c = [0u64; 5];
			for x in 0..5 {
				c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
			}
			for x in 0..5 {
				let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
				for y in (0..25).step_by(5) {
					s[y + x] ^= d;
				}
			}
			let mut t = s[1];
			for i in 0..24 {
				let j = piln[i] as usize;
				let tmp = s[j];
				s[j] = t.rotate_left(rotc[i] as u32);
				t = tmp;
			}
			for y in (0..25).step_by(5) {
				let b = [s[y], s[y + 1], s[y + 2], s[y + 3], s[y + 4]];
				for x in 0..5 {
					s[y + x] = b[x] ^ (!b[(x + 1) % 5] & b[(x + 2) % 5]);
				}
			}
			s[0] ^= round_constant;
		}
	}

	fn out(s: &[u64; 25]) -> [u8; 32] {
		let mut h = [0u8; 32];
		for i in 0..4 {
			h[8 * i..8 * i + 8].copy_from_slice(&s[i].to_le_bytes());
		}
		h
	}

	/// The kernels' constants and block layout, run on the host, give the protocol's hashes.
	#[test]
	fn kernel_keccak_layout_matches_the_protocol() {
		let (rc, rotc, piln) = (source_array("KECCAK_RC"), source_array("ROTC"), source_array("PILN"));
		assert_eq!((rc.len(), rotc.len(), piln.len()), (24, 24, 24));
		let values: Vec<u32> = (0..256u32).map(|i| i.wrapping_mul(0x9E37_79B9) ^ 0x5555).collect();
		let lanes: Vec<u64> = values.chunks(2).map(|p| u64::from(p[0]) | (u64::from(p[1]) << 32)).collect();
		let mut s = [0u64; 25];
		for blk in 0..7 {
			for j in 0..17 {
				s[j] ^= lanes[blk * 17 + j];
			}
			keccak_f(&mut s, &rc, &rotc, &piln);
		}
		for j in 0..9 {
			s[j] ^= lanes[119 + j];
		}
		s[9] ^= 1;
		s[16] ^= 1 << 63;
		keccak_f(&mut s, &rc, &rotc, &piln);
		assert_eq!(out(&s), leaf_hash(&values));

		let (l, r) = ([7u8; 32], [0xA5u8; 32]);
		let mut s = [0u64; 25];
		for j in 0..4 {
			s[j] = u64::from_le_bytes(l[8 * j..8 * j + 8].try_into().unwrap());
			s[4 + j] = u64::from_le_bytes(r[8 * j..8 * j + 8].try_into().unwrap());
		}
		s[8] ^= 1;
		s[16] ^= 1 << 63;
		keccak_f(&mut s, &rc, &rotc, &piln);
		assert_eq!(out(&s), keccak256_concat(&[&l, &r]));
	}
}
