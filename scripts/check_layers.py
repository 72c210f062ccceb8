#!/usr/bin/env python3
"""Checks that no library includes a header from a layer above it.

Usage: check_layers.py SOURCE_ROOT

Each library folder names the folders whose headers it may include (besides
its own). Tools, benchmarks and tests sit on top and may include anything.
Prints every include that breaks the layering and exits 1 if there is one.
"""
import pathlib
import re
import sys

# Lowest layer first; each folder may include the folders listed for it.
BELOW = {
    "support": [],
    "dialects/Precision": ["support"],
    "dialects/Engine": ["support"],
    "dialects/Utils": ["support", "dialects/Precision"],
    "dialects/ExternalModels": ["support", "dialects/Precision",
                                "dialects/Utils"],
    "formats": ["support", "dialects/Precision", "dialects/Utils"],
    "import": ["support", "dialects/Precision", "dialects/Utils"],
    "passes": ["support", "dialects/Precision", "dialects/Utils", "formats"],
    "lowering": ["support", "dialects/Precision", "dialects/Engine",
                 "dialects/Utils", "formats", "passes"],
    "registration": ["support", "dialects/Precision", "dialects/Engine",
                     "dialects/Utils",
                     "dialects/ExternalModels", "passes", "lowering"],
    "codegen": ["support", "dialects/Precision", "dialects/Engine",
                "dialects/Utils",
                "dialects/ExternalModels", "formats", "passes", "lowering"],
    "runtime": ["support", "dialects/Precision", "dialects/Utils", "formats",
                "passes", "lowering"],
    "drivers": ["support", "dialects/Precision", "dialects/Utils", "formats",
                "passes", "lowering", "registration", "runtime", "import",
                "codegen"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def owner(path):
    """The library folder `path` (relative to the root) belongs to."""
    text = path.as_posix()
    for folder in sorted(BELOW, key=len, reverse=True):
        if text.startswith(folder + "/"):
            return folder
    return None


def main():
    root = pathlib.Path(sys.argv[1])
    broken = []
    sources = sorted({source for folder in BELOW
                      for source in (root / folder).rglob("*")
                      if source.suffix in (".h", ".cpp", ".td")})
    for source in sources:
        relative = source.relative_to(root)
        folder = owner(relative)
        allowed = [folder] + BELOW[folder]
        for header in INCLUDE.findall(source.read_text(errors="replace")):
            target = owner(pathlib.PurePosixPath(header))
            if target is not None and target not in allowed:
                broken.append(f"{relative}: includes \"{header}\" "
                              f"({target} is not below {folder})")
    for line in broken:
        print(line)
    if broken:
        return 1
    print(f"layers: {len(BELOW)} libraries, no include from above")
    return 0


if __name__ == "__main__":
    sys.exit(main())
