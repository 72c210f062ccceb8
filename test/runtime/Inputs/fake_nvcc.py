"""A stand-in for nvcc in device-gpu.test, so that prec's checks of an
engine's library run without CUDA: it writes the library named by -o as
the FAKE_NVCC environment variable says:

- junk: a file that is no shared library;
- empty: a shared library without the engine's functions;
- few: the engine's functions, with one f32[1] input binding;
- shapes: the engine's functions, with FAKE_NVCC_BINDINGS inputs of f32[1].
"""
import os
import subprocess
import sys

ENGINE = r"""
#include <stddef.h>
static const long long shape[1] = {1};
int %(s)s_host_create(const char *w, const size_t *b, void **r) { return 1; }
int %(s)s_host_run(void *r, const void *const *i, void *const *o) { return 1; }
void %(s)s_host_destroy(void *r) {}
const char *%(s)s_status_message(int status) { return "fake"; }
int %(s)s_num_bindings(void) { return %(bindings)d; }
int %(s)s_binding_is_input(int i) { return 1; }
const char *%(s)s_binding_dtype(int i) { return "f32"; }
int %(s)s_binding_rank(int i) { return 1; }
const long long *%(s)s_binding_shape(int i) { return shape; }
"""

arguments = sys.argv[1:]
output = arguments[arguments.index("-o") + 1]
stem = next(a for a in arguments if a.startswith("-DPREC_ENGINE="))
stem = stem.split("=", 1)[1]
mode = os.environ["FAKE_NVCC"]
if mode == "junk":
    with open(output, "w") as f:
        f.write("not a shared library\n")
    sys.exit(0)
bindings = 1 if mode == "few" else int(os.environ.get("FAKE_NVCC_BINDINGS", 0))
source = "" if mode == "empty" else ENGINE % {"s": stem, "bindings": bindings}
subprocess.run(["cc", "-shared", "-fPIC", "-x", "c", "-", "-o", output],
               input=source, text=True, check=True)
