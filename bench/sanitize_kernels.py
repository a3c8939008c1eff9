"""Runs each kda2 kernel once on small inputs (no timing, no comparison
library), for `compute-sanitizer --tool memcheck|racecheck`:

  compute-sanitizer --tool memcheck python3 bench/sanitize_kernels.py --kernels build/kernels

Covers the decode schedules (single token: the shape_hint copy; several
tokens: the generic kernel), the gate and fused variants, a ragged varlen
batch (empty, 1-token and odd-length sequences), delta_softmax, fp16
inputs, and the padded-pitch fallback of @coalesced_access. Checks
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
