"""Runs one function of a model through prec-run, for the numeric tests."""
import subprocess

import numpy as np


def run_function(model, function, inputs, prefix):
    """The results of `function` in `model` on `inputs` (arrays by name), in
    order; the .npz files go to PREFIX.FUNCTION.{in,out}.npz."""
    np.savez(f"{prefix}.{function}.in.npz", **inputs)
    subprocess.run(
        ["prec-run", model, "--function", function,
         "--load-inputs", f"{prefix}.{function}.in.npz",
         "--save-outputs", f"{prefix}.{function}.out.npz"],
        check=True, stdout=subprocess.DEVNULL)
    data = np.load(f"{prefix}.{function}.out.npz")
    return [data[f"result{i}"] for i in range(len(data.files))]
