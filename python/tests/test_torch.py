"""The torch.nn.Module path: export through torch.onnx.export, compile,
run on torch tensors, and calibrate from a DataLoader."""
import unittest

import numpy as np

import prec

try:
    import torch
except ImportError:  # the setup script installs python3-torch
    torch = None


class Block(torch.nn.Module if torch else object):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(32)
        self.up = torch.nn.Linear(32, 64)
        self.down = torch.nn.Linear(64, 16)

    def forward(self, x):
        return self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


@unittest.skipIf(torch is None, "torch is not installed")
class TorchModules(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.block = Block().eval()
        self.x = torch.randn(4, 32)
        with torch.no_grad():
            self.expected = self.block(self.x).numpy()

    def test_module_compiles_and_matches_pytorch(self):
        f32 = prec.compile(self.block, example_inputs=(self.x,),
                           enabled_precisions=(), input_names=["x"],
                           output_names=["y"])
        self.assertEqual([b.name for b in f32.inputs], ["x"])
        y = f32.run(x=self.x)["y"]
        np.testing.assert_allclose(y, self.expected, atol=1e-5, rtol=0)
        f16 = prec.compile(self.block, example_inputs=self.x,
                           enabled_precisions=(torch.half,),
                           input_names=["x"], output_names=["y"])
        y16 = f16.run(self.x)["y"]
        error = np.abs(y16 - self.expected).max()
        self.assertLess(error, 0.01 * np.abs(self.expected).max())
        self.assertGreater(error, 0)
        computes = {row.op: row.compute for row in f16.report()}
        self.assertEqual(computes["tosa.matmul"], "f16")

    def test_calibrate_from_a_dataloader(self):
        dataset = torch.utils.data.TensorDataset(torch.randn(64, 32))
        loader = torch.utils.data.DataLoader(dataset, batch_size=16)
        calibration = prec.calibrate(self.block, loader,
                                     example_inputs=(self.x,),
                                     algorithm="minmax")
        self.assertEqual(calibration.samples, 64)
        # minmax: the largest |value| the first matmul reads, LayerNorm's.
        with torch.no_grad():
            normalized = self.block.norm(dataset.tensors[0])
        self.assertAlmostEqual(
            calibration.tensors["/norm/LayerNormalization_output_0"].amax,
            float(normalized.abs().max()), places=4)

    def test_dynamic_batch_exports_at_the_largest(self):
        program = prec.compile(self.block, example_inputs=self.x[:2],
                               batch=(1, 2, 8), input_names=["x"],
                               output_names=["y"])
        self.assertEqual(program.inputs[0].shape, (8, 32))
        x = torch.randn(8, 32)
        with torch.no_grad():
            expected = self.block(x).numpy()
        y = program.run(x=x)["y"]
        self.assertLess(np.abs(y - expected).max(),
                        0.01 * np.abs(expected).max())
        with self.assertRaisesRegex(prec.Error, "is not \\(min, opt, max\\)"):
            prec.compile(self.block, example_inputs=self.x, batch=(1, 2))

    def test_module_without_example_inputs(self):
        with self.assertRaisesRegex(prec.Error, "needs example_inputs"):
            prec.compile(self.block)


if __name__ == "__main__":
    unittest.main()
