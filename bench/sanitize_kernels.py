"""Runs each kda2 kernel once on small inputs (no timing, no comparison
library), for `compute-sanitizer --tool memcheck|racecheck`:

  compute-sanitizer --tool memcheck python3 bench/sanitize_kernels.py --kernels build/kernels

Covers the decode schedules (single token: the shape_hint copy; several
tokens: the generic kernel), the gate and fused variants, a ragged varlen
batch (empty, 1-token and odd-length sequences) and delta_softmax. Checks
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
    bad = [r for r in results if not (r["err_o"] < 5e-3 and r.get("err_state", 0) < 1e-5)]
    print(f"{len(results)} kernel runs, {len(bad)} with a wrong result")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
