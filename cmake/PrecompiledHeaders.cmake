# MLIR's and LLVM's headers are most of what one of prec's files takes to
# compile. Built with clang, the targets built on MLIR share one
# precompiled header of the headers most of them include, compiled once a
# build by PrecMlirHeaders (clang++-22 with the sanitizers: passes/Quantize.cpp
# 20.1 -> 11.8 s, codegen/CopyKernels.cpp 15.2 -> 9.0 s; a file that includes
# little of MLIR pays ~1.5 s). gcc's precompiled header is loaded whole (494
# MB against clang's 75): the heaviest files gained ~5 s and the lightest
# lost as much, so gcc builds go without.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  function(prec_use_mlir_headers)
  endfunction()
  return()
endif()

add_library(PrecMlirHeaders OBJECT ${CMAKE_CURRENT_LIST_DIR}/PrecMlirHeaders.cpp)
target_precompile_headers(PrecMlirHeaders PRIVATE
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/Math/IR/Math.h>
  <mlir/Dialect/Tosa/IR/TosaOps.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Pass/Pass.h>
  <llvm/ADT/STLExtras.h>
  <llvm/Support/FormatVariadic.h>
  <llvm/Support/raw_ostream.h>)

# Compiles the targets named with that header included first.
function(prec_use_mlir_headers)
  foreach(target ${ARGN})
    target_precompile_headers(${target} REUSE_FROM PrecMlirHeaders)
  endforeach()
endfunction()
