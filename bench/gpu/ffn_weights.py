"""The FFN benchmark's weights when they are constants of the program
(ffn_block_f8_region.mlir): integer formulas, so that numpy here and
PyTorch on the GPU machine make the very same f16 values.

  python3 ffn_weights.py ir ffn_block_f8_region.mlir OUT.mlir [i8] [ROWS]
      appends the weights to the program as resources ([1, in, out] f16);
      `i8` pins the Linears to i8 instead of f8 E4M3, ROWS replaces the
      block's 2048 rows (a small block for CPU checks, same weights).
  python3 ffn_weights.py pack ENGINE.cu [i8]
      the engine's weights file (134 MB of f8 or i8 weights: too large to
      travel) as ENGINE.weights.json: its small constants, and where the
      two quantized weights go with a hash of their bytes. unpack() on the
      GPU machine rebuilds the file from the formulas and checks the hashes.
"""
import hashlib
import json
import re
import sys

import numpy as np


def weight(out_features, in_features, salt):
    """[out, in] (PyTorch's Linear layout) in f16."""
    o = np.arange(out_features, dtype=np.int64)[:, None]
    i = np.arange(in_features, dtype=np.int64)[None, :]
    values = ((o * 7919 + i * 104729 + salt) % 2001 - 1000).astype(np.float32)
    return (values / np.float32(64000)).astype(np.float16)


def weights():
    return {"linear1": weight(16384, 4096, 0), "linear2": weight(4096, 16384, 17)}


def f8_bytes(w):
    """w [out, in] quantized per tensor to E4M3 (scale max|w| / 448, round to
    nearest even), as prec-quantize does: the bytes of its [in, out] B
    operand stored transposed, i.e. [out, in]."""
    import torch
    scale = float(np.abs(w.astype(np.float32)).max()) / 448.0
    q = (torch.from_numpy(w).double() / scale).clamp(-448, 448).float()
    return q.to(torch.float8_e4m3fn).view(torch.uint8).numpy().tobytes()


def i8_bytes(w):
    """w [out, in] quantized per output channel to i8 (scale max|w[o]| / 127,
    the quotient clamped to +-127, rounded to f32, then to nearest even), as
    prec-quantize does, stored [out, in]."""
    w64 = w.astype(np.float64)
    scale = np.abs(w64).max(axis=1, keepdims=True) / 127.0
    q = np.clip(w64 / scale, -127, 127).astype(np.float32)
    return np.rint(q).astype(np.int8).tobytes()


def write_ir(template, out, precision="f8E4M3FN", rows=2048):
    text = open(template).read().replace("f8E4M3FN", precision)
    text = re.sub(r"(?<![0-9])2048(?![0-9])", str(rows), text)
    with open(out, "w") as f:
        f.write(text)
        entries = []
        for name, layer in [("ffn_w1", "linear1"), ("ffn_w2", "linear2")]:
            b = np.ascontiguousarray(weights()[layer].T)
            entries.append(f'      {name}: "0x02000000{b.tobytes().hex()}"')
        f.write("\n{-#\n  dialect_resources: {\n    builtin: {\n")
        f.write(",\n".join(entries))
        f.write("\n    }\n  }\n#-}\n")


# A weights file starts with "PRECWTS2" and three u64: the engine's
# identity, the block's size and its checksum (codegen/runtime/WeightsFile.h).
HEADER = 32


def pack(cu, precision="f8E4M3FN"):
    base = cu[:-3]
    blob = open(base + ".weights", "rb").read()
    source = open(cu).read()
    big = []
    for layer in ["linear1", "linear2"]:
        offset = int(re.search(rf"tosa.matmul '{layer}'.*\n(?:.*\n)?.*?e->weights \+ (\d+)",
                               source).group(1))
        size = weights()[layer].size
        region = blob[HEADER + offset:HEADER + offset + size]
        big.append({"layer": layer, "offset": offset, "bytes": size,
                    "sha256": hashlib.sha256(region).hexdigest()})
    small, cursor = [], 0
    for entry in sorted(big, key=lambda e: e["offset"]):
        small.append([cursor, blob[HEADER + cursor:HEADER + entry["offset"]].hex()])
        cursor = entry["offset"] + entry["bytes"]
    small.append([cursor, blob[HEADER + cursor:].hex()])
    json.dump({"header": blob[:HEADER].hex(), "size": len(blob) - HEADER,
               "precision": precision, "small": small, "big": big},
              open(base + ".weights.json", "w"))


def unpack(cu):
    """Writes ENGINE.weights from ENGINE.weights.json; False if a hash fails."""
    base = cu[:-3]
    packed = json.load(open(base + ".weights.json"))
    blob = bytearray(packed["size"])
    for offset, data in packed["small"]:
        blob[offset:offset + len(data) // 2] = bytes.fromhex(data)
    ok = True
    quantize = i8_bytes if packed["precision"] == "i8" else f8_bytes
    for entry in packed["big"]:
        data = quantize(weights()[entry["layer"]])
        ok &= hashlib.sha256(data).hexdigest() == entry["sha256"]
        blob[entry["offset"]:entry["offset"] + entry["bytes"]] = data
    open(base + ".weights", "wb").write(bytes.fromhex(packed["header"]) + blob)
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "ir":
        write_ir(sys.argv[2], sys.argv[3], *sys.argv[4:5],
                 *[int(rows) for rows in sys.argv[5:6]])
    else:
        pack(sys.argv[2], *sys.argv[3:4])
