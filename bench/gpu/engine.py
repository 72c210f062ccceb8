"""What the GPU scripts here share: building and driving a prec CUDA engine
through its C API, and timing a function on the GPU.

An engine is the .cu that `prec-translate --emit-cuda` writes, with its
.weights and .json beside it. Tensors are torch CUDA tensors, in binding
order (inputs, then outputs), as the manifest lists them.
"""
import ctypes
import json
import os
import subprocess

import torch


def library_flags(manifest):
    """nvcc flags linking the libraries the engine calls. cuDNN comes from
    PyTorch's nvidia-cudnn package when it is installed."""
    flags = []
    for library in manifest.get("libraries", ["cublasLt"]):
        if library == "cudnn":
            try:
                import nvidia.cudnn
                root = list(nvidia.cudnn.__path__)[0]
                flags += [f"-I{root}/include", f"-L{root}/lib",
                          f"-Xlinker=-rpath={root}/lib"]
            except ImportError:
                pass
        flags.append(f"-l{library}")
    return flags


def build_library(cu):
    """Compiles the engine at `cu` into a shared library beside it for
    sm_90a, unless one newer than the .cu is there; returns its path."""
    base = os.path.abspath(cu)[:-3]
    library = base + ".so"
    if os.path.exists(library) and os.path.getmtime(library) >= os.path.getmtime(cu):
        return library
    manifest = json.load(open(base + ".json"))
    subprocess.run(["nvcc", "-O3", "-shared", "-Xcompiler", "-fPIC",
                    "-arch=sm_90a", os.path.abspath(cu), "-o", library]
                   + library_flags(manifest), check=True)
    return library


# Torch types of the manifest's binding dtypes.
DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
          "i8": torch.int8, "i32": torch.int32, "i64": torch.int64,
          "i1": torch.uint8, "f8e4m3": torch.float8_e4m3fn,
          "f8e5m2": torch.float8_e5m2}


class Engine:
    """A prec engine built with nvcc for sm_90a and created from its weights."""

    def __init__(self, cu):
        cu = os.path.abspath(cu)
        self.base = cu[:-3]
        self.stem = os.path.basename(self.base)
        self.manifest = json.load(open(self.base + ".json"))
        self.lib = ctypes.CDLL(build_library(cu))
        self.explain = getattr(self.lib, self.stem + "_status_message")
        self.explain.restype = ctypes.c_char_p
        self.handle = ctypes.c_void_p()
        status = getattr(self.lib, self.stem + "_create")(
            (self.base + ".weights").encode(), ctypes.byref(self.handle))
        assert status == 0, f"{self.stem}_create: {self.message(status)}"

    def message(self, status):
        """The engine's explanation of a status of create, run or set_batch."""
        return f"{status} ({self.explain(status).decode()})"

    def runner(self, tensors, graph=False):
        """A function running the engine on `tensors` on the current stream;
        with `graph`, through run_graph (one CUDA graph launch once
        captured). The pointer array is built once, so that timing it times
        the engine."""
        pointers = (ctypes.c_void_p * len(tensors))(
            *[t.data_ptr() for t in tensors])
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        run = getattr(self.lib, self.stem + ("_run_graph" if graph else "_run"))

        def run_engine():
            status = run(self.handle, pointers, stream)
            assert status == 0, f"{self.stem}_run: {self.message(status)}"
        # The pointers are raw: tensors freed while the runner lives would
        # hand their memory to the next allocation, which the engine would
        # then read.
        run_engine.tensors = list(tensors)
        return run_engine

    def bind(self, inputs):
        """CUDA tensors for every binding in order, inputs from the arrays
        `inputs` holds by binding name, outputs allocated; and the outputs
        by name."""
        tensors, outputs = [], {}
        for binding in self.manifest["bindings"]:
            dtype = DTYPES[binding["dtype"]]
            if binding["input"]:
                tensors.append(torch.from_numpy(inputs[binding["name"]]).to(
                    "cuda", dtype).contiguous())
            else:
                tensors.append(torch.empty(binding["shape"], dtype=dtype,
                                           device="cuda"))
                outputs[binding["name"]] = tensors[-1]
        return tensors, outputs

    def set_batch(self, batch):
        """The batch a dynamic-batch engine runs at next; returns the
        engine's status (non-zero outside its [min, max])."""
        return getattr(self.lib, self.stem + "_set_batch")(self.handle, batch)

    def destroy(self):
        getattr(self.lib, self.stem + "_destroy")(self.handle)


def median_ms(fn, warmup=10, runs=50):
    """Median GPU time of `fn` in milliseconds, after `warmup` untimed runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]
