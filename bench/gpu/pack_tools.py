"""Packs prec-debug, prec-calibrate and prec-translate for the GPU machine.

That machine has CUDA and nvcc but no MLIR, so the tools travel as one
executable linked against MLIR's, LLVM's and OpenBLAS's static archives,
stripped and compressed with xz, beside the ONNX and protobuf libraries
prec-translate loads (it needs glibc 2.34 and the C++ runtime of GCC 12
or later, as Ubuntu 24.04 has):

    /usr/bin/python3 bench/gpu/pack_tools.py BUILD_DIR OUT_DIR

There: `xz -d OUT_DIR/prec-tools.xz`, then `OUT_DIR/prec-tools TOOL ARGS...`
with TOOL one of prec-debug, prec-calibrate and prec-translate, or a link
named as the tool (`ln -s prec-tools OUT_DIR/prec-debug`), which the
scripts of bench/debug take as their BIN_DIR. Each tool's main is renamed
in a copy of its object file and called by a small dispatcher, so the
binary holds the libraries once.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

TOOLS = {"prec-debug": "prec_debug_main",
         "prec-calibrate": "prec_calibrate_main",
         "prec-translate": "prec_translate_main"}

DISPATCHER = """
#include <cstdio>
#include <cstring>
#include <libgen.h>
%(declarations)s

int main(int argc, char **argv) {
  struct { const char *name; int (*main)(int, char **); } tools[] = {
%(entries)s
  };
  const char *called = basename(argv[0]);
  for (auto &tool : tools) {
    if (!std::strcmp(called, tool.name))
      return tool.main(argc, argv);
    if (argc > 1 && !std::strcmp(argv[1], tool.name)) {
      argv[1] = argv[0];
      return tool.main(argc - 1, argv + 1);
    }
  }
  std::fprintf(stderr, "usage: %%s TOOL ARGS... (TOOL: %(names)s)\\n",
               argv[0]);
  return 2;
}
"""

LLVM_LIB = "/usr/lib/llvm-22/lib"
MULTIARCH = "/usr/lib/x86_64-linux-gnu"


def link_command(build, tool):
    """The words of the build's link command for `tool`."""
    text = subprocess.run(["ninja", "-C", build, "-t", "commands",
                           "bin/" + tool], check=True, capture_output=True,
                          text=True).stdout.strip().splitlines()[-1]
    text = text.removeprefix(": && ").removesuffix(" && :")
    return shlex.split(text)


def static_archives():
    """MLIR's and LLVM's archives, less the tools' own mains and C API."""
    archives = sorted(glob.glob(LLVM_LIB + "/libMLIR*.a") +
                      glob.glob(LLVM_LIB + "/libLLVM*.a"))
    return [a for a in archives
            if not any(k in a for k in ("MlirOptMain", "TableGen", "CAPI"))]


def pack(build, output, work):
    """Links the tools in `work` and writes them to `output`."""
    objects, libraries, shared = [], [], []
    for tool, symbol in TOOLS.items():
        command = link_command(build, tool)
        source = next(w for w in command if w.endswith(tool + ".cpp.o"))
        renamed = os.path.join(work, symbol + ".o")
        subprocess.run(["objcopy", "--redefine-sym", "main=" + symbol,
                        os.path.join(build, source), renamed], check=True)
        objects.append(renamed)
        libraries += [w for w in command if w.startswith("lib/")]
        shared += [w for w in command
                   if ".so" in w and ("onnx" in w or "protobuf" in w)]
    with open(os.path.join(work, "main.cpp"), "w") as f:
        f.write(DISPATCHER % {
            "declarations": "\n".join("extern \"C\" int %s(int, char **);" % s
                                      for s in TOOLS.values()),
            "names": ", ".join(TOOLS),
            "entries": "\n".join('    {"%s", %s},' % item
                                 for item in TOOLS.items())})
    subprocess.run(["c++", "-O2", "-c", os.path.join(work, "main.cpp"),
                    "-o", os.path.join(work, "main.o")], check=True)
    binary = os.path.join(work, "prec-tools")
    prec_libraries = [os.path.join(build, l) for l in libraries]
    command = (["c++", "-O3", "-s", "-Wl,--gc-sections",
                "-Wl,-rpath,$ORIGIN/lib", "-o", binary, os.path.join(work, "main.o")] +
               objects + ["-Wl,--start-group"] + prec_libraries +
               static_archives() + ["-Wl,--end-group",
               MULTIARCH + "/openblas-pthread/libopenblas.a",
               "-l:libgfortran.a", "-l:libquadmath.a"] + sorted(set(shared)) +
               ["-lz",
               MULTIARCH + "/libzstd.so.1", "-lpthread", "-ldl", "-lm"])
    subprocess.run(command, check=True)
    packed = os.path.join(output, "prec-tools.xz")
    with open(packed, "wb") as f:
        subprocess.run(["xz", "-T2", "-6", "-c", binary], stdout=f, check=True)
    # The libraries by the names the binary asks for.
    needed = subprocess.run(["objdump", "-p", binary], check=True,
                            capture_output=True, text=True).stdout
    for library in sorted(set(shared)):
        name = os.path.basename(os.path.realpath(library))
        for soname in re.findall(r"NEEDED\s+(\S+)", needed):
            if name.startswith(soname):
                shutil.copy(os.path.realpath(library),
                            os.path.join(output, "lib", soname))
    print("%s: %.1f MiB (%.1f MiB unpacked), lib/: %s" % (
        packed, os.path.getsize(packed) / 2**20,
        os.path.getsize(binary) / 2**20,
        ", ".join(sorted(os.listdir(os.path.join(output, "lib"))))))


def main():
    build, output = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(output, "lib"), exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="prec-tools-") as work:
        pack(build, output, work)


if __name__ == "__main__":
    main()
