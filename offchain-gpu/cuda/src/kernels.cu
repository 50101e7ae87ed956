// Every CUDA kernel of pog-cuda, compiled at run time by NVRTC for the device in hand
// (`device.rs`, `Kernels::compile`); `kernels.rs` documents each and holds the host-side
// mirrors its tests compare with `pog_primitives`.
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
