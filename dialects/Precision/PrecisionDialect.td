//===- PrecisionDialect.td - the precision dialect ---------*- tablegen -*-===//

#ifndef PREC_PRECISION_DIALECT_TD
#define PREC_PRECISION_DIALECT_TD

include "mlir/IR/OpBase.td"

def Precision_Dialect : Dialect {
  let name = "precision";
  let cppNamespace = "::prec::precision";
  let summary = "Per-subgraph precision control for mixed-precision inference";
  let description = [{
    The `precision` dialect says in which element types parts of a tensor
    program compute, accumulate and store, and how strictly.

    * `precision.region` pins the precision of the ops it wraps (TRTorch's
      `start_setting_precision` / `stop_setting_precision`). Its operands are
      passed in explicitly and the body is isolated from above:

      ```mlir
      %r = precision.region f16 obey accumulate f32
             (%a = %x : tensor<4x8xf32>) -> tensor<4x8xf32> {
        %y = tosa.add %a, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
        precision.yield %y : tensor<4x8xf32>
      }
      ```

      The clauses after the precision are optional and come in this order:
      the constraint mode (`obey`, `prefer` or `none`; absent means the
      policy's default), `accumulate <type>`, `output <type>` (storage type),
      and for i8/f8 regions `input_range [lo, hi]` and
      `output_range [lo, hi]` (TRTorch's `start_setting_precision_with_dr`).

    * `precision.cast` is a tensor cast the user asked for (ONNX `Cast`,
      `aten::to`); every pass keeps it.

    * `#precision.policy<...>`, attached to the module as `precision.policy`,
      holds the module-wide settings: typing mode, enabled precisions,
      default constraint mode and target.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the module attribute that holds the `#precision.policy`.
    static constexpr ::llvm::StringLiteral getPolicyAttrName() {
      return ::llvm::StringLiteral("precision.policy");
    }
    /// Op attribute: the user's `#precision.request` for the op.
    static constexpr ::llvm::StringLiteral getRequestAttrName() {
      return ::llvm::StringLiteral("precision.request");
    }
    /// Op attribute: the `#precision.assignment` chosen for the op.
    static constexpr ::llvm::StringLiteral getAssignmentAttrName() {
      return ::llvm::StringLiteral("precision.assigned");
    }
    /// Op or function-argument attribute: `array<f64: lo, hi>`, the range of
    /// the (first) result's or the argument's values.
    static constexpr ::llvm::StringLiteral getRangeAttrName() {
      return ::llvm::StringLiteral("precision.range");
    }
    /// Unit attribute beside an op's `precision.range`: the range bounds the
    /// values, but no input is known to reach its largest magnitude (a sum
    /// of products of values that vary together: interval arithmetic's worst
    /// case, which real data stays far from). Its possible overflow is no
    /// reason to promote the op; a certain one still is.
    static constexpr ::llvm::StringLiteral getLooseRangeAttrName() {
      return ::llvm::StringLiteral("precision.range_loose");
    }
    /// Function argument or result attribute: the binding's name (an ONNX
    /// input or output name), which survives printing without locations.
    static constexpr ::llvm::StringLiteral getNameAttrName() {
      return ::llvm::StringLiteral("precision.name");
    }
    /// Op attribute: the op's layer name (an ONNX node name), recorded from
    /// its location so that it survives printing without locations.
    static constexpr ::llvm::StringLiteral getLayerAttrName() {
      return ::llvm::StringLiteral("precision.layer");
    }
    /// Op attribute: the name of the op's result in the source model (an
    /// ONNX tensor name), which calibrations and TensorRT caches use.
    static constexpr ::llvm::StringLiteral getTensorAttrName() {
      return ::llvm::StringLiteral("precision.tensor");
    }
    /// Unit attribute on casts the compiler inserted between ops.
    static constexpr ::llvm::StringLiteral getInsertedCastAttrName() {
      return ::llvm::StringLiteral("precision.inserted_cast");
    }
    /// Unit attribute on the conversion of an op's result to its storage
    /// type (part of the op, like a GEMM epilogue, not a boundary cast).
    static constexpr ::llvm::StringLiteral getEpilogueAttrName() {
      return ::llvm::StringLiteral("precision.epilogue");
    }
    /// Type attribute on a matmul materialized on f32 values that
    /// prec-quantize rewrites to this i8 or f8 type with scales.
    static constexpr ::llvm::StringLiteral getQuantizeAttrName() {
      return ::llvm::StringLiteral("precision.quantize");
    }
    /// [min, max] of a quantized matmul's A operand, from its region's
    /// input_range or a calibration.
    static constexpr ::llvm::StringLiteral getInputRangeAttrName() {
      return ::llvm::StringLiteral("precision.input_range");
    }
    /// [min, max] of a quantized matmul's B operand where B is an activation
    /// (attention's keys and values), from its region's input_range or a
    /// calibration; quantized per tensor at run time.
    static constexpr ::llvm::StringLiteral getBInputRangeAttrName() {
      return ::llvm::StringLiteral("precision.b_input_range");
    }
    /// [min, max] the calibration data reached in an op's result, which
    /// range analysis widens by its margin.
    static constexpr ::llvm::StringLiteral getObservedRangeAttrName() {
      return ::llvm::StringLiteral("precision.observed_range");
    }

  private:
    void registerAttributes();

  public:
  }];
}

class Precision_Op<string mnemonic, list<Trait> traits = []>
    : Op<Precision_Dialect, mnemonic, traits>;

#endif // PREC_PRECISION_DIALECT_TD
