// A prototype f16 GEMM with an epilogue of its own on Hopper (sm_90a), for
// gemm_f16_epilogue.cu: C = A * B^T with A (M x K) and B (N x K) row-major,
// accumulating in f32. Not emitted into engines (see the README's figures).
// Needs the engine runtime's TensorCoreCopies.cuh, WarpgroupMma.cuh and
// EngineRuntime.cuh.
//
// A block computes 128 x 256 outputs with three warpgroups: the first only
// copies, one thread issuing TMA copies of 64-element slices of K into
// STAGES stages, while the other two each multiply 64 rows by the 256
// columns with wgmma as the stages fill. Full and empty barriers a stage
// hand each stage from the copier to the multipliers and back. The
// epilogue, a struct the caller writes, has the output (`Output *out`, an
// M x N matrix) and each element's value from its accumulator (`Output
// element(row, column, acc)`); the block stages its outputs in the stages'
// shared memory and stores them 16 bytes of a row at a time.

// ---- TMA and the shared-memory barriers its copies complete on
#include <cuda.h> // CUtensorMap and its enums; the driver entry is looked up

// Describes a row-major `rows` x `columns` matrix of `element_bytes`-byte
// elements at `base` for copies of `box_rows` x `box_columns` tiles into
// shared memory in the 128-byte swizzled layout (box_columns *
// element_bytes must be 128). Elements past the matrix read as zeros.
// Returns false where the driver refuses (base or rows not 16-byte aligned).
static inline bool prec_describe_matrix(CUtensorMap *map, const void *base,
                                        CUtensorMapDataType type,
                                        int element_bytes, uint64_t rows,
                                        uint64_t columns, uint32_t box_rows,
                                        uint32_t box_columns) {
  using Encode = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t,
                              void *, const cuuint64_t *, const cuuint64_t *,
                              const cuuint32_t *, const cuuint32_t *,
                              CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static Encode encode = [] {
    void *entry = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry,
                                         12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      entry = nullptr;
    return reinterpret_cast<Encode>(entry);
  }();
  if (!encode)
    return false;
  const cuuint64_t sizes[2] = {columns, rows};
  const cuuint64_t strides[1] = {columns * element_bytes};
  const cuuint32_t box[2] = {box_columns, box_rows};
  const cuuint32_t steps[2] = {1, 1};
  return encode(map, type, 2, const_cast<void *>(base), sizes, strides, box,
                steps, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ inline void prec_barrier_init(uint64_t *barrier, int arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(
                   prec_shared_address(barrier)),
               "r"(arrivals));
}
// Makes initialized barriers visible to the async proxy (the TMA unit).
__device__ inline void prec_barrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// Arrives, and expects `bytes` of copies to complete on the barrier.
__device__ inline void prec_barrier_expect(uint64_t *barrier, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   prec_shared_address(barrier)),
               "r"(bytes)
               : "memory");
}
__device__ inline void prec_barrier_arrive(uint64_t *barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(
                   prec_shared_address(barrier))
               : "memory");
}
// Waits for the barrier's phase of parity `parity` to complete.
__device__ inline void prec_barrier_wait(uint64_t *barrier, int parity) {
  asm volatile("{\n.reg .pred done;\nWAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra WAIT;\n}\n" ::"r"(prec_shared_address(barrier)),
               "r"(parity)
               : "memory");
}
// Copies the tile whose first element is (row, column) of the matrix `map`
// describes into `to`, completing on `barrier`.
__device__ inline void prec_tma_load(void *to, const CUtensorMap *map, int row,
                                     int column, uint64_t *barrier) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
                   prec_shared_address(to)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(column), "r"(row),
               "r"(prec_shared_address(barrier))
               : "memory");
}
#endif

// ---- f16 wgmma into f32
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// A warpgroup's 64 x N float accumulators, laid out as the int32 ones of
// WarpgroupMma.cuh.
template <int N> struct prec_wgmma_float_accumulators { float r[N / 2]; };

template <int N>
__device__ inline void prec_wgmma_hold(prec_wgmma_float_accumulators<N> &d) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    asm volatile("" : "+f"(d.r[i])::"memory");
}

// D = A * B^T (+ D where `accumulate`) for 64 rows of A and 256 rows of B,
// 16 f16 elements of K each.
__device__ inline void prec_wgmma_f16(prec_wgmma_float_accumulators<256> &d,
                                      uint64_t a, uint64_t b, bool accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
      "%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
      "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
      "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
      "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,"
      "%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,"
      "%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,"
      "%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%"
      "111,"
      "%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%"
      "126,%127"
      "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d.r[0]), "+f"(d.r[1]), "+f"(d.r[2]), "+f"(d.r[3]), "+f"(d.r[4]),
        "+f"(d.r[5]), "+f"(d.r[6]), "+f"(d.r[7]), "+f"(d.r[8]), "+f"(d.r[9]),
        "+f"(d.r[10]), "+f"(d.r[11]), "+f"(d.r[12]), "+f"(d.r[13]),
        "+f"(d.r[14]), "+f"(d.r[15]), "+f"(d.r[16]), "+f"(d.r[17]),
        "+f"(d.r[18]), "+f"(d.r[19]), "+f"(d.r[20]), "+f"(d.r[21]),
        "+f"(d.r[22]), "+f"(d.r[23]), "+f"(d.r[24]), "+f"(d.r[25]),
        "+f"(d.r[26]), "+f"(d.r[27]), "+f"(d.r[28]), "+f"(d.r[29]),
        "+f"(d.r[30]), "+f"(d.r[31]), "+f"(d.r[32]), "+f"(d.r[33]),
        "+f"(d.r[34]), "+f"(d.r[35]), "+f"(d.r[36]), "+f"(d.r[37]),
        "+f"(d.r[38]), "+f"(d.r[39]), "+f"(d.r[40]), "+f"(d.r[41]),
        "+f"(d.r[42]), "+f"(d.r[43]), "+f"(d.r[44]), "+f"(d.r[45]),
        "+f"(d.r[46]), "+f"(d.r[47]), "+f"(d.r[48]), "+f"(d.r[49]),
        "+f"(d.r[50]), "+f"(d.r[51]), "+f"(d.r[52]), "+f"(d.r[53]),
        "+f"(d.r[54]), "+f"(d.r[55]), "+f"(d.r[56]), "+f"(d.r[57]),
        "+f"(d.r[58]), "+f"(d.r[59]), "+f"(d.r[60]), "+f"(d.r[61]),
        "+f"(d.r[62]), "+f"(d.r[63]), "+f"(d.r[64]), "+f"(d.r[65]),
        "+f"(d.r[66]), "+f"(d.r[67]), "+f"(d.r[68]), "+f"(d.r[69]),
        "+f"(d.r[70]), "+f"(d.r[71]), "+f"(d.r[72]), "+f"(d.r[73]),
        "+f"(d.r[74]), "+f"(d.r[75]), "+f"(d.r[76]), "+f"(d.r[77]),
        "+f"(d.r[78]), "+f"(d.r[79]), "+f"(d.r[80]), "+f"(d.r[81]),
        "+f"(d.r[82]), "+f"(d.r[83]), "+f"(d.r[84]), "+f"(d.r[85]),
        "+f"(d.r[86]), "+f"(d.r[87]), "+f"(d.r[88]), "+f"(d.r[89]),
        "+f"(d.r[90]), "+f"(d.r[91]), "+f"(d.r[92]), "+f"(d.r[93]),
        "+f"(d.r[94]), "+f"(d.r[95]), "+f"(d.r[96]), "+f"(d.r[97]),
        "+f"(d.r[98]), "+f"(d.r[99]), "+f"(d.r[100]), "+f"(d.r[101]),
        "+f"(d.r[102]), "+f"(d.r[103]), "+f"(d.r[104]), "+f"(d.r[105]),
        "+f"(d.r[106]), "+f"(d.r[107]), "+f"(d.r[108]), "+f"(d.r[109]),
        "+f"(d.r[110]), "+f"(d.r[111]), "+f"(d.r[112]), "+f"(d.r[113]),
        "+f"(d.r[114]), "+f"(d.r[115]), "+f"(d.r[116]), "+f"(d.r[117]),
        "+f"(d.r[118]), "+f"(d.r[119]), "+f"(d.r[120]), "+f"(d.r[121]),
        "+f"(d.r[122]), "+f"(d.r[123]), "+f"(d.r[124]), "+f"(d.r[125]),
        "+f"(d.r[126]), "+f"(d.r[127])
      : "l"(a), "l"(b), "r"((int)accumulate));
}

#endif

// ---- the kernel
struct prec_gemm_tiles {
  static constexpr int ROWS = 128, COLUMNS = 256, DEPTH = 64, STAGES = 4;
  static constexpr int THREADS = 384;
  static constexpr int A_BYTES = ROWS * DEPTH * 2,
                       B_BYTES = COLUMNS * DEPTH * 2;
  static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
  // The stages at the first 1024-byte boundary, then 2 barriers a stage.
  static constexpr int SHARED_BYTES = 1024 + STAGES * STAGE_BYTES + 16 * STAGES;
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// One multiplying warpgroup's 64 x 256 outputs through the epilogue, staged
// in `tile` (shared memory) and stored 16 bytes of a row at a time
// (element by element at the matrix's edges or where the output is not
// 16-byte aligned).
template <typename Epilogue>
__device__ inline void
prec_gemm_store(const Epilogue &epilogue,
                const prec_wgmma_float_accumulators<256> &acc, int8_t *shared,
                int rows, int columns, int first_row, int first_column) {
  using Output = typename Epilogue::Output;
  constexpr int RUN = 16 / sizeof(Output), STRIDE = 256 + RUN;
  Output *tile = reinterpret_cast<Output *>(shared);
  const int thread = threadIdx.x & 127, lane = thread & 31, warp = thread >> 5;
  const int pair = (lane & 3) * 2;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int r = 16 * warp + (lane >> 2) + 8 * half;
#pragma unroll
    for (int j = 0; j < 32; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int c = 8 * j + pair + e;
        if (first_row + r < rows && first_column + c < columns)
          tile[r * STRIDE + c] = epilogue.element(
              first_row + r, first_column + c, acc.r[4 * j + 2 * half + e]);
      }
  }
  // This warpgroup's 128 threads (named barrier 1 or 2).
  asm volatile("bar.sync %0, 128;\n" ::"r"(1 + (threadIdx.x >= 256))
               : "memory");
  constexpr int RUNS = 256 / RUN;
  const bool aligned =
      columns % RUN == 0 && reinterpret_cast<uintptr_t>(epilogue.out) % 16 == 0;
  for (int index = thread; index < 64 * RUNS; index += 128) {
    const int r = index / RUNS, c = index % RUNS * RUN;
    const int row = first_row + r, column = first_column + c;
    if (row >= rows || column >= columns)
      continue;
    Output *to = epilogue.out + (long long)row * columns + column;
    const Output *from = tile + r * STRIDE + c;
    if (aligned)
      *reinterpret_cast<uint4 *>(to) = *reinterpret_cast<const uint4 *>(from);
    else
      for (int e = 0; e < RUN && column + e < columns; ++e)
        to[e] = from[e];
  }
}
#endif

// blockIdx.x picks 128 rows, blockIdx.y 256 columns. `a` and `b` describe
// A and B in 128 x 64 and 256 x 64 tiles (prec_describe_matrix).
template <typename Epilogue>
__global__ void __launch_bounds__(384, 1)
    prec_gemm_f16(const __grid_constant__ CUtensorMap a,
                  const __grid_constant__ CUtensorMap b, int rows, int columns,
                  int depth, Epilogue epilogue) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Tiles = prec_gemm_tiles;
  extern __shared__ __align__(16) int8_t prec_gemm_shared[];
  int8_t *stages =
      prec_gemm_shared + (-prec_shared_address(prec_gemm_shared) & 1023);
  uint64_t *full =
      reinterpret_cast<uint64_t *>(stages + Tiles::STAGES * Tiles::STAGE_BYTES);
  uint64_t *empty = full + Tiles::STAGES;
  const int warpgroup = threadIdx.x / 128;
  const int first_row = blockIdx.x * Tiles::ROWS;
  const int first_column = blockIdx.y * Tiles::COLUMNS;
  const int tiles = (depth + Tiles::DEPTH - 1) / Tiles::DEPTH;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Tiles::STAGES; ++s) {
      prec_barrier_init(&full[s], 1);
      prec_barrier_init(&empty[s], 2); // one arrival a multiplying warpgroup
    }
    prec_barrier_init_fence();
  }
  __syncthreads();
  prec_kernel_start();

  if (warpgroup == 0) {
    if (threadIdx.x == 0)
      for (int t = 0; t < tiles; ++t) {
        const int s = t % Tiles::STAGES;
        if (t >= Tiles::STAGES) // the products of tile t - STAGES are done
          prec_barrier_wait(&empty[s], (t / Tiles::STAGES - 1) & 1);
        int8_t *stage = stages + s * Tiles::STAGE_BYTES;
        prec_barrier_expect(&full[s], Tiles::STAGE_BYTES);
        prec_tma_load(stage, &a, first_row, t * Tiles::DEPTH, &full[s]);
        prec_tma_load(stage + Tiles::A_BYTES, &b, first_column,
                      t * Tiles::DEPTH, &full[s]);
      }
    return;
  }

  const int half = warpgroup - 1; // which 64 of the block's rows
  prec_wgmma_float_accumulators<256> acc;
  for (int t = 0; t < tiles; ++t) {
    const int s = t % Tiles::STAGES;
    prec_barrier_wait(&full[s], (t / Tiles::STAGES) & 1);
    const int8_t *stage = stages + s * Tiles::STAGE_BYTES;
    const int8_t *tile_a = stage + half * 64 * 128;
    const int8_t *tile_b = stage + Tiles::A_BYTES;
    prec_wgmma_fence();
#pragma unroll
    for (int step = 0; step < Tiles::DEPTH / 16; ++step)
      prec_wgmma_f16(acc, prec_wgmma_descriptor(tile_a + 32 * step),
                     prec_wgmma_descriptor(tile_b + 32 * step),
                     t > 0 || step > 0);
    prec_wgmma_commit();
    // Tile t - 1's products are done: its stage goes back to the copier.
    prec_wgmma_wait<1>();
    if (t > 0 && threadIdx.x % 128 == 0)
      prec_barrier_arrive(&empty[(t - 1) % Tiles::STAGES]);
  }
  prec_wgmma_wait<0>();
  prec_wgmma_hold(acc);
  // Both warpgroups' products are done before either stages its outputs
  // where the stages were (named barrier 3).
  asm volatile("bar.sync 3, 256;\n" ::: "memory");
  prec_gemm_store(epilogue, acc, stages + half * 64 * 264 * 4, rows, columns,
                  first_row + 64 * half, first_column);
#endif
}
