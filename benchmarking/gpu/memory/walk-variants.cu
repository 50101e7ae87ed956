// Data-dependent 64-byte reads over a dataset of GIB GiB with the agent's own walk body
// (kernels.cu, included), in other shapes: how many walks a quad (four lanes sharing a 64-byte item) keeps in flight, and
// one thread holding whole walks. A throwaway harness for issue 27 (is there a faster honest
// walk?): the quad variants are the agent's `mem_walk_body`, with no commitment and no Keccak. Build and run on the device:
//   nvcc -O3 -arch=sm_90 -o /tmp/wv walk-variants.cu && GIB=125.8 /tmp/wv > out.json
// It prints one JSON object: G reads/s of each variant (best and median of RUNS runs).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <string>

// The agent's kernels, whose walk body (`mem_walk_body<false, W>`) the quad variants time.
#define MEM_NARROW_QUAD_WALKS 4
#define MEM_WIDE_QUAD_WALKS 16
#define MEM_PARTIAL_QUAD_WALKS 4
#include "../../../offchain-gpu/cuda/src/kernels.cu"
#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)

__device__ __forceinline__ u32 mix32(u64 x) {
	x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
	return (u32)x;
}

__global__ void fill(u32* data, u64 words) {
	for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (u64)gridDim.x * blockDim.x) data[i] = mix32(i);
}

// --- the agent's walk body itself (kernels.cu), W walks a quad; `mix` holds each walk's state ---
template <int W>
__global__ void __launch_bounds__(128) walk_quad(const u32* __restrict__ dataset, u64 items, u64 count, u32 reads, u32* __restrict__ mix) {
	mem_walk_body<false, W>(dataset, items, 0, nullptr, 1, (u32)count, reads, mix, items, dataset, 0, 0);
}

// --- one thread holds W whole walks and reads each 64-byte item itself (four 16-byte loads) ---
template <int W>
__global__ void __launch_bounds__(128) walk_thread(const u32* __restrict__ dataset, u64 items, u64 count, u32 reads, u32* __restrict__ sink) {
	const u64 inv = ~0ull / items;
	const u64 stride = (u64)gridDim.x * blockDim.x;
	u32 acc = 0;
	for (u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x; t * W < count; t += stride) {
		u32 m[W][16];
#pragma unroll
		for (int j = 0; j < W; j++)
#pragma unroll
			for (int k = 0; k < 16; k++) m[j][k] = mix32((t * W + j) * 16 + k);
		for (u32 r = 0; r < reads; r++) {
			u64 idx[W];
#pragma unroll
			for (int j = 0; j < W; j++) {
				// the words at r & 15 and (r + 1) & 15, picked without indexing by a variable
				u32 a = 0, b = 0;
#pragma unroll
				for (int k = 0; k < 16; k++) {
					a = (k == (int)(r & 15)) ? m[j][k] : a;
					b = (k == (int)((r + 1) & 15)) ? m[j][k] : b;
				}
				u32 hi = (((u32)(t * W + j) ^ r) * MEM_FNV) ^ a;
				idx[j] = mod_by_inverse(((u64)hi << 32) | b, items, inv);
			}
			uint4 v[W][4];
#pragma unroll
			for (int j = 0; j < W; j++)
#pragma unroll
				for (int k = 0; k < 4; k++) v[j][k] = __ldg((const uint4*)(dataset + idx[j] * 16) + k);
#pragma unroll
			for (int j = 0; j < W; j++)
#pragma unroll
				for (int k = 0; k < 4; k++) {
					m[j][4 * k] = m[j][4 * k] * MEM_FNV ^ v[j][k].x; m[j][4 * k + 1] = m[j][4 * k + 1] * MEM_FNV ^ v[j][k].y;
					m[j][4 * k + 2] = m[j][4 * k + 2] * MEM_FNV ^ v[j][k].z; m[j][4 * k + 3] = m[j][4 * k + 3] * MEM_FNV ^ v[j][k].w;
				}
		}
#pragma unroll
		for (int j = 0; j < W; j++)
#pragma unroll
			for (int k = 0; k < 16; k++) acc ^= m[j][k];
	}
	if (acc == 0x12345678u) sink[0] = acc;
}

// --- the ceiling: independent random 64-byte reads (no chain), a quad per item, 4 a lane ---
__global__ void __launch_bounds__(128) gather_quad(const u32* __restrict__ dataset, u64 items, u64 count, u32 reads, u32* __restrict__ sink) {
	const u32 lane = threadIdx.x & 3;
	const u64 inv = ~0ull / items;
	const u64 stride = ((u64)gridDim.x * blockDim.x) >> 2;
	u32 acc = 0;
	for (u64 q = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 2; q * 4 < count; q += stride) {
		for (u32 r = 0; r < reads; r++) {
			uint4 v[4];
#pragma unroll
			for (int j = 0; j < 4; j++) {
				u64 idx = mod_by_inverse(((u64)mix32((q * 4 + j) * 1024 + r) << 32) | mix32(~((q * 4 + j) * 1024 + r)), items, inv);
				v[j] = __ldg((const uint4*)(dataset + idx * 16) + lane);
			}
#pragma unroll
			for (int j = 0; j < 4; j++) acc ^= v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
		}
	}
	if (acc == 0x12345678u) sink[0] = acc;
}

typedef void (*Kernel)(const u32*, u64, u64, u32, u32*);

int main() {
	double gib = getenv("GIB") ? atof(getenv("GIB")) : 8.0;
	int runs = getenv("RUNS") ? atoi(getenv("RUNS")) : 3;
	u64 walks = getenv("WALKS_LOG2") ? (1ull << atoi(getenv("WALKS_LOG2"))) : (1ull << 24);
	const u32 reads = 64;
	u64 items = (u64)(gib * (double)(1ull << 30)) / 64;
	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	u32* data;
	u32* sink;  // the quad variants' walk states (64 bytes a walk); the others write at most a word
	CHECK(cudaMalloc(&data, items * 64));
	CHECK(cudaMalloc(&sink, walks * 64));
	fill<<<prop.multiProcessorCount * 16, 256>>>(data, items * 16);
	CHECK(cudaDeviceSynchronize());
	std::vector<std::pair<std::string, Kernel>> variants = {
		{"quad_w2", walk_quad<2>}, {"quad_w4 (the agent's shape)", walk_quad<4>}, {"quad_w8", walk_quad<8>},
		{"quad_w16", walk_quad<16>}, {"thread_w1", walk_thread<1>}, {"thread_w2", walk_thread<2>},
		{"thread_w4", walk_thread<4>}, {"gather_quad (independent reads)", gather_quad},
	};
	cudaEvent_t s, e;
	cudaEventCreate(&s);
	cudaEventCreate(&e);
	printf("{\n \"device\": \"%s\", \"sms\": %d, \"dataset_gib\": %.2f, \"items\": %llu, \"walks\": %llu, \"reads_per_walk\": %u,\n \"variants\": {\n",
		prop.name, prop.multiProcessorCount, gib, (unsigned long long)items, (unsigned long long)walks, reads);
	for (size_t vi = 0; vi < variants.size(); vi++) {
		Kernel k = variants[vi].second;
		cudaFuncAttributes attr;
		CHECK(cudaFuncGetAttributes(&attr, k));
		printf("  \"%s\": {\"registers\": %d", variants[vi].first.c_str(), attr.numRegs);
		for (int bps : {4, 8, 16}) {
			std::vector<double> rates;
			for (int run = 0; run <= runs; run++) {
				cudaEventRecord(s);
				k<<<prop.multiProcessorCount * bps, 128>>>(data, items, walks, reads, sink);
				cudaEventRecord(e);
				CHECK(cudaEventSynchronize(e));
				CHECK(cudaGetLastError());
				float ms;
				cudaEventElapsedTime(&ms, s, e);
				if (run > 0) rates.push_back((double)walks * reads / (ms * 1e-3) / 1e9);  // run 0 warms up
			}
			std::sort(rates.begin(), rates.end());
			printf(", \"blocks_per_sm_%d\": {\"best\": %.3f, \"median\": %.3f}", bps, rates.back(), rates[rates.size() / 2]);
		}
		printf("}%s\n", vi + 1 < variants.size() ? "," : "");
		fflush(stdout);
	}
	printf(" }\n}\n");
	return 0;
}
