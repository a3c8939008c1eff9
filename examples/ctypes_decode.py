#!/usr/bin/env python3
"""KDA decode through a kda2-link bundle from Python, with ctypes only.

Loads libkda2rt and the bundle (dlopen RTLD_GLOBAL: the bundle registers
itself with libkda2rt when loaded), calls the bundle's C ABI
`kda2_bundle_kda_decode` on PyTorch CUDA tensors (or, without PyTorch, on
numpy arrays copied through libkda2rt's memory helpers), and checks the
output and the new state against a float64 numpy reference of the
recurrence (docs/Bundle.md, kda2/Runtime/Reference.h):

    S = (I - beta k k^T) diag(exp(g)) S + beta k v^T,   o = scale * S^T q

usage: examples/ctypes_decode.py <bundle.so> [--lib build/lib/libkda2rt.so]
       [--op kda_decode] [--n 8] [--h 4] [--dim 128] [--layout kv|vk] [--numpy]
Exit code 0 when the results match, 1 otherwise. Run on a GPU machine.
"""
import argparse
import ctypes as C
import os
import sys

import numpy as np

P, I, Z = C.c_void_p, C.c_int, C.c_size_t


class DecodeArgs(C.Structure):
    """kda2rt_kda_decode_args (kda2rt.h)."""
    _fields_ = ([(f, P) for f in ("q", "k", "v", "g", "beta", "h0", "o", "ht")]
                + [(f, C.c_int64) for f in ("n", "t", "h", "k_dim", "v_dim")]
                + [("scale", C.c_double), ("dtype", C.c_char_p),
                   ("state_layout", C.c_char_p)])


def bf16_round(x):
    """float32 -> the float32 value of its bfloat16 rounding (nearest even)."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return (u.astype(np.uint32) << 16).view(np.float32)


def reference(q, k, v, g, beta, h0, scale):
    """float64 recurrence; q, k, g [n, t, h, K], v [n, t, h, V], beta [n, t, h],
    h0 [n, h, K, V] (K-first). Returns o [n, t, h, V] and the final state."""
    S = h0.astype(np.float64).copy()
    n, t, h, _ = q.shape
    o = np.zeros(v.shape, np.float64)
    for i in range(t):
        qi, ki, vi = (x[:, i].astype(np.float64) for x in (q, k, v))
        S *= np.exp(g[:, i].astype(np.float64))[..., None]
        u = beta[:, i, :, None] * (vi - np.einsum("nhkv,nhk->nhv", S, ki))
        S += ki[..., None] * u[:, :, None, :]
        o[:, i] = scale * np.einsum("nhkv,nhk->nhv", S, qi)
    return o, S


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundle")
    ap.add_argument("--lib", default=None, help="libkda2rt.so (default: next "
                    "to the bundle, then build/lib, then the loader's path)")
    ap.add_argument("--op", default="kda_decode")
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--h", type=int, default=4)
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--layout", choices=("kv", "vk"), default="kv",
                    help="the state layout of the bundle's kernel: kv = [n, h, K, V] "
                    "(K-major), vk = [n, h, V, K] (V-major); the call is refused when "
                    "it is not the kernel's")
    ap.add_argument("--numpy", action="store_true", help="do not use PyTorch")
    a = ap.parse_args()

    here = os.path.dirname(os.path.abspath(a.bundle))
    candidates = [a.lib] if a.lib else [
        os.path.join(here, "libkda2rt.so.0"), "build/lib/libkda2rt.so.0",
        "libkda2rt.so.0"]
    rt = None
    for lib in candidates:
        try:
            rt = C.CDLL(lib, mode=C.RTLD_GLOBAL)
            break
        except OSError as e:
            err = e
    if rt is None:
        sys.exit(f"cannot load libkda2rt ({err}); pass --lib")
    bundle = C.CDLL(os.path.abspath(a.bundle), mode=C.RTLD_GLOBAL)
    bundle.kda2_bundle_info.restype = C.c_char_p
    decode = bundle.kda2_bundle_kda_decode
    decode.argtypes = [I, C.c_char_p, C.POINTER(DecodeArgs), P, C.c_char_p, Z]
    decode.restype = I
    print(bundle.kda2_bundle_info().decode().splitlines()[0])

    n, t, h, d = a.n, 1, a.h, a.dim
    rng = np.random.default_rng(1)
    q = bf16_round(rng.uniform(-1, 1, (n, t, h, d)))
    k = bf16_round(rng.uniform(-1, 1, (n, t, h, d)) / np.sqrt(d))
    v = bf16_round(rng.uniform(-1, 1, (n, t, h, d)))
    g = rng.uniform(-0.1, -0.001, (n, t, h, d)).astype(np.float32)
    beta = rng.uniform(0.1, 0.9, (n, t, h)).astype(np.float32)
    h0 = rng.uniform(-0.1, 0.1, (n, h, d, d)).astype(np.float32)
    # The kernel's layout; the reference works K-major.
    vk = a.layout == "vk"
    h0_run = np.ascontiguousarray(h0.transpose(0, 1, 3, 2)) if vk else h0
    scale = d ** -0.5
    err = C.create_string_buffer(2048)
    args = DecodeArgs(n=n, t=t, h=h, k_dim=d, v_dim=d, scale=scale, dtype=b"bf16",
                      state_layout=a.layout.encode())

    use_torch = not a.numpy
    if use_torch:
        try:
            import torch
        except ImportError:
            use_torch = False
    if use_torch:
        dev = torch.device("cuda")
        tq, tk, tv = (torch.from_numpy(x).to(dev, torch.bfloat16) for x in (q, k, v))
        tg, tb, th0 = (torch.from_numpy(x).to(dev) for x in (g, beta, h0_run))
        to = torch.full((n, t, h, d), float("nan"), dtype=torch.bfloat16, device=dev)
        tht = torch.full((n, h, d, d), float("nan"), dtype=torch.float32, device=dev)
        for f, x in zip(("q", "k", "v", "g", "beta", "h0", "o", "ht"),
                        (tq, tk, tv, tg, tb, th0, to, tht)):
            setattr(args, f, x.data_ptr())
        stream = torch.cuda.current_stream().cuda_stream
        rc = decode(0, a.op.encode(), C.byref(args), stream, err, len(err))
        torch.cuda.synchronize()
        got_o = to.float().cpu().numpy()
        got_ht = tht.cpu().numpy()
        print("buffers: torch")
    else:
        rt.kda2rt_mem_alloc.argtypes = [I, Z, C.POINTER(P), C.c_char_p, Z]
        rt.kda2rt_memcpy_htod.argtypes = [I, P, P, Z, C.c_char_p, Z]
        rt.kda2rt_memcpy_dtoh.argtypes = [I, P, P, Z, C.c_char_p, Z]
        rt.kda2rt_mem_free.argtypes = [I, P, C.c_char_p, Z]
        bits = lambda x: (x.view(np.uint32) >> 16).astype(np.uint16)
        hosts = [bits(q), bits(k), bits(v), g, beta, h0_run,
                 np.full((n, t, h, d), 0xFFFF, np.uint16),
                 np.full((n, h, d, d), np.nan, np.float32)]
        ptrs = []
        for f, x in zip(("q", "k", "v", "g", "beta", "h0", "o", "ht"), hosts):
            p = P()
            if rt.kda2rt_mem_alloc(0, x.nbytes, C.byref(p), err, len(err)):
                sys.exit(f"kda2rt_mem_alloc: {err.value.decode()}")
            rt.kda2rt_memcpy_htod(0, p, x.ctypes.data, x.nbytes, err, len(err))
            setattr(args, f, p.value)
            ptrs.append(p)
        rc = decode(0, a.op.encode(), C.byref(args), None, err, len(err))
        out_bits, got_ht = hosts[6], hosts[7]
        rt.kda2rt_memcpy_dtoh(0, out_bits.ctypes.data, ptrs[6], out_bits.nbytes, err, len(err))
        rt.kda2rt_memcpy_dtoh(0, got_ht.ctypes.data, ptrs[7], got_ht.nbytes, err, len(err))
        got_o = (out_bits.astype(np.uint32) << 16).view(np.float32)
        for p in ptrs:
            rt.kda2rt_mem_free(0, p, err, len(err))
        print("buffers: numpy through kda2rt_mem_*")
    if rc != 0:
        sys.exit(f"kda2_bundle_kda_decode -> {rc}: {err.value.decode()}")

    ref_o, ref_s = reference(q, k, v, g, beta, h0, scale)
    if vk:
        got_ht = got_ht.transpose(0, 1, 3, 2)
    rel = lambda x, y: float(np.linalg.norm(x - y) / np.linalg.norm(y))
    e_o, e_s = rel(got_o, ref_o), rel(got_ht, ref_s)
    ok = e_o < 2e-2 and e_s < 1e-3
    print(f"ctypes decode n={n} h={h} K=V={d}: ||o - ref||/||ref|| = {e_o:.3g}, "
          f"||ht - ref||/||ref|| = {e_s:.3g}: {'OK' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
