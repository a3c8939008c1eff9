"""The chunked KDA prefill's rounding, emulated on the CPU (numpy, float64
with each rounding the kernels make applied explicitly): which of the
kernels' roundings make ‖o − ref‖/‖ref‖, and what the TF32 variants
(templates' TP=f32, AP=f32; docs/Prefill.md) leave of it. No GPU: it runs
anywhere, in seconds.

  python3 bench/prefill_numerics.py                  # all gates, T=512, H=2
  python3 bench/prefill_numerics.py --gate lb5edge --attribute

The algorithm is kda_chunk_split.tirx's prep and kda_chunk_h.tirx's scans
(C = 32, decays from the chunk's middle for the intra-chunk products), the
reference the float64 recurrence token by token (as bench/kda_prefill.py's),
the inputs bench/kda_prefill.py's (L2-normalised q, k; bf16 q, k, v; the same
gate families). Rounding points, each bf16 in the serving kernels: qd, Km,
Ki, Qm, kl (the prep's decayed operands), Tp, Pb (tp, pb), wn, S (the state
as a product operand), U (as an operand of U·kl and pb·U), o (the output);
a variant may round U for pb·U (Uo) and tp for the prep's wn (Tpw) apart.
The prep's wn is (Tp·Km) ⊙ (−e^gm), gm the decay over the chunk's first half.
"""
import argparse

import numpy as np

POINTS = ["qd", "Km", "Ki", "Qm", "kl", "Tp", "Pb", "wn", "S", "U", "o"]


def bf16(x):
    """Round to bfloat16 (nearest, ties to even), back in float64."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) << 16
    return b.astype(np.uint32).view(np.float32).astype(np.float64)


def tf32(x):
    """Round to TF32 as cvt.rna.tf32.f32 does (nearest, ties away: 10-bit
    mantissa), back in float64."""
    b = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    b = ((b + 0x1000) >> 13) << 13
    return b.astype(np.uint32).view(np.float32).astype(np.float64)


def f16(x):
    """Round to IEEE half (nearest even, subnormals kept: cvt.rn.f16x2.f32),
    back in float64; past 65504 it is inf, as on the GPU."""
    return np.asarray(x, dtype=np.float64).astype(np.float16).astype(np.float64)


def exact(x):
    return np.asarray(x, dtype=np.float64)


def split(x):
    """An f32 value as the sum of two bf16 values (hi = bf16(x), lo =
    bf16(x - hi)): what a product over both halves sees (16 mantissa bits;
    the lo·lo term of a product of two split operands left out changes it
    by ~2^-16 relative)."""
    hi = bf16(x)
    return hi + bf16(np.asarray(x, dtype=np.float64) - hi)


# The kernels' variants: what each rounding point is (bf16 unless named).
VARIANTS = {
    "bf16": {},
    "tp32": {"Tp": tf32, "Pb": tf32, "U": tf32},
    "tf32": {"Tp": tf32, "Pb": tf32, "U": tf32, "Km": tf32, "Ki": tf32, "Qm": tf32},
    # tp, pb and U each as a pair of bf16 tiles (hi + lo) in the scan's
    # products, on bf16 tensor cores; the prep's wn = −T·Kd keeps tp's
    # bf16 (Tpw).
    "split": {"Tp": split, "Pb": split, "U": split, "Tpw": bf16},
    # and the prep's intra-chunk operands split too (its A and P products
    # over both halves).
    "split2": {"Tp": split, "Pb": split, "U": split, "Tpw": bf16,
               "Km": split, "Ki": split, "Qm": split},
    # PB=f32, AP=f32, AK=bf16 (the templates' bindings): pb in f32, the
    # scan's pb·U in TF32 (U rounded to TF32 there, Uo), the prep's A = Km·Kiᵀ
    # and P = Qm·Kiᵀ in TF32 with Km in bf16; tp, U·kl and the rest bf16.
    "pb32": {"Pb": tf32, "Uo": tf32, "Ki": tf32, "Qm": tf32},
    # TP=f16, KL=f16, TW=bf16 (bf16 inputs): tp, pb, U (both uses) and kl
    # in f16 (10-bit mantissas, the 16-bit types' bytes and rate); the
    # prep's wn product reads tp's f16 rounded again to bf16 (Km = k·e^Dm
    # is past f16's range), and the prep's Km, Ki, Qm stay bf16.
    "h16": {"Tp": f16, "Pb": f16, "U": f16, "Uo": f16, "kl": f16,
            "Tpw": lambda x: bf16(f16(x))},
}


def inputs(rng, T, H, K, V, gate):
    def unit(a):
        return a / np.linalg.norm(a, axis=-1, keepdims=True)

    def sig(x):
        return 1 / (1 + np.exp(-x))

    q = bf16(unit(rng.standard_normal((T, H, K))))
    k = bf16(unit(rng.standard_normal((T, H, K))))
    v = bf16(rng.standard_normal((T, H, V)))
    r = rng.standard_normal((T, H, K))
    if gate == "lb5edge":
        g = -5 + 0.5 * sig(r)
    elif gate == "lb5":
        g = -5 * sig(r)
    else:  # logsigmoid
        g = -np.log1p(np.exp(-r))
    g = g.astype(np.float32).astype(np.float64)
    beta = sig(rng.standard_normal((T, H))).astype(np.float32).astype(np.float64)
    h0 = rng.standard_normal((H, K, V)) * 0.1
    return q, k, v, g, beta, h0


def reference(q, k, v, g, beta, h0, scale):
    S = h0.copy()
    o = np.empty(q.shape[:2] + (v.shape[-1],))
    for t in range(q.shape[0]):
        S = S * np.exp(g[t])[..., None]
        u = beta[t][:, None] * (v[t] - np.einsum("hk,hkv->hv", k[t], S))
        S = S + np.einsum("hk,hv->hkv", k[t], u)
        o[t] = scale * np.einsum("hk,hkv->hv", q[t], S)
    return o, S


def chunked(q, k, v, g, beta, h0, scale, rounding, C=32):
    """The prep and scan, with rounding[point] applied at each point."""
    rd = lambda point: rounding.get(point, bf16)  # noqa: E731
    T, H, _ = q.shape
    o = np.empty(q.shape[:2] + (v.shape[-1],))
    states = np.empty_like(h0)
    for h in range(H):
        S = h0[h].copy()
        for c0 in range(0, T, C):
            c = slice(c0, c0 + C)
            qq, kk, vv, gg, bb = q[c, h], k[c, h], v[c, h], g[c, h], beta[c, h]
            G = np.cumsum(gg, axis=0)
            Dm = G - G[C // 2 - 1]  # decay from the chunk's middle
            qd = rd("qd")(qq * scale * np.exp(G))
            Km, Ki = rd("Km")(kk * np.exp(Dm)), rd("Ki")(kk * np.exp(-Dm))
            Qm = rd("Qm")(qq * scale * np.exp(Dm))
            kl = rd("kl")(kk * np.exp(G[-1] - G))
            A, P = Km @ Ki.T, Qm @ Ki.T
            X = np.linalg.inv(np.eye(C) + bb[:, None] * np.tril(A, -1))
            Tp = rd("Tp")(X * bb[None, :])
            Pb = rd("Pb")(np.tril(P))
            # (wn's tp: the scan's unless a variant says otherwise.)
            Tpw = rounding.get("Tpw", rd("Tp"))(X * bb[None, :])
            # wn = −(Tpw·Km) ⊙ e^gm: the prep multiplies by Km (the keys
            # decayed from the middle) and scales the product's columns.
            wn = rd("wn")((Tpw @ Km) * -np.exp(G[C // 2 - 1]))
            Sb = rd("S")(S)
            Uf = Tp @ vv + wn @ Sb
            Ub = rd("U")(Uf)
            # (U as pb·U's operand: U's rounding unless a variant says.)
            Uo = rounding.get("Uo", rd("U"))(Uf)
            o[c, h] = rd("o")(qd @ Sb + Pb @ Uo)
            S = np.exp(G[-1])[:, None] * S + kl.T @ Ub
        states[h] = S
    return o, states


def rel(a, b):
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gate", default="all",
                        choices=("all", "lb5edge", "lb5", "logsigmoid"))
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--heads", type=int, default=2)
    parser.add_argument("--attribute", action="store_true",
                        help="also the error of each rounding point alone")
    args = parser.parse_args()
    K = V = 128
    gates = ("lb5edge", "lb5", "logsigmoid") if args.gate == "all" else (args.gate,)
    for gate in gates:
        rng = np.random.default_rng(0)
        data = inputs(rng, args.tokens, args.heads, K, V, gate)
        o_ref, s_ref = reference(*data, K ** -0.5)
        print(f"gate {gate} (T = {args.tokens}, H = {args.heads}, K = V = {K}, C = 32)")
        for name, rounding in VARIANTS.items():
            o, s = chunked(*data, K ** -0.5, rounding)
            print(f"  {name:5s} o {rel(o, o_ref):.2e}  state {rel(s, s_ref):.2e}")
        if args.attribute:
            for point in POINTS:
                only = {p: exact for p in POINTS if p != point}
                o, s = chunked(*data, K ** -0.5, only)
                print(f"    only {point:2s} bf16: o {rel(o, o_ref):.2e}  state {rel(s, s_ref):.2e}")


if __name__ == "__main__":
    main()
