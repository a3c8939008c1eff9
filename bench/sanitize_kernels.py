"""Runs each kda2 kernel once on small inputs (no timing, no comparison
library), for `compute-sanitizer --tool memcheck|racecheck`:

  compute-sanitizer --tool memcheck python3 bench/sanitize_kernels.py --kernels build/kernels

Covers the decode schedules (single token: the shape_hint copy; several
tokens: the generic kernel), the gate and fused variants, a ragged varlen
batch (empty, 1-token and odd-length sequences), delta_softmax, fp16
inputs, the padded-pitch fallback of @coalesced_access and the tensor-core
matmuls (ldmatrix + mma.sync). Checks
every output against the float64 reference so a silent wrong result fails
too.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import kda_decode as bench  # noqa: E402
import kda2rt  # noqa: E402


def run_padded(rt, kernels, B, S, results):
    """The `padding_align32` fallback of @coalesced_access (the kernel of
    test/Conversion/KDA2ToGPU/coalesced-padding.mlir): x and y store their
    s dimensions padded to a multiple of 32, w does not. Checks y[b, i, j] =
    x[b, i, j] * w[b, 0, 0] on the logical elements and that the padding of
    y (poisoned with NaN) is never written; memcheck sees the buffers at
    their padded sizes only."""
    path = os.path.join(kernels, "coalesced_padding.sm_90a.cubin")
    kernel = rt.kernel(rt.load(path), "masked_rows")
    sp = (S + 31) // 32 * 32
    x = torch.randn(B, sp, sp, device="cuda")
    w = torch.randn(B, S, S, device="cuda")
    y = torch.full((B, sp, sp), float("nan"), device="cuda")
    launch = kernel.prepare({"x": x, "w": w, "y": y}, {"b": B, "s": S}, {},
                            torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    ref = x[:, :S, :S].double() * w[:, 0, 0].double().view(B, 1, 1)
    inside = y[:, :S, :S]
    untouched = bool(torch.isnan(y[:, S:, :]).all() and torch.isnan(y[:, :, S:]).all())
    row = {"kernel": "coalesced_padding", "B": B, "S": S,
           "err_o": bench.rel_err(inside, ref) if untouched else float("nan"),
           "padding_untouched": untouched}
    results.append(row)
    print(row, flush=True)


def run_matmul(rt, kernels, B, results):
    """The tensor-core matmuls of test/Conversion/KDA2ToGPU/tensor-core-matmul.mlir:
    mm (bf16 a[64, 32] @ w[32, 64] -> f32 global) and mm_acc (f16
    a[32, 64] @ k[48, 64]^T + c -> f32, through padded shared buffers).
    Reference: float64 products of the same rounded inputs."""
    module = rt.load(os.path.join(kernels, "tensor_core_matmul.sm_90a.cubin"))
    stream = torch.cuda.current_stream().cuda_stream
    a = torch.randn(B, 64, 32, device="cuda").bfloat16()
    w = torch.randn(B, 32, 64, device="cuda").bfloat16()
    y = torch.full((B, 64, 64), float("nan"), device="cuda")
    rt.kernel(module, "mm").prepare({"a": a, "w": w, "y": y}, {"b": B}, {}, stream)()
    torch.cuda.synchronize()
    ref = a.double() @ w.double()
    results.append({"kernel": "mm", "B": B, "err_o": bench.rel_err(y, ref)})
    a2 = torch.randn(B, 32, 64, device="cuda").half()
    k2 = torch.randn(B, 48, 64, device="cuda").half()
    c2 = torch.randn(B, 32, 48, device="cuda")
    y2 = torch.full((B, 32, 48), float("nan"), device="cuda")
    rt.kernel(module, "mm_acc").prepare({"a": a2, "k": k2, "c": c2, "y": y2}, {"b": B}, {},
                                        stream)()
    torch.cuda.synchronize()
    ref2 = a2.double() @ k2.double().transpose(-1, -2) + c2.double()
    results.append({"kernel": "mm_acc", "B": B, "err_o": bench.rel_err(y2, ref2)})
    a4 = torch.randn(B, 32, 64, device="cuda").bfloat16()
    y4 = torch.full((B, 64, 64), float("nan"), device="cuda")
    rt.kernel(module, "mm_tn").prepare({"a": a4, "w": w.view(B, 32, 64), "y": y4}, {"b": B}, {},
                                       stream)()
    torch.cuda.synchronize()
    ref4 = a4.double().transpose(-1, -2) @ w.double()
    results.append({"kernel": "mm_tn", "B": B, "err_o": bench.rel_err(y4, ref4)})
    print(results[-3], results[-2], results[-1], flush=True)
    # copy_mm (test/Conversion/KDA2ToGPU/tile-copy.mlir): block-wide tile
    # copies global -> shared -> global around the matmul, over c + 1 chunks
    # (the last one out of range: reads zeros, writes nothing; memcheck
    # would flag a write past y).
    # tma_mm (test/Conversion/KDA2ToGPU/tma-coalesce.mlir): the same with
    # the global -> shared copies done by TMA (tensor maps encoded by the
    # runtime at launch; the out-of-range chunk is zero-filled by TMA).
    C = 3
    a3 = torch.randn(B, C, 64, 32, device="cuda").bfloat16()
    w3 = torch.randn(B, 32, 64, device="cuda").bfloat16()
    ref3 = a3.double() @ w3.double().unsqueeze(1)
    for cubin, name in (("tile_copy", "copy_mm"), ("tma_coalesce", "tma_mm")):
        module = rt.load(os.path.join(kernels, f"{cubin}.sm_90a.cubin"))
        y3 = torch.full((B, C, 64, 64), float("nan"), device="cuda")
        rt.kernel(module, name).prepare({"a": a3, "w": w3, "y": y3}, {"b": B, "c": C}, {},
                                        stream)()
        torch.cuda.synchronize()
        results.append({"kernel": name, "B": B, "err_o": bench.rel_err(y3, ref3)})
        print(results[-1], flush=True)
    # tma_group: two TMA copies under one mbarrier phase.
    a5 = torch.randn(B, 64, 32, device="cuda").bfloat16()
    x5 = torch.randn(B, 64, 32, device="cuda")
    y5 = torch.full_like(x5, float("nan"))
    rt.kernel(rt.load(os.path.join(kernels, "tma_coalesce.sm_90a.cubin")), "tma_group").prepare(
        {"a": a5, "x": x5, "y": y5}, {"b": B}, {}, stream)()
    torch.cuda.synchronize()
    results.append({"kernel": "tma_group", "B": B,
                    "err_o": bench.rel_err(y5, a5.double() + x5.double())})
    print(results[-1], flush=True)


def run_vnni4(rt, kernels, B, results):
    """packing(vnni4) (test/Conversion/KDA2ToGPU/vnni4.mlir): w[b, n, k] is
    stored as [b, k / 4, n, 4]. vnni_mm multiplies a @ w^T on tensor cores
    (group-wise copy + plain ldmatrix); vnni_unpack reads it element-wise."""
    module = rt.load(os.path.join(kernels, "vnni4.sm_90a.cubin"))
    stream = torch.cuda.current_stream().cuda_stream
    a = torch.randn(B, 64, 32, device="cuda").bfloat16()
    w = torch.randn(B, 64, 32, device="cuda").bfloat16()
    packed = w.view(B, 64, 8, 4).permute(0, 2, 1, 3).contiguous()
    y = torch.full((B, 64, 64), float("nan"), device="cuda")
    rt.kernel(module, "vnni_mm").prepare({"a": a, "w": packed, "y": y}, {"b": B}, {},
                                         stream)()
    u = torch.full((B, 64, 32), float("nan"), device="cuda").bfloat16()
    rt.kernel(module, "vnni_unpack").prepare({"w": packed, "u": u}, {"b": B}, {}, stream)()
    torch.cuda.synchronize()
    results.append({"kernel": "vnni_mm", "B": B,
                    "err_o": bench.rel_err(y, a.double() @ w.double().transpose(-1, -2))})
    results.append({"kernel": "vnni_unpack", "B": B,
                    "err_o": bench.rel_err(u, w.double())})
    print(results[-2], results[-1], flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    args = parser.parse_args()
    bench.graph_time_us = lambda fn, replays=0: float("nan")  # no timing here
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    results = []
    for T in (1, 3):
        bench.run_decode(rt, args.kernels, None, 2, T, 4, 128, "kfirst", results)
        bench.run_decode(rt, args.kernels, None, 2, T, 4, 128, "kfirst", results, 32, 4)
        bench.run_decode(rt, args.kernels, None, 2, T, 4, 64, "kfirst", results, 32, 2)
    bench.run_decode(rt, args.kernels, None, 2, 1, 4, 128, "vfirst", results)
    bench.run_fused(rt, args.kernels, None, 2, 4, 128, results)
    for bounded in (True, False):
        bench.run_gate(rt, args.kernels, None, 2, 5, 4, 128, bounded, results)
    bench.run_varlen(rt, args.kernels, None, [3, 0, 1, 5, 2], 4, 128, results)
    bench.run_delta_softmax(rt, args.kernels, 2, 4, results)
    run_matmul(rt, args.kernels, 3, results)
    run_vnni4(rt, args.kernels, 3, results)
    # big (test/Conversion/KDA2ToGPU/dynamic-shared.mlir): 68 KB of shared
    # buffers in dynamic shared memory (the runtime raises the limit).
    x = torch.randn(3, 128, 128, device="cuda")
    y = torch.full_like(x, float("nan"))
    module = rt.load(os.path.join(args.kernels, "dynamic_shared.sm_90a.cubin"))
    rt.kernel(module, "big").prepare({"x": x, "y": y}, {"n": 3}, {},
                                     torch.cuda.current_stream().cuda_stream)()
    torch.cuda.synchronize()
    results.append({"kernel": "big", "B": 3, "err_o": bench.rel_err(y, x.double() ** 2)})
    print(results[-1], flush=True)
    for S in (32, 33, 70):
        run_padded(rt, args.kernels, 3, S, results)
    for T in (1, 3):
        bench.run_decode(rt, args.kernels, None, 2, T, 4, 128, "kfirst", results, 32, 4,
                         dtype="f16")
    bad = [r for r in results if not (r["err_o"] < 5e-3 and r.get("err_state", 0) < 1e-5)]
    print(f"{len(results)} kernel runs, {len(bad)} with a wrong result")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
