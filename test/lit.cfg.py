# lit configuration for prec's FileCheck tests.
import os

import lit.formats

config.name = "prec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.prec_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

# prec's tools first, then FileCheck, not and count from LLVM 22.
config.environment["PATH"] = os.pathsep.join(
    [config.prec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
config.substitutions.append(("%prec_src", config.prec_src_root))
