//===- BlasContractions.cpp - contractions the CPU hands to BLAS ----------===//
//
// After bufferization, each batch matmul or convolution BLAS takes becomes a
// call to its prec_blas_* function on strided memrefs; the JIT provides the
// functions (runtime/BlasContractions.cpp).
//
//===----------------------------------------------------------------------===//

#include "lowering/BlasContractions.h"

#include "lowering/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECBLASCONTRACTIONS
#include "lowering/Passes.h.inc"

std::optional<std::string> getBlasFunction(linalg::LinalgOp op) {
  llvm::StringRef family;
  if (auto matmul = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
      matmul && !matmul.hasUserDefinedMaps())
    family = kBlasBatchMatmul;
  else if (isa<linalg::Conv2DNhwcFhwcOp>(op.getOperation()))
    family = kBlasConv2d;
  else
    return std::nullopt;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type b = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type c = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!c.isF32() || a != b || !(a.isF32() || a.isF16() || a.isBF16()))
    return std::nullopt;
  std::string type;
  llvm::raw_string_ostream(type) << a;
  return (family + "_" + type).str();
}

namespace {

/// A memref of `element` with `rank` dimensions of any size, strides and
/// offset: one signature serves every call.
MemRefType getAnyStridedType(Type element, int64_t rank) {
  int64_t dynamic = ShapedType::kDynamic;
  SmallVector<int64_t> unknown(rank, dynamic);
  return MemRefType::get(
      unknown, element,
      StridedLayoutAttr::get(element.getContext(), dynamic, unknown));
}

/// A convolution's strides and dilations, as the i64 arguments its call
/// takes after the memrefs; none for a matmul.
SmallVector<int64_t> getWindowArguments(linalg::LinalgOp op) {
  auto conv = dyn_cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation());
  if (!conv)
    return {};
  SmallVector<int64_t> arguments(conv.getStrides().getValues<int64_t>());
  llvm::append_range(arguments, conv.getDilations().getValues<int64_t>());
  return arguments;
}

/// The call of `name` that replaces `op`, declared (with the C interface
/// the runtime implements) on first use.
void replaceWithCall(linalg::LinalgOp op, llvm::StringRef name,
                     ModuleOp module) {
  OpBuilder builder(op);
  SmallVector<Value> arguments;
  for (Value operand : op->getOperands()) {
    auto type = cast<MemRefType>(operand.getType());
    arguments.push_back(memref::CastOp::create(
        builder, op.getLoc(),
        getAnyStridedType(type.getElementType(), type.getRank()), operand));
  }
  for (int64_t value : getWindowArguments(op))
    arguments.push_back(arith::ConstantIntOp::create(builder, op.getLoc(),
                                                     value, /*width=*/64));
  auto function = module.lookupSymbol<func::FuncOp>(name);
  if (!function) {
    OpBuilder atTop = OpBuilder::atBlockBegin(module.getBody());
    function = func::FuncOp::create(
        atTop, module.getLoc(), name,
        atTop.getFunctionType(ValueRange(arguments).getTypes(), TypeRange{}));
    function.setPrivate();
    function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      atTop.getUnitAttr());
  }
  func::CallOp::create(builder, op.getLoc(), function, arguments);
  op->erase();
}

class BlasContractionsPass
    : public impl::PrecBlasContractionsBase<BlasContractionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::LinalgOp, std::string>> calls;
    module.walk([&](linalg::LinalgOp op) {
      if (std::optional<std::string> name = getBlasFunction(op);
          name && op.hasPureBufferSemantics())
        calls.emplace_back(op, *name);
    });
    for (auto &[op, name] : calls)
      replaceWithCall(op, name, module);
  }
};

} // namespace

} // namespace prec
