"""engine.attention against the same program unfused and against PyTorch's
scaled_dot_product_attention, at Swin-T (one stage-1 window per matrix, 8
images), ViT-B, BERT-base and LLaMA-8B shapes with a padding mask, and
without a mask at 512, 2048 and 8192 keys against SDPA's flash backend; with
a causal mask (its lowest finite value above the diagonal, as transformers
builds it) at GPT-2 and LLaMA-8B shapes against the flash backend's
is_causal; in f32 (the CUDA-core kernel) at four of the padding-masked
shapes; and with both matmuls pinned to f8 E4M3 or to i8 (f16 bindings),
at BERT-base and LLaMA-8B shapes, against SDPA in f16, its error from f32
checked against the quantized program's own (computed by PyTorch in f32).
For f8 the kernel quantizes the probabilities before their division by
the row sum, for i8 after it as the program does (a second sweep over the
keys), so the i8 engines' error should be the program's.
Each engine whose kernel skips masked keys is also timed with the
skipping compiled out (the `_noskip` engine, the same .cu with the kernel's
SKIP_MASKED_KEYS false).

  python3 run_attention.py prepare BIN [BASELINE_BIN] WORK [--shapes A,B]
                                                             # here
  python3 run_attention.py check WORK                        # on the GPU

`--shapes` prepares only the named rows; `check` times the rows prepared.

`prepare` writes each shape's attention as an exporter writes it (Q·Kᵀ, a
scale, an additive mask where the shape has one, softmax over the last
axis in f32, ·V, in TOSA with f16 or f32 bindings), legalizes it with
enabled= that type for sm_90 and emits its engine with BIN; with
BASELINE_BIN (prec tools from before prec-fuse-attention) it emits the
unfused engine too. `check` runs each engine on random inputs (seeded),
compares its output with a reference computed by PyTorch from the same
inputs (in f32 for f16 rows, in f64 for f32 rows), and prints a markdown
table: the largest absolute error of the engine and of SDPA in the row's
type against that reference, and the median times of the engine, the
unfused engine, SDPA (the row's type, the same mask; the flash backend
where there is none) and eager PyTorch (matmul, softmax, matmul) with
ratios engine / peer.
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# name: batch, heads, sequence, head dim, the mask added (None, "padding":
# [B, 1, 1, S], "causal": [B, 1, S, S]), the element type (f32: attention
# kept in f32, on the CUDA cores).
SHAPES = {
    "swin_t_window_8x49": (512, 3, 49, 32, "padding", "f16"),
    "vit_base_32x197": (32, 12, 197, 64, "padding", "f16"),
    "bert_base_32x128": (32, 12, 128, 64, "padding", "f16"),
    "bert_base_8x512": (8, 12, 512, 64, "padding", "f16"),
    "gpt2_4x1024": (4, 12, 1024, 64, "padding", "f16"),
    "llama8b_prefill_2048": (1, 32, 2048, 128, "padding", "f16"),
    "unmasked_16x512": (16, 32, 512, 128, None, "f16"),
    "unmasked_4x2048": (4, 32, 2048, 128, None, "f16"),
    "unmasked_1x8192": (1, 32, 8192, 128, None, "f16"),
    "causal_gpt2_4x1024": (4, 12, 1024, 64, "causal", "f16"),
    "causal_llama8b_2048": (1, 32, 2048, 128, "causal", "f16"),
    "causal_1x8192": (1, 32, 8192, 128, "causal", "f16"),
    "f32_swin_t_window_8x49": (512, 3, 49, 32, "padding", "f32"),
    "f32_vit_base_32x197": (32, 12, 197, 64, "padding", "f32"),
    "f32_bert_base_8x512": (8, 12, 512, 64, "padding", "f32"),
    "f32_llama8b_prefill_2048": (1, 32, 2048, 128, "padding", "f32"),
    "f8_bert_base_8x512": (8, 12, 512, 64, "padding", "f8"),
    "f8_llama8b_prefill_2048": (1, 32, 2048, 128, "padding", "f8"),
    "f8_unmasked_4x2048": (4, 32, 2048, 128, None, "f8"),
    "i8_bert_base_8x512": (8, 12, 512, 64, "padding", "i8"),
    "i8_llama8b_prefill_2048": (1, 32, 2048, 128, "padding", "i8"),
    "i8_unmasked_4x2048": (4, 32, 2048, 128, None, "i8"),
}

# How each row's element type legalizes: f8 and i8 rows keep f16 bindings
# and pin both matmuls to f8 E4M3 or i8, with Q, Kᵀ and V in [-4.5, 4.5]
# (randn inputs saturate beyond it once in 150,000) and P in [0, 1] by
# range analysis.
POLICIES = {
    "f16": "enabled=f16 target=sm_90",
    "f32": "enabled=f32 target=sm_90",
    "f8": "enabled=f16,f8E4M3FN constraints=obey "
          "layer-precisions=scores:f8E4M3FN,output:f8E4M3FN "
          "val-range=q:[-4.5,4.5],kt:[-4.5,4.5],v:[-4.5,4.5] target=sm_90",
    "i8": "enabled=f16,i8 constraints=obey "
          "layer-precisions=scores:i8,output:i8 "
          "val-range=q:[-4.5,4.5],kt:[-4.5,4.5],v:[-4.5,4.5] target=sm_90",
}
BINDINGS = {"f16": "f16", "f32": "f32", "f8": "f16", "i8": "f16"}


def attention_mlir(batch, heads, seq, dim, masked, element):
    """The attention as an exporter writes it, with bindings of the row's
    element type (f16 for f8 rows); the softmax runs in f32."""
    h = BINDINGS[element]
    n = batch * heads
    q = f"tensor<{n}x{seq}x{dim}x{h}>"
    kt = f"tensor<{n}x{dim}x{seq}x{h}>"
    s32 = f"tensor<{n}x{seq}x{seq}xf32>"
    s16 = f"tensor<{n}x{seq}x{seq}x{h}>"
    s4 = f"tensor<{batch}x{heads}x{seq}x{seq}x{h}>"
    r4 = f"tensor<{batch}x{heads}x{seq}x1x{h}>"
    e4 = f"tensor<{batch}x{heads}x{seq}x{seq}xf32>"
    r4f = f"tensor<{batch}x{heads}x{seq}x1xf32>"
    mask_rows = seq if masked == "causal" else 1
    mask = f"tensor<{batch}x1x{mask_rows}x{seq}x{h}>"
    scale = 1.0 / dim ** 0.5
    mask_argument = f""",
                 %mask: {mask} loc("mask")""" if masked else ""
    y = "%y" if masked else "%x"
    add_mask = (f"  %y = tosa.add %x, %mask : ({s4}, {mask}) -> {s4}\n"
                if masked else "")

    def cast(result, value, source, target):
        """The program's conversion, where the types differ; the value
        under its new name."""
        if source == target:
            return "", value
        return f"  {result} = tosa.cast {value} : ({source}) -> {target}\n", result

    scores_cast, scores = cast("%s16", "%s", s32, s16)
    exp_cast, exponents = cast("%d32", "%d", s4, e4)
    probs_cast, probs = cast("%p16", "%p", e4, s4)
    return f"""func.func @main(%q: {q} loc("q"), %kt: {kt} loc("kt"), %v: {q} loc("v"){mask_argument}) -> {q} {{
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1x{h}>}}> : () -> tensor<1x{h}>
  %shift = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{{values = dense<{scale}> : tensor<1x1x1x1x{h}>}}> : () -> tensor<1x1x1x1x{h}>
  %s = tosa.matmul %q, %kt, %zp, %zp : ({q}, {kt}, tensor<1x{h}>, tensor<1x{h}>) -> {s32} loc("scores")
{scores_cast}  %shape4 = tosa.const_shape {{values = dense<[{batch}, {heads}, {seq}, {seq}]> : tensor<4xindex>}} : () -> !tosa.shape<4>
  %s4 = tosa.reshape {scores}, %shape4 : ({s16}, !tosa.shape<4>) -> {s4}
  %x = tosa.mul %s4, %c, %shift : ({s4}, tensor<1x1x1x1x{h}>, tensor<1xi8>) -> {s4}
{add_mask}  %m = tosa.reduce_max {y} {{axis = 3 : i32}} : ({s4}) -> {r4}
  %d = tosa.sub {y}, %m : ({s4}, {r4}) -> {s4}
{exp_cast}  %e = tosa.exp {exponents} : ({e4}) -> {e4}
  %l = tosa.reduce_sum %e {{axis = 3 : i32}} : ({e4}) -> {r4f}
  %r = tosa.reciprocal %l : ({r4f}) -> {r4f}
  %p = tosa.mul %e, %r, %shift : ({e4}, {r4f}, tensor<1xi8>) -> {e4}
{probs_cast}  %shape3 = tosa.const_shape {{values = dense<[{n}, {seq}, {seq}]> : tensor<3xindex>}} : () -> !tosa.shape<3>
  %p3 = tosa.reshape {probs}, %shape3 : ({s4}, !tosa.shape<3>) -> {s16}
  %o = tosa.matmul %p3, %v, %zp, %zp : ({s16}, {q}, tensor<1x{h}>, tensor<1x{h}>) -> {q} loc("output")
  return %o : {q}
}}
"""


def emit(bin_dir, work, stem, source, element):
    tool = lambda name: os.path.join(bin_dir, name)
    base = os.path.join(work, stem)
    with open(base + ".mlir", "w") as f:
        f.write(source)
    subprocess.run([tool("prec-opt"), base + ".mlir",
                    f"--prec-legalize={POLICIES[element]}",
                    "-o", base + ".f16.mlir"], check=True)
    subprocess.run([tool("prec-translate"), "--emit-cuda", base + ".f16.mlir",
                    "--output-dir=" + work, "--engine-name=" + stem,
                    "-o", "/dev/null"], check=True)
    for suffix in (".mlir", ".f16.mlir"):
        os.remove(base + suffix)


def compile_out_skipping(work, stem):
    """A copy of engine `stem` named `stem`_noskip whose tensor-core kernel
    does not skip masked keys (its SKIP_MASKED_KEYS argument false), where
    it does."""
    path = os.path.join(work, stem + ".cu")
    with open(path) as f:
        text = f.read()
    pattern = r"(prec_attention_mma<\d+, \d+, \d+, (?:true|false)), true,"
    if not re.search(pattern, text):
        return
    for suffix in (".cu", ".h", ".json", ".weights"):
        source = os.path.join(work, stem + suffix)
        if not os.path.exists(source):
            continue
        target = os.path.join(work, stem + "_noskip" + suffix)
        if suffix == ".weights":
            shutil.copyfile(source, target)
            continue
        with open(source) as f:
            text = f.read()
        if suffix == ".cu":
            text = re.sub(pattern, r"\1, false,", text)
        with open(target, "w") as f:
            f.write(re.sub(r"\b" + stem + r"(?=[_.\"])", stem + "_noskip", text))


def prepare(bin_dir, baseline_bin, work, names):
    os.makedirs(work, exist_ok=True)
    for name in names:
        shape = SHAPES[name]
        emit(bin_dir, work, name, attention_mlir(*shape), shape[-1])
        compile_out_skipping(work, name)
        if baseline_bin:
            emit(baseline_bin, work, name + "_unfused", attention_mlir(*shape),
                 shape[-1])


def quantized_program(element, q, k, v, mask, scale):
    """What the f8 and i8 rows' program computes, in f32: Q, K, V and P
    times the type's largest value (448, 127) / their largest magnitude (4.5
    for the inputs, 1 for P), converted to f8 E4M3 with saturation or
    clamped and rounded half to even, multiplied back after each matmul."""
    import torch

    def quantized(x, largest):
        top = 448.0 if element == "f8" else 127.0
        factor = top / largest
        x = (x.float() * factor).clamp(-top, top)
        x = x.to(torch.float8_e4m3fn).float() if element == "f8" \
            else torch.round(x)
        return x / factor

    s = torch.matmul(quantized(q, 4.5),
                     quantized(k, 4.5).transpose(-1, -2)) * scale
    if mask is not None:
        s = s + mask.float()
    p = torch.softmax(s, -1)
    return torch.matmul(quantized(p, 1.0), quantized(v, 4.5))


def check(work):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from engine import Engine, median_ms

    print("| shape | engine error | SDPA error | engine ms | no-skip ms | "
          "unfused ms | SDPA ms | eager ms | engine / SDPA | "
          "engine / no-skip | engine / unfused |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    for name, (batch, heads, seq, dim, masked, element) in SHAPES.items():
        if not os.path.exists(os.path.join(work, name + ".cu")):
            continue
        torch.manual_seed(0)
        n = batch * heads
        dtype = torch.float if element == "f32" else torch.half
        q = torch.randn(n, seq, dim, device="cuda").to(dtype)
        k = torch.randn(n, seq, dim, device="cuda").to(dtype)
        v = torch.randn(n, seq, dim, device="cuda").to(dtype)
        inputs = {"q": q, "kt": k.transpose(1, 2).contiguous(), "v": v}
        q4, k4, v4 = (t.view(batch, heads, seq, dim) for t in (q, k, v))
        scale = 1.0 / dim ** 0.5
        mask4, backends = None, [SDPBackend.FLASH_ATTENTION]
        causal = masked == "causal"
        if masked == "padding":
            keep = torch.rand(batch, 1, 1, seq, device="cuda") > 0.1
            mask = torch.where(keep, 0.0, -10000.0).to(dtype)
            backends = [SDPBackend.EFFICIENT_ATTENTION,
                        SDPBackend.CUDNN_ATTENTION, SDPBackend.MATH]
        elif causal:
            above = torch.ones(seq, seq, device="cuda", dtype=torch.bool).triu(1)
            mask = torch.zeros(batch, 1, seq, seq, device="cuda", dtype=dtype)
            mask.masked_fill_(above, torch.finfo(dtype).min)
        if masked:
            inputs["mask"] = mask
            mask4 = mask.expand(batch, heads, seq, seq)
        # The reference is one precision above the row's, so that SDPA's
        # error is measured too.
        wide = torch.double if element == "f32" else torch.float
        with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):
            reference = F.scaled_dot_product_attention(
                q4.to(wide), k4.to(wide), v4.to(wide),
                attn_mask=None if mask4 is None else mask4.to(wide))

        def sdpa():
            # A causal mask is SDPA's is_causal, on the flash backend.
            with sdpa_kernel(backends):
                return F.scaled_dot_product_attention(
                    q4, k4, v4, attn_mask=None if causal else mask4,
                    is_causal=causal)

        def eager():
            s = torch.matmul(q4, k4.transpose(-1, -2)) * scale
            if mask4 is not None:
                s = s + mask4
            return torch.matmul(torch.softmax(s.float(), -1).to(dtype), v4)

        def time_engine(stem):
            path = os.path.join(work, stem + ".cu")
            if not os.path.exists(path):
                return None, None
            engine = Engine(path)
            tensors, outputs = engine.bind(
                {key: t.cpu().numpy() for key, t in inputs.items()})
            runner = engine.runner(tensors)
            runner()
            torch.cuda.synchronize()
            out = list(outputs.values())[0].to(wide).view(batch, heads, seq,
                                                          dim)
            return out, median_ms(runner)

        out, engine_ms = time_engine(name)
        noskip_out, noskip_ms = time_engine(name + "_noskip")
        _, unfused_ms = time_engine(name + "_unfused")
        # Skipping is exact: the same bits as computing every key.
        if noskip_out is not None and not torch.equal(out, noskip_out):
            print(f"{name}: skipping masked keys changed the output")
            ok = False
        error = (out - reference).abs().max().item()
        sdpa_error = (sdpa().to(wide) - reference).abs().max().item()
        if element in ("f8", "i8"):
            # The quantized program's own error, computed in f32 from the
            # quantized Q, K, V and P: the engine must be about as far from
            # f32, neither much further (a wrong factor) nor much closer
            # (nothing quantized).
            program_error = (quantized_program(element, q4, k4, v4, mask4,
                                               scale) -
                             reference).abs().max().item()
            within = 0.5 * program_error <= error <= 2 * program_error
            print(f"{name}: {element} program's error from f32 "
                  f"{program_error:.2e}, the engine's {error:.2e}", flush=True)
            ok &= within
        else:
            ok &= error <= 4 * max(sdpa_error,
                                   1e-3 if element == "f16" else 1e-5)
        sdpa_ms, eager_ms = median_ms(sdpa), median_ms(eager)
        def column(ms):
            return ("-", "-") if ms is None else (f"{ms:.3f}",
                                                  f"{engine_ms / ms:.2f}")
        noskip, versus_noskip = column(noskip_ms)
        unfused, versus = column(unfused_ms)
        print(f"| {name} | {error:.2e} | {sdpa_error:.2e} | {engine_ms:.3f} | "
              f"{noskip} | {unfused} | {sdpa_ms:.3f} | {eager_ms:.3f} | "
              f"{engine_ms / sdpa_ms:.2f} | {versus_noskip} | {versus} |",
              flush=True)
    return ok


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    if sys.argv[1] == "prepare":
        args, names = sys.argv[2:], list(SHAPES)
        if "--shapes" in args:
            at = args.index("--shapes")
            names = args[at + 1].split(",")
            args = args[:at] + args[at + 2:]
            unknown = [n for n in names if n not in SHAPES]
            if unknown:
                sys.exit(f"unknown shapes: {', '.join(unknown)}")
        prepare(args[0], args[1] if len(args) == 3 else None, args[-1], names)
    else:
        sys.exit(0 if check(sys.argv[2]) else 1)
