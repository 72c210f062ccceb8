// The implicit GEMM's K-tile pipeline by K (runtime/ImplicitGemmConv.cuh):
// its stages, the tiles copied before the first product, and the shared
// memory and blocks an SM that follow on sm_90a, for 64 filters of i8.
#include <cstdint>
#include <cuda_runtime.h>

#include "codegen/runtime/WeightsFile.h"

#include "codegen/runtime/EngineRuntime.cuh"

#include "codegen/runtime/TensorCoreCopies.cuh"

#include "codegen/runtime/WarpgroupMma.cuh"

#include "codegen/runtime/ImplicitGemmConv.cuh"

// A 1x1 convolution of 56x56 images over `C` channels, 64 filters.
template <int C> struct Pointwise {
  static constexpr prec_conv_geometry value{56, 56, C, 56, 56, 64, 1, 1,
                                            1,  1,  0, 0, 1,  1};
};
// The epilogue's output type and what it stages in the fragment form are
// all the shared memory sizes read (and its Loaded, which the outputs' type
// names): here an i8 output alone, and one with an i8 residual and two f32
// per-filter inputs (a scale and a bias).
struct I8Outputs {
  using Output = int8_t;
  struct Loaded {};
  static constexpr int STAGED_ROW_BYTES = 1, STAGED_FILTER_BYTES = 0;
};
struct I8Residual : I8Outputs {
  static constexpr int STAGED_ROW_BYTES = 2, STAGED_FILTER_BYTES = 8;
};
// Eight f32 tensors of the output's shape: their tile (128 rows of 64 x 32
// bytes and 16) and the stage exceed the 227 KB a block may take.
struct WideTensors : I8Outputs {
  static constexpr int STAGED_ROW_BYTES = 32, STAGED_FILTER_BYTES = 0;
};

template <int C, int STAGES, int AHEAD> constexpr bool pipeline() {
  return prec_conv_s8_stages<Pointwise<C>> == STAGES &&
         prec_conv_s8_ahead<Pointwise<C>> == AHEAD;
}
// K one tile: mma.sync keeps a stage besides the one it multiplies.
static_assert(pipeline<64, 2, 1>(), "K = 64");
static_assert(pipeline<128, 2, 1>(), "K = 128");
// Two tiles: both copied ahead into two stages, no third.
static_assert(pipeline<144, 2, 2>(), "K = 144");
static_assert(pipeline<256, 2, 2>(), "K = 256");
// Three: all three ahead. More: two ahead of the one multiplied.
static_assert(pipeline<384, 3, 3>(), "K = 384");
static_assert(pipeline<576, 3, 2>(), "K = 576");

// K's 32-byte product steps, what the one-tile wgmma kernel multiplies and
// copies (product_depth): K = 48 takes two (zeros in the second's last 16
// bytes), K = 64 two of the tile's four.
static_assert(Pointwise<48>::value.product_depth() == 64, "K = 48");
static_assert(Pointwise<64>::value.product_depth() == 64, "K = 64");
static_assert(Pointwise<128>::value.product_depth() == 128, "K = 128");

// Each launch asks for its kernel's shared memory (mma.sync's rows are
// padded for ldmatrix). K = 256: each kernel's two stages, larger than the
// staged i8 outputs; with them 4 blocks of 64 filters fit an SM (three
// stages of mma.sync's tiles held 2).
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<256>, I8Outputs>(false) ==
                  2 * (128 + 64) * (128 + 16),
              "two stages of mma.sync's tiles");
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<256>, I8Outputs>(true) ==
                  2 * (128 + 64) * 128 + 1024,
              "two stages of wgmma's tiles, aligned to 1024 bytes");
// K = 576: three stages.
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<576>, I8Outputs>(true) ==
                  3 * (128 + 64) * 128 + 1024,
              "three stages of wgmma's tiles");
// K one tile: wgmma's stage and the epilogue's tile (128 rows of 64
// filters' staged bytes and 16, then the filters') side by side; mma.sync's
// two stages.
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<64>, I8Outputs>(true) ==
                  (128 + 64) * 128 + 1024 + 128 * (64 + 16),
              "wgmma's stage beside the epilogue's tile");
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<64>, I8Residual>(true) ==
                  (128 + 64) * 128 + 1024 + 128 * (2 * 64 + 16) + 8 * 64,
              "wgmma's stage beside the epilogue's tile, with its filters'");
static_assert(prec_conv_fragment_fits<64, I8Residual> &&
                  !prec_conv_fragment_fits<64, WideTensors>,
              "a tile too large for a block");
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<64>, WideTensors>(true) ==
                  (128 + 64) * 128 + 1024,
              "wgmma's stage alone: each element computed where it is");
static_assert(prec_conv_s8_shared_bytes<64, Pointwise<64>, I8Outputs>(false) ==
                  2 * (128 + 64) * (128 + 16),
              "two stages of mma.sync's tiles");
// 128 filters, K = 256: the staged i8 outputs (4 planes of 128 rows of 40
// words, and 4 words) take more than wgmma's two stages.
static_assert(prec_conv_s8_shared_bytes<128, Pointwise<256>, I8Outputs>(true) ==
                  4 * (128 * 40 + 4) * 4,
              "the staged outputs in wgmma's pipeline");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
static_assert(prec_conv_s8_blocks<64, Pointwise<256>, I8Outputs> == 4,
              "four blocks an SM");
static_assert(prec_conv_s8_blocks<64, Pointwise<576>, I8Outputs> == 3,
              "three stages on wgmma: three blocks an SM (two at "
              "mma.sync's 82944 bytes)");
static_assert(prec_conv_s8_blocks<64, Pointwise<64>, I8Outputs> == 4,
              "K one tile: four blocks an SM");
static_assert(prec_conv_s8_blocks<64, Pointwise<64>, I8Residual> == 4,
              "K one tile, a residual staged: four blocks an SM");
#endif
