// Convolutions of 8-bit integers as implicit GEMMs on tensor cores, for
// engines with a tosa.conv2d whose engine.conv_algorithm is implicit_gemm:
// on wgmma where the engine is compiled for sm_90a, on mma.sync for any other
// target (sm_80 and up). Needs TensorCoreCopies.cuh, WarpgroupMma.cuh and
// EngineRuntime.cuh.
//
// The input is NHWC, the weights OHWI, both int8, and C a multiple of 16.
// The GEMM is rows (N * OH * OW output positions) x OC x K (KH * KW * C),
// accumulating in int32, and has no column buffer: a block copies its rows'
// receptive fields from the input itself, 16 bytes of one tap at a time,
// and zeros where the window leaves the image. The epilogue, a struct the
// emitter writes, stores its outputs (N * OH * OW x OC matrices; Output is
// the widest's element type): each output element's values from its
// accumulator (`void element(row, filter, acc)`), and those of a run of
// 16 / sizeof(Output) filters from `filter`, a multiple of the run, each
// output's as one vector (`void run(row, filter, const int32_t *accs,
// const Loaded &)`) after `void load(row, filter, Loaded &)` has loaded
// the run's elements of the inputs of the output's shape, where
// `bool aligned()`: its pointers are 16-byte aligned.

// The bytes of K a stage holds, in both kernels.
constexpr int prec_conv_k_tile = 128;

struct prec_conv_geometry {
  int height, width, channels;        // input, per image
  int out_height, out_width, filters; // output, per image
  int kernel_height, kernel_width;
  int stride_height, stride_width;
  int pad_top, pad_left;
  int dilation_height, dilation_width;
  // K: the bytes of a filter (KH * KW * C).
  __host__ __device__ constexpr int depth() const {
    return kernel_height * kernel_width * channels;
  }
  // The K tiles of a filter.
  __host__ __device__ constexpr int k_tiles() const {
    return (depth() + prec_conv_k_tile - 1) / prec_conv_k_tile;
  }
  // K rounded up to the 32 bytes of a product step: what the one-tile
  // kernel multiplies and copies.
  __host__ __device__ constexpr int product_depth() const {
    return (depth() + 31) / 32 * 32;
  }
};

// The K tiles of a filter.
template <typename Geometry>
constexpr int prec_conv_k_tiles = Geometry::value.k_tiles();

// Whether K fits one stage: then a block copies its receptive fields once
// for all its filter tiles (on wgmma).
template <typename Geometry>
constexpr bool prec_conv_one_k_tile = prec_conv_k_tiles<Geometry> == 1;

// 128 x COLUMNS outputs a block of 8 warps (2 x 4, each 64 x COLUMNS / 4),
// 128 bytes of K a stage, STAGES in flight; rows of 128 bytes padded by
// 16 so that the 8 row addresses of an ldmatrix fall in distinct banks.
// Each thread copies one 16-byte chunk column of every 32nd row.
template <int COLUMNS_, int STAGES_> struct prec_conv_tiles {
  static constexpr int ROWS = 128, COLUMNS = COLUMNS_;
  static constexpr int DEPTH = prec_conv_k_tile;
  static constexpr int STAGES = STAGES_;
  static constexpr int STRIDE = DEPTH + 16, THREADS = 256;
  static constexpr int WARP_ROWS = ROWS / 2, WARP_COLUMNS = COLUMNS / 4;
  static constexpr int ROW_CHUNKS = ROWS / 32, COLUMN_CHUNKS = COLUMNS / 32;
  static constexpr int STAGE_BYTES = (ROWS + COLUMNS) * STRIDE;
  static constexpr int SHARED_BYTES = STAGES * STAGE_BYTES;
  static constexpr int B_OFFSET = ROWS * STRIDE; // the filters' tile
  __device__ static int offset(int row, int chunk) {
    return row * STRIDE + chunk;
  }
};

// The same block shape on wgmma (sm_90a): 2 warpgroups of 64 x COLUMNS,
// rows of 128 bytes in the swizzled layout wgmma reads. The copies run
// STAGES - 1 stages ahead of the stage wgmma multiplies.
template <int COLUMNS_, int STAGES_> struct prec_conv_wgmma_tiles {
  static constexpr int ROWS = 128, COLUMNS = COLUMNS_;
  static constexpr int DEPTH = prec_conv_k_tile;
  static constexpr int STAGES = STAGES_;
  static constexpr int THREADS = 256;
  static constexpr int ROW_CHUNKS = ROWS / 32, COLUMN_CHUNKS = COLUMNS / 32;
  static constexpr int STAGE_BYTES = (ROWS + COLUMNS) * DEPTH;
  // The stages start at the first 1024-byte boundary, as the swizzle needs.
  static constexpr int SHARED_BYTES = STAGES * STAGE_BYTES + 1024;
  static constexpr int B_OFFSET = ROWS * DEPTH;
  __device__ static int offset(int row, int chunk) {
    return prec_wgmma_swizzled(row, chunk);
  }
};

__device__ inline void prec_mma_s8(int c[4], const uint32_t a[4],
                                   const uint32_t b[2]) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                 "r"(b[1]));
}

// Four 8x8 matrices of 16-bit pairs from rows of `stride` bytes at `tile`:
// rows row..row+7 and row+8..row+15 (by the lane's eighth, as `rows_first`
// orders them) of bytes k..k+15 and k+16..k+31.
__device__ inline void prec_load_fragments_s8(uint32_t r[4], const int8_t *tile,
                                              int stride, int row, int k,
                                              int lane, bool rows_first) {
  const int matrix = lane >> 3;
  const int row_half = rows_first ? matrix & 1 : matrix >> 1;
  const int k_half = rows_first ? matrix >> 1 : matrix & 1;
  const int8_t *p =
      tile + (row + row_half * 8 + (lane & 7)) * stride + k + k_half * 16;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(prec_shared_address(p)));
}

// Where one thread's 16-byte chunks of A come from: its output rows (32
// apart), each as its window's corner in the input (where tap 0 of channel
// 0 would be read, inside the image or not), and the tap and channel its
// chunk column has reached in K. A row past the last has its top row far
// above the image, so that no tap of it is inside.
template <int ROW_CHUNKS> struct prec_conv_rows {
  const int8_t *corner[ROW_CHUNKS];
  int top[ROW_CHUNKS], left[ROW_CHUNKS];
  int tap_y, tap_x, channel;

  // The first row's image and output position are divided out once; the
  // rows 32 apart step from it (divisions cost tens of instructions, which
  // a block's many threads would repeat for each of their rows).
  __device__ prec_conv_rows(const int8_t *input, const prec_conv_geometry &g,
                            long long rows, long long first_row, int column) {
    const int positions = g.out_height * g.out_width;
    long long n = first_row / positions;
    int p = (int)(first_row - n * positions);
    int y = p / g.out_width, x = p - y * g.out_width;
    const long long image_bytes = (long long)g.height * g.width * g.channels;
#pragma unroll
    for (int j = 0; j < ROW_CHUNKS; ++j) {
      top[j] = y * g.stride_height - g.pad_top;
      left[j] = x * g.stride_width - g.pad_left;
      corner[j] = input + n * image_bytes +
                  ((long long)top[j] * g.width + left[j]) * g.channels;
      if (first_row + 32 * j >= rows)
        top[j] = -(1 << 30);
      if (j + 1 == ROW_CHUNKS)
        break;
      for (x += 32; x >= g.out_width; x -= g.out_width)
        if (++y == g.out_height) {
          y = 0;
          ++n;
        }
    }
    int k = column * 16, tap = k / g.channels;
    channel = k % g.channels;
    tap_y = tap / g.kernel_width;
    tap_x = tap % g.kernel_width;
  }

  // Moves the chunk column `depth` bytes along K.
  __device__ void advance(const prec_conv_geometry &g, int depth) {
    channel += depth;
    while (channel >= g.channels) {
      channel -= g.channels;
      if (++tap_x == g.kernel_width) {
        tap_x = 0;
        ++tap_y;
      }
    }
  }
};

// 16 bytes of a tile, zeros where `inside` does not hold: an asynchronous
// copy where the tensor is 16-byte aligned, else byte by byte (an engine's
// bindings are aligned as its caller allocated them).
__device__ inline void prec_conv_copy16(int8_t *to, const int8_t *from,
                                        bool inside, bool aligned) {
  if (aligned) {
    prec_copy16_async(to, from, inside ? 16 : 0);
    return;
  }
  uint4 chunk = make_uint4(0, 0, 0, 0);
  int8_t *bytes = reinterpret_cast<int8_t *>(&chunk);
  if (inside)
    for (int e = 0; e < 16; ++e)
      bytes[e] = from[e];
  *reinterpret_cast<uint4 *>(to) = chunk;
}

// The receptive fields' tile; `readable` is any address the copies that
// zero-fill may name (they read none of it).
template <typename Tiles>
__device__ inline void
prec_conv_load_fields(int8_t *a, const prec_conv_rows<Tiles::ROW_CHUNKS> &rows,
                      const int8_t *readable, const prec_conv_geometry &g,
                      int thread, bool aligned) {
  const int row = thread >> 3, chunk = (thread & 7) * 16;
  const bool inside_k = rows.tap_y < g.kernel_height;
  const int dy = rows.tap_y * g.dilation_height,
            dx = rows.tap_x * g.dilation_width;
  const long long tap =
      ((long long)dy * g.width + dx) * g.channels + rows.channel;
#pragma unroll
  for (int j = 0; j < Tiles::ROW_CHUNKS; ++j) {
    const unsigned y = rows.top[j] + dy, x = rows.left[j] + dx;
    const bool inside =
        inside_k && y < (unsigned)g.height && x < (unsigned)g.width;
    prec_conv_copy16(a + Tiles::offset(row + 32 * j, chunk),
                     inside ? rows.corner[j] + tap : readable, inside, aligned);
  }
}

// The weights' tile: filters first_filter.. at K offset `k`.
template <typename Tiles>
__device__ inline void prec_conv_load_weights(int8_t *b, const int8_t *weights,
                                              const prec_conv_geometry &g,
                                              int depth, long long first_filter,
                                              int k, int thread, bool aligned) {
  const int row = thread >> 3, chunk = (thread & 7) * 16;
  const long long filter = first_filter + row;
  const int8_t *filter_weights = weights + filter * depth + k;
  const long long filters_left = g.filters - filter;
#pragma unroll
  for (int j = 0; j < Tiles::COLUMN_CHUNKS; ++j) {
    const bool inside = k < depth && 32 * j < filters_left;
    prec_conv_copy16(b + Tiles::offset(row + 32 * j, chunk),
                     inside ? filter_weights + 32 * j * (long long)depth
                            : weights,
                     inside, aligned);
  }
}

// Copies a stage's tiles: the receptive fields of the block's rows
// (prec_conv_load_fields) and the weights of its filters
// (prec_conv_load_weights), at the K the rows have reached (`k`, the chunk
// column's first byte), zeros past K and outside the image. The tap's
// offset from a window's corner is the same for all the thread's rows, and
// its filters are `32 * depth` bytes apart: a copy costs an add and its
// bounds (ncu counted ~20 instructions a copy when each address was
// computed whole).
template <typename Tiles>
__device__ inline void prec_conv_load_stage(
    int8_t *shared, const prec_conv_rows<Tiles::ROW_CHUNKS> &rows,
    const int8_t *weights, const prec_conv_geometry &g, int depth,
    long long first_filter, int k, int thread, bool aligned) {
  prec_conv_load_fields<Tiles>(shared, rows, weights, g, thread, aligned);
  prec_conv_load_weights<Tiles>(shared + Tiles::B_OFFSET, weights, g, depth,
                                first_filter, k, thread, aligned);
}

// A block's outputs, computed and stored a run of 16 bytes of
// Epilogue::Output (the widest output) at a time so that the reads and the
// stores are coalesced: thread t takes runs t, t + THREADS, ... of the
// ROWS x COLUMNS tile, row-major but for the row order of `tile_row_of`.
// THREADS is a multiple of the runs in a tile row, so a thread's runs
// share their filters and lie ROW_STEP tile rows apart: their positions are the
// thread's first plus constants, and what the thread checks of its filters it
// checks once (ncu counted ~30 instructions a run of index arithmetic when each
// run's row and filter were divided out of its index). The accumulators are
// staged in shared memory as int32; each thread loads the epilogue's inputs of
// the output's shape (a residual) for all its runs first (`load`, into
// `Loaded`), so that their latencies overlap, and those of one element per
// filter once for all its runs (`columns`, into `Columns`), then computes and
// stores each run (`run`). For the kernels with a main loop, loading the
// residual before it measured no faster (the README's ResNet-50 at batch
// 64). The one-tile wgmma kernel computes its outputs where its accumulators
// are instead (prec_conv_fragment_tile).
// Where the filters are not a multiple of the run, or a pointer is not
// 16-byte aligned, every output element by element (`element`).
//
// The staged tile is split in PLANES = RUN / 4 planes by groups of 4
// columns (plane q holds columns 4q..4q+3 of every run), so that a run's
// accumulators are one 16-byte load from each plane and a quarter-warp's
// loads, consecutive runs of a row, cover 128 consecutive bytes: read as
// 32-byte runs of one tile, ncu counted 8.8-way bank conflicts (ResNet-50's
// 1x1 convolutions at batch 64). Rows are padded by 8 words and planes by
// 4, so that a half-warp's pairs of accumulators fall in distinct banks
// too. Where 4 runs fill a row (64 filters of 1-byte outputs), a
// quarter-warp spans two rows: they are two apart (`tile_row_of`), 48
// words, so that their runs of a plane fall in distinct banks (ncu: rows
// one apart met 2 ways, the L1's wavefronts ~89% busy in ResNet-50's
// 64 -> 256 1x1 convolutions).
template <typename Tiles, typename Epilogue> struct prec_conv_outputs {
  using Output = typename Epilogue::Output;
  static constexpr int RUN = 16 / sizeof(Output), PLANES = RUN / 4;
  static constexpr int ROW_WORDS = Tiles::COLUMNS / PLANES + 8;
  static constexpr int PLANE_WORDS = Tiles::ROWS * ROW_WORDS + 4;
  static constexpr int RUNS = Tiles::COLUMNS / RUN;
  static constexpr int PER_THREAD = Tiles::ROWS * RUNS / Tiles::THREADS;
  static constexpr int ROW_STEP = Tiles::THREADS / RUNS;
  // The staged tile's bytes, which the launch's shared memory covers.
  static constexpr int SHARED_BYTES = PLANES * PLANE_WORDS * sizeof(int);
  static_assert(Tiles::THREADS % RUNS == 0,
                "a thread's runs share their filters");
  static_assert(Tiles::ROWS % ROW_STEP == 0,
                "the threads share the runs evenly");
  static_assert(RUNS != 4 || (2 * ROW_WORDS % 32 == 16 && ROW_STEP % 4 == 0),
                "a quarter-warp's two rows fall in distinct banks, and "
                "tile_row_of permutes rows within ROW_STEP");

  const Epilogue &epilogue;
  int *const tile; // where the accumulators are staged
  const int filters, thread;
  // The thread's first run: its tile row and column, its output row and
  // filter, and how many output rows there are from that row on.
  const unsigned tile_row, tile_column;
  const long long row, filter, rows_left;

  __device__ prec_conv_outputs(const Epilogue &epilogue, int8_t *staging,
                               int filters, long long rows, long long first_row,
                               long long first_filter, int thread)
      : epilogue(epilogue), tile(reinterpret_cast<int *>(staging)),
        filters(filters), thread(thread), tile_row(tile_row_of(thread)),
        tile_column(thread % RUNS * RUN), row(first_row + tile_row),
        filter(first_filter + tile_column), rows_left(rows - row) {}

  // The tile row of `thread`'s first run: rows 0, 2, 1, 3 of each 4 where
  // 4 runs fill a row.
  __device__ static constexpr unsigned tile_row_of(unsigned thread) {
    const unsigned r = thread / RUNS;
    return RUNS == 4 ? (r & ~3u) | (r & 1) << 1 | (r >> 1 & 1) : r;
  }
  // Where the accumulator of tile row r, column c is staged.
  __device__ static unsigned slot(unsigned r, unsigned c) {
    return c / 4 % PLANES * PLANE_WORDS + r * ROW_WORDS + c / (4 * PLANES) * 4 +
           c % 4;
  }
  // Whether the thread's run u is an output row.
  __device__ bool inside(int u) const { return u * ROW_STEP < rows_left; }

  // Whether the runs are computed and stored whole (else element by
  // element).
  __device__ bool whole_runs() const {
    return filters % RUN == 0 && epilogue.aligned();
  }

  // The inputs of the output's shape of the thread's runs.
  using Loaded = typename Epilogue::Loaded[PER_THREAD];
  __device__ void load(Loaded &loaded) const {
    if (filter >= filters || !whole_runs())
      return;
#pragma unroll
    for (int u = 0; u < PER_THREAD; ++u)
      if (inside(u))
        epilogue.load(row + u * ROW_STEP, filter, loaded[u]);
  }

  // Stages the accumulators; the block waits for all of them.
  template <int M_TILES, int N_TILES>
  __device__ void stage(const int (&acc)[M_TILES][N_TILES][4], int warp_row,
                        int warp_column) const {
    const int lane = thread & 31, group = lane >> 2, pair = (lane & 3) * 2;
#pragma unroll
    for (int m = 0; m < M_TILES; ++m)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        int r = warp_row + 16 * m + 8 * half + group;
#pragma unroll
        for (int n = 0; n < N_TILES; ++n)
          *reinterpret_cast<int2 *>(tile +
                                    slot(r, warp_column + 8 * n + pair)) =
              make_int2(acc[m][n][2 * half], acc[m][n][2 * half + 1]);
      }
    __syncthreads();
  }

  // The thread's outputs, from the staged accumulators and `loaded`.
  __device__ void finish(const Loaded &loaded) const {
    if (filter >= filters)
      return;
    // Run u's accumulators of plane q: at runs[u * ROW_STEP * ROW_WORDS +
    // q * PLANE_WORDS].
    const int *runs = tile + slot(tile_row, tile_column);
    if (whole_runs()) {
      typename Epilogue::Columns columns;
      epilogue.columns(filter, columns);
#pragma unroll
      for (int u = 0; u < PER_THREAD; ++u) {
        if (!inside(u))
          break;
        int32_t run[RUN];
#pragma unroll
        for (int q = 0; q < PLANES; ++q)
          *reinterpret_cast<int4 *>(run + 4 * q) =
              *reinterpret_cast<const int4 *>(runs + u * ROW_STEP * ROW_WORDS +
                                              q * PLANE_WORDS);
        epilogue.run(row + u * ROW_STEP, filter, run, loaded[u], columns);
      }
      return;
    }
    for (int u = 0; u < PER_THREAD && inside(u); ++u)
      for (int e = 0; e < RUN && filter + e < filters; ++e)
        epilogue.element(row + u * ROW_STEP, filter + e,
                         tile[slot(tile_row + u * ROW_STEP, tile_column + e)]);
  }

  template <int M_TILES, int N_TILES>
  __device__ void store(const int (&acc)[M_TILES][N_TILES][4], int warp_row,
                        int warp_column) const {
    stage(acc, warp_row, warp_column);
    Loaded loaded;
    load(loaded);
    finish(loaded);
  }
};

// A fragment tile (prec_conv_fragment_tile) as an epilogue's `pair` sees it
// for one of the two rows of a pair of filters that a thread's fragment
// holds: for the first (LOAD) it loads the per-filter inputs' pairs and
// keeps them in `slots` (by their offset), for the second it gives them from
// there. Loaded again for each row (ptxas cannot keep them across the stores
// between), they gave the code of ResNet-50's 64 -> 256 1x1 convolution with
// a residual 178 shared loads against 146, and those convolutions took 61.9
// us against 58.2 (int8 engine at batch 64, H200; the one-tile ones 5-9%).
template <typename Tile, bool LOAD> struct prec_conv_filter_cache {
  const Tile &tile;
  uint2 *slots;
  template <typename V> __device__ V row_pair(int r, int c, int at) const {
    return tile.template row_pair<V>(r, c, at);
  }
  template <typename V> __device__ V filter_pair(int c, int at) const {
    static_assert(sizeof(V) <= sizeof(uint2), "a pair fits a slot");
    V pair;
    if constexpr (LOAD) {
      pair = tile.template filter_pair<V>(c, at);
      memcpy(&slots[at], &pair, sizeof(V));
    } else {
      memcpy(&pair, &slots[at], sizeof(V));
    }
    return pair;
  }
  template <typename V>
  __device__ void put_pair(int r, int c, int at, const V &pair) const {
    tile.put_pair(r, c, at, pair);
  }
};

// A block's outputs computed where the accumulators are, in the fragment
// layout of mma.sync and wgmma (each thread a pair of filters of each of
// its rows), the epilogue reading its inputs of the output's shape and of
// one element per filter from shared memory, where they were copied
// before the products (`stage`, asynchronously, 16 coalesced bytes a
// copy), and writing its outputs there, which are then stored 16
// coalesced bytes a thread. Against prec_conv_outputs, nothing of the
// epilogue is held in registers across the products and the int32
// accumulators are not staged: ResNet-50's 64 -> 256 1x1 convolutions with
// a residual (int8 engine at batch 64, H200) 74.8 -> 44.5 KB of shared
// memory and 79 -> 64 registers a thread, 3 -> 4 blocks an SM, 64.9 -> 61.6
// us each.
//
// The epilogue declares what it stages, as bytes a filter: its tile rows'
// (STAGED_ROW_BYTES: the tensors of the output's shape, inputs and
// outputs, side by side in a row, each at the offset `at` it names:
// COLUMNS * at bytes in) and its filters' (STAGED_FILTER_BYTES), and
// provides `stage(tile)` (copy_rows and copy_filters of its inputs),
// `pair(tile, r, c, row, filter, accs)` (tile row r, column c, an even
// one: the output row and filter; accs[0..1]: the accumulators of c and
// c + 1) and `store(tile)` (store_rows of its outputs). Unless STAGED (the
// filters a multiple of 16, every pointer 16-byte aligned and the tile
// within the shared memory a block may take), each element
// is computed and stored where it is (`element`): a kernel of its own, as
// with those loads and stores beside the pairs' ptxas spilled (~250 bytes
// at 64 registers).
template <typename Tiles, typename Epilogue, bool STAGED = true>
struct prec_conv_fragment_tile {
  static constexpr int ROWS = Tiles::ROWS, COLUMNS = Tiles::COLUMNS;
  static constexpr int THREADS = Tiles::THREADS;
  // Rows padded by 16 bytes: a warp's pairs of one fragment (8 rows, 4
  // pairs of up to 2 bytes an element) fall in distinct banks.
  static constexpr int STRIDE = COLUMNS * Epilogue::STAGED_ROW_BYTES + 16;
  static constexpr int FILTERS_OFFSET = ROWS * STRIDE;
  static constexpr int SHARED_BYTES =
      FILTERS_OFFSET + COLUMNS * Epilogue::STAGED_FILTER_BYTES;

  const Epilogue &epilogue;
  int8_t *const tile;
  const long long rows, first_row, first_filter;
  const int filters, thread;

  __device__ prec_conv_fragment_tile(const Epilogue &epilogue, int8_t *tile,
                                     int filters, long long rows,
                                     long long first_row,
                                     long long first_filter, int thread)
      : epilogue(epilogue), tile(tile), rows(rows), first_row(first_row),
        first_filter(first_filter), filters(filters), thread(thread) {}

  // Issues the copies of the epilogue's inputs (the caller commits them).
  __device__ void load() const {
    if constexpr (STAGED)
      epilogue.stage(*this);
  }

  // f(slot, element, inside) for each of the thread's 16-byte chunks of
  // the rows of a tensor of T of the output's shape at tile offset `at`:
  // the chunk's place in the tile, its first element's offset in the
  // tensor, and whether it is an output row's and filters'.
  template <typename T, typename F>
  __device__ void each_row_chunk(int at, F f) const {
    constexpr int CHUNKS = COLUMNS * sizeof(T) / 16; // a row's
    static_assert(ROWS * CHUNKS % THREADS == 0, "the threads share the rows");
#pragma unroll
    for (int u = 0; u < ROWS * CHUNKS / THREADS; ++u) {
      const int c = thread + u * THREADS, r = c / CHUNKS, chunk = c % CHUNKS;
      const long long row = first_row + r,
                      filter = first_filter + chunk * (16 / sizeof(T));
      f(tile + r * STRIDE + COLUMNS * at + chunk * 16, row * filters + filter,
        row < rows && filter < filters);
    }
  }

  // The rows of a tensor of the output's shape into tile offset `at`;
  // zeros past the last row and filter.
  template <typename T> __device__ void copy_rows(const T *from, int at) const {
    each_row_chunk<T>(at, [&](int8_t *slot, long long element, bool inside) {
      prec_copy16_async(slot, inside ? from + element : from, inside ? 16 : 0);
    });
  }
  // The block's filters' elements of a per-filter tensor.
  template <typename T>
  __device__ void copy_filters(const T *from, int at) const {
    constexpr int CHUNKS = COLUMNS * sizeof(T) / 16;
    const long long filter = first_filter + thread * (16 / sizeof(T));
    const bool inside = filter < filters;
    if (thread < CHUNKS)
      prec_copy16_async(tile + FILTERS_OFFSET + COLUMNS * at + thread * 16,
                        inside ? from + filter : from, inside ? 16 : 0);
  }
  // Elements c and c + 1 of tile row r or of the filters, as one V.
  template <typename V> __device__ V row_pair(int r, int c, int at) const {
    return *reinterpret_cast<const V *>(row_address(r, c, at, sizeof(V)));
  }
  template <typename V> __device__ V filter_pair(int c, int at) const {
    return *reinterpret_cast<const V *>(tile + FILTERS_OFFSET + COLUMNS * at +
                                        c * (sizeof(V) / 2));
  }
  template <typename V>
  __device__ void put_pair(int r, int c, int at, const V &pair) const {
    *reinterpret_cast<V *>(row_address(r, c, at, sizeof(V))) = pair;
  }
  __device__ int8_t *row_address(int r, int c, int at, int pair_bytes) const {
    return tile + r * STRIDE + COLUMNS * at + c * (pair_bytes / 2);
  }
  // An output of the tile, from tile offset `at`.
  template <typename T> __device__ void store_rows(T *to, int at) const {
    each_row_chunk<T>(at, [&](int8_t *slot, long long element, bool inside) {
      if (inside)
        *reinterpret_cast<uint4 *>(to + element) =
            *reinterpret_cast<const uint4 *>(slot);
    });
  }

  // The outputs of the fragments `acc` (mma.sync's, of a warp's rows from
  // `warp_row`), once the staged inputs are in (the copies waited for and
  // the block past a barrier). The next filter tile's copies may start as
  // soon as this returns: every read of the inputs precedes the barrier
  // before the stores, which read only the outputs' bytes, and the next
  // outputs are written past the barrier that waits for those copies.
  template <int N_TILES>
  __device__ void store(const int (&acc)[1][N_TILES][4], int warp_row) const {
    if constexpr (!STAGED) {
      each_pair<true>(acc, warp_row,
                      [&](int, int, int, long long row, long long filter,
                          const int(&accs)[2]) {
                        for (int k = 0; k < 2 && filter + k < filters; ++k)
                          epilogue.element(row, filter + k, accs[k]);
                      });
      return;
    }
    // A whole tile's pairs need no bounds, and no branch that would keep
    // ptxas from overlapping one pair's loads with another's arithmetic
    // (with a branch a pair, ResNet-50's 64 -> 256 1x1 convolutions ran
    // 67.6 us against prec_conv_outputs' 65.0). There a pair of filters'
    // second row reads the per-filter inputs its first loaded
    // (prec_conv_filter_cache).
    if (first_row + ROWS <= rows && first_filter + COLUMNS <= filters) {
      uint2 slots[Epilogue::STAGED_FILTER_BYTES > 0
                      ? Epilogue::STAGED_FILTER_BYTES
                      : 1];
      each_pair<false>(
          acc, warp_row,
          [&](int half, int r, int c, long long row, long long filter,
              const int(&accs)[2]) {
            if (half == 0)
              epilogue.pair(
                  prec_conv_filter_cache<prec_conv_fragment_tile, true>{*this,
                                                                        slots},
                  r, c, row, filter, accs);
            else
              epilogue.pair(
                  prec_conv_filter_cache<prec_conv_fragment_tile, false>{*this,
                                                                         slots},
                  r, c, row, filter, accs);
          });
    } else {
      each_pair<true>(acc, warp_row,
                      [&](int, int r, int c, long long row, long long filter,
                          const int(&accs)[2]) {
                        epilogue.pair(*this, r, c, row, filter, accs);
                      });
    }
    __syncthreads();
    epilogue.store(*this);
  }

  // f(half, r, c, row, filter, accs) for each of the thread's pairs (of
  // output rows and, but for their second filter, of filters where
  // BOUNDED), a pair of filters' two rows (half 0, then 1) one after the
  // other.
  template <bool BOUNDED, int N_TILES, typename F>
  __device__ void each_pair(const int (&acc)[1][N_TILES][4], int warp_row,
                            F f) const {
    const int lane = thread & 31, pair = (lane & 3) * 2;
#pragma unroll
    for (int n = 0; n < N_TILES; ++n) {
      const int c = 8 * n + pair;
      if (BOUNDED && first_filter + c >= filters)
        continue;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int r = warp_row + 8 * half + (lane >> 2);
        if (BOUNDED && first_row + r >= rows)
          continue;
        const int accs[2] = {acc[0][n][2 * half], acc[0][n][2 * half + 1]};
        f(half, r, c, first_row + r, first_filter + c, accs);
      }
    }
  }
};

// A block's 128 x COLUMNS outputs from `first_filter` on mma.sync.
template <int COLUMNS, int STAGES, int AHEAD, bool ALIGNED, typename Epilogue>
__device__ inline void
prec_conv_s8_mma_sync(const int8_t *__restrict__ input,
                      const int8_t *__restrict__ weights,
                      const prec_conv_geometry &g, long long rows,
                      long long first_filter, const Epilogue &epilogue) {
  using Tiles = prec_conv_tiles<COLUMNS, STAGES>;
  constexpr int M_TILES = Tiles::WARP_ROWS / 16,
                N_TILES = Tiles::WARP_COLUMNS / 8;
  extern __shared__ __align__(16) int8_t prec_conv_shared[];
  const int thread = threadIdx.x, lane = thread & 31, warp = thread >> 5;
  const long long first_row = (long long)blockIdx.x * Tiles::ROWS;
  const int depth = g.depth();
  const int tiles = g.k_tiles();
  prec_conv_rows<Tiles::ROW_CHUNKS> chunks(
      input, g, rows, first_row + (thread >> 3), thread & 7);
  const int column_k = (thread & 7) * 16;

  // Tiles 0..AHEAD-1 in flight before the first product.
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < tiles)
      prec_conv_load_stage<Tiles>(prec_conv_shared + s * Tiles::STAGE_BYTES,
                                  chunks, weights, g, depth, first_filter,
                                  s * Tiles::DEPTH + column_k, thread, ALIGNED);
    chunks.advance(g, Tiles::DEPTH);
    prec_commit_copies();
  }

  int acc[M_TILES][N_TILES][4] = {};
  const int warp_row = (warp >> 2) * Tiles::WARP_ROWS,
            warp_column = (warp & 3) * Tiles::WARP_COLUMNS;
  for (int t = 0; t < tiles; ++t) {
    prec_wait_copies<AHEAD - 1>();
    __syncthreads();
    // The stage the block finished with at t - 1 takes tile t + AHEAD
    // (none where every tile was copied ahead).
    int next = t + AHEAD;
    if (next < tiles)
      prec_conv_load_stage<Tiles>(
          prec_conv_shared + (next % Tiles::STAGES) * Tiles::STAGE_BYTES,
          chunks, weights, g, depth, first_filter,
          next * Tiles::DEPTH + column_k, thread, ALIGNED);
    chunks.advance(g, Tiles::DEPTH);
    prec_commit_copies();

    const int8_t *a =
        prec_conv_shared + (t % Tiles::STAGES) * Tiles::STAGE_BYTES;
    const int8_t *b = a + Tiles::B_OFFSET;
    // Each 32-byte step's fragments load while the step before multiplies.
    uint32_t af[2][M_TILES][4], bf[2][N_TILES / 2][4];
    auto load_fragments = [&](int step) {
#pragma unroll
      for (int m = 0; m < M_TILES; ++m)
        prec_load_fragments_s8(af[step & 1][m], a, Tiles::STRIDE,
                               warp_row + 16 * m, 32 * step, lane,
                               /*rows_first=*/true);
#pragma unroll
      for (int n = 0; n < N_TILES / 2; ++n)
        prec_load_fragments_s8(bf[step & 1][n], b, Tiles::STRIDE,
                               warp_column + 16 * n, 32 * step, lane,
                               /*rows_first=*/false);
    };
    load_fragments(0);
#pragma unroll
    for (int step = 0; step < Tiles::DEPTH / 32; ++step) {
      if (step + 1 < Tiles::DEPTH / 32)
        load_fragments(step + 1);
#pragma unroll
      for (int m = 0; m < M_TILES; ++m)
#pragma unroll
        for (int n = 0; n < N_TILES; ++n)
          prec_mma_s8(acc[m][n], af[step & 1][m],
                      &bf[step & 1][n >> 1][(n & 1) * 2]);
    }
  }
  prec_wait_copies<0>();
  __syncthreads(); // the pipeline's stages become the output tile
  prec_conv_outputs<Tiles, Epilogue>(epilogue, prec_conv_shared, g.filters,
                                     rows, first_row, first_filter, thread)
      .store(acc, warp_row, warp_column);
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// A warpgroup's accumulators as mma.sync's fragments of a warp's rows,
// and the first of those rows in the block (warp w of warpgroup v holds
// rows 64v + 16w..).
template <int COLUMNS>
__device__ inline const int (&prec_conv_fragments(
    const prec_wgmma_accumulators<COLUMNS> &acc))[1][COLUMNS / 8][4] {
  return *reinterpret_cast<const int(*)[1][COLUMNS / 8][4]>(acc.r);
}
__device__ inline int prec_conv_fragment_row(int thread) {
  const int warp = thread >> 5;
  return 64 * (warp >> 2) + 16 * (warp & 3);
}

// The same on wgmma: warpgroup w multiplies rows 64w..64w+63 by all the
// block's filters.
template <int COLUMNS, int STAGES, int AHEAD, bool ALIGNED, typename Epilogue>
__device__ inline void
prec_conv_s8_wgmma(const int8_t *__restrict__ input,
                   const int8_t *__restrict__ weights,
                   const prec_conv_geometry &g, long long rows,
                   long long first_filter, const Epilogue &epilogue) {
  using Tiles = prec_conv_wgmma_tiles<COLUMNS, STAGES>;
  extern __shared__ __align__(16) int8_t prec_conv_shared[];
  const int thread = threadIdx.x, warpgroup = thread >> 7;
  const long long first_row = (long long)blockIdx.x * Tiles::ROWS;
  const int depth = g.depth();
  const int tiles = g.k_tiles();
  prec_conv_rows<Tiles::ROW_CHUNKS> chunks(
      input, g, rows, first_row + (thread >> 3), thread & 7);
  const int column_k = (thread & 7) * 16;
  int8_t *stages =
      prec_conv_shared + (-prec_shared_address(prec_conv_shared) & 1023);
  auto load = [&](int tile) {
    if (tile < tiles)
      prec_conv_load_stage<Tiles>(
          stages + (tile % Tiles::STAGES) * Tiles::STAGE_BYTES, chunks, weights,
          g, depth, first_filter, tile * Tiles::DEPTH + column_k, thread,
          ALIGNED);
    chunks.advance(g, Tiles::DEPTH);
    prec_commit_copies();
  };
#pragma unroll
  for (int t = 0; t < AHEAD; ++t)
    load(t);

  prec_wgmma_accumulators<COLUMNS> acc; // set by the first product
  for (int t = 0; t < tiles; ++t) {
    prec_wait_copies<AHEAD - 1>();
    prec_wgmma_shared_fence();
    // Tile t is in, and every warpgroup is done with tile t - 1 (each
    // waits for its products before the next barrier), whose stage takes
    // tile t + AHEAD (none where every tile was copied ahead): the copies
    // of two tiles stay in flight. They are issued while tile t's products
    // run, not before them.
    __syncthreads();
    const int8_t *a = stages + (t % Tiles::STAGES) * Tiles::STAGE_BYTES;
    const int8_t *b = a + Tiles::B_OFFSET;
    a += warpgroup * 64 * Tiles::DEPTH;
    prec_wgmma_fence();
#pragma unroll
    for (int step = 0; step < Tiles::DEPTH / 32; ++step)
      prec_wgmma_s8(acc, prec_wgmma_descriptor(a + 32 * step),
                    prec_wgmma_descriptor(b + 32 * step), t > 0 || step > 0);
    prec_wgmma_commit();
    load(t + AHEAD);
    prec_wgmma_wait<0>();
  }
  prec_wgmma_hold(acc);
  prec_wait_copies<0>();
  __syncthreads(); // the pipeline's stages become the output tile
  prec_conv_outputs<Tiles, Epilogue>(epilogue, prec_conv_shared, g.filters,
                                     rows, first_row, first_filter, thread)
      .store(prec_conv_fragments(acc), prec_conv_fragment_row(thread), 0);
}

// Where K is one tile, a block takes the filter tiles blockIdx.y,
// blockIdx.y + gridDim.y, ... of its rows: their receptive fields are
// copied once, and each filter tile's weights are copied while the one
// before's outputs are stored, the epilogue's tile having shared memory of
// its own (ncu: the 1x1 convolutions spent ~20% of their warps' samples
// waiting for copies, with DRAM ~11% busy). The products take STEPS steps
// of 32 bytes of K, K's only (K = 64: half the tile's; ResNet-50's 1x1
// convolutions of K = 64 measured 5-8% faster than multiplying zeros;
// the other kernels multiply all their tiles' steps, as a product under a
// condition is serialized by ptxas).
template <int COLUMNS, int STEPS, bool ALIGNED, bool STAGED, typename Epilogue>
__device__ inline void prec_conv_s8_wgmma_one_tile(
    const int8_t *__restrict__ input, const int8_t *__restrict__ weights,
    const prec_conv_geometry &g, long long rows, long long first_filter,
    long long filter_step, const Epilogue &epilogue) {
  using Tiles = prec_conv_wgmma_tiles<COLUMNS, 1>;
  extern __shared__ __align__(16) int8_t prec_conv_shared[];
  const int thread = threadIdx.x, warpgroup = thread >> 7;
  const long long first_row = (long long)blockIdx.x * Tiles::ROWS;
  const int depth = g.depth(), column_k = (thread & 7) * 16;
  int8_t *stage =
      prec_conv_shared + (-prec_shared_address(prec_conv_shared) & 1023);
  int8_t *staging = stage + Tiles::STAGE_BYTES;
  // The chunk columns past the STEPS the products read are not copied.
  const bool copies_column = column_k < 32 * STEPS;
  if (copies_column) {
    prec_conv_rows<Tiles::ROW_CHUNKS> chunks(
        input, g, rows, first_row + (thread >> 3), thread & 7);
    prec_conv_load_fields<Tiles>(stage, chunks, weights, g, thread, ALIGNED);
    prec_conv_load_weights<Tiles>(stage + Tiles::B_OFFSET, weights, g, depth,
                                  first_filter, column_k, thread, ALIGNED);
  }
  prec_commit_copies();
  for (; first_filter < g.filters; first_filter += filter_step) {
    // The epilogue's inputs copy while the products run.
    const prec_conv_fragment_tile<Tiles, Epilogue, STAGED> outputs(
        epilogue, staging, g.filters, rows, first_row, first_filter, thread);
    outputs.load();
    prec_commit_copies();
    prec_wait_copies<0>();
    prec_wgmma_shared_fence();
    // The weights and the epilogue's inputs are in.
    __syncthreads();
    prec_wgmma_accumulators<COLUMNS> acc;
    prec_wgmma_fence();
#pragma unroll
    for (int step = 0; step < STEPS; ++step)
      prec_wgmma_s8(acc,
                    prec_wgmma_descriptor(
                        stage + warpgroup * 64 * Tiles::DEPTH + 32 * step),
                    prec_wgmma_descriptor(stage + Tiles::B_OFFSET + 32 * step),
                    step > 0);
    prec_wgmma_commit();
    prec_wgmma_wait<0>();
    prec_wgmma_hold(acc);
    __syncthreads(); // both warpgroups are done with the weights
    if (copies_column && first_filter + filter_step < g.filters)
      prec_conv_load_weights<Tiles>(stage + Tiles::B_OFFSET, weights, g, depth,
                                    first_filter + filter_step, column_k,
                                    thread, ALIGNED);
    prec_commit_copies();
    outputs.store(prec_conv_fragments(acc), prec_conv_fragment_row(thread));
  }
}
#endif

constexpr int prec_conv_larger(int a, int b) { return a > b ? a : b; }
constexpr int prec_conv_smaller(int a, int b) { return a < b ? a : b; }

// The stages of K tiles: 3 where K is three tiles or more; 2 where it is
// two (both copied before the first product), or one on mma.sync (one
// holds it, and the staged outputs that replace them take about two's
// room): a third would only take shared memory another block could use
// (ResNet-50's 4x4 stem, K = 256 with 64 filters, held 2 blocks an SM by
// shared memory with 3 stages of mma.sync's tiles). wgmma's kernel keeps one
// where K is one.
template <typename Geometry>
constexpr int prec_conv_s8_stages = prec_conv_k_tiles<Geometry> <= 2 ? 2 : 3;

// The K tiles copied before the first product: every one where the stages
// hold them all, else STAGES - 1, so that a stage takes the next tile's
// copies while another is multiplied.
template <typename Geometry>
constexpr int prec_conv_s8_ahead =
    prec_conv_k_tiles<Geometry> <= prec_conv_s8_stages<Geometry>
        ? prec_conv_k_tiles<Geometry>
        : prec_conv_s8_stages<Geometry> - 1;

// Whether the one-tile kernel's stage and its epilogue's tile fit the
// 227 KB of shared memory a block may take (sm_90): an epilogue staging
// many wide tensors computes each element where it is instead.
template <int COLUMNS, typename Epilogue>
constexpr bool prec_conv_fragment_fits =
    prec_conv_wgmma_tiles<COLUMNS, 1>::SHARED_BYTES +
        prec_conv_fragment_tile<prec_conv_wgmma_tiles<COLUMNS, 1>,
                                Epilogue>::SHARED_BYTES <=
    227 * 1024;

// The shared memory a block of prec_conv_s8 takes on wgmma: where K is one
// tile, the stage and the epilogue's tile side by side (the stage alone
// where the tile does not fit); else the larger of the pipeline and the
// staged outputs, which take its place after the last product. On
// mma.sync: the larger of its pipeline and its staged outputs.
template <int COLUMNS, typename Geometry, typename Epilogue>
constexpr int prec_conv_s8_wgmma_bytes =
    prec_conv_one_k_tile<Geometry>
        ? prec_conv_wgmma_tiles<COLUMNS, 1>::SHARED_BYTES +
              (prec_conv_fragment_fits<COLUMNS, Epilogue>
                   ? prec_conv_fragment_tile<prec_conv_wgmma_tiles<COLUMNS, 1>,
                                             Epilogue>::SHARED_BYTES
                   : 0)
        : prec_conv_larger(
              prec_conv_wgmma_tiles<
                  COLUMNS, prec_conv_s8_stages<Geometry>>::SHARED_BYTES,
              prec_conv_outputs<
                  prec_conv_wgmma_tiles<COLUMNS, prec_conv_s8_stages<Geometry>>,
                  Epilogue>::SHARED_BYTES);
template <int COLUMNS, typename Geometry, typename Epilogue>
constexpr int prec_conv_s8_mma_sync_bytes = prec_conv_larger(
    prec_conv_tiles<COLUMNS, prec_conv_s8_stages<Geometry>>::SHARED_BYTES,
    prec_conv_outputs<prec_conv_tiles<COLUMNS, prec_conv_s8_stages<Geometry>>,
                      Epilogue>::SHARED_BYTES);

// Whether the device code runs the wgmma kernels. The host pass cannot tell
// which kernel nvcc compiled for the device the engine runs on: create
// reads this (cudaMemcpyFromSymbol), and each launch asks for that kernel's
// shared memory (prec_conv_s8_shared_bytes). The larger of the two kernels'
// needs held stage 1's 3x3 convolutions of ResNet-50 (mma.sync's rows
// padded for ldmatrix) at 2 blocks an SM on wgmma rather than 3: 42 -> 38
// us each with 3.
static __device__ int prec_conv_s8_wgmma_compiled =
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    1;
#else
    0;
#endif

template <int COLUMNS, typename Geometry, typename Epilogue>
__host__ __device__ constexpr int prec_conv_s8_shared_bytes(bool wgmma) {
  return wgmma ? prec_conv_s8_wgmma_bytes<COLUMNS, Geometry, Epilogue>
               : prec_conv_s8_mma_sync_bytes<COLUMNS, Geometry, Epilogue>;
}

// The blocks of 256 threads an SM holds by the shared memory wgmma's
// launches ask for (228 KiB on sm_90, 1 KiB of it reserved a block), at
// most 4, and at most 2 of 128 filters: the registers __launch_bounds__
// leaves a thread. wgmma's accumulators of 128 filters take 64 registers a
// thread, more than a third block would leave room for; mma.sync's blocks
// (sm_80 and up) keep 2, for their fragments.
template <int COLUMNS, typename Geometry, typename Epilogue>
constexpr int prec_conv_s8_blocks =
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    prec_conv_smaller(
        COLUMNS > 64 ? 2 : 4,
        228 * 1024 /
            (prec_conv_s8_wgmma_bytes<COLUMNS, Geometry, Epilogue> + 1024));
#else
    2;
#endif

// The blocks a row tile's filters take (gridDim.y) at `rows` output rows:
// one a filter tile, except where K is one tile and the row tiles alone
// give the grid 256 blocks (two an SM of an H100's or H200's 132): then
// one, so that its receptive fields are copied once. A small batch keeps
// a block for each filter tile.
template <int COLUMNS, typename Geometry>
constexpr int prec_conv_s8_filter_blocks(long long rows) {
  const int tiles = (Geometry::value.filters + COLUMNS - 1) / COLUMNS;
  return prec_conv_one_k_tile<Geometry> && (rows + 127) / 128 >= 256 ? 1
                                                                     : tiles;
}

// A block's outputs: blockIdx.x picks 128 rows, blockIdx.y the filter tile
// of COLUMNS; where K is one tile, the block takes every gridDim.y-th from
// there. `rows` is N * OH * OW at the engine's batch; the geometry per
// image is a constant, `Geometry::value`, so that its divisions are
// multiplications (ncu counted ~100 instructions a thread of divisions by
// sizes passed as arguments). ALIGNED: the input, the weights and the
// epilogue's tensors are 16-byte aligned (the engine launches the copy
// that copies byte by byte and computes each element where it is
// otherwise: a binding is aligned as its caller allocated it).
template <int COLUMNS, bool ALIGNED, typename Geometry, typename Epilogue>
__global__ void
__launch_bounds__(256, (prec_conv_s8_blocks<COLUMNS, Geometry, Epilogue>))
    prec_conv_s8(const int8_t *__restrict__ input,
                 const int8_t *__restrict__ weights, long long rows,
                 Epilogue epilogue) {
  prec_kernel_start();
  constexpr prec_conv_geometry g = Geometry::value;
  constexpr int STAGES = prec_conv_s8_stages<Geometry>;
  constexpr int AHEAD = prec_conv_s8_ahead<Geometry>;
  const long long first_filter = (long long)blockIdx.y * COLUMNS;
  const long long filter_step = (long long)gridDim.y * COLUMNS;
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (prec_conv_one_k_tile<Geometry>)
    prec_conv_s8_wgmma_one_tile<COLUMNS, g.product_depth() / 32, ALIGNED,
                                ALIGNED && g.filters % 16 == 0 &&
                                    prec_conv_fragment_fits<COLUMNS, Epilogue>>(
        input, weights, g, rows, first_filter, filter_step, epilogue);
  else
    prec_conv_s8_wgmma<COLUMNS, STAGES, AHEAD, ALIGNED>(input, weights, g, rows,
                                                        first_filter, epilogue);
#else
  if constexpr (prec_conv_one_k_tile<Geometry>)
    for (long long f = first_filter; f < g.filters; f += filter_step) {
      // The stages the next tile's copies take held the staged outputs.
      if (f != first_filter)
        __syncthreads();
      prec_conv_s8_mma_sync<COLUMNS, STAGES, AHEAD, ALIGNED>(input, weights, g,
                                                             rows, f, epilogue);
    }
  else
    prec_conv_s8_mma_sync<COLUMNS, STAGES, AHEAD, ALIGNED>(
        input, weights, g, rows, first_filter, epilogue);
#endif
}
