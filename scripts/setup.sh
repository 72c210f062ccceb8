#!/usr/bin/env bash
# Installs what prec needs on a fresh Debian 12 machine, idempotently: when every package is
# already there it only checks and returns.
set -euo pipefail

packages=(
  cmake ninja-build g++
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libspdlog-dev libgtest-dev libbenchmark-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  libopenblas-dev
  python3-numpy python3-onnx
  python3-dev pybind11-dev python3-pybind11 python3-torch
  graphviz
  clang-22 libclang-rt-22-dev
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
