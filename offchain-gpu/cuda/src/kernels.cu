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

// ---- quads: four lanes to an item or a walk
// The phase runs four lanes of a warp to each item or walk (a quad, lanes 4q..4q+3): lane l holds
// words 4l..4l+3 of the 16-word mix and reads the 16 bytes of an item at that offset, so a quad's
// read of a 64-byte item is one coalesced request (a thread reading the four quarters itself
// made four requests of the same two sectors). Measured on an H100: the fill at 256 parents 1.5×
// faster than a thread an item; for the walks, what counts is that a quad runs four of them with
// their reads in flight together (`mem_walk`), a quad to one walk read slower than a thread to one.
// A quad's lanes always take the same branches; shuffles name the quad's lanes only.
__device__ __forceinline__ u32 quad_mask() { return 0xFu << (threadIdx.x & 28); }

// m[k] for k uniform across the quad, without indexing a register array.
__device__ __forceinline__ u32 quad_pick(const u32 m[4], u32 k) {
	return k == 0 ? m[0] : (k == 1 ? m[1] : (k == 2 ? m[2] : m[3]));
}

// Word w (0..15, the same in every lane) of the quad's mix, in every lane.
__device__ __forceinline__ u32 quad_word(const u32 m[4], u32 w, u32 mask) {
	return __shfl_sync(mask, quad_pick(m, w & 3), w >> 2, 4);
}

// The quad's whole mix in every lane.
__device__ __forceinline__ void quad_gather(const u32 m[4], u32 mask, u32 mix[16]) {
#pragma unroll
	for (int src = 0; src < 4; src++) {
#pragma unroll
		for (int k = 0; k < 4; k++) mix[4 * src + k] = __shfl_sync(mask, m[k], src, 4);
	}
}

// m = words 4·lane.. of expand(msg[0..len]) (msg has room for one more byte): lanes 0 and 1 hash
// the first half, lanes 2 and 3 the second.
__device__ __forceinline__ void quad_expand(u8* msg, int len, u32 lane, u32 m[4]) {
	msg[len] = (u8)(lane >> 1);
	u64 h[4];
	keccak256_small(msg, len + 1, h);
	u64 a = (lane & 1) ? h[2] : h[0], b = (lane & 1) ? h[3] : h[1];
	m[0] = (u32)a; m[1] = (u32)(a >> 32); m[2] = (u32)b; m[3] = (u32)(b >> 32);
}

// m[k] = fnv(m[k], this lane's quarter of an item).
__device__ __forceinline__ void quad_fold(u32 m[4], uint4 v) {
	m[0] = m[0] * MEM_FNV ^ v.x; m[1] = m[1] * MEM_FNV ^ v.y;
	m[2] = m[2] * MEM_FNV ^ v.z; m[3] = m[3] * MEM_FNV ^ v.w;
}

// This lane's quarter of dataset item `index`, folded from `parents` items of the cache
// (cache_mask + 1 items, a power of two); every lane of the quad passes the same index.
__device__ __forceinline__ uint4 quad_item(const u32* __restrict__ cache, u32 cache_mask, u64 index, u32 parents,
		u32 lane, u32 mask) {
	const uint4* c = (const uint4*)(cache + (index & cache_mask) * 16);
	u32 mix[16];
#pragma unroll
	for (int q = 0; q < 4; q++) {
		uint4 v = __ldg(c + q);
		mix[4 * q] = v.x; mix[4 * q + 1] = v.y; mix[4 * q + 2] = v.z; mix[4 * q + 3] = v.w;
	}
	mix[0] ^= (u32)index; mix[1] ^= (u32)(index >> 32);
	u8 buf[65];
	mem_bytes(mix, buf);
	u32 m[4];
	quad_expand(buf, 64, lane, m);
#pragma unroll 4
	for (u32 j = 0; j < parents; j++) {
		u32 parent = ((((u32)index ^ j) * MEM_FNV) ^ quad_word(m, j & 15, mask)) & cache_mask;
		quad_fold(m, __ldg((const uint4*)(cache + (u64)parent * 16) + lane));
	}
	quad_gather(m, mask, mix);
	mem_bytes(mix, buf);
	quad_expand(buf, 64, lane, m);
	return make_uint4(m[0], m[1], m[2], m[3]);
}

// x mod d from inv = ⌊(2^64 − 1) / d⌋: the multiply-high falls short of ⌊x / d⌋ by at most 2
// (x · (2^64/d − inv) / 2^64 < 1 + 1/d), so two corrections without a branch (64-bit `%` is a long
// software division on the GPU, once per read). `kernels.rs` holds it against `%`.
__device__ __forceinline__ u64 mod_by_inverse(u64 x, u64 d, u64 inv) {
	u64 r = x - __umul64hi(x, inv) * d;
	r = r >= d ? r - d : r;
	return r >= d ? r - d : r;
}

// dataset[t] = dataset item first + t, a quad to an item.
extern "C" __global__ void __launch_bounds__(128) mem_fill(const u32* __restrict__ cache, u32 cache_mask,
		u32* __restrict__ dataset, u64 first, u64 count, u32 parents) {
	const u32 lane = threadIdx.x & 3, mask = quad_mask();
	const u64 stride = ((u64)gridDim.x * blockDim.x) >> 2;
	for (u64 t = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 2; t < count; t += stride) {
		uint4 v = quad_item(cache, cache_mask, first + t, parents, lane, mask);
		((uint4*)(dataset + t * 16))[lane] = v;
	}
}

// ---- walks, in three kernels
// A walk is its first mix (expand of its number: two Keccaks), `reads` data-dependent reads of the
// dataset, and a Keccak of its last mix (`pog_primitives::memory::walk`). The Keccaks run in
// kernels of their own (`mem_walk_start`, `mem_walk_end`, a thread a walk), so the kernel that
// reads (`mem_walk`) holds no Keccak state, keeps more walks in flight, and leaves room for the
// hashing of the batches around it to run beside its reads. Between them `mix` holds 16 words a walk.
// Walk number t of a launch: first_walk + t, or with `groups`, t's place in the groups listed
// (groups[t / group_walks] · group_walks + t mod group_walks: opening walks after the phase).
__device__ __forceinline__ u64 walk_number(u64 t, u64 first_walk, const u64* __restrict__ groups, u32 group_walks) {
	return groups ? groups[t / group_walks] * group_walks + t % group_walks : first_walk + t;
}

// mix[t] = expand("pog/mem/walk" || seed || walk t as 8 bytes); prefix holds the first 44 bytes.
extern "C" __global__ void __launch_bounds__(128) mem_walk_start(const u8* __restrict__ prefix, u64 first_walk,
		const u64* __restrict__ groups, u32 group_walks, u32 count, u32* __restrict__ mix) {
	for (u32 t = blockIdx.x * blockDim.x + threadIdx.x; t < count; t += gridDim.x * blockDim.x) {
		u64 walk = walk_number(t, first_walk, groups, group_walks);
		u8 buf[65];
#pragma unroll
		for (int i = 0; i < 44; i++) buf[i] = prefix[i];
#pragma unroll
		for (int i = 0; i < 8; i++) buf[44 + i] = (u8)(walk >> (8 * i));
		u32 m[16];
		mem_expand(buf, 52, m);
		uint4* o = (uint4*)(mix + (u64)t * 16);
#pragma unroll
		for (int q = 0; q < 4; q++) o[q] = make_uint4(m[4 * q], m[4 * q + 1], m[4 * q + 2], m[4 * q + 3]);
	}
}

// out[t] = keccak256 of walk t's last mix.
extern "C" __global__ void __launch_bounds__(128) mem_walk_end(const u32* __restrict__ mix, u32 count, u64* __restrict__ out) {
	for (u32 t = blockIdx.x * blockDim.x + threadIdx.x; t < count; t += gridDim.x * blockDim.x) {
		const uint4* p = (const uint4*)(mix + (u64)t * 16);
		u32 m[16];
#pragma unroll
		for (int q = 0; q < 4; q++) {
			uint4 v = p[q];
			m[4 * q] = v.x; m[4 * q + 1] = v.y; m[4 * q + 2] = v.z; m[4 * q + 3] = v.w;
		}
		u8 buf[65];
		mem_bytes(m, buf);
		u64 h[4];
		keccak256_small(buf, 64, h);
		u64* o = out + 4 * (u64)t;
		o[0] = h[0]; o[1] = h[1]; o[2] = h[2]; o[3] = h[3];
	}
}

// The reads of walks 0..count, in place on `mix`: a quad runs W walks side by side, each lane
// reading its quarter of every walk's item, so each lane has W reads in flight. `mem_walk` runs
// MEM_NARROW_QUAD_WALKS, `mem_walk_wide` MEM_WIDE_QUAD_WALKS and `mem_walk_partial`
// MEM_PARTIAL_QUAD_WALKS (set by the host: `kernels::WalkShape`).
// PARTIAL (a cheater's instrument, never the agent's answer; and opening walks from the cache):
// only items below `resident` are read from `dataset`; the others are made again from the
// cache, as a card that cannot hold the whole dataset must.
template <bool PARTIAL, int W>
__device__ __forceinline__ void mem_walk_body(const u32* __restrict__ dataset, u64 items, u64 first_walk,
		const u64* __restrict__ groups, u32 group_walks, u32 count, u32 reads, u32* __restrict__ mix,
		u64 resident, const u32* __restrict__ cache, u32 cache_mask, u32 parents) {
	const u32 lane = threadIdx.x & 3, mask = quad_mask();
	const u64 inv = ~0ull / items;
	const u64 stride = ((u64)gridDim.x * blockDim.x) >> 2;
	for (u64 q = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 2; q * W < count; q += stride) {
		// a quad past the last walk runs the last one again and writes nothing for it
		const u64 last = count - 1;
		u32 walk[W];  // the low half of each walk's number: all that a read's index takes of it
		u32 m[W][4];
#pragma unroll
		for (int j = 0; j < W; j++) {
			u64 t = min(q * W + j, last);
			walk[j] = (u32)walk_number(t, first_walk, groups, group_walks);
			uint4 v = ((const uint4*)(mix + t * 16))[lane];
			m[j][0] = v.x; m[j][1] = v.y; m[j][2] = v.z; m[j][3] = v.w;
		}
		for (u32 r = 0; r < reads; r++) {
			u32 s = r & 15, n = (r + 1) & 15;
			// every walk's index, then every read, then every fold: in this order the W reads
			// are in flight together (a shuffle between a read and its fold would wait for it)
			u64 idx[W];
			uint4 v[W];
#pragma unroll
			for (int j = 0; j < W; j++) {
				u32 hi = ((walk[j] ^ r) * MEM_FNV) ^ quad_word(m[j], s, mask);
				idx[j] = mod_by_inverse(((u64)hi << 32) | quad_word(m[j], n, mask), items, inv);
			}
#pragma unroll
			for (int j = 0; j < W; j++) {
				v[j] = (PARTIAL && idx[j] >= resident) ? quad_item(cache, cache_mask, idx[j], parents, lane, mask)
				                                       : __ldg((const uint4*)(dataset + idx[j] * 16) + lane);
			}
#pragma unroll
			for (int j = 0; j < W; j++) quad_fold(m[j], v[j]);
		}
#pragma unroll
		for (int j = 0; j < W; j++) {
			if (q * W + j <= last) ((uint4*)(mix + (q * W + j) * 16))[lane] = make_uint4(m[j][0], m[j][1], m[j][2], m[j][3]);
		}
	}
}

extern "C" __global__ void __launch_bounds__(128) mem_walk(const u32* __restrict__ dataset, u64 items, u64 first_walk,
		u32 count, u32 reads, u32* __restrict__ mix) {
	mem_walk_body<false, MEM_NARROW_QUAD_WALKS>(dataset, items, first_walk, nullptr, 1, count, reads, mix, items, dataset, 0, 0);
}

extern "C" __global__ void __launch_bounds__(128) mem_walk_wide(const u32* __restrict__ dataset, u64 items, u64 first_walk,
		u32 count, u32 reads, u32* __restrict__ mix) {
	mem_walk_body<false, MEM_WIDE_QUAD_WALKS>(dataset, items, first_walk, nullptr, 1, count, reads, mix, items, dataset, 0, 0);
}

// `dataset` holds the first `resident` items (none: every item from the cache, for opening).
extern "C" __global__ void __launch_bounds__(128) mem_walk_partial(const u32* __restrict__ dataset, u64 items,
		u64 first_walk, const u64* __restrict__ groups, u32 group_walks, u32 count, u32 reads, u32* __restrict__ mix,
		u64 resident, const u32* __restrict__ cache, u32 cache_mask, u32 parents) {
	mem_walk_body<true, MEM_PARTIAL_QUAD_WALKS>(dataset, items, first_walk, groups, group_walks, count, reads, mix, resident, cache, cache_mask, parents);
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

// ---------------------------------------------------------------- lanes
// A per-core CPU unit's memory phase (pog_primitives::lanes, bit for bit), run by a GPU: the
// instrument that shows what a GPU answering a CPU's claim takes. No honest miner runs it: a
// CPU unit is answered by the CPU.

// Keccak-256 (original padding) of `len` bytes, any length.
__device__ void keccak256_any(const u8* msg, u32 len, u64 out[4]) {
	u64 s[25];
#pragma unroll
	for (int i = 0; i < 25; i++) s[i] = 0ull;
	u32 off = 0;
	for (; len - off >= 136; off += 136) {
		for (int i = 0; i < 136; i++) s[i >> 3] ^= (u64)msg[off + i] << (8 * (i & 7));
		keccak_f1600(s);
	}
	u32 rest = len - off;
	for (u32 i = 0; i < rest; i++) s[i >> 3] ^= (u64)msg[off + i] << (8 * (i & 7));
	s[rest >> 3] ^= 0x01ull << (8 * (rest & 7));
	s[16] ^= 0x8000000000000000ull;
	keccak_f1600(s);
	out[0] = s[0]; out[1] = s[1]; out[2] = s[2]; out[3] = s[3];
}

__device__ __forceinline__ void put_u64s(u8* at, const u64 h[4]) {
#pragma unroll
	for (int i = 0; i < 32; i++) at[i] = (u8)(h[i >> 3] >> (8 * (i & 7)));
}

// Pad item j of lane first_lane + l at pad[(l · lane_items + j) · 16]: expand("pog/lane/pad" ‖
// seed ‖ lane ‖ j), a thread an item.
extern "C" __global__ void __launch_bounds__(128) lane_pad(const u8* __restrict__ seed, u32 first_lane, u32 lanes,
		u32 lane_items, u32* __restrict__ pad) {
	const u8 tag[12] = {'p', 'o', 'g', '/', 'l', 'a', 'n', 'e', '/', 'p', 'a', 'd'};
	u64 total = (u64)lanes * lane_items;
	for (u64 idx = (u64)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += (u64)gridDim.x * blockDim.x) {
		u32 lane = first_lane + (u32)(idx / lane_items), j = (u32)(idx % lane_items);
		u8 buf[53];
#pragma unroll
		for (int i = 0; i < 12; i++) buf[i] = tag[i];
		for (int i = 0; i < 32; i++) buf[12 + i] = seed[i];
#pragma unroll
		for (int i = 0; i < 4; i++) { buf[44 + i] = (u8)(lane >> (8 * i)); buf[48 + i] = (u8)(j >> (8 * i)); }
		u32 item[16];
		mem_expand(buf, 52, item);
		uint4* o = (uint4*)(pad + idx * 16);
#pragma unroll
		for (int q = 0; q < 4; q++) o[q] = make_uint4(item[4 * q], item[4 * q + 1], item[4 * q + 2], item[4 * q + 3]);
	}
}

// A thread a lane runs links 0..links_run of its lane in order, as a CPU core does: each link
// from its parents (the roots of the complete subtrees before it), `reads` dependent reads of
// its pad, its result to results[(l · links_run + link) · 32]. `index_shift` = 32 − log₂ lane_items.
extern "C" __global__ void __launch_bounds__(64) lane_links(const u32* __restrict__ pad, const u8* __restrict__ seed,
		u32 first_lane, u32 lanes, u32 lane_items, u32 index_shift, u64 links_run, u32 reads, u8* __restrict__ results) {
	const u8 tag[13] = {'p', 'o', 'g', '/', 'l', 'a', 'n', 'e', '/', 'l', 'i', 'n', 'k'};
	u32 l = blockIdx.x * blockDim.x + threadIdx.x;
	if (l >= lanes) return;
	u32 lane = first_lane + l;
	const uint4* mine = (const uint4*)(pad + (u64)l * lane_items * 16);
	u64 frontier[40][4];
	u8 parents[40 * 32];
	for (u64 link = 0; link < links_run; link++) {
		u32 n = 0;
		for (int h = 0; h < 40; h++) {
			if ((link >> h) & 1) { put_u64s(parents + 32 * n, frontier[h]); n++; }
		}
		u64 digest[4];
		keccak256_any(parents, 32 * n, digest);
		u8 buf[90];
#pragma unroll
		for (int i = 0; i < 13; i++) buf[i] = tag[i];
		for (int i = 0; i < 32; i++) buf[13 + i] = seed[i];
#pragma unroll
		for (int i = 0; i < 4; i++) buf[45 + i] = (u8)(lane >> (8 * i));
#pragma unroll
		for (int i = 0; i < 8; i++) buf[49 + i] = (u8)(link >> (8 * i));
		put_u64s(buf + 57, digest);
		u32 m[16];
		mem_expand(buf, 89, m);
		// sixteen steps unrolled, so that the word a step indexes by is a register
		for (u32 s0 = 0; s0 < reads; s0 += 16) {
#pragma unroll
			for (u32 k = 0; k < 16; k++) {
				u32 s = s0 + k;
				if (s < reads) {
					u32 idx = ((m[k] * MEM_FNV) ^ s) >> index_shift;
					const uint4* it = mine + (u64)idx * 4;
					uint4 v0 = __ldg(it), v1 = __ldg(it + 1), v2 = __ldg(it + 2), v3 = __ldg(it + 3);
					m[0] = m[0] * MEM_FNV ^ v0.x; m[1] = m[1] * MEM_FNV ^ v0.y; m[2] = m[2] * MEM_FNV ^ v0.z; m[3] = m[3] * MEM_FNV ^ v0.w;
					m[4] = m[4] * MEM_FNV ^ v1.x; m[5] = m[5] * MEM_FNV ^ v1.y; m[6] = m[6] * MEM_FNV ^ v1.z; m[7] = m[7] * MEM_FNV ^ v1.w;
					m[8] = m[8] * MEM_FNV ^ v2.x; m[9] = m[9] * MEM_FNV ^ v2.y; m[10] = m[10] * MEM_FNV ^ v2.z; m[11] = m[11] * MEM_FNV ^ v2.w;
					m[12] = m[12] * MEM_FNV ^ v3.x; m[13] = m[13] * MEM_FNV ^ v3.y; m[14] = m[14] * MEM_FNV ^ v3.z; m[15] = m[15] * MEM_FNV ^ v3.w;
				}
			}
		}
		u8 bytes[65];
		mem_bytes(m, bytes);
		u64 r[4];
		keccak256_small(bytes, 64, r);
		put_u64s(results + ((u64)l * links_run + link) * 32, r);
		// the new node closes every subtree it completes
		u64 node[4] = {r[0], r[1], r[2], r[3]};
		int h = 0;
		while ((link >> h) & 1) {
			u8 pair[65];
			put_u64s(pair, frontier[h]);
			put_u64s(pair + 32, node);
			keccak256_small(pair, 64, node);
			h++;
		}
#pragma unroll
		for (int i = 0; i < 4; i++) frontier[h][i] = node[i];
	}
}
