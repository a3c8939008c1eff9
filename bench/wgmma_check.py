"""The wgmma lowering on the GPU, kernel by kernel, against a float64 reference.

test/Conversion/KDA2ToGPU/wgmma.tirx compiled twice by `bench/prefill_device.sh
build`: with --kda2-wgmma (wgmma_test_wg.sm_90a.cubin: `wg`, `wg2` as wgmma, the
fallbacks `fb`, `two`, `thr` as mma.sync, `pr` by its pragma) and without
(wgmma_test_mma.sm_90a.cubin: everything but `pr` on mma.sync, the control that
checks the harness). Every kernel runs on random inputs with its output poisoned
(NaN); the reference rounds the operands the kernel converts (bf16 pairs, TF32)
as it does and computes in float64. Prints ||out - ref|| / ||ref|| per kernel and
build, and exits 1 when one is above 1e-2 or not finite: a wrong descriptor,
fragment order or missing wait gives errors of order 1, the kernels' own
rounding ~1e-5 (fp32 accumulation) to ~1e-3 (a bf16 conversion rounding the
other way). What each kernel covers (wgmma.tirx has the details): `wg` A from
shared memory MN-major (Vs^T, 64-byte and 128-byte swizzles), register A, K-major
and MN-major B (n = 32, 128), products in flight across a batch and a chained
accumulator, a TMA pipeline with a producer warp over n chunks; `wg2` A from
shared memory K-major, MN-major B with n = 64; `acc2` a product accumulating
another's result while it is in flight (the wait before it). Then window-copy.tirx's windowed
tile copies (wgmma and plain builds): TMA boxes at runtime row starts, some
running past the tensor's end (zeros), one feeding a product; bounded windows
('start:stop', zeros from the stop on: the rows past a sequence's end in a
packed batch, cleared after the TMA wait) of a strided v (`wb`, rows of a wider
tensor) and in a producer-warp pipeline over a sequence's chunks into a product
(`wp`, the scans' pattern).

  python3 bench/wgmma_check.py --kernels build/kc
"""
import argparse
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kda2rt  # noqa: E402


def bf16(x):
    """x rounded to bf16 as the kernel's cvt.rn.bf16x2 does, in float64."""
    return x.to(torch.bfloat16).to(torch.float64)


def f16(x):
    """x rounded to f16 (to nearest even, as cvt.rn.f16x2.f32), in float64."""
    return x.to(torch.float16).to(torch.float64)


def tf32(x):
    """x rounded to TF32 (10-bit mantissa, to nearest, ties away: cvt.rna.tf32)."""
    bits = x.to(torch.float32).view(torch.int32)
    bits = (bits + 0x1000) & ~0x1FFF
    return bits.view(torch.float32).to(torch.float64)


def rand(*shape, scale=1.0, dtype=torch.bfloat16):
    return (torch.randn(*shape, dtype=torch.float64) * scale).to(dtype)


def reference(name, x, n):
    """The kernel's result in float64 from its (CPU) inputs `x`."""
    d = {k: v.to(torch.float64) for k, v in x.items()}
    if name == "wg":
        st = d["s0"].clone()
        for t in range(n):
            ut = d["vs"][:, t].transpose(1, 2) @ d["tp"][:, t].transpose(1, 2)
            ut = ut + bf16(st) @ d["wn"][:, t].transpose(1, 2)
            st = st + bf16(ut) @ d["kl"][:, t]
        return st
    if name == "wg2":
        u = d["a"] @ d["w"].transpose(1, 2)
        return d["s0"] + bf16(u) @ d["k2"]
    if name == "fb":
        return tf32(d["s0"]) @ tf32(d["w"]).transpose(1, 2)
    if name == "cv":  # f16 operands, w converted from its bf16 buffer
        return f16(d["s0"]) @ f16(d["w"]).transpose(1, 2)
    if name == "acc2":  # V = S·Wᵀ + U, U = S·Wᵀ (in flight)
        return 2 * (bf16(d["s0"]) @ d["w"].transpose(1, 2))
    return bf16(d["s0"]) @ d["w"].transpose(1, 2)  # two, thr, pr


def inputs(name, b, n):
    if name == "wg":
        return {"s0": rand(b, 64, 128, scale=0.5, dtype=torch.float32),
                "wn": rand(b, n, 32, 128, scale=0.05), "kl": rand(b, n, 32, 128, scale=0.05),
                "vs": rand(b, n, 32, 64), "tp": rand(b, n, 32, 32, scale=0.2)}, (b, 64, 128)
    if name == "wg2":
        return {"a": rand(b, 64, 64), "w": rand(b, 32, 64), "k2": rand(b, 32, 64, scale=0.1),
                "s0": rand(b, 64, 64, dtype=torch.float32)}, (b, 64, 64)
    rows, cols = {"fb": (64, 32), "two": (32, 64), "thr": (64, 64), "pr": (64, 64),
                  "acc2": (64, 64), "cv": (64, 64)}[name]
    wdt = torch.float32 if name == "fb" else torch.bfloat16
    return ({"s0": rand(b, rows, cols, dtype=torch.float32), "w": rand(b, 32, cols, dtype=wdt)},
            (b, rows, 32))


def window_cases(h=8, tt=100):
    """window-copy.tirx's kernels: (name, inputs, dims, scalars, output shape,
    reference). Windows start at runtime rows, some running past tt (zeros)."""
    v = rand(tt, h, 128)
    starts = torch.tensor([0, 37, 90], dtype=torch.int32)  # 90: 22 rows past tt
    n = len(starts)
    pad = torch.cat([v.to(torch.float64), torch.zeros(64, h, 128, dtype=torch.float64)])

    def wv():
        o = torch.empty(n, h, 8, 32, 16, dtype=torch.float64)
        for i, s0 in enumerate(starts.tolist()):
            for vb in range(8):
                o[i, :, vb] = pad[s0:s0 + 32, :, vb * 16:vb * 16 + 16].permute(1, 0, 2)
        return o
    x = rand(tt, h, 64)
    xpad = torch.cat([x.to(torch.float64), torch.zeros(16, h, 64, dtype=torch.float64)])
    tp = rand(h, 32, 32, scale=0.2)
    r0 = 80  # rows 80 .. 111 of v: 12 past tt

    def wm():
        o = torch.empty(h, 2, 64, 32, dtype=torch.float64)
        for vb in range(2):
            vs = pad[r0:r0 + 32, :, vb * 64:vb * 64 + 64].permute(1, 0, 2)  # [h, 32, 64]
            o[:, vb] = vs.transpose(1, 2) @ tp.to(torch.float64).transpose(1, 2)
        return o
    # Bounded windows: sequences [0, 37), [37, 90), [90, 100) of a packed
    # batch; v's rows are 64 elements wider than h·128 (a strided slice),
    # NaN in the gap and in the rows a window must not read.
    cu = torch.tensor([0, 37, 90, tt], dtype=torch.int32)
    ns = len(cu) - 1
    wide = torch.full((tt, h * 128 + 64), float("nan"), dtype=torch.bfloat16)
    wide[:, :h * 128] = v.reshape(tt, h * 128)

    def bounded(seq, rows, cols, vb):
        """Rows cu[seq] .. + rows of v's columns [vb·cols, +cols), zero from
        the sequence's end on: [h, rows, cols]."""
        b0, e0 = cu[seq].item(), cu[seq + 1].item()
        o = torch.zeros(h, rows, cols, dtype=torch.float64)
        take = max(0, min(rows, e0 - b0))
        o[:, :take] = v[b0:b0 + take, :, vb * cols:(vb + 1) * cols].to(torch.float64) \
            .permute(1, 0, 2)
        return o

    def wb():
        o = torch.empty(ns, h, 8, 32, 16, dtype=torch.float64)
        for i in range(ns):
            for vb in range(8):
                o[i, :, vb] = bounded(i, 32, 16, vb)
        return o

    def wp():
        # Ut = sum over the sequence's chunks of Vsᵀ·tpᵀ, Vs the chunk's rows.
        o = torch.zeros(ns, h, 2, 64, 32, dtype=torch.float64)
        tp64 = tp.to(torch.float64)
        for i in range(ns):
            b0, e0 = cu[i].item(), cu[i + 1].item()
            for vb in range(2):
                for c in range((e0 - b0 + 31) // 32):
                    vs = torch.zeros(h, 32, 64, dtype=torch.float64)
                    take = min(32, e0 - b0 - 32 * c)
                    vs[:, :take] = v[b0 + 32 * c:b0 + 32 * c + take, :,
                                     vb * 64:vb * 64 + 64].to(torch.float64).permute(1, 0, 2)
                    o[i, :, vb] += vs.transpose(1, 2) @ tp64.transpose(1, 2)
        return o
    # NaN past the last sequence: a bounded window must not read it either.
    vn = torch.cat([v, torch.full((28, h, 128), float("nan"), dtype=torch.bfloat16)])
    return [
        ("wb", {"v": wide, "cu": cu}, {"tt": tt, "h": h, "np1": ns + 1, "n": ns},
         {"sv": h * 128 + 64}, (ns, h, 8, 32, 16), torch.bfloat16, wb),
        ("wp", {"v": vn, "tp": tp, "cu": cu}, {"tt": tt + 28, "h": h, "np1": ns + 1, "n": ns},
         {}, (ns, h, 2, 64, 32), torch.float32, wp),
        ("wv", {"v": v, "starts": starts}, {"tt": tt, "h": h, "m": n, "n": n}, {},
         (n, h, 8, 32, 16), torch.bfloat16, wv),
        ("wr", {"x": x}, {"tt": tt, "h": h}, {"r0": 90}, (h, 16, 64), torch.float32,
         lambda: xpad[90:106].permute(1, 0, 2)),
        ("wm", {"v": v, "tp": tp}, {"tt": tt, "h": h}, {"r0": r0}, (h, 2, 64, 32),
         torch.float32, wm),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True, help="the folder prefill_device.sh build fills")
    parser.add_argument("--blocks", type=int, default=132,
                        help="b: the batch (the launch is b x b blocks: the tiles' leading b "
                             "is the implicit grid, the block loop over b another)")
    parser.add_argument("--chunks", type=int, default=6, help="n: iterations of wg's pipeline")
    args = parser.parse_args()
    torch.manual_seed(0)
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    stream = torch.cuda.current_stream().cuda_stream
    worst = 0.0
    for build in ("wg", "mma"):
        module = rt.load(os.path.join(args.kernels, f"wgmma_test_{build}.sm_90a.cubin"))
        for name in ("wg", "wg2", "acc2", "fb", "two", "thr", "pr", "cv"):
            x, out_shape = inputs(name, args.blocks, args.chunks)
            dev = {k: v.cuda() for k, v in x.items()}
            o = torch.full(out_shape, float("nan"), dtype=torch.float32, device="cuda")
            kernel = rt.kernel(module, name)
            dims = {"b": args.blocks, **({"n": args.chunks} if name == "wg" else {})}
            kernel.prepare({**dev, "o": o}, dims, {}, stream)()
            torch.cuda.synchronize()
            ref = reference(name, x, args.chunks)
            got = o.cpu().to(torch.float64)
            err = ((got - ref).norm() / ref.norm()).item()
            ok = math.isfinite(err) and err < 1e-2
            worst = max(worst, err if math.isfinite(err) else float("inf"))
            uses = "wgmma" if (build == "wg" and name in ("wg", "wg2", "acc2")) or name == "pr" \
                else "mma.sync"
            print(f"{build:4s} {name:4s} ({uses:8s}) err {err:.3e} {'ok' if ok else 'WRONG'}",
                  flush=True)
    # Windowed tile copies (window-copy.tirx), TMA at runtime row starts with
    # zeros past the end; `wm` feeds a product (wgmma in the _wg build).
    for build in ("wg", "mma"):
        module = rt.load(os.path.join(args.kernels, f"window_test_{build}.sm_90a.cubin"))
        for name, x, dims, scalars, out_shape, out_dtype, ref_fn in window_cases():
            dev = {k: v.cuda() for k, v in x.items()}
            o = torch.full(out_shape, float("nan"), dtype=out_dtype, device="cuda")
            rt.kernel(module, name).prepare({**dev, "o": o}, dims, scalars, stream)()
            torch.cuda.synchronize()
            ref = ref_fn()
            got = o.cpu().to(torch.float64)
            err = ((got - ref).norm() / ref.norm()).item()
            ok = math.isfinite(err) and err < 1e-2
            worst = max(worst, err if math.isfinite(err) else float("inf"))
            print(f"{build:4s} {name:4s} (window  ) err {err:.3e} {'ok' if ok else 'WRONG'}",
                  flush=True)
    print(f"worst {worst:.3e}")
    return 0 if worst < 1e-2 else 1


if __name__ == "__main__":
    sys.exit(main())
