//===- BlasContractions.cpp - contractions the CPU hands to BLAS ----------===//
//
// After bufferization, each batch matmul BLAS takes becomes a call to its
// prec_blas_batch_matmul_* function on strided memrefs; the JIT provides
// the functions (runtime/BlasContractions.cpp).
//
//===----------------------------------------------------------------------===//

#include "lowering/BlasContractions.h"

#include "lowering/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace prec {

#define GEN_PASS_DEF_PRECBLASCONTRACTIONS
#include "lowering/Passes.h.inc"

std::optional<llvm::StringRef> getBlasFunction(linalg::LinalgOp op) {
  auto matmul = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
  if (!matmul || matmul.hasUserDefinedMaps())
    return std::nullopt;
  Type a = getElementTypeOrSelf(matmul.getInputs()[0].getType());
  Type b = getElementTypeOrSelf(matmul.getInputs()[1].getType());
  Type c = getElementTypeOrSelf(matmul.getOutputs()[0].getType());
  if (!c.isF32() || a != b)
    return std::nullopt;
  if (a.isF32())
    return llvm::StringRef(kBlasBatchMatmulF32);
  if (a.isF16())
    return llvm::StringRef(kBlasBatchMatmulF16);
  if (a.isBF16())
    return llvm::StringRef(kBlasBatchMatmulBF16);
  return std::nullopt;
}

namespace {

/// A rank-3 memref of `element` with any sizes, strides and offset: one
/// signature serves every call.
MemRefType getAnyStridedType(Type element) {
  int64_t dynamic = ShapedType::kDynamic;
  return MemRefType::get({dynamic, dynamic, dynamic}, element,
                         StridedLayoutAttr::get(element.getContext(), dynamic,
                                                {dynamic, dynamic, dynamic}));
}

/// The declaration of `name` taking `operands`' element types, with the C
/// interface the runtime implements.
func::FuncOp declare(ModuleOp module, llvm::StringRef name,
                     ValueRange operands) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  SmallVector<Type> types;
  for (Value operand : operands)
    types.push_back(getAnyStridedType(getElementTypeOrSelf(operand.getType())));
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto function =
      func::FuncOp::create(builder, module.getLoc(), name,
                           builder.getFunctionType(types, TypeRange{}));
  function.setPrivate();
  function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
  return function;
}

class BlasContractionsPass
    : public impl::PrecBlasContractionsBase<BlasContractionsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::LinalgOp, llvm::StringRef>> calls;
    module.walk([&](linalg::LinalgOp op) {
      if (std::optional<llvm::StringRef> name = getBlasFunction(op);
          name && op.hasPureBufferSemantics())
        calls.emplace_back(op, *name);
    });
    for (auto [op, name] : calls) {
      func::FuncOp function = declare(module, name, op->getOperands());
      OpBuilder builder(op);
      SmallVector<Value> operands;
      for (Value operand : op->getOperands())
        operands.push_back(memref::CastOp::create(
            builder, op.getLoc(),
            getAnyStridedType(getElementTypeOrSelf(operand.getType())),
            operand));
      func::CallOp::create(builder, op.getLoc(), function, operands);
      op->erase();
    }
  }
};

} // namespace

} // namespace prec
