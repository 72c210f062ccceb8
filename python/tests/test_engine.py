"""Engines built from Python and loaded through prec.Engine. Without a GPU
the engine's create reports that there is no device; with one (the GPU
machine runs bench/gpu/python_engine.py) it runs."""
import json
import os
import shutil
import tempfile
import unittest

import numpy as np

import prec
from common import example

try:
    import torch
except ImportError:
    torch = None


def find_nvcc():
    found = shutil.which("nvcc")
    if found:
        return found
    return ("/usr/local/cuda/bin/nvcc"
            if os.path.exists("/usr/local/cuda/bin/nvcc") else None)


@unittest.skipIf(torch is None, "torch is not installed")
@unittest.skipIf(find_nvcc() is None, "no nvcc")
class Engines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp()
        cls.program = prec.compile(example("needs_constraints.mlir"),
                                   val_ranges={"x": (1, 2)})
        cls.library = cls.program.build_engine(cls.directory, "flip",
                                               nvcc=find_nvcc())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory)

    def test_engine_loads_or_says_why_not(self):
        if torch.cuda.is_available():
            engine = prec.Engine(self.library)
            x = np.full((1, 2, 2), 1.5, np.float32)
            out = engine(torch.from_numpy(x).cuda())["result0"]
            np.testing.assert_array_equal(out.cpu().numpy(),
                                          self.program.run(x=x)["result0"])
            return
        with self.assertRaises(prec.Error) as caught:
            prec.Engine(self.library)
        # create reports no device, or the CUDA libraries are absent.
        self.assertRegex(str(caught.exception),
                         "flip_create: .*(CUDA|device|driver)|cannot load")

    def test_dynamic_batch_engine_from_a_module(self):
        from test_torch import Block
        program = prec.compile(Block().eval(), example_inputs=torch.randn(2, 32),
                               batch=(1, 2, 8), input_names=["x"])
        library = program.build_engine(self.directory, "block",
                                       nvcc=find_nvcc())
        with open(os.path.splitext(library)[0] + ".json") as file:
            manifest = json.load(file)
        self.assertEqual(manifest["batch"], {"min": 1, "opt": 2, "max": 8})
        self.assertEqual([(b["name"], b["shape"], b["batched"])
                          for b in manifest["bindings"] if b["input"]],
                         [("x", [8, 32], True)])

    def test_program_engine_and_module(self):
        if torch.cuda.is_available():
            self.skipTest("bench/gpu/python_engine.py runs these on a GPU")
        # Built into a temporary directory and loaded: create says why not.
        for make in (self.program.engine, self.program.module):
            with self.assertRaisesRegex(prec.EngineError,
                                        "engine_create: no CUDA device"):
                make(nvcc=find_nvcc())

    def test_missing_manifest(self):
        with self.assertRaisesRegex(prec.Error, "cannot read the engine's "
                                                "manifest"):
            prec.Engine(os.path.join(self.directory, "absent.so"))


if __name__ == "__main__":
    unittest.main()
