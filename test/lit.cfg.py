# lit configuration for prec's FileCheck tests.
import os
import shutil

import lit.formats

config.name = "prec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.prec_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

# prec's tools first, then FileCheck, not and count from LLVM 22.
config.environment["PATH"] = os.pathsep.join(
    [config.prec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
config.substitutions.append(("%prec_src", config.prec_src_root))
config.substitutions.append(("%prec_bin", config.prec_tools_dir))

# Debian's python3 with numpy (python3-numpy) generates inputs and computes
# independent expected values; it may not be the python3 first on PATH.
config.substitutions.append(("%python", "/usr/bin/python3"))
config.suffixes.append(".test")

# CUDA: engines compile with nvcc where the toolkit is installed; tests that
# need it say REQUIRES: nvcc and show as UNSUPPORTED elsewhere. Sanitized
# builds leave nvcc out: the sanitizers instrument prec, not the CUDA
# compiler, and prec emits the same engines in both builds, which the
# unsanitized suite compiles. nvcc is most of the suite's time.
nvcc = "/usr/local/cuda/bin/nvcc"
if config.prec_sanitize:
    lit_config.note("sanitized build: CUDA engine compile steps are left to the unsanitized suite")
elif os.path.exists(nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
else:
    lit_config.note("nvcc not found at " + nvcc + ": CUDA engine compile tests are skipped")
# A machine with an NVIDIA driver runs engines; one without says so.
if os.path.exists("/dev/nvidiactl"):
    config.available_features.add("gpu")

# Node.js, where there is one, runs the report page's sort.
if shutil.which("node"):
    config.available_features.add("node")

# Graphviz (scripts/setup.sh installs it): report-graph renders with `dot`.
if shutil.which("dot"):
    config.available_features.add("dot")
else:
    lit_config.note("Graphviz's dot not found: report-graph rendering tests are skipped")

# Sanitizer builds (PREC_SANITIZE): LLVM's allocators, inlined into prec's
# instrumented code, poison memory that the uninstrumented libMLIR then
# uses without unpoisoning, a false report; user poisoning is ignored. Any
# other report fails the test.
if config.prec_sanitize:
    config.environment["ASAN_OPTIONS"] = "allow_user_poisoning=0:detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
