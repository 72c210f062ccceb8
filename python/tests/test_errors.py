"""Bad models, options and inputs raise prec.Error with prec's diagnostics;
the interpreter goes on."""
import os
import shutil
import tempfile
import unittest

import numpy as np

import prec
from common import example, model


class BadModels(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.directory)

    def write(self, name, content):
        path = os.path.join(self.directory, name)
        with open(path, "wb" if isinstance(content, bytes) else "w") as file:
            file.write(content)
        return path

    def test_malformed_mlir_is_located(self):
        path = self.write("bad.mlir", "func.func @main(%x: tensor<2xf32>) {\n"
                                      "  %0 = tosa.bogus %x\n}\n")
        with self.assertRaises(prec.Error) as caught:
            prec.compile(path)
        errors = [d for d in caught.exception.diagnostics
                  if d.severity == "error"]
        self.assertTrue(errors)
        self.assertIn("bad.mlir:2:", errors[0].location)
        self.assertIn("bad.mlir:2:", str(caught.exception))

    def test_names_that_are_not_utf8(self):
        # A corrupt op type: its bytes reach the message as U+FFFD.
        with open(model("bert-legacy.onnx"), "rb") as file:
            data = file.read()
        corrupt = data.replace(b"\x22\x06MatMul", b"\x22\x06M\xfftMul", 1)
        with self.assertRaises(prec.Error) as caught:
            prec.compile(corrupt)
        self.assertIn("M\ufffdtMul, opset 17): unsupported op type",
                      str(caught.exception))
        self.assertEqual(caught.exception.diagnostics[0].location,
                         "/model/encoder/layer.0/attention/self/query/MatMul")

    def test_mlir_without_main(self):
        path = self.write("other.mlir", "func.func @f() {\n  return\n}\n")
        with self.assertRaisesRegex(prec.Error, "has no function @main"):
            prec.compile(path)

    def test_not_onnx(self):
        with self.assertRaisesRegex(prec.Error, "not an ONNX model"):
            prec.compile(b"\x08\x07garbage")
        with self.assertRaisesRegex(prec.Error, "not an ONNX model"):
            prec.compile(self.write("bad.onnx", b"not a model"))

    def test_missing_file(self):
        with self.assertRaisesRegex(prec.Error, "cannot read '.*missing"):
            prec.compile(os.path.join(self.directory, "missing.onnx"))

    def test_unsupported_model_type(self):
        with self.assertRaisesRegex(prec.Error, "cannot compile a list"):
            prec.compile([1, 2])

    def test_bad_input_shape_option(self):
        with self.assertRaisesRegex(prec.Error, "input_shapes applies to ONNX"):
            prec.compile(example("needs_constraints.mlir"),
                         input_shapes={"x": (1, 2, 2)})


class BadOptions(unittest.TestCase):
    def test_unknown_precision_names_the_op_and_choices(self):
        with self.assertRaises(prec.Error) as caught:
            prec.compile(example("needs_constraints.mlir"),
                         enabled_precisions=("f17",))
        self.assertIn("unknown precision 'f17'", str(caught.exception))
        self.assertTrue(any(d.severity == "error"
                            for d in caught.exception.diagnostics))

    def test_bad_enumerations(self):
        for option in ({"typing": "loose"}, {"constraints": "maybe"},
                       {"binding_layout": "nwhc"}):
            with self.assertRaisesRegex(prec.Error, "bad .* '"):
                prec.compile(example("needs_constraints.mlir"), **option)
        with self.assertRaisesRegex(prec.Error, "prec has no precision"):
            prec.compile(example("needs_constraints.mlir"),
                         enabled_precisions=(3.5,))

    def test_bad_target(self):
        with self.assertRaisesRegex(prec.Error, "sm_999"):
            prec.compile(example("needs_constraints.mlir"), target="sm_999")

    def test_int8_without_calibration_names_the_layer(self):
        with self.assertRaises(prec.Error) as caught:
            prec.compile(example("mlp_int8.mlir"))
        self.assertIn("has no range", str(caught.exception))
        self.assertEqual(caught.exception.diagnostics[0].location, "fc1")

    def test_stale_and_corrupt_calibrations(self):
        data = [{"x": np.ones((16, 32), np.float32)}]
        calibration = prec.calibrate(example("mlp_int8.mlir"), data)
        with self.assertRaisesRegex(prec.Error, "another model|fingerprint"):
            prec.compile(example("cnn_int8.mlir"), calibration=calibration)
        with self.assertRaisesRegex(prec.Error, "bad calibration"):
            prec.compile(example("mlp_int8.mlir"), calibration='{"x": 1}')
        with self.assertRaisesRegex(prec.Error, "no such file"):
            prec.compile(example("mlp_int8.mlir"),
                         calibration="/nonexistent/calibration.json")

    def test_bad_plan(self):
        with self.assertRaisesRegex(prec.Error, "bad plan"):
            prec.compile(example("needs_constraints.mlir"),
                         plan={"version": 1, "ops": [{"name": "Add"}]})

    def test_bad_calibration_data(self):
        model_path = example("mlp_int8.mlir")
        with self.assertRaisesRegex(prec.Error, "no batches"):
            prec.calibrate(model_path, [])
        with self.assertRaisesRegex(prec.Error, "has shape 16x3"):
            prec.calibrate(model_path, [{"x": np.ones((16, 3), np.float32)}])
        with self.assertRaisesRegex(prec.Error, "no array for input 'x'"):
            prec.calibrate(model_path, [{"y": np.ones((16, 32)),
                                         "z": np.ones((16, 32))}])
        with self.assertRaisesRegex(prec.Error, "holds 2 arrays"):
            prec.calibrate(model_path, [(np.ones((16, 32)),) * 2])
        with self.assertRaisesRegex(prec.Error, "unknown calibration"):
            prec.calibrate(model_path, [np.ones((16, 32))], algorithm="kl")
        with self.assertRaisesRegex(prec.Error, "percentile"):
            prec.calibrate(model_path, [np.ones((16, 32))],
                           algorithm="percentile", percentile=0)
        with self.assertRaisesRegex(prec.Error, "element type"):
            prec.calibrate(model_path, [np.ones((16, 32), np.complex64)])


class BadRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.program = prec.compile(example("needs_constraints.mlir"),
                                   val_ranges={"x": (1, 2)})

    def test_missing_unknown_and_misshapen_inputs(self):
        with self.assertRaisesRegex(prec.Error, "input 'x' is missing"):
            self.program.run()
        with self.assertRaisesRegex(prec.Error, "no input 'y'"):
            self.program.run(x=np.ones((1, 2, 2)), y=np.ones(1))
        with self.assertRaisesRegex(prec.Error,
                                    "has shape 2x2, but the program takes "
                                    "1x2x2"):
            self.program.run(x=np.ones((2, 2)))
        with self.assertRaisesRegex(prec.Error, "2 inputs given"):
            self.program.run(np.ones((1, 2, 2)), np.ones((1, 2, 2)))
        with self.assertRaisesRegex(prec.Error, "element type <U4"):
            self.program.run(x="text")
        # The program still runs after the errors.
        out = self.program.run(x=np.full((1, 2, 2), 1.5))["result0"]
        np.testing.assert_array_equal(out, np.full((1, 2, 2), 1.5))

    def test_engine_options(self):
        directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, directory)
        with self.assertRaisesRegex(prec.Error, "must be an identifier"):
            self.program.build_engine(directory, "3d-net")
        with self.assertRaisesRegex(prec.Error, "nvcc not found.*\n.*-arch="):
            self.program.build_engine(directory, "flip",
                                      nvcc=os.path.join(directory, "none"))
        cpu = prec.compile(example("needs_constraints.mlir"), target="cpu")
        with self.assertRaisesRegex(prec.Error, "needs a GPU target"):
            cpu.build_engine(directory, "flip")

    def test_debug_and_compare_errors(self):
        with self.assertRaisesRegex(prec.Error, "unknown mode"):
            prec.debug_precision(example("needs_constraints.mlir"),
                                 mode="random")
        with self.assertRaisesRegex(prec.Error, "unknown constraints"):
            prec.debug_precision(example("needs_constraints.mlir"),
                                 constraints="maybe")
        with self.assertRaisesRegex(prec.Error, "unknown check_error_stat"):
            prec.compare(np.ones(2), np.ones(2), check_error_stat="mode")
        with self.assertRaisesRegex(prec.Error, "shape"):
            prec.compare(np.ones(2), np.ones(3))
        with self.assertRaisesRegex(prec.Error, "no actual output for b"):
            prec.compare({"a": np.ones(1)}, {"a": np.ones(1), "b": np.ones(1)})


if __name__ == "__main__":
    unittest.main()
