/*
 * The raw benchmark driver: runs a cached model library (`model.so`, the
 * wrapper's C ABI) on a recorded stimulus from a plain C++ loop, with no
 * Rust and no checking in the loop, and prints
 *     <cycles> <seconds> <checksum>
 * The checksum folds every output of every cycle (see `raw.rs`, which
 * computes the same fold from a Rust run to show both runs saw the same
 * model and stimulus).
 *
 * Usage: warpgen_raw MODEL.so STIMULUS.bin RANDOM_INIT SEED
 * STIMULUS.bin: "WGRAW1\0\0", u64 inputs per cycle, u64 cycles, then the
 * inputs (u64, little-endian), cycle by cycle.
 */
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <vector>

typedef void (*InfoFn)(uint32_t*, uint32_t*, uint32_t*);
typedef void* (*CreateFn)(uint32_t, int32_t);
typedef void (*CycleFn)(void*, const uint64_t*, uint64_t*);
typedef void (*DestroyFn)(void*);

static int fail(const char* what, const char* detail) {
    std::fprintf(stderr, "warpgen_raw: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 2;
}

int main(int argc, char** argv) {
    if (argc != 5) return fail("usage: warpgen_raw MODEL.so STIMULUS.bin RANDOM_INIT SEED", nullptr);
    void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) return fail("cannot load the model", dlerror());
    InfoFn info = reinterpret_cast<InfoFn>(dlsym(lib, "warpgen_info"));
    CreateFn create = reinterpret_cast<CreateFn>(dlsym(lib, "warpgen_create"));
    CycleFn cycle = reinterpret_cast<CycleFn>(dlsym(lib, "warpgen_cycle"));
    DestroyFn destroy = reinterpret_cast<DestroyFn>(dlsym(lib, "warpgen_destroy"));
    if (!info || !create || !cycle || !destroy) return fail("not a warpgen model library", argv[1]);
    uint32_t abi = 0, n_in = 0, n_out = 0;
    info(&abi, &n_in, &n_out);

    FILE* f = std::fopen(argv[2], "rb");
    if (!f) return fail("cannot open the stimulus", argv[2]);
    char magic[8];
    uint64_t file_in = 0, n = 0;
    if (std::fread(magic, 1, 8, f) != 8 || std::memcmp(magic, "WGRAW1\0\0", 8) != 0 ||
        std::fread(&file_in, 8, 1, f) != 1 || std::fread(&n, 8, 1, f) != 1)
        return fail("not a stimulus file", argv[2]);
    if (file_in != n_in) return fail("the stimulus does not fit the model's inputs", argv[2]);
    std::vector<uint64_t> in(static_cast<size_t>(n * n_in));
    if (!in.empty() && std::fread(in.data(), 8, in.size(), f) != in.size())
        return fail("the stimulus file is short", argv[2]);
    std::fclose(f);

    void* m = create(static_cast<uint32_t>(std::atoi(argv[3])), static_cast<int32_t>(std::strtol(argv[4], nullptr, 10)));
    if (!m) return fail("cannot create the model", nullptr);
    std::vector<uint64_t> out(n_out ? n_out : 1);
    uint64_t sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t c = 0; c < n; c++) {
        cycle(m, in.data() + c * n_in, out.data());
        for (uint32_t k = 0; k < n_out; k++) sum = ((sum << 7) | (sum >> 57)) ^ out[k];
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    destroy(m);
    std::printf("%" PRIu64 " %.9f %" PRIu64 "\n", n, secs, sum);
    return 0;
}
