"""Programmatic dependent launch in prec engines: each engine against a copy
of itself whose kernels start only once the one before has ended (its
`early_launch` set false at create), in the same run. Both run through
run_graph on the same inputs; their outputs must agree bit for bit (a kernel
starting early waits for its predecessors before touching memory), and the
table gives both medians and their ratio.

  python3 run_early_launch.py MODELS_WORK TRANSFORMERS_WORK [STEM...]   # GPU

MODELS_WORK is `run_models.py prepare`'s directory (its table names each
engine's inputs under test/models/); TRANSFORMERS_WORK is
`run_transformers.py prepare`'s, whose engines take run_transformers'
prompts. STEMs choose the engines (default: a few of each kind).
"""
import concurrent.futures
import json
import os
import re
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "..", "test", "models")
DEFAULT_STEMS = ["resnet_legacy", "efficientnet_legacy", "mobilenetv3_legacy",
                 "swin_legacy", "t5_encoder_legacy", "gpt2_legacy",
                 "bert_base_32x128", "llama_2layer_f8_1x2048"]
EARLY = "e->early_launch = prec_device_launches_early();"


def serial_copy(base):
    """`base`'s engine as `base`_serial, launching every kernel after the
    one before it has ended; returns the copy's .cu."""
    stem = os.path.basename(base)
    serial = base + "_serial"
    rename = lambda text: re.sub(r"\b" + stem + r"(?=[_.\"])",
                                 stem + "_serial", text)
    text = open(base + ".cu").read()
    assert EARLY in text, f"{stem}: no early launch to turn off"
    open(serial + ".cu", "w").write(
        rename(text.replace(EARLY, "e->early_launch = false;")))
    for suffix in (".h", ".json"):
        open(serial + suffix, "w").write(rename(open(base + suffix).read()))
    if not os.path.exists(serial + ".weights"):
        os.link(base + ".weights", serial + ".weights")
    return serial + ".cu"


def inputs_of(models_work, stem):
    """The engine's inputs: its model's test inputs, or the prompts of a
    transformer engine (`name`_BxS)."""
    table = os.path.join(models_work, "table.json")
    for row in json.load(open(table)) if os.path.exists(table) else []:
        if row["stem"] == stem:
            return dict(np.load(os.path.join(MODELS, row["inputs"])))
    import run_transformers
    batch, sequence = map(int, stem.rsplit("_", 1)[1].split("x"))
    return run_transformers.inputs(batch, sequence)


def main(models_work, transformers_work, stems):
    from engine import Engine, build_library, median_ms
    import run_transformers
    bases = []
    for stem in stems:
        for work in (models_work, transformers_work):
            base = os.path.join(work, stem)
            if os.path.exists(base + ".cu"):
                if not os.path.exists(base + ".weights"):
                    run_transformers.decompress(base + ".weights")
                bases.append(base)
    pairs = [(base + ".cu", serial_copy(base)) for base in bases]
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(build_library, [cu for pair in pairs for cu in pair]))
    print("| engine | early launch ms | serial ms | early / serial | "
          "outputs |")
    print("|---|---|---|---|---|")
    same_everywhere = True
    for (early_cu, serial_cu), base in zip(pairs, bases):
        stem = os.path.basename(base)
        feed = inputs_of(models_work, stem)
        results, times = [], []
        for cu in (early_cu, serial_cu):
            engine = Engine(cu)
            tensors, outputs = engine.bind(feed)
            run = engine.runner(tensors, True)
            run()
            torch.cuda.synchronize()
            results.append({k: v.clone() for k, v in outputs.items()})
            times.append([median_ms(run) for _ in range(3)])
            engine.destroy()
        same = all(torch.equal(results[0][k].view(torch.uint8),
                               results[1][k].view(torch.uint8))
                   for k in results[0])
        same_everywhere &= same
        early, serial = min(times[0]), min(times[1])
        print(f"| {stem} | {early:.3f} | {serial:.3f} | {early / serial:.3f} "
              f"| {'identical' if same else 'DIFFER'} |", flush=True)
    return same_everywhere


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    stems = sys.argv[3:] or DEFAULT_STEMS
    sys.exit(0 if main(sys.argv[1], sys.argv[2], stems) else 1)
