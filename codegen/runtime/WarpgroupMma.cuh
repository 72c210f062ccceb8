// Hopper's warpgroup MMA (wgmma, sm_90a): four warps multiply tiles that lie
// in shared memory as K-major rows of 128 bytes, swizzled as the hardware's
// 128-byte mode reads them, into accumulators held across the warpgroup.
// Needs TensorCoreCopies.cuh. The instructions exist in sm_90a's code only:
// kernels use them under `#if defined(__CUDA_ARCH_FEAT_SM90_ALL)`.

// Where the 16-byte chunk `chunk` (a byte offset, a multiple of 16) of row
// `row` lies in a tile of 128-byte rows whose base is 1024-byte aligned:
// the chunk's index is XORed with the row's index within its 8-row group.
__device__ inline int prec_wgmma_swizzled(int row, int chunk) {
  return row * 128 + (chunk ^ ((row & 7) << 4));
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// The shared-memory descriptor of a K-major tile of such rows starting at
// `tile` (a K offset within the rows moves the start by its bytes): 8-row
// groups 1024 bytes apart, 128-byte swizzle.
__device__ inline uint64_t prec_wgmma_descriptor(const void *tile) {
  uint64_t address = prec_shared_address(tile);
  return ((address & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) |
         (1ull << 62);
}

// A warpgroup's 64 x N int32 accumulators: thread t of warp w holds, for
// each 8 columns j, rows 16w + t/4 and 16w + t/4 + 8 at columns
// 8j + 2(t%4) and the next: r[4j..4j+3], as mma.sync's m16n8 fragments.
template <int N> struct prec_wgmma_accumulators { int r[N / 2]; };

// Orders the generic proxy's writes to shared memory (cp.async, stores)
// before the async proxy's reads (wgmma); before the barrier that
// publishes them.
__device__ inline void prec_wgmma_shared_fence() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Before a warpgroup's first wgmma reads or writes its accumulators.
__device__ inline void prec_wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ inline void prec_wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until all but the latest PENDING groups of wgmma have completed.
template <int PENDING> __device__ inline void prec_wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
}

// Ties the accumulators to this point of the program: the compiler sees
// wgmma's results when it issues, so without this it could read them
// before the wait that makes them final.
template <int N>
__device__ inline void prec_wgmma_hold(prec_wgmma_accumulators<N> &d) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    asm volatile("" : "+r"(d.r[i])::"memory");
}

// D = A * B^T (+ D where `accumulate`) for 64 rows of A and N rows of B, 32
// bytes of K each.
__device__ inline void prec_wgmma_s8(prec_wgmma_accumulators<64> &d, uint64_t a,
                                     uint64_t b, bool accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {"
               "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
               "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
               "}, %32, %33, p;\n}\n"
               : "+r"(d.r[0]), "+r"(d.r[1]), "+r"(d.r[2]), "+r"(d.r[3]),
                 "+r"(d.r[4]), "+r"(d.r[5]), "+r"(d.r[6]), "+r"(d.r[7]),
                 "+r"(d.r[8]), "+r"(d.r[9]), "+r"(d.r[10]), "+r"(d.r[11]),
                 "+r"(d.r[12]), "+r"(d.r[13]), "+r"(d.r[14]), "+r"(d.r[15]),
                 "+r"(d.r[16]), "+r"(d.r[17]), "+r"(d.r[18]), "+r"(d.r[19]),
                 "+r"(d.r[20]), "+r"(d.r[21]), "+r"(d.r[22]), "+r"(d.r[23]),
                 "+r"(d.r[24]), "+r"(d.r[25]), "+r"(d.r[26]), "+r"(d.r[27]),
                 "+r"(d.r[28]), "+r"(d.r[29]), "+r"(d.r[30]), "+r"(d.r[31])
               : "l"(a), "l"(b), "r"((int)accumulate));
}

__device__ inline void prec_wgmma_s8(prec_wgmma_accumulators<128> &d,
                                     uint64_t a, uint64_t b, bool accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 {"
      "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
      "}, %64, %65, p;\n}\n"
      : "+r"(d.r[0]), "+r"(d.r[1]), "+r"(d.r[2]), "+r"(d.r[3]), "+r"(d.r[4]),
        "+r"(d.r[5]), "+r"(d.r[6]), "+r"(d.r[7]), "+r"(d.r[8]), "+r"(d.r[9]),
        "+r"(d.r[10]), "+r"(d.r[11]), "+r"(d.r[12]), "+r"(d.r[13]),
        "+r"(d.r[14]), "+r"(d.r[15]), "+r"(d.r[16]), "+r"(d.r[17]),
        "+r"(d.r[18]), "+r"(d.r[19]), "+r"(d.r[20]), "+r"(d.r[21]),
        "+r"(d.r[22]), "+r"(d.r[23]), "+r"(d.r[24]), "+r"(d.r[25]),
        "+r"(d.r[26]), "+r"(d.r[27]), "+r"(d.r[28]), "+r"(d.r[29]),
        "+r"(d.r[30]), "+r"(d.r[31]), "+r"(d.r[32]), "+r"(d.r[33]),
        "+r"(d.r[34]), "+r"(d.r[35]), "+r"(d.r[36]), "+r"(d.r[37]),
        "+r"(d.r[38]), "+r"(d.r[39]), "+r"(d.r[40]), "+r"(d.r[41]),
        "+r"(d.r[42]), "+r"(d.r[43]), "+r"(d.r[44]), "+r"(d.r[45]),
        "+r"(d.r[46]), "+r"(d.r[47]), "+r"(d.r[48]), "+r"(d.r[49]),
        "+r"(d.r[50]), "+r"(d.r[51]), "+r"(d.r[52]), "+r"(d.r[53]),
        "+r"(d.r[54]), "+r"(d.r[55]), "+r"(d.r[56]), "+r"(d.r[57]),
        "+r"(d.r[58]), "+r"(d.r[59]), "+r"(d.r[60]), "+r"(d.r[61]),
        "+r"(d.r[62]), "+r"(d.r[63])
      : "l"(a), "l"(b), "r"((int)accumulate));
}
#endif
