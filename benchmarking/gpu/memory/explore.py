"""Exploration for a memory-hard proof: random 64-byte reads of a large dataset (independent and
data-dependent) against regenerating an item from a small cache with P dependent parent reads
(Ethash's calc_dataset_item without its two Keccak-512s)."""
import json, os, sys, torch, triton, triton.language as tl
dev = torch.device("cuda")
free, total = torch.cuda.mem_get_info()
gib = float(os.environ.get("GIB", "60"))
words = int(gib * 2**30) // 4
data = torch.empty(words, dtype=torch.int32, device=dev); data.random_()
nitems = words // 16
cache_words = int(os.environ.get("CACHE_MIB", "16")) * 2**20 // 4
cache = torch.empty(cache_words, dtype=torch.int32, device=dev); cache.random_()
ncache = cache_words // 16
FNV = 0x01000193

@triton.jit
def gather(data_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    rows = tl.load(idx_ptr + offs, mask=m, other=0)
    cols = tl.arange(0, 16)
    v = tl.load(data_ptr + rows[:, None] * 16 + cols[None, :], mask=m[:, None], other=0)
    tl.store(out_ptr + offs, tl.sum(v, axis=1), mask=m)

@triton.jit
def walk(data_ptr, out_ptr, n, nitems, R: tl.constexpr, BLOCK: tl.constexpr):
    # each lane: R data-dependent reads (the next index comes from the item just read)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    cols = tl.arange(0, 16)
    h = (offs.to(tl.int64) * 0x9E3779B1) & 0xFFFFFFFF
    acc = tl.zeros([BLOCK], dtype=tl.int64)
    for r in range(R):
        idx = h % nitems
        v = tl.load(data_ptr + idx[:, None] * 16 + cols[None, :], mask=m[:, None], other=0).to(tl.int64)
        s = tl.sum(v, axis=1) & 0xFFFFFFFF
        acc = acc ^ s
        h = ((h * 0x01000193) ^ s) & 0xFFFFFFFF
    tl.store(out_ptr + offs, (acc & 0x7FFFFFFF).to(tl.int32), mask=m)

@triton.jit
def regen(cache_ptr, out_ptr, n, ncache, P: tl.constexpr, BLOCK: tl.constexpr):
    # Ethash calc_dataset_item's parent loop: mix = cache[i] ^ i; P times mix = fnv(mix, cache[parent])
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    cols = tl.arange(0, 16)
    i = offs.to(tl.int64)
    mix = tl.load(cache_ptr + (i % ncache)[:, None] * 16 + cols[None, :], mask=m[:, None], other=0).to(tl.int64) & 0xFFFFFFFF
    mix = mix ^ i[:, None]
    for j in range(P):
        pick = tl.sum(tl.where(cols[None, :] == (j % 16), mix, 0), axis=1)
        parent = ((((i ^ j) * 0x01000193) ^ pick) & 0xFFFFFFFF) % ncache
        c = tl.load(cache_ptr + parent[:, None] * 16 + cols[None, :], mask=m[:, None], other=0).to(tl.int64) & 0xFFFFFFFF
        mix = ((mix * 0x01000193) ^ c) & 0xFFFFFFFF
    tl.store(out_ptr + offs, (tl.sum(mix, axis=1) & 0x7FFFFFFF).to(tl.int32), mask=m)

def timed(f, reps=5):
    f(); torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); f(); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e) / 1e3)
    return sorted(ts)[len(ts) // 2]

res = {"device": torch.cuda.get_device_name(0), "dataset_gib": gib, "cache_mib": cache_words * 4 / 2**20}
n = 2**26
idx = torch.randint(0, nitems, (n,), device=dev, dtype=torch.int64)
o = torch.empty(n, dtype=torch.int32, device=dev)
t = timed(lambda: gather[(triton.cdiv(n, 256),)](data, idx, o, n, BLOCK=256))
res["random_read_64B_G_per_s"] = round(n / t / 1e9, 2)
del idx
nw = 2**22
ow = torch.empty(nw, dtype=torch.int32, device=dev)
for R in (64,):
    # walks per program: the best of three is "the best random-gather rate measured" (memory/README.md)
    for B in (128, 256, 512):
        t = timed(lambda: walk[(triton.cdiv(nw, B),)](data, ow, nw, nitems, R=R, BLOCK=B))
        res[f"walk_R{R}_B{B}_reads_G_per_s"] = round(nw * R / t / 1e9, 2)
    res[f"walk_R{R}_reads_G_per_s"] = max(res[f"walk_R{R}_B{B}_reads_G_per_s"] for B in (128, 256, 512))
nr = 2**22
orr = torch.empty(nr, dtype=torch.int32, device=dev)
for P in (16, 64, 256):
    for B in (64, 128):
        t = timed(lambda: regen[(triton.cdiv(nr, B),)](cache, orr, nr, ncache, P=P, BLOCK=B), reps=3)
        res[f"regen_P{P}_B{B}_G_items_per_s"] = round(nr / t / 1e9, 4)
print(json.dumps(res, indent=1))
json.dump(res, open(os.environ.get("OUT", "/tmp") + f"/memhard_{int(gib)}.json", "w"), indent=1)
