"""Where the prefill prep's time goes: kda_chunk_prep (templates/kda_chunk_split.tirx)
timed next to copies built with one stage left out (H200.md: without counters,
time variants that leave a stage out and take differences).

  python3 bench/prep_ablation.py --kernels build/kernels NAME=CUBIN ...

Each NAME=CUBIN is a kda_chunk_prep cubin (C = 32); the outputs of a
variant with a stage left out are wrong, only its time counts. Uniform B x T
batches only (T a multiple of C). Prints the median CUDA-graph time per shape.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import kda2rt  # noqa: E402
from kda_decode import graph_time_us  # noqa: E402
from kda_prefill import inputs, no_offsets, parse_shape, slot_intermediates  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--shapes", default="2x1024x8,1x4096x8,8x4096x16")
    parser.add_argument("variants", nargs="+", help="NAME=CUBIN")
    args = parser.parse_args()
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    preps = [(v.split("=")[0], rt.kernel(rt.load(v.split("=", 1)[1]), "kda_chunk_prep"))
             for v in args.variants]
    K = V = 128
    C = 32
    stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa: E731
    print("| shape | " + " | ".join(n for n, _ in preps) + " |")
    print("|---|" + "---|" * len(preps))
    for shape in args.shapes.split(","):
        lens, H, _ = parse_shape(shape)
        N, T = len(lens), lens[0]
        tt = N * T
        q, k, _, g, beta, _ = inputs(N, T, H, K, V, seed=tt + H, gate="lb5edge")
        flat = lambda x: x.reshape(tt, H, *x.shape[3:])  # noqa: E731
        cu = torch.arange(0, tt + 1, T, dtype=torch.int32, device="cuda")
        mid, sizes = slot_intermediates(tt, N, H, C, K, V)
        op, od, _ = no_offsets(cu, N)
        strides = {"s" + x[0]: flat(t).stride(0) for x, t in
                   (("q", q), ("k", k), ("g", g), ("b", beta))}
        times = []
        for _, prep in preps:
            launch = prep.prepare({"q": flat(q), "k": flat(k), "g": flat(g),
                                   "beta": flat(beta), "cu_seqlens": cu, **mid, **op},
                                  {"tt": tt, "h": H, "np1": N + 1, **sizes, "hqk": H, **od},
                                  {"scale": K ** -0.5, **strides}, stream)
            times.append(graph_time_us(launch, replays=10))
        print(f"| {shape} | " + " | ".join(f"{t:.1f}" for t in times) + " |", flush=True)


if __name__ == "__main__":
    main()
