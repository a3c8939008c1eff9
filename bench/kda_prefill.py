"""KDA prefill (chunked forward) on the GPU: kda2's templates/kda_chunk_fwd.tirx
and kda_chunk_split.tirx kernels next to flash-linear-attention's `chunk_kda` on
identical inputs, for B x T batches and packed varlen batches (cu_seqlens).

  python3 bench/kda_prefill.py --kernels build/kernels --fla third_party_downloads/fla
  python3 bench/kda_prefill.py --kernels build/kernels --shapes 1000+3000+1+500+3692x8

For each shape: ‖o − ref‖/‖ref‖ and the final-state error against a float64
recurrence (outputs poisoned with NaN before the run), then the median time of
CUDA-graph replays, TFLOP/s with the issue's count B·T·H·(6KV + 2·64·(3K+2V)),
and the ratio kda2 / FLA. Writes $OUT/kda_prefill.json when OUT is set.
"""
import argparse
import json
import os
import re
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(__file__))
import kda2rt  # noqa: E402
from kda_decode import graph_time_us, rel_err  # noqa: E402


def reference(q, k, v, g, beta, h0, scale):
    """The KDA recurrence in float64, token by token (K-first state)."""
    B, T, H, K = q.shape
    S = h0.double().clone()
    o = torch.empty(B, T, H, v.shape[-1], dtype=torch.float64, device=q.device)
    qd, kd, vd, gd, bd = q.double(), k.double(), v.double(), g.double(), beta.double()
    for t in range(T):
        S = S * gd[:, t].exp().unsqueeze(-1)
        kt = kd[:, t]
        u = bd[:, t].unsqueeze(-1) * (vd[:, t] - torch.einsum("bhk,bhkv->bhv", kt, S))
        S = S + torch.einsum("bhk,bhv->bhkv", kt, u)
        o[:, t] = scale * torch.einsum("bhk,bhkv->bhv", qd[:, t], S)
    return o, S


def inputs(B, T, H, K, V, seed, gate):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    r = lambda *s: torch.randn(*s, device="cuda", generator=gen)  # noqa: E731
    q = torch.nn.functional.normalize(r(B, T, H, K), dim=-1).bfloat16()
    k = torch.nn.functional.normalize(r(B, T, H, K), dim=-1).bfloat16()
    v = r(B, T, H, V).bfloat16()
    if gate == "lb5":  # the safe gate's range: per-step log decay in [-5, 0]
        g = -5 * torch.sigmoid(r(B, T, H, K))
    elif gate == "lb5edge":  # at the bound: every step in [-5, -4.5] (the
        # prep's numerics are sized for C/2 steps of -5; e^(-G) over a whole
        # chunk of 32 such steps would overflow fp32)
        g = -5 + 0.5 * torch.sigmoid(r(B, T, H, K))
    else:  # logsigmoid of a normal: mean about -0.8
        g = torch.nn.functional.logsigmoid(r(B, T, H, K))
    beta = torch.sigmoid(r(B, T, H))
    h0 = r(B, H, K, V) * 0.1
    return q, k, v, g, beta, h0


def slot_intermediates(tt, n, H, C, K, V, states=False, mid_dtype=torch.bfloat16,
                       pb_dtype=None, kl_dtype=torch.bfloat16):
    """The split prefill's intermediates, NaN-poisoned, per chunk slot
    (docs/Prefill.md): chunk c of sequence i lives in slot
    floor(cu_seqlens[i] / C) + i + c, and ns = tt // C + n slots hold any
    packing of tt tokens (padding included) into n sequences. Returns the
    tensors ([H, ns, ...]; with `states` also kda_chunk_h's hs and us) and
    their dims {"ns"} (the scans read v in place: no copy of the values).
    tp, pb and us are of `mid_dtype` (the templates' TP: f32 for the TF32
    variants), pb of `pb_dtype` when given (the templates' PB), kl of
    `kl_dtype` (KL)."""
    ns = tt // C + n
    e = lambda *s, dt=torch.bfloat16: torch.full(  # noqa: E731
        s, float("nan"), dtype=dt, device="cuda")
    mid = {"qd": e(H, ns, C, K), "kl": e(H, ns, C, K, dt=kl_dtype), "wn": e(H, ns, C, K),
           "tp": e(H, ns, C, C, dt=mid_dtype),
           "pb": e(H, ns, C, C, dt=pb_dtype or mid_dtype),
           "gl": e(H, ns, K, dt=torch.float32)}
    if states:
        mid.update(hs=e(H, ns, V, K), us=e(H, ns, V, C, dt=mid_dtype))  # value-major
    return mid, {"ns": ns}


def no_offsets(index, n, scan=False):
    """The operands of checkpoints at token offsets when a call has none (m =
    0, so the kernels never read or write them): the prep's (ckpt_offsets, kc,
    ec and the dims n, m, nm) or, with `scan`, kda_chunk_scan_h's
    (ckpt_offsets, offset_blocks, m and the boundaries switch on: the
    checkpoint table, all -1 or real, holds the boundary checkpoints).
    `index` is any device index array (cu_seqlens) standing for the [n, 0]
    tables. Returns (pointers, dims, scalars)."""
    if scan:
        return {"ckpt_offsets": index, "offset_blocks": index}, {"m": 0}, {"boundaries": 1}
    one = torch.zeros(1, dtype=torch.float32, device="cuda")
    return {"ckpt_offsets": index, "kc": one, "ec": one}, {"n": n, "m": 0, "nm": 0}, {}


def piece_count(variant, prep_kernel):
    """The launches of a variant whose kernels were built with PC=1 (`pcN`
    in its name: N pieces, default 2); 0 for the others."""
    if "arg scalar pieces " not in prep_kernel.metadata():
        return 0
    m = re.search(r"pc(\d+)", variant)
    return int(m.group(1)) if m else 2


def pieces_launcher(preps, scans):
    """Runs prep p on a second stream and scan p, after it, on a third of
    higher priority, so that prep p + 1 runs beside scan p and the scans'
    blocks go first when both wait (forked from and joined into the current
    stream: a captured graph holds the same edges)."""
    low = torch.cuda.Stream()
    high = torch.cuda.Stream(priority=-1)
    done = [torch.cuda.Event() for _ in preps]

    def launch():
        cur = torch.cuda.current_stream()
        low.wait_stream(cur)
        high.wait_stream(cur)
        for prep, scan, event in zip(preps, scans, done):
            with torch.cuda.stream(low):
                prep()
                event.record(low)
            high.wait_event(event)
            with torch.cuda.stream(high):
                scan()
        cur.wait_stream(high)
        cur.wait_stream(low)
    return launch


def flops(B, T, H, K, V):
    return B * T * H * (6 * K * V + 2 * 64 * (3 * K + 2 * V))


def parse_shape(shape):
    """'BxTxH' (B sequences of T tokens) or 'L1+L2+...xH' (a packed varlen
    batch): returns (sequence lengths, H, varlen)."""
    parts = shape.split("x")
    if "+" in parts[0] or len(parts) == 2:
        return [int(n) for n in parts[0].split("+")], int(parts[1]), True
    B, T, H = (int(x) for x in parts)
    return [T] * B, H, False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--fla", default=None)
    parser.add_argument("--variants", default="fwd,split,split32",
                        help="fwd: kda_chunk_fwd.tirx (one kernel); fused, fused_h16: "
                             "kda_chunk_fused.tirx (one kernel: the prep ahead on a second "
                             "warpgroup, no workspace; its cubin kda_chunk_fused[_h16]_k<d>); "
                             "split, split32: "
                             "kda_chunk_split.tirx (prep + scan) with C = 16, 32; "
                             "split32_vb16, split32_vb8, split_vb16: 16 or 8 value "
                             "columns per scan CTA; split32_vfirst: V-first state; "
                             "h32_vb16, h32, h_vb16: the output off the chain "
                             "(kda_chunk_h.tirx: prep, then a state-only scan writing each "
                             "chunk's state, then a parallel output kernel); "
                             "o32_vb16, o32: the same prep, then kda_chunk_h.tirx's scan "
                             "with the output on it (kda_chunk_scan_o, no hs round trip); "
                             "ok32_vb16, hk32_vb16: kda_chunk_scan_o and kda_chunk_scan_h with "
                             "each chain's keys split over four warps (kda_chunk_scan_ok, "
                             "kda_chunk_scan_hk); ko*: kda_chunk_scan_ko (the split-key "
                             "chain ahead of other warps computing the output); *_tp32: the same with tp, pb and us in "
                             "f32 (TF32 products), *_tf32: and the prep's A/P products; "
                             "*_fast: compiled with --kda2-fast-math; ok64m_vb16_fast4: the "
                             "C = 32 prep, kda_chunk_merge.tirx's pairs of chunks, then "
                             "kda_chunk_scan_ok over chunks of 64")
    parser.add_argument("--shapes", default="2x1024x8,2x2048x8,1x4096x8,8x4096x16,1x32768x32",
                        help="BxTxH, or L1+L2+...xH for a packed varlen batch (cu_seqlens)")
    parser.add_argument("--gate", default="logsigmoid", choices=("logsigmoid", "lb5", "lb5edge"))
    parser.add_argument("--dim", type=int, default=128, help="K = V (64, 128 or 256)")
    parser.add_argument("--per-kernel", action="store_true",
                        help="also time the split variants' prep and scan kernels alone "
                             "(prep_us, scan_us: the simulator's fidelity study)")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the float64 reference (timing only; errors are not reported)")
    parser.add_argument("--extra", action="append", default=[],
                        help="NAME=CUBIN:C:VB[:SCAN]: one more prep + scan variant "
                             "(kda_chunk_split's kernels, K-first state) from any cubin, "
                             "e.g. a kda2-agent candidate_N.cubin; with SCAN (a cubin of "
                             "kda_chunk_h.tirx, for NAME o*/ok*/h*/hk*) the scans from it; "
                             "add NAME to --variants")
    args = parser.parse_args()
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    variants = args.variants.split(",")
    fwd = rt.kernel(rt.load(os.path.join(args.kernels, "kda_chunk_fwd_k128.sm_90a.cubin")),
                    "kda_chunk_fwd") if "fwd" in variants else None
    # One kernel per (sequence, head, 64 value columns), no workspace.
    fused = {x: rt.kernel(rt.load(os.path.join(
        args.kernels, f"kda_chunk_{x}_k{args.dim}.sm_90a.cubin")), "kda_chunk_fused")
        for x in ("fused", "fused_h16") if x in variants}
    # split: C = 16; split32: C = 32 (valid while 32 per-step decays sum to
    # less than ~88 nats, docs/Prefill.md).
    # split32_vfirst: the V-first state ([B, H, V, K], FLA's state_v_first).
    split = {}
    merges = {}  # variant -> kda_chunk_merge (chunks of 32 merged into 64)
    d = args.dim
    # split32_vb16: 8 blocks of 16 value columns per head (twice the CTAs).
    # h*: the same prep, then kda_chunk_h.tirx's state scan and output kernel.
    # --extra's optional fourth field: the module of kda_chunk_h.tirx's scans.
    extra_scans = {e.split("=")[0]: e.split("=", 1)[1].split(":")[3] for e in args.extra
                   if len(e.split("=", 1)[1].split(":")) > 3}
    for variant, cubin, chunk, vfirst, vb in (
            ("split", f"kda_chunk_split_k{d}", 16, False, 32),
            ("split32", f"kda_chunk_split_c32_k{d}", 32, False, 32),
            ("split32_vb16", f"kda_chunk_split_c32_vb16_k{d}", 32, False, 16),
            ("split32_vb8", f"kda_chunk_split_c32_vb8_k{d}", 32, False, 8),
            ("split_vb16", f"kda_chunk_split_vb16_k{d}", 16, False, 16),
            ("split32_vfirst", f"kda_chunk_split_c32_vfirst_k{d}", 32, True, 32),
            ("h32", f"kda_chunk_split_c32_k{d}", 32, False, 32),
            ("h32_vb16", f"kda_chunk_split_c32_vb16_k{d}", 32, False, 16),
            ("hk32_vb16", f"kda_chunk_split_c32_vb16_k{d}", 32, False, 16),
            # TF32 intermediates (TP=f32; _tf32 also the prep's A/P
            # operands, AP=f32): docs/Prefill.md, the output's error.
            ("hk32_vb16_tf32", f"kda_chunk_split_c32_vb16_k{d}_tf32", 32, False, 16),
            ("hk32_vb16_tp32", f"kda_chunk_split_c32_vb16_k{d}_tp32", 32, False, 16),
            ("ok32_vb16_tf32", f"kda_chunk_split_c32_vb16_k{d}_tf32", 32, False, 16),
            ("ok32_vb16_tp32", f"kda_chunk_split_c32_vb16_k{d}_tp32", 32, False, 16),
            # Only pb in f32 (PB=f32) and the prep's Ki, Qm (AP=f32, AK=bf16):
            # the TF32 products are the prep's A, P and the scan's U·pb
            # (docs/Prefill.md); fast-math prep at four CTAs per SM (BPS=4).
            ("ok32_vb16_pb32", f"kda_chunk_split_c32_vb16_k{d}_pb32", 32, False, 16),
            # The fast prep, then the split-key scan built with OKB=1 (one
            # block per SM promised to ptxas: 206 registers, no spills).
            ("ok32_vb16_fast4_r1", f"kda_chunk_split_c32_vb16_k{d}_fast4", 32, False, 16),
            ("o32_vb16_pb32", f"kda_chunk_split_c32_vb16_k{d}_pb32", 32, False, 16),
            # tp, pb, us and kl in f16 (TP=f16, KL=f16, the prep's wn
            # product in bf16: TW=bf16), the split-key scan over them.
            ("ok32_vb16_h16", f"kda_chunk_split_c32_vb16_k{d}_h16", 32, False, 16),
            # The same with ready flags (RDY=1): the scan starts while the
            # prep runs, each chunk's copies waiting for its flag (the
            # persistent preps, PER > 0: prefill_device.sh's --extra lines).
            ("ok32_vb16_rdy_h16", f"kda_chunk_split_c32_vb16_k{d}_rdy_h16", 32, False, 16),
            ("h_vb16", f"kda_chunk_split_vb16_k{d}", 16, False, 16),
            ("o32", f"kda_chunk_split_c32_k{d}", 32, False, 32),
            ("o32_vb16", f"kda_chunk_split_c32_vb16_k{d}", 32, False, 16),
            ("ok32_vb16", f"kda_chunk_split_c32_vb16_k{d}", 32, False, 16),
            # Both compiled with --kda2-fast-math (exp as ex2.approx).
            ("ok32_vb16_fast", f"kda_chunk_split_c32_vb16_k{d}_fast", 32, False, 16),
            ("o32_vb16_fast", f"kda_chunk_split_c32_vb16_k{d}_fast", 32, False, 16),
            # The fast-math prep held to four CTAs per SM (BPS=4: 128
            # registers), beside the plain scans.
            ("ok32_vb16_fast4", f"kda_chunk_split_c32_vb16_k{d}_fast4", 32, False, 16),
            ("o32_vb16_fast4", f"kda_chunk_split_c32_vb16_k{d}_fast4", 32, False, 16),
            # 32 value columns per scan CTA (two warps sharing each chunk's
            # tiles): half the L2 traffic of VB = 16, half the chains.
            ("o32_vb32_fast4", f"kda_chunk_split_c32_k{d}_fast4", 32, False, 32),
            # The same prep's chunks merged in pairs (kda_chunk_merge.tirx),
            # the split-key scan over chunks of 64 (half the chain's steps).
            ("ok64m_vb16_fast4", f"kda_chunk_split_c32_vb16_k{d}_fast4", 32, False, 16),
            *((name, path, int(c), False, int(vb)) for name, path, c, vb, *_ in
              ((e.split("=")[0], *e.split("=", 1)[1].split(":")) for e in args.extra))):
        if variant in variants:
            scan_cubin = extra_scans.get(variant)
            module = rt.load(cubin if cubin.endswith(".cubin") else
                             os.path.join(args.kernels, f"{cubin}.sm_90a.cubin"))
            prep = rt.kernel(module, "kda_chunk_prep")
            if "64m" in variant:
                merges[variant] = rt.kernel(rt.load(os.path.join(
                    args.kernels, f"kda_chunk_merge_c32_vb16_k{d}.sm_90a.cubin")),
                    "kda_chunk_merge")
            if variant[0] in "ho" or variant.startswith("ko"):
                hmod = rt.load(
                    (scan_cubin if scan_cubin.endswith(".cubin") else
                     os.path.join(args.kernels, f"{scan_cubin}.sm_90a.cubin"))
                    if scan_cubin else os.path.join(
                    args.kernels, cubin.replace("kda_chunk_split", "kda_chunk_h")
                    .replace("_tp32", "_tf32").replace("_fast4", "")
                    .replace("_c32_", "_c64_" if "64m" in variant else "_c32_")
                    + ("_r1" if variant.endswith("_r1") else "") + ".sm_90a.cubin"))
                scan = ((rt.kernel(hmod, "kda_chunk_scan_hk" if variant.startswith("hk")
                                   else "kda_chunk_scan_h"), rt.kernel(hmod, "kda_chunk_out"))
                        if variant[0] == "h" else
                        [rt.kernel(hmod, "kda_chunk_scan_ok" if variant.startswith("ok")
                                   else "kda_chunk_scan_ko" if variant.startswith("ko")
                                   else "kda_chunk_scan_o")])
            else:
                scan = rt.kernel(module, "kda_chunk_scan")
            split[variant] = (prep, scan, chunk, vfirst, vb)
    chunk_kda = None
    if args.fla:
        sys.path.insert(0, args.fla)
        from fla.ops.kda import chunk_kda
    K = V = args.dim
    results = []
    for shape in args.shapes.split(","):
        lens, H, varlen = parse_shape(shape)
        B, T, N = len(lens), max(lens), len(lens)
        tt = sum(lens)
        # Varlen: one packed sequence dimension (B = 1 in the tensors).
        q, k, v, g, beta, h0 = inputs(1 if varlen else B, tt if varlen else T, H, K, V,
                                      seed=N * 7 + tt + H, gate=args.gate)
        if varlen:
            h0 = torch.randn(N, H, K, V, device="cuda") * 0.1
        scale = K ** -0.5
        stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa: E731
        bounds = [0]
        for n in lens:
            bounds.append(bounds[-1] + n)
        t_ref = time.perf_counter()
        if args.no_reference:
            o_ref = s_ref = None
        elif varlen:  # the reference per sequence
            o_ref = torch.empty(1, tt, H, V, dtype=torch.float64, device="cuda")
            s_ref = torch.empty(N, H, K, V, dtype=torch.float64, device="cuda")
            for i in range(N):
                a, b = bounds[i], bounds[i + 1]
                o_i, s_i = reference(q[:, a:b], k[:, a:b], v[:, a:b], g[:, a:b], beta[:, a:b],
                                     h0[i:i + 1], scale)
                o_ref[:, a:b] = o_i
                s_ref[i] = s_i[0]
        else:
            o_ref, s_ref = reference(q, k, v, g, beta, h0, scale)
        if o_ref is not None:
            torch.cuda.synchronize()
            print(f"reference {shape}: {time.perf_counter() - t_ref:.1f} s", file=sys.stderr, flush=True)
        cu = torch.tensor(bounds, dtype=torch.int32, device="cuda")
        flat = lambda x: x.reshape(tt, H, *x.shape[3:])  # noqa: E731  [B, T, H, ...] -> [tt, H, ...]
        rows = []
        for variant in variants:
            if variant == "fwd" and varlen:
                continue
            o = torch.full(q.shape[:3] + (V,), float("nan"), dtype=torch.bfloat16, device="cuda")
            single = variant == "fwd" or variant in fused
            vfirst = not single and split[variant][3]
            h0_run = h0.transpose(-1, -2).contiguous() if vfirst else h0
            ht = torch.full_like(h0_run, float("nan"))
            if variant == "fwd":
                launch = fwd.prepare(
                    {"q": q, "k": k, "v": v, "g": g, "beta": beta, "h0": h0, "o": o, "ht": ht},
                    {"n": B, "h": H, "t": T}, {"scale": scale}, stream)
            elif variant in fused:
                launch = fused[variant].prepare(
                    {"q": flat(q), "k": flat(k), "g": flat(g), "beta": flat(beta),
                     "v": flat(v), "cu_seqlens": cu, "h0": h0, "o": flat(o), "ht": ht},
                    {"n": N, "h": H, "hqk": H, "tt": tt, "np1": N + 1}, {"scale": scale},
                    stream)
            else:
                prep_kernel, scan_kernel, C, _, _ = split[variant]
                nc = (T + C - 1) // C  # chunks of the longest sequence (checkpoint table)
                # kda_chunk_h (a tuple of kernels, or a list of the fused
                # scan) also takes hs and us (the fused scan: us only).
                mid, sizes = slot_intermediates(
                    tt, N, H, C, K, V, states=isinstance(scan_kernel, (tuple, list)),
                    mid_dtype=torch.float32 if variant.endswith(("_tf32", "_tp32"))
                    else torch.float16 if variant.endswith("_h16") else torch.bfloat16,
                    pb_dtype=torch.float32 if variant.endswith("_pb32") else None,
                    kl_dtype=torch.float16 if variant.endswith("_h16") else torch.bfloat16)
                hs = {x: mid.pop(x) for x in ("hs", "us") if x in mid}
                # A prep built with RDY=1 sets a ready flag per chunk slot
                # (zeroed before each call), which the scans built with RDY=1
                # wait for, launched while the prep runs (docs/Prefill.md).
                if "arg ptr ready " in prep_kernel.metadata():
                    mid["ready"] = torch.zeros(H, sizes["ns"], dtype=torch.int32,
                                               device="cuda")
                dims = {"n": N, "h": H, "tt": tt, "np1": N + 1, **sizes}
                only = lambda *names: {x: dims[x] for x in names}  # noqa: E731
                # The row strides of q, k, g, beta (sq .. sb; the scans take
                # v's, sv): dense rows.
                strides = {"s" + x[0]: flat(t).stride(0) for x, t in
                           (("q", q), ("k", k), ("g", g), ("b", beta))}
                vin = {"v": flat(v)}
                sv = {"sv": flat(v).stride(0)}
                op, od, _ = no_offsets(cu, N)
                prep_args = ({"q": flat(q), "k": flat(k), "g": flat(g), "beta": flat(beta),
                              "cu_seqlens": cu, **mid, **op},
                             {**only("tt", "h", "np1", "ns"), "hqk": H, **od},  # no GVA
                             {"scale": scale, **strides})
                prep_c32 = prep_kernel.prepare(*prep_args, stream)
                prep = prep_c32
                if "ready" in mid:
                    def prep(prep_c32=prep_c32, ready=mid["ready"]):
                        ready.zero_()
                        prep_c32()
                if variant in merges:
                    # The pairs of chunks as chunks of 64 (kda_chunk_merge):
                    # the scan reads those intermediates, per slot of 64.
                    C = 2 * C
                    nc = (T + C - 1) // C
                    mid2, sizes2 = slot_intermediates(tt, N, H, C, K, V, states=True)
                    hs = {x: mid2.pop(x) for x in ("hs", "us")}
                    merge = merges[variant].prepare(
                        {**{x: mid[x] for x in ("qd", "kl", "wn", "tp", "pb", "gl")},
                         **{x + "2": mid2[x] for x in ("qd", "kl", "wn", "tp", "pb", "gl")},
                         "cu_seqlens": cu},
                        {"h": H, "np1": N + 1, **sizes, "ns2": sizes2["ns"]}, {}, stream)

                    def prep(prep_c32=prep_c32, merge=merge):
                        prep_c32()
                        merge()
                    mid = mid2
                    dims = {**dims, **sizes2}
                pieces = 0
                if isinstance(scan_kernel, (tuple, list)):  # on the state pool
                    pick = lambda *names: {k: mid[k] for k in names}  # noqa: E731
                    # The state pool, in place: slot i for sequence i, no
                    # checkpoints (bench/kda_serving.py checks those).
                    ht = h0_run.clone()
                    slots = {"state_indices": torch.arange(N, dtype=torch.int32, device="cuda"),
                             "has_initial_state": torch.ones(N, dtype=torch.int32,
                                                             device="cuda")}
                    ckpt = {"checkpoint_blocks": torch.full((N, nc), -1, dtype=torch.int32,
                                                            device="cuda"),
                            "ckpt": torch.full((1, H, K, V), float("nan"), device="cuda")}
                    sp, sd, sx = no_offsets(cu, N, scan=True)
                    # The fused scans' (kda_chunk_scan_o, _ok, _ko) arguments.
                    scan_ptrs = {**vin, **pick("qd", "kl", "wn", "tp", "pb", "gl"),
                                 "us": hs.get("us"), **slots, **ckpt, "pool": ht,
                                 "cu_seqlens": cu, "o": flat(o), **sp}
                    scan_dims = {**only("n", "h", "np1", "ns", "tt"), "nc": nc, "slots": N,
                                 "blocks": 1, **sd}
                    pieces = piece_count(variant, prep_kernel)
                    if pieces:
                        # PC=1 kernels: the prep and the scan in `pieces`
                        # launches each, the prep of piece p + 1 on a second
                        # stream beside the scan of piece p (docs/Prefill.md,
                        # "Pieces"); the state between pieces in carry.
                        carry = torch.full((N, H, V, K), float("nan"), device="cuda")
                        preps = [prep_kernel.prepare(
                            *prep_args[:2], {**prep_args[2], "piece": p, "pieces": pieces},
                            stream) for p in range(pieces)]
                        scans = [scan_kernel[0].prepare(
                            {**scan_ptrs, "carry": carry}, scan_dims,
                            {**sx, **sv, "piece": p, "pieces": pieces}, stream)
                            for p in range(pieces)]
                        prep = lambda preps=preps: [x() for x in preps]  # noqa: E731
                        scan = lambda scans=scans: [x() for x in scans]  # noqa: E731
                        launch = pieces_launcher(preps, scans)
                    elif isinstance(scan_kernel, list):  # the output on the scan
                        scan = scan_kernel[0].prepare(
                            {**scan_ptrs,
                             **({"ready": mid["ready"]} if "ready" in mid else {})},
                            scan_dims, {**sx, **sv}, stream)
                    scan_h = None if isinstance(scan_kernel, list) else scan_kernel[0].prepare(
                        {**vin, **pick("kl", "wn", "tp", "gl"), **hs, **slots, **ckpt,
                         "pool": ht, "cu_seqlens": cu, **sp},
                        {**only("n", "h", "np1", "ns", "tt"), "nc": nc, "slots": N,
                         "blocks": 1, **sd}, {**sx, **sv}, stream)
                    if scan_h is not None:
                        out = scan_kernel[1].prepare(
                            {**pick("qd", "pb"), **hs, "cu_seqlens": cu,
                             "state_indices": slots["state_indices"], "o": flat(o)},
                            only("h", "ns", "np1", "n", "tt"), {"nslots": N}, stream)

                        def scan(scan_h=scan_h, out=out):
                            scan_h()
                            out()
                else:
                    scan = scan_kernel.prepare({**vin, **mid, "h0": h0_run, "cu_seqlens": cu,
                                                "o": flat(o), "ht": ht}, dims, sv, stream)

                if not pieces:
                    def launch(prep=prep, scan=scan):
                        prep()
                        scan()
            launch()
            torch.cuda.synchronize()
            row = {"variant": variant, "B": B, "T": T, "H": H, "K": K, "gate": args.gate,
                   "lens": "+".join(map(str, lens)) if varlen else None,
                   "err_o": rel_err(o, o_ref) if o_ref is not None else float("nan"),
                   "err_state": rel_err(ht.transpose(-1, -2) if vfirst else ht, s_ref)
                   if s_ref is not None else float("nan")}
            row["us"] = graph_time_us(launch, replays=10)
            if args.per_kernel and not single:
                row["prep_us"] = graph_time_us(prep, replays=10)
                row["scan_us"] = graph_time_us(scan, replays=10)
                if variant.startswith("h"):
                    row["out_us"] = graph_time_us(out, replays=10)
            row["tflops"] = flops(1, tt, H, K, V) / (row["us"] * 1e-6) / 1e12
            rows.append(row)
        fla = {}
        if chunk_kda is not None:
            extra = {"cu_seqlens": cu.long()} if varlen else {}
            call = lambda: chunk_kda(q, k, v, g, beta, scale=scale,  # noqa: E731
                                     initial_state=h0, output_final_state=True, **extra)
            of, hf = call()
            torch.cuda.synchronize()
            fla = {"fla_err_o": rel_err(of, o_ref) if o_ref is not None else float("nan"),
                   "fla_err_state": rel_err(hf, s_ref) if s_ref is not None else float("nan"),
                   "fla_us": graph_time_us(call, replays=10)}
        for row in rows:
            row.update(fla)
            if fla:
                row["ratio"] = row["us"] / row["fla_us"]
            results.append(row)
            print(json.dumps(row), flush=True)
    print("\n| kernel | B | T | H | K=V | gate | err o | err state | kda2 ms | TFLOP/s | fla ms"
          " | fla err o | kda2/fla |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        seqs = f"{r['lens']} (varlen)" if r.get("lens") else f"{r['B']} | {r['T']}"
        print(f"| {r['variant']} | {seqs} | {r['H']} | {r['K']} | {r['gate']} "
              f"| {r['err_o']:.2e} "
              f"| {r['err_state']:.2e} | {r['us'] / 1000:.3f} | {r['tflops']:.1f} "
              f"| {r.get('fla_us', float('nan')) / 1000:.3f} "
              f"| {r.get('fla_err_o', float('nan')):.2e} | {r.get('ratio', float('nan')):.2f} |")
    if args.per_kernel:
        print("\n| kernel | B | T | H | prep ms | scan ms | (of it: output) | all ms |")
        print("|---|---|---|---|---|---|---|---|")
        for r in results:
            if "prep_us" in r:
                out_ms = f"{r['out_us'] / 1000:.4f}" if "out_us" in r else "-"
                print(f"| {r['variant']} | {r['B']} | {r['T']} | {r['H']} | {r['prep_us'] / 1000:.4f} "
                      f"| {r['scan_us'] / 1000:.4f} | {out_ms} | {r['us'] / 1000:.4f} |")
    out_dir = os.environ.get("OUT")
    if out_dir:
        with open(os.path.join(out_dir, "kda_prefill.json"), "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
