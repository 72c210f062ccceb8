"""prec's Python API on real models, against independent references
(PyTorch's outputs, numpy)."""
import json
import os
import shutil
import tempfile
import unittest
import warnings

import numpy as np

import prec
from common import example, model


# x @ W + x, the matmul's weights formatted in.
RESIDUAL_BLOCK = """
func.func @main(%x: tensor<1x8x16xf32> loc("x")) -> tensor<1x8x16xf32> {{
  %w = "tosa.const"() <{{values = dense<[[{0}]]> : tensor<1x16x16xf32>}}> : () -> tensor<1x16x16xf32>
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x8x16xf32>, tensor<1x16x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x16xf32> loc("mm")
  %a = tosa.add %m, %x : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32> loc("sum")
  return %a : tensor<1x8x16xf32>
}}
"""


class CompileAndRun(unittest.TestCase):
    def test_onnx_export_matches_pytorch_in_f32_and_f16(self):
        inputs = dict(np.load(model("bert.in.npz")))
        expected = dict(np.load(model("bert-legacy.out.npz")))
        f32 = prec.compile(model("bert-legacy.onnx"), enabled_precisions=())
        f16 = prec.compile(model("bert-legacy.onnx"),
                           enabled_precisions=("f16",))
        self.assertEqual([b.name for b in f32.inputs], list(inputs))
        for program, atol in ((f32, 0.00032), (f16, 0.013)):
            outputs = program.run(**inputs)
            stats = prec.compare(outputs, expected, atol=atol, rtol=0,
                                 check_error_stat="max")
            for name, stat in stats.items():
                self.assertTrue(stat.passed, (name, stat))
        # f16 computes differently from f32: the error is real, not zero.
        f16_error = prec.compare(f16.run(**inputs), expected)
        self.assertGreater(max(s.max_absolute for s in f16_error.values()),
                           1e-5)

    def test_run_takes_inputs_in_order_and_converts_types(self):
        program = prec.compile(example("needs_constraints.mlir"),
                               val_ranges={"x": (1, 2)})
        x = np.random.default_rng(0).uniform(1, 2, (1, 2, 2))  # float64
        by_name = program.run(x=x)["result0"]
        in_order = program.run(x)["result0"]
        self.assertEqual(by_name.dtype, np.float32)
        np.testing.assert_array_equal(by_name, in_order)
        big_endian = program.run(x=x.astype(">f8"))["result0"]
        np.testing.assert_array_equal(by_name, big_endian)
        # MatMul runs in f16: x is rounded to f16 and flipped; Add and Sub
        # stay in f32 over their range, rounding to f32's steps near 65504;
        # the second flip is exact.
        fp16_max = np.float32(65504)
        expected = (x.astype(np.float32).astype(np.float16)
                    .astype(np.float32) + fp16_max) - fp16_max
        np.testing.assert_array_equal(by_name, expected)

    def test_report_lists_each_op_with_its_precisions_and_reason(self):
        program = prec.compile(example("needs_constraints.mlir"),
                               val_ranges={"x": (1, 2)})
        rows = {row.name: row for row in program.report()}
        self.assertEqual(set(rows), {"MatMul", "Add", "Sub", "MatMul_1"})
        self.assertEqual((rows["MatMul"].compute, rows["MatMul"].accumulate,
                          rows["MatMul"].reason), ("f16", "f32", "class_rule"))
        self.assertEqual((rows["Add"].compute, rows["Add"].reason),
                         ("f32", "range"))
        self.assertIn("65504", rows["Add"].detail)
        self.assertEqual(rows["Add"].op, "tosa.add")
        self.assertIn("tosa.matmul", program.mlir())

    def test_layer_precisions_and_strong_typing(self):
        program = prec.compile(example("needs_constraints.mlir"),
                               typing="strong",
                               layer_precisions={"MatMul_1": "bf16"})
        rows = {row.name: row.compute for row in program.report()}
        self.assertEqual(rows, {"MatMul": "f32", "Add": "f32", "Sub": "f32",
                                "MatMul_1": "bf16"})

    def test_unprotected_overflow_then_debug_precision_finds_the_layers(self):
        x = {"x": np.random.default_rng(1).uniform(1, 2, (1, 2, 2))
             .astype(np.float32)}
        # Without the input's range the compiler cannot see Add overflow f16.
        program = prec.compile(example("needs_constraints.mlir"),
                               layer_precisions={"*": "f16"})
        self.assertFalse(np.allclose(program.run(**x)["result0"], x["x"],
                                     atol=1e-2))
        result = prec.debug_precision(example("needs_constraints.mlir"), x,
                                      mode="delta", atol=1e-2, rtol=0,
                                      verify_compile_once=True)
        self.assertTrue(result.passed)
        kept = {layer.name for layer in result.kept}
        self.assertIn("Add", kept)
        self.assertTrue(kept <= {"Add", "Sub"})
        self.assertGreater(result.evaluations, 1)
        self.assertIn("keep in f32", result.log)
        self.assertIn("compile-once runs equal to compiling their plans",
                      result.log)
        per_plan = prec.debug_precision(example("needs_constraints.mlir"), x,
                                        mode="delta", atol=1e-2, rtol=0,
                                        compile_once=False)
        self.assertEqual(per_plan.kept, result.kept)
        self.assertIn("compiled per plan", per_plan.log)
        # The plan reproduces the passing configuration.
        fixed = prec.compile(example("needs_constraints.mlir"),
                             plan=result.plan)
        stats = prec.compare(fixed.run(**x)["result0"], x["x"], atol=1e-2,
                             rtol=0)
        self.assertTrue(stats.passed, stats)
        computes = {r.name: r.compute for r in fixed.report()}
        for name in kept:
            self.assertEqual(computes[name], "f32")

    def test_worst_first_measures_each_layer(self):
        x = {"x": np.full((1, 2, 2), 1.5, np.float32)}
        result = prec.debug_precision(example("needs_constraints.mlir"), x,
                                      mode="worst-first", atol=1e-2, rtol=0)
        self.assertTrue(result.passed)
        self.assertEqual(set(result.introduced),
                         {"MatMul", "Add", "Sub", "MatMul_1"})
        worst = max(result.introduced, key=result.introduced.get)
        self.assertIn(worst, {"Add", "Sub"})

    def test_precision_warning(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prec.compile(example("needs_constraints.mlir"),
                         enabled_precisions=("f16",), target="sm_53",
                         layer_precisions={"MatMul": "bf16"})
        messages = [str(w.message) for w in caught
                    if issubclass(w.category, prec.PrecisionWarning)]
        self.assertTrue(any("bf16" in m for m in messages), messages)


class Calibrate(unittest.TestCase):
    def batches(self, count, seed=0):
        rng = np.random.default_rng(seed)
        return [{"x": rng.uniform(-3, 3, (16, 32)).astype(np.float32)}
                for _ in range(count)]

    def test_minmax_range_is_the_largest_input_and_int8_runs_close(self):
        data = self.batches(4)
        calibration = prec.calibrate(example("mlp_int8.mlir"), data,
                                     algorithm="minmax")
        self.assertEqual(calibration.algorithm, "minmax")
        self.assertEqual(calibration.samples, 64)
        largest = max(np.abs(b["x"]).max() for b in data)
        self.assertAlmostEqual(calibration.tensors["x"].amax, largest,
                               places=5)
        int8 = prec.compile(example("mlp_int8.mlir"),
                            calibration=calibration)
        f32 = prec.reference(example("mlp_int8.mlir"))
        self.assertEqual({r.compute for r in f32.report()}, {"f32"})
        computes = {r.compute for r in int8.report()}
        self.assertIn("i8", computes)
        x = data[0]["x"]
        reference = f32.run(x=x)
        quantized = int8.run(x=x)
        for name, value in reference.items():
            scale = np.abs(value).max()
            error = np.abs(quantized[name] - value).max()
            self.assertLess(error, 0.05 * scale)
            self.assertGreater(error, 0)  # int8 really ran

    def test_quantized_residual_is_read_in_i8(self):
        weights = np.random.default_rng(3).uniform(-0.5, 0.5, (16, 16))
        text = RESIDUAL_BLOCK.format(", ".join(
            "[" + ", ".join(f"{w:.6f}" for w in row) + "]"
            for row in weights.astype(np.float32)))
        directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, directory)
        path = os.path.join(directory, "residual.mlir")
        with open(path, "w") as f:
            f.write(text)
        x = np.random.default_rng(4).uniform(-2, 2, (1, 8, 16)).astype(
            np.float32)
        expected = x @ weights.astype(np.float32) + x
        outputs = {}
        for residuals in (False, True):
            program = prec.compile(
                path, enabled_precisions=("f16", "i8"), constraints="obey",
                layer_precisions={"mm": "i8"}, val_ranges={"x": (-2, 2)},
                quantize_residuals=residuals, target="cpu")
            detail = {r.name: r.detail for r in program.report()}["sum"]
            self.assertEqual("stored in i8" in detail, residuals)
            outputs[residuals] = next(iter(program.run(x=x).values()))
            error = np.abs(outputs[residuals] - expected).max()
            self.assertLess(error, 0.05 * np.abs(expected).max())
        # The residual's own rounding to i8 (steps of 2 / 127) shows.
        difference = np.abs(outputs[True] - outputs[False]).max()
        self.assertGreater(difference, 1e-3)
        self.assertLess(difference, 2 / 127)

    def test_calibration_saves_and_loads(self):
        calibration = prec.calibrate(example("mlp_int8.mlir"),
                                     self.batches(2), algorithm="entropy",
                                     batch_size=32)
        self.assertEqual(calibration.batch_size, 32)
        directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, directory)
        path = os.path.join(directory, "mlp.calibration.json")
        calibration.save(path)
        loaded = prec.Calibration.load(path)
        self.assertEqual(loaded.tensors, calibration.tensors)
        program = prec.compile(example("mlp_int8.mlir"), calibration=path)
        self.assertIn("i8", {r.compute for r in program.report()})

    def test_one_array_and_tuples_feed_a_one_input_model(self):
        arrays = [b["x"] for b in self.batches(2)]
        from_arrays = prec.calibrate(example("mlp_int8.mlir"), arrays,
                                     algorithm="minmax")
        from_tuples = prec.calibrate(example("mlp_int8.mlir"),
                                     [(a,) for a in arrays],
                                     algorithm="minmax")
        self.assertEqual(from_arrays.tensors, from_tuples.tensors)


class Compare(unittest.TestCase):
    def test_statistics(self):
        expected = np.array([1.0, 2.0, 4.0], np.float32)
        actual = np.array([1.0, 2.5, 4.0], np.float32)
        stats = prec.compare(actual, expected, atol=0.1, rtol=0)
        self.assertFalse(stats.passed)
        self.assertEqual(stats.max_absolute, 0.5)
        self.assertEqual(stats.max_relative, 0.25)
        self.assertEqual(stats.failing_elements, 1)
        self.assertEqual(stats.worst_index, (1,))
        self.assertTrue(prec.compare(actual, expected, atol=0.5,
                                     rtol=0).passed)
        mean = prec.compare(actual, expected, atol=0.2, rtol=0,
                            check_error_stat="mean")
        self.assertTrue(mean.passed)
        nan = prec.compare(np.array([np.nan]), np.array([1.0]))
        self.assertEqual(nan.actual_nans, 1)
        self.assertFalse(nan.passed)


class Engine(unittest.TestCase):
    def test_build_engine_without_gpu(self):
        nvcc = shutil.which("nvcc") or (
            "/usr/local/cuda/bin/nvcc"
            if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
        if not nvcc:
            self.skipTest("no nvcc")
        program = prec.compile(example("needs_constraints.mlir"),
                               val_ranges={"x": (1, 2)})
        directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, directory)
        library = program.build_engine(directory, "flip", nvcc=nvcc)
        self.assertEqual(library, os.path.join(directory, "flip.so"))
        self.assertTrue(os.path.exists(library))
        with open(os.path.join(directory, "flip.json")) as file:
            manifest = json.load(file)
        self.assertEqual(manifest["engine"], "flip")
        self.assertEqual([b["name"] for b in manifest["bindings"]],
                         ["x", "result0"])


if __name__ == "__main__":
    unittest.main()
