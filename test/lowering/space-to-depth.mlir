// prec-space-to-depth on its own, run on the CPU: each strided int8
// convolution over few channels becomes a unit-stride one over its input's
// space-to-depth, and since integer sums are exact the rewritten program's
// outputs equal the original's bit for bit. Odd sizes make the blocks reach
// past the input (zeros), on two images.
// RUN: rm -rf %t && mkdir -p %t
// RUN: prec-opt %s --prec-space-to-depth -o %t/s2d.mlir
// RUN: FileCheck %s < %t/s2d.mlir
// RUN: prec-run %s --val-range "x:[-2,2],y:[-2,2]" --seed 3 --save-inputs %t/in.npz --save-outputs %t/out.npz > /dev/null
// RUN: prec-run %t/s2d.mlir --load-inputs %t/in.npz --compare %t/out.npz --atol 0 --rtol 0 | FileCheck %s --check-prefix=EXACT
// In the engine plan (here with a dynamic batch of up to 2 images) the
// pads and transposes follow the batch, and both convolutions run as the
// implicit GEMM; the engine compiles.
// RUN: prec-opt %s --prec-lower-to-gpu --prec-plan-engine=batch=1:1:2 | FileCheck %s --check-prefix=PLAN
// RUN: prec-translate --emit-cuda %s --output-dir=%t --engine-name=s2d --batch=1:1:2
// RUN: FileCheck %s --check-prefix=ENGINE < %t/s2d.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -c %t/s2d.cu -o %t/s2d.o %}
// The stem's pad writes 4 channels, a 4-byte word, at each of its
// thread's 4 places, up to the batch's extent.
// ENGINE: // tosa.pad stem
// ENGINE-NEXT: __global__ void k{{[0-9]+}}_pad(const int8_t *__restrict__ in0, unsigned *__restrict__ out, int extent) {
// ENGINE-NEXT: prec_kernel_start();
// ENGINE-NEXT: const int base = blockIdx.x * 1024 + threadIdx.x;
// ENGINE-NEXT: #pragma unroll
// ENGINE-NEXT: for (int k = 0; k < 4; ++k) {
// ENGINE-NEXT: int i = base + k * 256;
// ENGINE-NEXT: if (i >= extent) return;
// ENGINE: { int c = rem % 16; rem /= 16; int s = c - 3; inside = inside && s >= 0 && s < 11; o0 += s * 3; }
// ENGINE: for (int l = 0; l < 4; ++l) { int s = l - 0; w[l] = inside && s >= 0 && s < 3 ? in0[o0 + s] : prec_saturate_i8(0.0f); }
// ENGINE-NEXT: out[i] = *reinterpret_cast<const unsigned *>(w);
// ENGINE-NEXT: }
// ENGINE-NEXT: }
// 288 words an image, 1024 a block.
// ENGINE: prec_launch(e->early_launch, k{{[0-9]+}}_pad, (int)((288LL * e->batch + 1023) / 1024), 256, 0, stream,
// ENGINE-NEXT: // tosa.transpose 'stem'
// ENGINE-NEXT: prec_launch(e->early_launch, k{{[0-9]+}}_transpose, (int)((288LL * e->batch + 1023) / 1024), 256, 0, stream,
// PLAN: tosa.pad {{.*}}engine.batch_dim = 0
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>
// PLAN: tosa.pad {{.*}}engine.batch_dim = 0
// PLAN: tosa.conv2d {{.*}}engine.conv_algorithm = #engine.conv_algorithm<implicit_gemm>
// EXACT: output 'stem': atol=0 rtol=0
// EXACT: elements outside tolerance: 0
// EXACT-NEXT: PASS
// EXACT: output 'three_by_three': atol=0 rtol=0
// EXACT: elements outside tolerance: 0
// EXACT-NEXT: PASS
// EXACT: PASSED

// A 7x7 stride-2 convolution over 3 channels (ResNet's stem): the input
// padded by the convolution's 3 rows and columns before, to 2 x (6 + 4 - 1)
// = 18 rows and 2 x (5 + 4 - 1) = 16 columns, and to 4 channels; blocks of
// 2 x 2 x 4 = 16 channels; 4x4 filters.
// CHECK-LABEL: func.func @main
// CHECK: %[[PAD:.*]] = tosa.const_shape {values = dense<[0, 0, 3, 2, 3, 2, 0, 1]> : tensor<8xindex>}
// CHECK: %[[PADDED:.*]] = tosa.pad %[[X:.*]], %[[PAD]], %{{.*}} {precision.layer = "stem"} : (tensor<2x13x11x3xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<2x18x16x4xi8>
// CHECK: %[[SPLIT:.*]] = tosa.reshape %[[PADDED]], %{{.*}} {precision.layer = "stem"} : (tensor<2x18x16x4xi8>, !tosa.shape<6>) -> tensor<2x9x2x8x2x4xi8>
// CHECK: %[[MOVED:.*]] = tosa.transpose %[[SPLIT]] {perms = array<i32: 0, 1, 3, 2, 4, 5>, precision.layer = "stem"} : (tensor<2x9x2x8x2x4xi8>) -> tensor<2x9x8x2x2x4xi8>
// CHECK: %[[BLOCKS:.*]] = tosa.reshape %[[MOVED]], %{{.*}} {precision.layer = "stem"} : (tensor<2x9x8x2x2x4xi8>, !tosa.shape<4>) -> tensor<2x9x8x16xi8>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<4x4x4x16xi8>}>
// CHECK: tosa.conv2d %[[BLOCKS]], %[[W]], %{{.*}}, %{{.*}}, %{{.*}} {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, precision.layer = "stem", stride = array<i64: 1, 1>} : (tensor<2x9x8x16xi8>, tensor<4x4x4x16xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x6x5x4xi32>
// A 3x3 stride-2 one over 5 channels: 8 channels make blocks of 32.
// CHECK: tosa.pad %{{.*}} : (tensor<2x9x9x5xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<2x12x12x8xi8>
// CHECK: tosa.conv2d %{{.*}} : (tensor<2x6x6x32xi8>, tensor<3x2x2x32xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x5x5x3xi32>
func.func @main(%x: tensor<2x13x11x3xf32> {precision.name = "x"}, %y: tensor<2x9x9x5xf32> {precision.name = "y"})
    -> (tensor<2x6x5x4xi32> {precision.name = "stem"}, tensor<2x5x5x3xi32> {precision.name = "three_by_three"}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<60.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %xm = tosa.mul %x, %scale, %shift : (tensor<2x13x11x3xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x13x11x3xf32>
  %xc = tosa.clamp %xm {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x13x11x3xf32>) -> tensor<2x13x11x3xf32>
  %xq = tosa.cast %xc : (tensor<2x13x11x3xf32>) -> tensor<2x13x11x3xi8>
  %w1 = "tosa.const"() <{values = dense<[[[[44, 78, -122], [79, -8, 4], [33, -55, 122], [-114, -57, -30], [18, -23, -94], [-116, -127, -115], [-90, 127, -79]],
    [[39, 64, -68], [-56, -17, -60], [121, -82, 101], [76, 88, -98], [-27, 33, -2], [42, 45, 42], [-112, 117, 14]],
    [[103, -58, -35], [97, -80, -111], [-32, 46, -96], [94, -41, -70], [11, 101, 98], [95, -49, -123], [71, 53, 69]],
    [[-127, -118, 1], [-42, -16, 110], [-76, 7, -45], [-52, 78, -88], [-47, -97, -89], [-56, 51, 20], [-13, -84, 76]],
    [[76, -67, -112], [-46, -90, 76], [5, 2, -53], [2, 119, -67], [68, -124, -47], [110, 95, -106], [87, 88, -12]],
    [[-34, 122, 115], [45, -26, -74], [111, -59, 14], [45, -66, -47], [62, -77, 44], [113, 47, 37], [-9, 119, -71]],
    [[-37, 36, 39], [-100, -86, 49], [87, 35, 111], [-31, -43, 76], [-117, -78, -78], [-28, -87, 76], [88, -30, -120]]],
    [[[54, -100, 29], [-84, 112, 45], [125, 30, 57], [-32, 79, -99], [-89, -36, 54], [-4, 89, 113], [-25, -19, 14]],
    [[37, -5, 26], [117, 60, -47], [-19, -25, -89], [-127, 74, -20], [-38, 34, 16], [111, 29, 108], [20, -44, -45]],
    [[125, 22, -80], [84, 82, -125], [-87, 49, -24], [-41, -109, -79], [91, 85, 84], [18, -92, -45], [7, 126, -62]],
    [[12, -2, 1], [14, 52, -100], [123, 93, 68], [-56, -15, -13], [-49, -113, 62], [-127, 67, -78], [36, -40, -67]],
    [[109, -6, 99], [-79, -5, -39], [-12, -124, 43], [-40, 91, -73], [-41, -116, 75], [9, -26, 106], [24, 118, 61]],
    [[22, 0, -76], [49, 74, 50], [-22, -126, 60], [-118, 77, -89], [-49, -73, 10], [-76, -62, -115], [123, -72, -79]],
    [[26, -91, 98], [72, -38, -25], [-34, 60, -21], [-55, 46, -92], [73, -19, 112], [-61, -32, 95], [53, -117, -40]]],
    [[[-123, 83, -21], [-69, 58, 95], [-101, 1, -34], [57, 110, 9], [64, -47, 20], [-1, 59, -115], [-67, -117, 122]],
    [[8, -3, -6], [-119, 85, 88], [-122, 31, 15], [-30, -2, 97], [25, -3, 59], [49, 6, 84], [16, 30, -2]],
    [[23, 29, 102], [-64, -35, 13], [-41, 44, 83], [-79, -113, 125], [2, 63, 66], [116, -119, -53], [123, -14, -26]],
    [[-61, -122, -116], [121, -123, -92], [-65, -55, 92], [-45, -86, -27], [48, -13, -64], [-97, -111, -2], [-78, 22, 45]],
    [[-30, 0, -113], [13, -82, -12], [-100, -58, -21], [-3, -120, 108], [-20, -76, -77], [59, -16, -63], [-13, -78, -86]],
    [[-45, 118, -104], [12, 111, -10], [-34, 15, -83], [50, -127, 17], [-112, -122, -73], [56, -21, -20], [26, -110, 123]],
    [[-4, 100, 65], [-66, -50, 28], [87, 107, -3], [-102, 126, 90], [55, -27, -93], [72, -75, -45], [94, 32, -51]]],
    [[[2, 29, -101], [-58, 66, 33], [82, 60, -4], [-51, -29, -76], [114, -120, -32], [-110, 97, 39], [-21, 74, -32]],
    [[-9, -35, 66], [-112, 12, -57], [121, -69, -26], [-112, 0, 11], [64, -15, -64], [-121, 106, -88], [70, 107, -45]],
    [[-93, 49, -32], [-118, 115, 104], [-99, 58, -23], [-111, 77, 90], [-123, -101, -110], [117, 110, 86], [47, -104, -61]],
    [[4, -5, -101], [-64, 51, 100], [-100, 115, -47], [-109, 106, 6], [42, -81, 104], [-24, -33, 62], [65, 54, -68]],
    [[-79, 17, -43], [-119, -19, 70], [-29, -22, 46], [120, 74, -90], [-42, 10, -15], [-69, -110, 38], [-34, -46, 114]],
    [[84, 1, 104], [15, 107, 27], [-37, 17, 50], [78, 120, -61], [-101, -47, 20], [99, 105, 0], [-116, 117, -69]],
    [[-92, -71, 72], [8, -7, -38], [-7, 55, 97], [115, -94, 61], [4, -33, -64], [-111, -40, -68], [81, 100, -26]]]]> : tensor<4x7x7x3xi8>}> : () -> tensor<4x7x7x3xi8>
  %b1 = "tosa.const"() <{values = dense<[5, -3, 0, 7]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %stem = tosa.conv2d %xq, %w1, %b1, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 3, 1, 3, 1>, stride = array<i64: 2, 2>, precision.layer = "stem"} : (tensor<2x13x11x3xi8>, tensor<4x7x7x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x6x5x4xi32>
  %ym = tosa.mul %y, %scale, %shift : (tensor<2x9x9x5xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x9x9x5xf32>
  %yc = tosa.clamp %ym {max_val = 127.0 : f32, min_val = -127.0 : f32} : (tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  %yq = tosa.cast %yc : (tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xi8>
  %w2 = "tosa.const"() <{values = dense<[[[[-28, 73, -88, -124, -74], [127, -14, 116, -119, 46], [-60, -77, 35, 40, 72]],
    [[-79, 87, -32, -112, -119], [-105, -110, 38, -87, 8], [-81, 64, 86, 86, -65]],
    [[-15, 83, 79, -126, 42], [-113, 34, -112, 20, 110], [-24, 81, -52, -124, 5]]],
    [[[110, 56, -70, -61, -60], [17, 22, 24, -75, 60], [121, -76, -34, -10, 18]],
    [[99, 18, 120, -56, 40], [60, 86, 126, -7, 24], [62, -106, 58, 79, 15]],
    [[43, 77, -3, -110, 39], [29, -61, -18, -50, -96], [4, -20, -110, -54, 22]]],
    [[[-113, -81, -58, -63, 127], [102, -42, 22, -14, -65], [-87, 51, 54, 127, -38]],
    [[101, 108, 76, 80, -43], [26, 21, -21, 22, -14], [-105, -17, 49, 87, 5]],
    [[-123, 6, -31, 61, 44], [-108, 112, -73, 8, 124], [-105, -51, 76, -62, 35]]]]> : tensor<3x3x3x5xi8>}> : () -> tensor<3x3x3x5xi8>
  %b2 = "tosa.const"() <{values = dense<0> : tensor<3xi32>}> : () -> tensor<3xi32>
  %three = tosa.conv2d %yq, %w2, %b2, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x9x9x5xi8>, tensor<3x3x3x5xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x5x5x3xi32>
  return %stem, %three : tensor<2x6x5x4xi32>, tensor<2x5x5x3xi32>
}
