"""Two builds of run_transformers' engines in one run: the engines in OLD
against those in NEW (same stems, e.g. emitted before and after a change),
each launched on the stream and as a graph, and torch.compile; best medians
of interleaved rounds, and the largest difference between their outputs
(0 where the change keeps the engine's arithmetic).

  python3 compare_builds.py OLD NEW NAMES...   # on the GPU, in bench/gpu
"""
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.getcwd())
import torch
from engine import build_library
from run_transformers import (MODELS, best_medians, bound_engine, build,
                              engine_stem, inputs)

old_dir, new_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
stems = [engine_stem(n, *s) for n in names for s in MODELS[n].shapes]
with ThreadPoolExecutor() as pool:
    list(pool.map(build_library, [os.path.join(d, st + ".cu")
                                  for d in (old_dir, new_dir) for st in stems]))
for name in names:
    model = MODELS[name]
    half = build(name).to(getattr(torch, model.peer_dtype)).cuda()
    compiled = torch.compile(half, dynamic=False)
    for batch, sequence in model.shapes:
        stem = engine_stem(name, batch, sequence)
        feed = inputs(batch, sequence)
        args = [torch.from_numpy(v).cuda() for v in feed.values()]
        engines, functions, outs = [], [], []
        for d in (old_dir, new_dir):
            engine, tensors, outputs = bound_engine(d, stem, feed)
            engines.append(engine)
            outs.append(next(iter(outputs.values())))
            functions += [engine.runner(tensors), engine.runner(tensors, True)]
        with torch.no_grad():
            compiled(*args)
            for f in functions:
                f()
            torch.cuda.synchronize()
            diff = (outs[0].double() - outs[1].double()).abs().max().item()
            t = best_medians(functions + [lambda: compiled(*args)])
        print(f"{stem}: old {t[0]:.3f} / graph {t[1]:.3f} ms, new {t[2]:.3f} "
              f"/ graph {t[3]:.3f} ms, torch.compile {t[4]:.3f} ms; new/old "
              f"{t[2] / t[0]:.3f} / graph {t[3] / t[1]:.3f}; compile/new "
              f"{t[4] / t[2]:.2f} / graph {t[4] / t[3]:.2f}; max |new - old| "
              f"{diff:.3e}", flush=True)
        for engine in engines:
            engine.destroy()
