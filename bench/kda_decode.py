"""KDA decode and delta_softmax on the GPU: correctness against a float64
reference and speed side by side with flash-linear-attention, in one run.

  python3 bench/kda_decode.py --kernels build/kernels [--fla third_party_downloads/fla]

Prints a markdown table and writes JSON to $OUT (or the current directory).
Timing: each kernel is captured 20 times into a CUDA graph; the graph is
replayed after warm-up and the median replay time / 20 is reported.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
import kda2rt  # noqa: E402

REPEAT = 20


def graph_time_us(fn, replays=30):
    """Median time of one call, from CUDA-graph replays of REPEAT calls."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(REPEAT):
            fn()
    for _ in range(3):
        graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0 / REPEAT)
    times.sort()
    return times[len(times) // 2]


def copy_bandwidth_gbs():
    n = 1 << 30  # 4 GiB of float32 read, 4 GiB written
    a = torch.randn(n, dtype=torch.float32, device="cuda")
    b = torch.empty_like(a)
    for _ in range(5):
        b.copy_(a)
    times = []
    for _ in range(10):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        b.copy_(a)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    times.sort()
    del a, b
    return 2 * n * 4 / times[len(times) // 2] / 1e9


def rel_err(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return float("nan")
    return ((out - ref).norm() / ref.norm()).item()


def kda_reference(q, k, v, g, beta, h0, scale):
    """float64 recurrence; h0 is K-first [B, H, K, V]."""
    B, T, H, K = q.shape
    S = h0.double().clone()
    o = torch.empty(B, T, H, v.shape[-1], dtype=torch.float64, device=q.device)
    for t in range(T):
        S = S * g[:, t].double().exp().unsqueeze(-1)
        kt, vt = k[:, t].double(), v[:, t].double()
        u = beta[:, t].double().unsqueeze(-1) * (vt - torch.einsum("bhk,bhkv->bhv", kt, S))
        S = S + torch.einsum("bhk,bhv->bhkv", kt, u)
        o[:, t] = scale * torch.einsum("bhk,bhkv->bhv", q[:, t].double(), S)
    return o, S


TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}


def kda_inputs(B, T, H, K, V, seed, dtype="bf16"):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    r = lambda *s: torch.randn(*s, device="cuda", generator=gen)  # noqa: E731
    dt = TORCH_DTYPES[dtype]
    q = torch.nn.functional.normalize(r(B, T, H, K), dim=-1).to(dt)
    k = torch.nn.functional.normalize(r(B, T, H, K), dim=-1).to(dt)
    v = r(B, T, H, V).to(dt)
    g = torch.nn.functional.logsigmoid(r(B, T, H, K)) * 0.1  # log decay <= 0
    beta = torch.sigmoid(r(B, T, H))
    h0 = r(B, H, K, V) * 0.1
    return q, k, v, g, beta, h0


def run_decode(rt, kernels, fla_fwd, B, T, H, D, variant, results, vb=None, lanes=4,
               suffix="", dtype="bf16"):
    K = V = D
    if dtype != "bf16":
        suffix += "_" + dtype
    if vb:
        name, kname = f"kda_decode_vsplit_k{D}_vb{vb}_l{lanes}{suffix}", "kda_decode_vsplit"
    elif variant == "kfirst":
        name, kname = f"kda_decode_k{D}", "kda_decode"
    else:
        name, kname = f"kda_decode_vfirst_k{D}", "kda_decode_vfirst"
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"{name}.sm_90a.cubin")), kname)
    q, k, v, g, beta, h0 = kda_inputs(B, T, H, K, V, seed=B * 1000 + T * 10 + D, dtype=dtype)
    scale = K ** -0.5
    o_ref, s_ref = kda_reference(q, k, v, g, beta, h0, scale)
    h0_run = h0 if variant == "kfirst" else h0.transpose(-1, -2).contiguous()
    o = torch.full((B, T, H, V), float("nan"), dtype=TORCH_DTYPES[dtype], device="cuda")
    ht = torch.full_like(h0_run, float("nan"))
    launch = kernel.prepare(
        {"q": q, "k": k, "v": v, "g": g, "beta": beta, "h0": h0_run, "o": o, "ht": ht},
        {"n": B, "h": H, "t": T}, {"scale": scale}, lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    # The typed C ABI (kda2rt_kda_decode) must give bit-identical results.
    o2, ht2 = torch.full_like(o, float("nan")), torch.full_like(ht, float("nan"))
    kernel.kda_decode(q, k, v, g, beta, h0_run, o2, ht2, scale,
                      torch.cuda.current_stream().cuda_stream, dtype,
                      "kv" if variant == "kfirst" else "vk")
    torch.cuda.synchronize()
    c_abi_identical = bool(torch.equal(o, o2) and torch.equal(ht, ht2))
    ht_k = ht if variant == "kfirst" else ht.transpose(-1, -2)
    row = {"kernel": "kda_decode",
           "variant": variant + (f"/vsplit{vb}/lanes{lanes}{suffix}" if vb else ""),
           "B": B, "T": T, "H": H, "K": K,
           "V": V, "err_o": rel_err(o, o_ref), "err_state": rel_err(ht_k, s_ref),
           "c_abi_identical": c_abi_identical}
    us = graph_time_us(launch)
    nbytes = (2 * B * H * K * V * 4 + B * T * H * (2 * K * 2 + K * 4 + 4 + 2 * V * 2))
    row.update(us=us, gbs=nbytes / (us * 1e-6) / 1e9)
    fla_key = (B, T, H, D, variant.split("/")[0], dtype)
    if fla_fwd is not None and fla_key in FLA_CACHE:
        row.update(FLA_CACHE[fla_key])
        row["ratio"] = row["us"] / row["fla_us"]
    elif fla_fwd is not None:
        o_f = torch.empty_like(o)
        state_v_first = variant != "kfirst"
        call = lambda: fla_fwd(q=q, k=k, v=v, g=g, beta=beta, initial_state=h0_run,  # noqa
                               scale=scale, output_final_state=True,
                               inplace_final_state=False, state_v_first=state_v_first,
                               out=o_f)
        of, hf = call()
        torch.cuda.synchronize()
        hf_k = hf if variant == "kfirst" else hf.transpose(-1, -2)
        row["fla_err_o"], row["fla_err_state"] = rel_err(of, o_ref), rel_err(hf_k, s_ref)
        row["fla_us"] = graph_time_us(call)
        FLA_CACHE[fla_key] = {k: row[k] for k in ("fla_err_o", "fla_err_state", "fla_us")}
        row["ratio"] = row["us"] / row["fla_us"]
    results.append(row)
    print(json.dumps(row), flush=True)


FLA_CACHE = {}


def finish_row(row, launch, nbytes, fla_call, o_ref, s_ref, results):
    """Times kda2's launch, runs and times FLA's call when given, records."""
    us = graph_time_us(launch)
    row.update(us=us, gbs=nbytes / (us * 1e-6) / 1e9)
    if fla_call is not None:
        of, hf = fla_call()
        torch.cuda.synchronize()
        row["fla_err_o"], row["fla_err_state"] = rel_err(of, o_ref), rel_err(hf, s_ref)
        row["fla_us"] = graph_time_us(fla_call)
        row["ratio"] = row["us"] / row["fla_us"]
    results.append(row)
    print(json.dumps(row), flush=True)


def run_fused(rt, kernels, fla_fwd, B, H, D, results):
    """In-kernel q/k L2 norm and beta sigmoid (kda_decode_fused.tirx)."""
    K = V = D
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_fused_k{D}.sm_90a.cubin")),
                       "kda_decode_fused")
    gen = torch.Generator(device="cuda").manual_seed(11)
    r = lambda *s: torch.randn(*s, device="cuda", generator=gen)  # noqa: E731
    q, k, v = r(B, 1, H, K).bfloat16(), r(B, 1, H, K).bfloat16(), r(B, 1, H, V).bfloat16()
    g = torch.nn.functional.logsigmoid(r(B, 1, H, K)) * 0.1
    beta_logits = r(B, 1, H)
    h0 = r(B, H, K, V) * 0.1
    scale = K ** -0.5
    qn = torch.nn.functional.normalize(q.double(), dim=-1, eps=1e-6)
    kn = torch.nn.functional.normalize(k.double(), dim=-1, eps=1e-6)
    o_ref, s_ref = kda_reference(qn, kn, v, g, torch.sigmoid(beta_logits.double()), h0, scale)
    o = torch.full((B, 1, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    ht = torch.full_like(h0, float("nan"))
    launch = kernel.prepare(
        {"q": q, "k": k, "v": v, "g": g, "beta": beta_logits, "h0": h0, "o": o, "ht": ht},
        {"n": B, "h": H, "t": 1}, {"scale": scale},
        lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    row = {"kernel": "kda_decode", "variant": "kfirst/fused-l2norm-sigmoid", "B": B, "T": 1,
           "H": H, "K": K, "V": V, "err_o": rel_err(o, o_ref), "err_state": rel_err(ht, s_ref)}
    nbytes = 2 * B * H * K * V * 4 + B * H * (2 * K * 2 + K * 4 + 4 + 2 * V * 2)
    o_f = torch.empty_like(o)
    call = None if fla_fwd is None else lambda: fla_fwd(  # noqa: E731
        q=q, k=k, v=v, g=g, beta=beta_logits, initial_state=h0, scale=scale,
        output_final_state=True, inplace_final_state=False, use_qk_l2norm_in_kernel=True,
        use_beta_sigmoid_in_kernel=True, out=o_f)
    finish_row(row, launch, nbytes, call, o_ref, s_ref, results)


def run_gate(rt, kernels, fla_fwd, B, T, H, D, bounded, results, suffix=""):
    """Gate activated in the kernel from A_log, dt_bias (and lower_bound)."""
    K = V = D
    name = "kda_decode_gate" if bounded else "kda_decode_gate_softplus"
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"{name}_k{D}{suffix}.sm_90a.cubin")),
                       name)
    gen = torch.Generator(device="cuda").manual_seed(13)
    r = lambda *s: torch.randn(*s, device="cuda", generator=gen)  # noqa: E731
    q = torch.nn.functional.normalize(r(B, T, H, K), dim=-1).bfloat16()
    k = torch.nn.functional.normalize(r(B, T, H, K), dim=-1).bfloat16()
    v = r(B, T, H, V).bfloat16()
    # Adversarial gates: the bounded family at lower_bound -5; the unbounded
    # one with large raw values (strong decay).
    a = r(B, T, H, K) * (1.0 if bounded else 4.0)
    A_log = r(H) * 0.5
    dt_bias = r(H, K) * 0.5
    beta = torch.sigmoid(r(B, T, H))
    h0 = r(B, H, K, V) * 0.1
    scale, lower_bound = K ** -0.5, -5.0
    x = a.double() + dt_bias.double()[None, None]
    A = A_log.double().exp()[None, None, :, None]
    g = lower_bound * torch.sigmoid(A * x) if bounded else -A * torch.nn.functional.softplus(x)
    o_ref, s_ref = kda_reference(q, k, v, g, beta, h0, scale)
    o = torch.full((B, T, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    ht = torch.full_like(h0, float("nan"))
    scalars = {"scale": scale, "lower_bound": lower_bound} if bounded else {"scale": scale}
    launch = kernel.prepare(
        {"q": q, "k": k, "v": v, "a": a, "beta": beta, "h0": h0, "A_log": A_log,
         "dt_bias": dt_bias, "o": o, "ht": ht},
        {"n": B, "h": H, "t": T}, scalars, lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    row = {"kernel": "kda_decode",
           "variant": "gate-" + ("sigmoid-lb-5" if bounded else "softplus") + suffix,
           "B": B, "T": T, "H": H, "K": K, "V": V, "err_o": rel_err(o, o_ref),
           "err_state": rel_err(ht, s_ref)}
    nbytes = 2 * B * H * K * V * 4 + B * T * H * (2 * K * 2 + K * 4 + 4 + 2 * V * 2)
    o_f = torch.empty_like(o)
    extra = {"lower_bound": lower_bound} if bounded else {}
    call = None if fla_fwd is None else lambda: fla_fwd(  # noqa: E731
        q=q, k=k, v=v, g=a, beta=beta, A_log=A_log, dt_bias=dt_bias.reshape(-1),
        initial_state=h0, scale=scale, output_final_state=True, inplace_final_state=False,
        use_gate_in_kernel=True, out=o_f, **extra)
    finish_row(row, launch, nbytes, call, o_ref, s_ref, results)


def run_varlen(rt, kernels, fla_fwd, lengths, H, D, results, suffix=""):
    """Packed variable-length batch with cu_seqlens (empty and 1-token
    sequences included), against the per-sequence float64 recurrence."""
    K = V = D
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_varlen_k{D}{suffix}.sm_90a.cubin")),
                       "kda_decode_varlen")
    N, T = len(lengths), sum(lengths)
    cu = torch.tensor([0] + list(torch.tensor(lengths).cumsum(0)), dtype=torch.int32, device="cuda")
    q, k, v, g, beta, h0 = kda_inputs(1, T, H, K, V, seed=T)
    h0 = torch.randn(N, H, K, V, device="cuda") * 0.1
    scale = K ** -0.5
    o_ref = torch.empty(1, T, H, V, dtype=torch.float64, device="cuda")
    s_ref = torch.empty(N, H, K, V, dtype=torch.float64, device="cuda")
    for n in range(N):
        b, e = int(cu[n]), int(cu[n + 1])
        if e == b:
            s_ref[n] = h0[n].double()
            continue
        on, sn = kda_reference(q[:, b:e], k[:, b:e], v[:, b:e], g[:, b:e], beta[:, b:e],
                               h0[n:n + 1], scale)
        o_ref[:, b:e], s_ref[n] = on, sn[0]
    o = torch.full((T, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    ht = torch.full_like(h0, float("nan"))
    launch = kernel.prepare(
        {"q": q[0], "k": k[0], "v": v[0], "g": g[0], "beta": beta[0], "cu_seqlens": cu,
         "h0": h0, "o": o, "ht": ht},
        {"n": N, "h": H, "tt": T, "np1": N + 1}, {"scale": scale},
        lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    row = {"kernel": "kda_decode", "variant": "varlen" + suffix, "B": N, "T": T, "H": H,
           "K": K, "V": V, "err_o": rel_err(o[None], o_ref), "err_state": rel_err(ht, s_ref)}
    nbytes = 2 * N * H * K * V * 4 + T * H * (2 * K * 2 + K * 4 + 4 + 2 * V * 2)
    o_f = torch.empty_like(o[None])
    call = None if fla_fwd is None else lambda: fla_fwd(  # noqa: E731
        q=q, k=k, v=v, g=g, beta=beta, initial_state=h0, scale=scale,
        output_final_state=True, inplace_final_state=False, cu_seqlens=cu.long(), out=o_f)
    finish_row(row, launch, nbytes, call, o_ref, s_ref, results)


def run_delta_softmax(rt, kernels, B, H, results):
    S, D = 32, 64
    kernel = rt.kernel(rt.load(os.path.join(kernels, "delta_softmax_d64.sm_90a.cubin")),
                       "delta_softmax")
    gen = torch.Generator(device="cuda").manual_seed(7)
    # Logical [B, H, S, D], stored BSHD ([B, S, H, D]).
    q = torch.randn(B, S, H, D, device="cuda", generator=gen).half()
    k = torch.randn(B, S, H, D, device="cuda", generator=gen).half()
    mask = (torch.rand(B, S, H, S, device="cuda", generator=gen) > 0.3).half()
    out = torch.full((B, H, S, S), float("nan"), dtype=torch.half, device="cuda")
    launch = kernel.prepare({"q": q, "k": k, "mask": mask, "out": out},
                            {"batch": B, "head": H, "seq_q": S, "seq_k": S}, {},
                            lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    qd, kd = q.double().transpose(1, 2), k.double().transpose(1, 2)
    s = torch.einsum("bhid,bhjd->bhij", qd, kd) * mask.double().transpose(1, 2)
    ref = torch.softmax(s, dim=-1)
    row = {"kernel": "delta_softmax", "B": B, "H": H, "S": S, "D": D,
           "err_o": rel_err(out, ref), "us": graph_time_us(launch)}
    results.append(row)
    print(json.dumps(row), flush=True)


def run_bf16_cases(rt, kernels, fla_fwd, results):
    """Every bf16 schedule and template (the main table)."""
    schedules = [(vb, lanes) for vb in (32, 64) for lanes in (2, 4, 8)]
    for B in (1, 8, 64, 256):
        run_decode(rt, kernels, fla_fwd, B, 1, 32, 128, "kfirst", results)
        for vb, lanes in schedules:
            run_decode(rt, kernels, fla_fwd, B, 1, 32, 128, "kfirst", results, vb, lanes)
    for B, T in ((1, 1), (8, 1), (64, 1), (256, 1), (8, 4)):
        run_decode(rt, kernels, fla_fwd, B, T, 32, 128, "kfirst", results, 32, 4, "_fast")
    for vb, lanes in schedules:
        run_decode(rt, kernels, fla_fwd, 64, 1, 32, 64, "kfirst", results, vb, lanes)
        run_decode(rt, kernels, fla_fwd, 16, 1, 32, 256, "kfirst", results, vb, lanes)
        run_decode(rt, kernels, fla_fwd, 8, 4, 32, 128, "kfirst", results, vb, lanes)
    run_decode(rt, kernels, fla_fwd, 64, 1, 32, 128, "vfirst", results)
    run_decode(rt, kernels, fla_fwd, 256, 1, 32, 128, "vfirst", results)
    for B in (1, 64, 256):
        run_fused(rt, kernels, fla_fwd, B, 32, 128, results)
    for bounded in (True, False):
        for B, T in ((1, 1), (64, 1), (256, 1), (8, 64)):
            for suffix in ("", "_fast"):
                run_gate(rt, kernels, fla_fwd, B, T, 32, 128, bounded, results, suffix)
    # Ragged batches: empty, 1-token and longer sequences, lengths not
    # multiples of anything; and a pure single-token decode batch.
    ragged = [5, 0, 1, 17, 3, 1, 0, 9, 2, 33, 1, 4, 0, 12, 7, 1]
    for suffix in ("", "_fast"):
        run_varlen(rt, kernels, fla_fwd, ragged, 32, 128, results, suffix)
        run_varlen(rt, kernels, fla_fwd, [1] * 64, 32, 128, results, suffix)
    run_delta_softmax(rt, kernels, 8, 16, results)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--fla", default=None)
    parser.add_argument("--only", choices=("all", "f16", "sweep"), default="all",
                        help="f16: only the fp16-input cases; sweep: only the bf16 K = V = 128 "
                             "schedules (kfirst, vsplit32/64 x lanes 2/4/8) at B = 8 and 64 "
                             "(the simulator's fidelity study)")
    args = parser.parse_args()
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    fla_fwd = None
    if args.fla:
        sys.path.insert(0, args.fla)
        from fla.ops.kda.fused_recurrent import fused_recurrent_kda_fwd as fla_fwd
    results = []
    copy = copy_bandwidth_gbs()
    print(json.dumps({"device": torch.cuda.get_device_name(), "copy_gbs": copy}), flush=True)
    if args.only == "sweep":
        for B in (8, 64):
            run_decode(rt, args.kernels, fla_fwd, B, 1, 32, 128, "kfirst", results)
            for vb in (32, 64):
                for lanes in (2, 4, 8):
                    run_decode(rt, args.kernels, fla_fwd, B, 1, 32, 128, "kfirst", results,
                               vb, lanes)
    # fp16 inputs (q, k, v, o): the same templates built with IN=f16.
    for B in (1, 8, 64, 256) if args.only != "sweep" else ():
        for lanes in (4, 8):
            run_decode(rt, args.kernels, fla_fwd, B, 1, 32, 128, "kfirst", results, 32, lanes,
                       dtype="f16")
    if args.only != "sweep":
        run_decode(rt, args.kernels, fla_fwd, 64, 1, 32, 64, "kfirst", results, 32, 4,
                   dtype="f16")
        run_decode(rt, args.kernels, fla_fwd, 16, 1, 32, 256, "kfirst", results, 32, 4,
                   dtype="f16")
        run_decode(rt, args.kernels, fla_fwd, 8, 4, 32, 128, "kfirst", results, 32, 4,
                   dtype="f16")
    if args.only == "all":
        run_bf16_cases(rt, args.kernels, fla_fwd, results)

    print(f"\ncopy ceiling measured: {copy:.0f} GB/s; % copy uses 4239 GB/s\n")
    copy = 4239.0
    print("| kernel | schedule | B | T | H | K=V | err o | err state | kda2 us | GB/s | % copy"
          " | fla us | fla err o | kda2/fla |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if r["kernel"] == "kda_decode":
            print(f"| decode | {r['variant']} | {r['B']} | {r['T']} | {r['H']} | {r['K']} "
                  f"| {r['err_o']:.2e} | {r['err_state']:.2e} | {r['us']:.2f} | {r['gbs']:.0f} "
                  f"| {100 * r['gbs'] / copy:.1f} | {r.get('fla_us', float('nan')):.2f} "
                  f"| {r.get('fla_err_o', float('nan')):.2e} | {r.get('ratio', float('nan')):.2f} |")
        else:
            print(f"| delta_softmax | - | {r['B']} | - | {r['H']} | {r['D']} | {r['err_o']:.2e} "
                  f"| - | {r['us']:.2f} | - | - | - | - | - |")
    print("\nBest kda2 schedule per shape:")
    print("| B | T | K=V | best schedule | kda2 us | % copy | fla us | kda2/fla |")
    print("|---|---|---|---|---|---|---|---|")
    best = {}
    for r in results:
        if r["kernel"] != "kda_decode" or "fused" in r["variant"] or "vfirst" in r["variant"]:
            continue
        key = (r["B"], r["T"], r["K"])
        if key not in best or r["us"] < best[key]["us"]:
            best[key] = r
    for key, r in best.items():
        print(f"| {r['B']} | {r['T']} | {r['K']} | {r['variant']} | {r['us']:.2f} "
              f"| {100 * r['gbs'] / copy:.1f} | {r.get('fla_us', float('nan')):.2f} "
              f"| {r.get('ratio', float('nan')):.2f} |")
    bad = [r for r in results if r.get("c_abi_identical") is False]
    print(f"\nC ABI kda2rt_kda_decode bit-identical to kda2rt_launch: "
          f"{'yes' if not bad else 'NO for ' + str(len(bad)) + ' cases'}")
    out_dir = os.environ.get("OUT", ".")
    with open(os.path.join(out_dir, "kda_decode.json"), "w") as f:
        json.dump({"copy_gbs": copy, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
