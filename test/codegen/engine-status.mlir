// An engine's create refuses weights files it cannot use, each with its own
// status and a message through <engine>_status_message: a missing file, a
// file that is not a weights file, a truncated one, a corrupt one (a flipped
// byte, or a byte appended) and the weights of another engine.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t/other
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=f16 val-range=x:[1,2] target=sm_90" -o %t/model.mlir 2>/dev/null
// RUN: prec-translate --emit-cuda %t/model.mlir --output-dir=%t --engine-name=needs_constraints
// RUN: prec-opt %prec_src/examples/needs_constraints.mlir --prec-legalize="enabled=bf16 val-range=x:[1,2] target=sm_90" -o %t/other/model.mlir 2>/dev/null
// RUN: prec-translate --emit-cuda %t/other/model.mlir --output-dir=%t/other --engine-name=needs_constraints
// RUN: %nvcc -std=c++17 -arch=sm_90a -DENGINE=needs_constraints -include %t/needs_constraints.h -I%t %t/needs_constraints.cu %prec_src/bench/gpu/engine_status.cu -lcublasLt -o %t/engine_status
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); open(sys.argv[2], 'wb').write(d[:-7]); open(sys.argv[3], 'wb').write(d[:-1] + bytes([d[-1] ^ 1])); open(sys.argv[4], 'wb').write(d + b'x'); open(sys.argv[5], 'wb').write(b'PRECWTS1' + d[8:])" %t/needs_constraints.weights %t/truncated.weights %t/flipped.weights %t/appended.weights %t/old.weights
// RUN: %t/engine_status files %t/missing.weights %t/model.mlir %t/old.weights %t/truncated.weights %t/flipped.weights %t/appended.weights %t/other/needs_constraints.weights | FileCheck %s

// CHECK: missing.weights: 30001 cannot open the weights file
// CHECK-NEXT: model.mlir: 30002 not a prec weights file (no PRECWTS2 header)
// CHECK-NEXT: old.weights: 30002 not a prec weights file (no PRECWTS2 header)
// CHECK-NEXT: truncated.weights: 30003 the weights file is truncated
// CHECK-NEXT: flipped.weights: 30006 the weights file is corrupt (size or checksum differs)
// CHECK-NEXT: appended.weights: 30006 the weights file is corrupt (size or checksum differs)
// CHECK-NEXT: needs_constraints.weights: 30005 the weights file belongs to another engine
