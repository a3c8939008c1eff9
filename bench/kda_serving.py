"""The serving contract on the GPU (docs/Runtime.md): KDA decode, speculative
decode and prefill (with prefix-caching checkpoints) through an indexed,
in-place state pool, checked against a float64 recurrence on random inputs,
and timed side by side with flash-linear-attention's continuous-batching path.

  python3 bench/kda_serving.py --kernels build/kernels [--fla third_party_downloads/fla]

Kernels: kda_decode_pool_* and kda_decode_spec_* from scripts/build-kernels.sh.
Checked per case: ||o - ref|| / ||ref|| and the written states' error; the
rows of padding sequences are exactly zero; every pool slot no sequence
writes is bitwise unchanged (padding slots -1 and >= slots included);
outputs are poisoned with NaN before each run; the call through the typed C
ABI (kda2rt_kda_decode_pool) is bitwise equal to the generic launch, and two
runs are bitwise equal (determinism). Prints JSON lines and a markdown
table; writes $OUT/kda_serving.json.
"""
import argparse
import json
import os
import sys
import traceback

import torch

sys.path.insert(0, os.path.dirname(__file__))
import kda2rt  # noqa: E402
from kda_decode import graph_time_us, kda_inputs, rel_err  # noqa: E402
from kda_prefill import no_offsets, slot_intermediates  # noqa: E402

TORCH_STATE = {"f32": torch.float32, "bf16": torch.bfloat16}
PROFILE_ONLY = False


def rows(**tensors):
    """The row-stride scalars of the serving kernels' inputs (sq, sk, sv, sg,
    sb; serve: sa, sb): each tensor's stride(0), dense here."""
    return {"s" + name[0]: t.stride(0) for name, t in tensors.items()}


def step(S, q, k, v, g, beta, scale):
    """One token of the recurrence on K-major float64 states S [H, K, V]."""
    S = S * g.double().exp().unsqueeze(-1)
    kt = k.double()
    u = beta.double().unsqueeze(-1) * (v.double() - torch.einsum("hk,hkv->hv", kt, S))
    S = S + torch.einsum("hk,hv->hkv", kt, u)
    return S, scale * torch.einsum("hk,hkv->hv", q.double(), S)


def to_kmajor(pool_slot, ss):
    """A pool slot [H, ...] as K-major float64 [H, K, V]."""
    s = pool_slot.double()
    return s if ss == "kv" else s.transpose(-1, -2)


def from_kmajor(S, ss, dtype):
    return (S if ss == "kv" else S.transpose(-1, -2)).contiguous().to(dtype)


def make_pool(slots, H, K, V, st, ss, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    master = torch.randn(slots, H, K, V, device="cuda", generator=gen) * 0.1
    return from_kmajor(master, ss, TORCH_STATE[st])


def pool_case(rt, kernels, K, V, st, ss, lengths, slots, H, fla_fwd, results, seed=0,
              pad_p=0.15, variant=""):
    """kda_decode_pool on a packed batch: per sequence a slot (some padding:
    -1 or >= slots), has_initial_state random. `variant`: a suffix of the
    kernel file (another VB / LANES binding, e.g. "_vb64_l2")."""
    suffix = f"k{K}" + (f"v{V}" if V != K else "") + f"_{st}_{ss}" + variant
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_pool_{suffix}.sm_90a.cubin")),
                       "kda_decode_pool")
    gen = torch.Generator().manual_seed(seed)
    N, T = len(lengths), sum(lengths)
    cu = torch.tensor([0] + torch.tensor(lengths).cumsum(0).tolist(), dtype=torch.int32)
    perm = torch.randperm(slots, generator=gen)
    idx = perm[:N].clone().to(torch.int32)
    pads = torch.rand(N, generator=gen) < pad_p
    idx[pads] = torch.where(torch.rand(int(pads.sum()), generator=gen) < 0.5,
                            torch.tensor(-1), torch.tensor(slots + 3)).to(torch.int32)
    has_init = (torch.rand(N, generator=gen) < 0.7).to(torch.int32)
    q, k, v, g, beta, _ = kda_inputs(1, T, H, K, V, seed=seed + T)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    scale = K ** -0.5
    pool = make_pool(slots, H, K, V, st, ss, seed)
    before = pool.clone()
    expected = pool.clone()
    o_ref = torch.zeros(T, H, V, dtype=torch.float64, device="cuda")
    written, padding_rows = [], []
    for n in range(N):
        b, e, slot = int(cu[n]), int(cu[n + 1]), int(idx[n])
        if not 0 <= slot < slots:
            padding_rows += list(range(b, e))
            continue
        S = to_kmajor(before[slot], ss) if has_init[n] else torch.zeros(
            H, K, V, dtype=torch.float64, device="cuda")
        for t in range(b, e):
            S, o_ref[t] = step(S, q[t], k[t], v[t], g[t], beta[t], scale)
        expected[slot] = from_kmajor(S, ss, pool.dtype)
        written.append(slot)
    cu_d, idx_d, hi_d = cu.cuda(), idx.cuda(), has_init.cuda()
    o = torch.full((T, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    ptrs = {"q": q, "k": k, "v": v, "g": g, "beta": beta, "cu_seqlens": cu_d,
            "state_indices": idx_d, "has_initial_state": hi_d, "pool": pool, "o": o}
    launch = kernel.prepare(ptrs, {"tt": T, "h": H, "np1": N + 1, "n": N, "slots": slots},
                            {"scale": scale, **rows(q=q, k=k, v=v, g=g, beta=beta)},
                            lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    row = check_pool(pool, before, expected, written, o, o_ref, padding_rows, ss)
    row.update(kernel="pool" + variant, st=st, ss=ss, N=N, T=T, H=H, K=K, V=V, slots=slots,
               padding=int(pads.sum()))
    # The typed C ABI, and a second run: bitwise equal.
    o2 = torch.full_like(o, float("nan"))
    pool2 = before.clone()
    kernel.kda_decode_pool(q, k, v, g, beta, cu_d, idx_d, hi_d, pool2, o2, scale,
                           torch.cuda.current_stream().cuda_stream, dtype="bf16",
                           state_dtype=st, state_layout=ss)
    torch.cuda.synchronize()
    row["c_abi_identical"] = bool(torch.equal(o2.view(torch.int16), o.view(torch.int16)) and
                                  torch.equal(pool2.view(torch.uint8), pool.view(torch.uint8)))
    # The wrong layout is refused (also when K == V).
    other = "vk" if ss == "kv" else "kv"
    try:
        kernel.kda_decode_pool(q, k, v, g, beta, cu_d, idx_d, hi_d, pool2, o2, scale,
                               torch.cuda.current_stream().cuda_stream, dtype="bf16",
                               state_dtype=st, state_layout=other)
        row["wrong_layout_refused"] = False
    except kda2rt.Error as e:
        row["wrong_layout_refused"] = "stores its state" in str(e)
        row["wrong_layout_message"] = str(e)
    # Timing: the pool evolves over replays, which does not change the work.
    nbytes = 2 * N * H * K * V * pool.element_size() + T * H * (2 * K * 2 + K * 4 + 4 + 2 * V * 2)
    row["us"] = graph_time_us(launch)
    row["gbs"] = nbytes / (row["us"] * 1e-6) / 1e9
    if fla_fwd is not None and st == "f32" and K == V and not pads.any():
        fpool = before.clone()
        of = torch.empty(1, T, H, V, dtype=torch.bfloat16, device="cuda")
        call = lambda: fla_fwd(  # noqa: E731
            q=q[None], k=k[None], v=v[None], g=g[None], beta=beta[None], initial_state=fpool,
            scale=scale, output_final_state=True, inplace_final_state=True,
            state_v_first=(ss == "vk"), cu_seqlens=cu_d.long(), ssm_state_indices=idx_d,
            out=of)
        row["fla_us"] = graph_time_us(call)
        row["ratio"] = row["us"] / row["fla_us"]
    results.append(row)
    print(json.dumps(row), flush=True)


def check_pool(pool, before, expected, written, o, o_ref, padding_rows, ss):
    row = {"err_o": rel_err(o, o_ref)}
    if written:
        w = torch.tensor(written, device="cuda")
        row["err_state"] = rel_err(to_kmajor(pool[w], ss), to_kmajor(expected[w], ss))
    untouched = torch.ones(pool.shape[0], dtype=torch.bool, device="cuda")
    if written:
        untouched[torch.tensor(written, device="cuda")] = False
    row["untouched_bitwise"] = bool(torch.equal(pool[untouched].view(torch.uint8),
                                                before[untouched].view(torch.uint8)))
    row["padding_rows_zero"] = bool((o[padding_rows] == 0).all()) if padding_rows else None
    return row


def spec_case(rt, kernels, K, V, st, ss, N, t, slots, H, fla_fwd, results, seed=1,
              pad_p=0.1):
    """kda_decode_spec: t tokens per sequence, a slot per token (some -1),
    num_accepted in 0..t, some padding sequences."""
    suffix = f"k{K}" + (f"v{V}" if V != K else "") + f"_{st}_{ss}"
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_spec_{suffix}.sm_90a.cubin")),
                       "kda_decode_spec")
    gen = torch.Generator().manual_seed(seed)
    idx = torch.randperm(slots, generator=gen)[:N * t].view(N, t).to(torch.int32)
    idx[torch.rand(N, t, generator=gen) < 0.2] = -1
    pads = torch.rand(N, generator=gen) < pad_p
    idx[pads] = -1
    acc = torch.randint(0, t + 1, (N,), generator=gen, dtype=torch.int32)
    q, k, v, g, beta, _ = kda_inputs(N, t, H, K, V, seed=seed + 7)
    scale = K ** -0.5
    pool = make_pool(slots, H, K, V, st, ss, seed)
    before = pool.clone()
    expected = pool.clone()
    o_ref = torch.zeros(N, t, H, V, dtype=torch.float64, device="cuda")
    written, padding_rows = [], []
    for n in range(N):
        if int(idx[n, 0]) < 0:
            padding_rows.append(n)
            continue
        a = int(acc[n])
        src = int(idx[n, max(a - 1, 0)])
        S = to_kmajor(before[src], ss) if a > 0 and 0 <= src < slots else torch.zeros(
            H, K, V, dtype=torch.float64, device="cuda")
        for i in range(t):
            S, o_ref[n, i] = step(S, q[n, i], k[n, i], v[n, i], g[n, i], beta[n, i], scale)
            dst = int(idx[n, i])
            if 0 <= dst < slots:
                expected[dst] = from_kmajor(S, ss, pool.dtype)
                written.append(dst)
    idx_d, acc_d = idx.cuda(), acc.cuda()
    o = torch.full((N, t, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    ptrs = {"q": q, "k": k, "v": v, "g": g, "beta": beta, "state_indices": idx_d,
            "num_accepted": acc_d, "pool": pool, "o": o}
    launch = kernel.prepare(ptrs, {"n": N, "t": t, "h": H, "slots": slots},
                            {"scale": scale, "write_states": 1,
                             **rows(q=q, k=k, v=v, g=g, beta=beta)},
                            lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    o_flat = o.view(N * t, H, V)
    pad_rows = [n * t + i for n in padding_rows for i in range(t)]
    row = check_pool(pool, before, expected, written, o_flat, o_ref.view(N * t, H, V), pad_rows,
                     ss)
    row.update(kernel="spec", st=st, ss=ss, N=N, T=t, H=H, K=K, V=V, slots=slots,
               padding=len(padding_rows))
    # Through the typed C ABI, a second run: bitwise equal (determinism).
    pool2, o2 = before.clone(), torch.full_like(o, float("nan"))
    kernel.kda_decode_spec(q, k, v, g, beta, idx_d, acc_d, pool2, o2, scale,
                           torch.cuda.current_stream().cuda_stream, state_dtype=st,
                           state_layout=ss)
    torch.cuda.synchronize()
    row["deterministic"] = bool(torch.equal(o2.view(torch.int16), o.view(torch.int16)) and
                                torch.equal(pool2.view(torch.uint8), pool.view(torch.uint8)))
    # Output only (write_states = 0): the same outputs, the pool untouched.
    pool3, o3 = before.clone(), torch.full_like(o, float("nan"))
    kernel.kda_decode_spec(q, k, v, g, beta, idx_d, acc_d, pool3, o3, scale,
                           torch.cuda.current_stream().cuda_stream, state_dtype=st,
                           state_layout=ss, write_states=0)
    torch.cuda.synchronize()
    row["output_only_ok"] = bool(torch.equal(o3.view(torch.int16), o.view(torch.int16)) and
                                 torch.equal(pool3.view(torch.uint8), before.view(torch.uint8)))
    row["us"] = graph_time_us(launch)
    if fla_fwd is not None and st == "f32" and K == V and not pads.any():
        # FLA's spec path: varlen over the same packed tokens, its slots must
        # all be valid (it does not check them): a fresh permutation.
        fidx = torch.randperm(slots, generator=gen)[:N * t].view(N, t).to(torch.int32).cuda()
        facc = acc_d.clamp(min=1)
        fpool = before.clone()
        cu = torch.arange(0, N * t + 1, t, dtype=torch.long, device="cuda")
        of = torch.empty(1, N * t, H, V, dtype=torch.bfloat16, device="cuda")
        flat = lambda x: x.reshape(1, N * t, *x.shape[2:])  # noqa: E731
        call = lambda: fla_fwd(  # noqa: E731
            q=flat(q), k=flat(k), v=flat(v), g=flat(g), beta=flat(beta), initial_state=fpool,
            scale=scale, output_final_state=True, inplace_final_state=True,
            state_v_first=(ss == "vk"), cu_seqlens=cu, ssm_state_indices=fidx,
            num_accepted_tokens=facc, out=of)
        row["fla_us"] = graph_time_us(call)
        row["ratio"] = row["us"] / row["fla_us"]
    results.append(row)
    print(json.dumps(row), flush=True)


def pool_prefill(prep_launch, scan, out, N, H, nc, C, K, V, v, tt, cu_d, idx_d, hi_d, cb_d,
                 pool, ckpt, slots, blocks, o, stream, h16=False):
    """The prefill through the pool with kda_chunk_h's kernels: the
    intermediates (NaN-poisoned, the generic launches' own buffers, per chunk
    slot: kda_prefill.slot_intermediates) and the three prepared launches.
    prep_launch(mid, dims) prepares the prep kernel on them (its inputs differ
    per prep). nc: the columns of the checkpoint table cb_d; v [tt, H, V],
    which the scan reads in place. Returns the launches, the intermediates
    and the prep's sizes. h16: the f16 intermediates (TP=f16, KL=f16)."""
    typed = torch.float16 if h16 else torch.bfloat16  # tp, pb, us and kl
    mid, sizes = slot_intermediates(tt, N, H, C, K, V, states=True, mid_dtype=typed,
                                    kl_dtype=typed)
    hs = {x: mid.pop(x) for x in ("hs", "us")}
    dims = {"n": N, "h": H, "np1": N + 1, **sizes}
    # No checkpoints at token offsets here (kda_contract.py checks those).
    op, od, _ = no_offsets(cu_d, N)
    sp, sd, sx = no_offsets(cu_d, N, scan=True)
    mid.update(op)
    prep_dims = {"tt": tt, "h": H, "np1": N + 1, **sizes, **od}
    return [
        prep_launch(mid, prep_dims),
        scan.prepare({"v": v, **{x: mid[x] for x in ("kl", "wn", "tp", "gl")}, **hs,
                      "cu_seqlens": cu_d, "state_indices": idx_d, "has_initial_state": hi_d,
                      "checkpoint_blocks": cb_d, "pool": pool, "ckpt": ckpt, **sp},
                     {**dims, "tt": tt, "nc": nc, "slots": slots, "blocks": blocks, **sd},
                     {**sx, **rows(v=v)}, stream),
        out.prepare({"qd": mid["qd"], "pb": mid["pb"], **hs, "cu_seqlens": cu_d,
                     "state_indices": idx_d, "o": o},
                    {"n": N, "h": H, "np1": N + 1, "ns": sizes["ns"], "tt": tt},
                    {"nslots": slots}, stream)], mid, prep_dims


def prefill_case(rt, kernels, st, ss, lengths, slots, H, results, seed=3, K=128, V=128,
                 pads_p=0.15):
    """Prefill on the pool (kda_chunk_split's prep, then kda_chunk_h's scan and
    output kernels, C = 32, VB = 16): random slots with padding, has_initial_state,
    and a checkpoint block for most chunk ends (prefix caching). Returns the
    pool, the slots and the float64 final states (K-major) for a continuation."""
    C = 32
    kv = f"k{K}" + (f"v{V}" if V != K else "")
    prep = rt.kernel(rt.load(os.path.join(kernels, f"kda_chunk_split_c32_vb16_{kv}.sm_90a.cubin")),
                     "kda_chunk_prep")
    name = f"kda_chunk_h_c32_vb16_{kv}" + ("" if (st, ss) == ("f32", "kv") else f"_{st}_{ss}")
    hmod = rt.load(os.path.join(kernels, name + ".sm_90a.cubin"))
    scan, out = rt.kernel(hmod, "kda_chunk_scan_h"), rt.kernel(hmod, "kda_chunk_out")
    gen = torch.Generator().manual_seed(seed)
    N, tt, T = len(lengths), sum(lengths), max(lengths)
    nc = (T + C - 1) // C
    cu = torch.tensor([0] + torch.tensor(lengths).cumsum(0).tolist(), dtype=torch.int32)
    idx = torch.randperm(slots, generator=gen)[:N].to(torch.int32)
    pads = torch.rand(N, generator=gen) < pads_p
    if pads_p > 0 and not pads.any():
        pads[1] = True  # at least one padding sequence
    idx[pads] = -1
    has_init = (torch.rand(N, generator=gen) < 0.7).to(torch.int32)
    blocks = N * nc + 4
    finals = {}
    cb = torch.randperm(blocks, generator=gen)[:N * nc].view(N, nc).to(torch.int32)
    cb[torch.rand(N, nc, generator=gen) < 0.25] = -1
    q, k, v, g, beta, _ = kda_inputs(1, tt, H, K, V, seed=seed + tt)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    scale = K ** -0.5
    pool = make_pool(slots, H, K, V, st, ss, seed)
    ckpt = make_pool(blocks, H, K, V, st, ss, seed + 1)
    pool_before, ckpt_before = pool.clone(), ckpt.clone()
    pool_exp, ckpt_exp = pool.clone(), ckpt.clone()
    o_ref = torch.zeros(tt, H, V, dtype=torch.float64, device="cuda")
    written, ck_written, padding_rows = [], [], []
    for n in range(N):
        b, e, slot = int(cu[n]), int(cu[n + 1]), int(idx[n])
        if slot < 0:
            padding_rows += list(range(b, e))
            continue
        S = to_kmajor(pool_before[slot], ss) if has_init[n] else torch.zeros(
            H, K, V, dtype=torch.float64, device="cuda")
        for t in range(b, e):
            S, o_ref[t] = step(S, q[t], k[t], v[t], g[t], beta[t], scale)
            j = (t - b) // C
            if (t - b + 1) % C == 0 or t == e - 1:  # the end of chunk j
                blk = int(cb[n, j])
                if blk >= 0:
                    ckpt_exp[blk] = from_kmajor(S, ss, ckpt.dtype)
                    ck_written.append(blk)
        pool_exp[slot] = from_kmajor(S, ss, pool.dtype)
        written.append(slot)
        finals[n] = S
    cu_d, idx_d, hi_d, cb_d = cu.cuda(), idx.cuda(), has_init.cuda(), cb.cuda()
    o = torch.full((tt, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa: E731
    launches, _, _ = pool_prefill(
        lambda mid, dims: prep.prepare(
            {"q": q, "k": k, "g": g, "beta": beta, "cu_seqlens": cu_d, **mid},
            {**dims, "hqk": H}, {"scale": scale, **rows(q=q, k=k, g=g, beta=beta)},
            stream),
        scan, out, N, H, nc, C, K, V, v, tt, cu_d, idx_d, hi_d, cb_d, pool, ckpt, slots,
        blocks, o, stream, h16=h16)
    for launch in launches:
        launch()
    torch.cuda.synchronize()
    row = check_pool(pool, pool_before, pool_exp, written, o, o_ref, padding_rows, ss)
    ck = check_pool(ckpt, ckpt_before, ckpt_exp, ck_written, o, o_ref, [], ss)
    row.update(kernel="prefill", st=st, ss=ss, N=N, T=tt, H=H, K=K, V=V, slots=slots,
               padding=int(pads.sum()), checkpoints=len(ck_written),
               err_ckpt=ck.get("err_state", float("nan")),
               ckpt_untouched_bitwise=ck["untouched_bitwise"])
    final_pool = pool.clone()
    # The typed C ABI (kda2rt_kda_prefill, its intermediates in one workspace,
    # sized by the call's tokens): bitwise the same pool, checkpoints and
    # outputs as the three launches.
    ws_bytes = rt.prefill_workspace_size(prep, scan, out, N, tt, H)
    ws_raw = torch.empty(ws_bytes + 1024, dtype=torch.uint8, device="cuda")
    ws_addr = (ws_raw.data_ptr() + 1023) // 1024 * 1024
    pool2, ckpt2 = pool_before.clone(), ckpt_before.clone()
    o2 = torch.full_like(o, float("nan"))
    rt.kda_prefill(prep, scan, out, q, k, v, g, beta, cu_d, idx_d, hi_d, pool2, o2, ws_addr,
                   T, scale, torch.cuda.current_stream().cuda_stream, checkpoint_blocks=cb_d,
                   ckpt=ckpt2, state_dtype=st, state_layout=ss, gate_lower_bound=-5.0,
                   workspace_bytes=ws_bytes)
    torch.cuda.synchronize()
    same = lambda a, b: torch.equal(a.view(torch.uint8), b.view(torch.uint8))  # noqa: E731
    row["c_abi_identical"] = bool(same(pool2, pool) and same(ckpt2, ckpt) and
                                  torch.equal(o2.view(torch.int16), o.view(torch.int16)))
    row["us"] = graph_time_us(lambda: [launch() for launch in launches], replays=10)
    results.append(row)
    print(json.dumps(row), flush=True)
    return final_pool, idx, finals


def event_time_us(fn, runs=20):
    """Median time of one call from CUDA events, after warm-up (for calls a
    CUDA graph cannot capture)."""
    for _ in range(3):
        fn()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def act_inputs(gf, tt, H, hqk, K, V, seed, adversarial, noal=False):
    """Raw activations for kda_chunk_prep_act (gf 1, 2: the gate's raw input,
    beta logits, q/k before the L2 norm; gf 0: a given log decay) and their
    float64 meaning. Adversarial: half the heads get a gate far below any
    chunked schedule's bound (softplus: about -15 nats per step, tails below
    -40; gf 0: 2 % of the entries at -200), the rest a gentle one."""
    gen = torch.Generator(device="cuda").manual_seed(seed)
    r = lambda *s: torch.randn(*s, device="cuda", generator=gen)  # noqa: E731
    raw = gf > 0
    q = (r(tt, hqk, K) if raw else torch.nn.functional.normalize(r(tt, hqk, K), dim=-1)).bfloat16()
    k = (r(tt, hqk, K) if raw else torch.nn.functional.normalize(r(tt, hqk, K), dim=-1)).bfloat16()
    v = r(tt, H, V).bfloat16()
    A_log = r(H) * 0.5
    dt_bias = r(H, K) * 0.1
    if noal:  # a kernel without A_log and dt_bias computes with 0 for both
        A_log, dt_bias = torch.zeros_like(A_log), torch.zeros_like(dt_bias)
    hard = torch.zeros(H, dtype=torch.bool, device="cuda")
    if adversarial:
        hard[H // 2:] = True
    if raw:
        a = torch.where(hard[None, :, None], r(tt, H, K) * 3 + 4, r(tt, H, K) - 3)
    else:
        a = torch.nn.functional.logsigmoid(r(tt, H, K)) * 0.1
        if adversarial:
            spikes = (torch.rand(tt, H, K, device="cuda", generator=gen) < 0.02) & hard[None, :, None]
            a = torch.where(spikes, torch.full_like(a, -200.0), a)
    b = r(tt, H) if raw else torch.sigmoid(r(tt, H))
    lower_bound = -5.0
    gd, bd, qd, kd = activations_f64(gf, q, k, a, b, A_log, dt_bias, lower_bound, H // hqk)
    return dict(q=q, k=k, v=v, a=a, b=b, A_log=A_log, dt_bias=dt_bias, lower_bound=lower_bound,
                gd=gd, bd=bd, qd=qd, kd=kd, min_gate=float(gd.min()))


def prefill_act_case(rt, kernels, gf, lengths, H, hqk, slots, fla, results, seed=21,
                     adversarial=True, check=True, noal=False, h16=False):
    """Prefill with kda_chunk_prep_act (any gate, activations in the kernel)
    then kda_chunk_h's scan and output kernels (C = 32, VB = 16) on the pool:
    against the float64 recurrence of the activations' meaning, with padding
    slots, has_initial_state and checkpoints; timed beside
    flash-linear-attention's chunk_kda with the same options. h16: the
    kernels with f16 intermediates (TP=f16, KL=f16: the prep's and the
    scans' *_h16 builds)."""
    K = V = 128
    C = 32
    tag = "_h16" if h16 else ""
    name = f"kda_chunk_prep_act_c32_vb16_k128_gf{gf}" + ("_noal" if noal else "") + tag
    prep = rt.kernel(rt.load(os.path.join(kernels, f"{name}.sm_90a.cubin")), "kda_chunk_prep")
    hmod = rt.load(os.path.join(kernels, f"kda_chunk_h_c32_vb16_k128{tag}.sm_90a.cubin"))
    scan, out = rt.kernel(hmod, "kda_chunk_scan_h"), rt.kernel(hmod, "kda_chunk_out")
    gen = torch.Generator().manual_seed(seed)
    N, tt, T = len(lengths), sum(lengths), max(lengths)
    nc = (T + C - 1) // C
    cu = torch.tensor([0] + torch.tensor(lengths).cumsum(0).tolist(), dtype=torch.int32)
    idx = torch.randperm(slots, generator=gen)[:N].to(torch.int32)
    if check and N > 2:
        idx[1] = -1  # one padding sequence
    has_init = (torch.rand(N, generator=gen) < 0.7).to(torch.int32)
    blocks = N * nc + 4
    cb = torch.randperm(blocks, generator=gen)[:N * nc].view(N, nc).to(torch.int32)
    x = act_inputs(gf, tt, H, hqk, K, V, seed, adversarial, noal)
    q, k, v, a, b = x["q"], x["k"], x["v"], x["a"], x["b"]
    scale = K ** -0.5
    pool = make_pool(slots, H, K, V, "f32", "kv", seed)
    ckpt = make_pool(blocks, H, K, V, "f32", "kv", seed + 1)
    pool_before, ckpt_before = pool.clone(), ckpt.clone()
    pool_exp, ckpt_exp = pool.clone(), ckpt.clone()
    o_ref = torch.zeros(tt, H, V, dtype=torch.float64, device="cuda")
    written, ck_written, padding_rows = [], [], []
    for n in range(N if check else 0):
        b0, e0, slot = int(cu[n]), int(cu[n + 1]), int(idx[n])
        if slot < 0:
            padding_rows += list(range(b0, e0))
            continue
        S = pool_before[slot].double() if has_init[n] else torch.zeros(
            H, K, V, dtype=torch.float64, device="cuda")
        for t in range(b0, e0):
            S, o_ref[t] = step(S, x["qd"][t], x["kd"][t], v[t], x["gd"][t], x["bd"][t], scale)
            if (t - b0 + 1) % C == 0 or t == e0 - 1:
                blk = int(cb[n, (t - b0) // C])
                ckpt_exp[blk] = S.float()
                ck_written.append(blk)
        pool_exp[slot] = S.float()
        written.append(slot)
    cu_d, idx_d, hi_d, cb_d = cu.cuda(), idx.cuda(), has_init.cuda(), cb.cuda()
    o = torch.full((tt, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    stream = lambda: torch.cuda.current_stream().cuda_stream  # noqa: E731
    launches, mid, prep_dims = pool_prefill(
        lambda mid, dims: prep.prepare(
            {"q": q, "k": k, "g": a, "beta": b, "A_log": a if noal else x["A_log"],
             "dt_bias": a if noal else x["dt_bias"], "cu_seqlens": cu_d, **mid},
            {**dims, "hqk": hqk},
            {"scale": scale, "lower_bound": x["lower_bound"],
             **rows(q=q, k=k, g=a, beta=b)}, stream),
        scan, out, N, H, nc, C, K, V, v, tt, cu_d, idx_d, hi_d, cb_d, pool, ckpt, slots,
        blocks, o, stream, h16=h16)
    prep_launch = launches[0]
    for launch in launches:
        launch()
    torch.cuda.synchronize()
    row = {"kernel": f"prefill-act-gf{gf}" + ("-noal" if noal else "") + tag, "N": N, "T": tt,
           "H": f"{hqk}/{H}",
           "adversarial": adversarial, "min_gate": x["min_gate"],
           "finite": bool(torch.isfinite(o).all())}
    if check:
        row.update(check_pool(pool, pool_before, pool_exp, written, o, o_ref, padding_rows, "kv"))
        ck = check_pool(ckpt, ckpt_before, ckpt_exp, ck_written, o, o_ref, [], "kv")
        row.update(err_ckpt=ck.get("err_state", float("nan")),
                   ckpt_untouched_bitwise=ck["untouched_bitwise"])
        # The typed C ABI (kda2rt_kda_prefill with A_log, dt_bias, lower_bound;
        # gate_lower_bound NaN: ignored by gate-computing kernels): bitwise the
        # three launches.
        ws_bytes = rt.prefill_workspace_size(prep, scan, out, N, tt, H)
        ws_raw = torch.empty(ws_bytes + 1024, dtype=torch.uint8, device="cuda")
        ws_addr = (ws_raw.data_ptr() + 1023) // 1024 * 1024
        pool2, ckpt2 = pool_before.clone(), ckpt_before.clone()
        o2 = torch.full_like(o, float("nan"))
        rt.kda_prefill(prep, scan, out, q, k, v, a, b, cu_d, idx_d, hi_d, pool2, o2, ws_addr,
                       T, scale, torch.cuda.current_stream().cuda_stream,
                       checkpoint_blocks=cb_d, ckpt=ckpt2,
                       gate_lower_bound=float("nan") if gf else float("-inf"),
                       workspace_bytes=ws_bytes, hqk=hqk,
                       A_log=None if noal else x["A_log"],
                       dt_bias=None if noal else x["dt_bias"], lower_bound=x["lower_bound"])
        torch.cuda.synchronize()
        same = lambda p_, q_: torch.equal(p_.view(torch.uint8), q_.view(torch.uint8))  # noqa: E731
        row["c_abi_identical"] = bool(same(pool2, pool) and same(ckpt2, ckpt) and
                                      torch.equal(o2.view(torch.int16), o.view(torch.int16)))
    if PROFILE_ONLY:  # one launch each for a profiler, no timing
        return
    row["us"] = graph_time_us(lambda: [launch() for launch in launches], replays=10)
    row["prep_us"] = graph_time_us(prep_launch, replays=10)
    if gf == 1 and hqk == H:
        # kda_chunk_split's prep on the same shape (the given gate within
        # [-5, 0]: its mid-chunk scaling is safe there).
        fast = rt.kernel(rt.load(os.path.join(
            kernels, "kda_chunk_split_c32_vb16_k128.sm_90a.cubin")), "kda_chunk_prep")
        gq, bq = x["gd"].float(), x["bd"].float()
        fast_launch = fast.prepare(
            {"q": q, "k": k, "g": gq, "beta": bq, "cu_seqlens": cu_d, **mid},
            {**prep_dims, "hqk": hqk},
            {"scale": scale, **rows(q=q, k=k, g=gq, beta=bq)}, stream)
        row["fast_prep_us"] = graph_time_us(fast_launch, replays=10)
    if fla is not None and hqk == H:
        extra = {}
        if gf > 0:
            extra = dict(use_gate_in_kernel=True, A_log=None if noal else x["A_log"],
                         dt_bias=None if noal else x["dt_bias"].reshape(-1),
                         use_qk_l2norm_in_kernel=True, use_beta_sigmoid_in_kernel=True)
            if gf == 1:
                extra.update(safe_gate=True, lower_bound=x["lower_bound"])
        h0 = pool_before[idx.clamp(min=0).long().cuda()].clone()
        h0[~has_init.bool().cuda()] = 0
        if len(set(lengths)) == 1:  # equal lengths: the [B, T, ...] layout
            shaped = [t.view(N, T, *t.shape[1:]) for t in (q, k, v, a, b)]
            varlen = {}
        else:  # chunk_kda plans varlen batches from a host copy of cu_seqlens
            shaped = [t[None] for t in (q, k, v, a, b)]
            varlen = dict(cu_seqlens=cu_d.long(), cu_seqlens_cpu=cu.long())
        call = lambda: fla(*shaped, scale=scale, initial_state=h0,  # noqa: E731
                           output_final_state=True, **varlen, **extra)
        try:
            of, _ = call()
            torch.cuda.synchronize()
            of = of.reshape(tt, H, V)
            live = torch.ones(tt, dtype=torch.bool, device="cuda")
            if padding_rows:
                live[torch.tensor(padding_rows, device="cuda")] = False
            if check:
                row["fla_err_o"] = rel_err(of[live], o_ref[live])
            row["fla_finite"] = bool(torch.isfinite(of).all())
            try:
                row["fla_us"] = graph_time_us(call, replays=10)
            except Exception:  # noqa: BLE001 - not capturable: event timing
                torch.cuda.synchronize()
                row["fla_us"] = event_time_us(call)
                row["fla_timing"] = "events"
            row["ratio"] = row["us"] / row["fla_us"]
        except Exception as err:  # noqa: BLE001 - the anchor's failure is a result too
            row["fla_error"] = f"{type(err).__name__}: {err}"[:300]
    results.append(row)
    print(json.dumps(row), flush=True)


def prefill_then_decode(rt, kernels, results, steps=3, H=4, K=128, V=64):
    """Point 1 of the serving contract: prefill writes K-major states into the
    pool, decode continues from them, with K != V so that a transposed state
    cannot pass silently; the decode call stating "vk" is refused."""
    lengths = [70, 33, 1, 96, 5, 40]
    pool, idx, finals = prefill_case(rt, kernels, "f32", "kv", lengths, 16, H, results,
                                     seed=21, K=K, V=V, pads_p=0.0)
    dec = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_pool_k{K}v{V}_f32_kv.sm_90a.cubin")),
                    "kda_decode_pool")
    N = len(lengths)
    q, k, v, g, beta, _ = kda_inputs(N, steps, H, K, V, seed=22)
    cu = torch.arange(N + 1, dtype=torch.int32, device="cuda")
    idx_d = idx.cuda()
    hi = torch.ones(N, dtype=torch.int32, device="cuda")
    errs = []
    S = {n: finals[n].clone() for n in finals}
    for i in range(steps):
        qi, ki, vi, gi, bi = (x[:, i].contiguous() for x in (q, k, v, g, beta))
        o = torch.full((N, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
        dec.kda_decode_pool(qi, ki, vi, gi, bi, cu, idx_d, hi, pool, o, K ** -0.5,
                            torch.cuda.current_stream().cuda_stream, state_layout="kv")
        torch.cuda.synchronize()
        o_ref = torch.empty(N, H, V, dtype=torch.float64, device="cuda")
        for n in range(N):
            S[n], o_ref[n] = step(S[n], qi[n], ki[n], vi[n], gi[n], bi[n], K ** -0.5)
        errs.append(rel_err(o, o_ref))
    final = torch.stack([S[n] for n in range(N)])
    row = {"kernel": "prefill-then-decode", "K": K, "V": V, "steps": steps,
           "err_o_max": max(errs),
           "err_state": rel_err(pool[idx.long().cuda()].float(), final)}
    try:
        dec.kda_decode_pool(qi, ki, vi, gi, bi, cu, idx_d, hi, pool, o, K ** -0.5,
                            torch.cuda.current_stream().cuda_stream, state_layout="vk")
        row["vk_refused"] = False
    except kda2rt.Error as e:
        row["vk_refused"] = "stores its state" in str(e)
        row["vk_message"] = str(e)
    results.append(row)
    print(json.dumps(row), flush=True)


def activations_f64(gf, q, k, a, b, A_log, dt_bias, lower_bound, rep):
    """The float64 meaning of the serving kernels' raw activations: the gate of
    family gf from `a` (0: a is the log decay), beta (sigmoid of the logits
    when gf > 0), q and k (L2-normalised when gf > 0), each q/k head repeated
    for its `rep` value heads."""
    raw = gf > 0
    ad = a.double()
    if gf == 1:
        gd = lower_bound * torch.sigmoid(A_log.double().exp()[:, None] * (ad + dt_bias.double()))
    elif gf == 2:
        gd = -A_log.double().exp()[:, None] * torch.nn.functional.softplus(ad + dt_bias.double())
    else:
        gd = ad
    bd = torch.sigmoid(b.double()) if raw else b.double()
    qd, kd = q.double(), k.double()
    if raw:
        qd = qd / (qd.square().sum(-1, keepdim=True) + 1e-6).sqrt()
        kd = kd / (kd.square().sum(-1, keepdim=True) + 1e-6).sqrt()
    return gd, bd, qd.repeat_interleave(rep, dim=1), kd.repeat_interleave(rep, dim=1)


def serve_case(rt, kernels, gf, lengths, hqk, hv, slots, fla_fwd, results, seed=5,
               pad_p=0.1):
    """kda_decode_serve: GVA (hv value heads over hqk q/k heads), the gate of
    family gf in the kernel (0: given, 1: bounded sigmoid, 2: softplus), beta
    logits and q/k L2 norm in the kernel when gf > 0; padding slots."""
    K = V = 128
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_serve_k128_gf{gf}.sm_90a.cubin")),
                       "kda_decode_serve")
    gen = torch.Generator().manual_seed(seed)
    N, T = len(lengths), sum(lengths)
    cu = torch.tensor([0] + torch.tensor(lengths).cumsum(0).tolist(), dtype=torch.int32)
    idx = torch.randperm(slots, generator=gen)[:N].to(torch.int32)
    pads = torch.rand(N, generator=gen) < pad_p
    idx[pads] = -1
    has_init = (torch.rand(N, generator=gen) < 0.8).to(torch.int32)
    dgen = torch.Generator(device="cuda").manual_seed(seed)
    r = lambda *s: torch.randn(*s, device="cuda", generator=dgen)  # noqa: E731
    raw = gf > 0
    q = (r(T, hqk, K) if raw else torch.nn.functional.normalize(r(T, hqk, K), dim=-1)).bfloat16()
    k = (r(T, hqk, K) if raw else torch.nn.functional.normalize(r(T, hqk, K), dim=-1)).bfloat16()
    v = r(T, hv, V).bfloat16()
    a = r(T, hv, K) if raw else torch.nn.functional.logsigmoid(r(T, hv, K)) * 0.1
    b = r(T, hv) if raw else torch.sigmoid(r(T, hv))
    A_log = r(hv) * 0.5
    dt_bias = r(hv, K) * 0.1
    lower_bound = -5.0
    scale = K ** -0.5
    # The activations in float64, as the kernel defines them.
    gd, bd, qd, kd = activations_f64(gf, q, k, a, b, A_log, dt_bias, lower_bound, hv // hqk)
    pool = make_pool(slots, hv, K, V, "f32", "kv", seed)
    before, expected = pool.clone(), pool.clone()
    o_ref = torch.zeros(T, hv, V, dtype=torch.float64, device="cuda")
    written, padding_rows = [], []
    for n in range(N):
        b0, e0, slot = int(cu[n]), int(cu[n + 1]), int(idx[n])
        if slot < 0:
            padding_rows += list(range(b0, e0))
            continue
        S = before[slot].double() if has_init[n] else torch.zeros(
            hv, K, V, dtype=torch.float64, device="cuda")
        for t in range(b0, e0):
            S, o_ref[t] = step(S, qd[t], kd[t], v[t], gd[t], bd[t], scale)
        expected[slot] = S.float()
        written.append(slot)
    cu_d, idx_d, hi_d = cu.cuda(), idx.cuda(), has_init.cuda()
    o = torch.full((T, hv, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    launch = kernel.prepare(
        {"q": q, "k": k, "v": v, "a": a, "b": b, "A_log": A_log, "dt_bias": dt_bias,
         "cu_seqlens": cu_d, "state_indices": idx_d, "has_initial_state": hi_d, "pool": pool,
         "o": o}, {"tt": T, "hqk": hqk, "hv": hv, "np1": N + 1, "n": N, "slots": slots},
        {"scale": scale, "lower_bound": lower_bound, **rows(q=q, k=k, v=v, a=a, b=b)},
        lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    row = check_pool(pool, before, expected, written, o, o_ref, padding_rows, "kv")
    row.update(kernel=f"serve-gf{gf}", st="f32", ss="kv", N=N, T=T, H=f"{hqk}/{hv}", K=K, V=V,
               slots=slots, padding=int(pads.sum()))
    row["us"] = graph_time_us(launch)
    if fla_fwd is not None and not pads.any():
        fpool = before.clone()
        of = torch.empty(1, T, hv, V, dtype=torch.bfloat16, device="cuda")
        extra = dict(use_gate_in_kernel=True, A_log=A_log, dt_bias=dt_bias,
                     lower_bound=lower_bound if gf == 1 else None,
                     use_qk_l2norm_in_kernel=True, use_beta_sigmoid_in_kernel=True) if raw else {}
        call = lambda: fla_fwd(  # noqa: E731
            q=q[None], k=k[None], v=v[None], g=a[None], beta=b[None], initial_state=fpool,
            scale=scale, output_final_state=True, inplace_final_state=True,
            cu_seqlens=cu_d.long(), ssm_state_indices=idx_d, out=of, **extra)
        call()
        torch.cuda.synchronize()
        row["fla_err_o"] = rel_err(of[0], o_ref)
        row["fla_us"] = graph_time_us(call)
        row["ratio"] = row["us"] / row["fla_us"]
    results.append(row)
    print(json.dumps(row), flush=True)


def conv_case(rt, kernels, gf, lengths, H, slots, results, seed=13, W=4, noal=False):
    """kda_decode_conv (point 6): conv1d update + SiLU of the packed
    projection, q/k L2 norm, the gate of family gf, β sigmoid, the KDA update
    and the sigmoid-gated RMSNorm in one launch, against float64. qkv is a
    row slice of a wider tensor (runtime row stride); padding slots leave
    both states untouched and give zero rows. noal: the kernel built without
    A_log and dt_bias (AL=0, DB=0; the call passes NULL for both)."""
    K = V = 128
    D = 2 * H * K + H * V
    name = f"kda_decode_conv_k128_gf{gf}" + ("_noal" if noal else "")
    kernel = rt.kernel(rt.load(os.path.join(kernels, f"{name}.sm_90a.cubin")),
                       "kda_decode_conv")
    gen = torch.Generator().manual_seed(seed)
    N, T = len(lengths), sum(lengths)
    cu = torch.tensor([0] + torch.tensor(lengths).cumsum(0).tolist(), dtype=torch.int32)
    idx = torch.randperm(slots, generator=gen)[:N].to(torch.int32)
    idx[torch.rand(N, generator=gen) < 0.15] = -1
    has_init = (torch.rand(N, generator=gen) < 0.8).to(torch.int32)
    dgen = torch.Generator(device="cuda").manual_seed(seed)
    r = lambda *sh: torch.randn(*sh, device="cuda", generator=dgen)  # noqa: E731
    wide = r(T, D + 64).bfloat16()
    qkv = wide[:, 16:16 + D]  # a slice: row stride D + 64 elements
    conv_w = r(D, W) * 0.4
    conv_state = (r(slots, D, W - 1) * 0.5).bfloat16()
    a, b = r(T, H, K), r(T, H)
    gout = r(T, H, V).bfloat16()
    A_log, dt_bias = r(H) * 0.5, r(H, K) * 0.1
    if noal:  # what the kernel computes with: exp(A_log) = 1, dt_bias = 0
        A_log, dt_bias = torch.zeros_like(A_log), torch.zeros_like(dt_bias)
    norm_w = 1 + 0.1 * r(V)
    lower_bound, eps, scale = -5.0, 1e-5, K ** -0.5
    pool = make_pool(slots, H, K, V, "f32", "kv", seed)
    pool_before, conv_before = pool.clone(), conv_state.clone()
    pool_exp, conv_exp = pool.clone(), conv_state.clone()
    o_ref = torch.zeros(T, H, V, dtype=torch.float64, device="cuda")
    written, padding_rows = [], []
    wd = conv_w.double()
    for n in range(N):
        b0, e0, slot = int(cu[n]), int(cu[n + 1]), int(idx[n])
        if slot < 0:
            padding_rows += list(range(b0, e0))
            continue
        S = pool_before[slot].double() if has_init[n] else torch.zeros(
            H, K, V, dtype=torch.float64, device="cuda")
        win = conv_before[slot].double() if has_init[n] else torch.zeros(
            D, W - 1, dtype=torch.float64, device="cuda")
        for t in range(b0, e0):
            full = torch.cat([win, qkv[t].double()[:, None]], dim=1)
            y = (full * wd).sum(-1)
            y = y * torch.sigmoid(y)
            win = full[:, 1:]
            q, k, v = y[:H * K].view(H, K), y[H * K:2 * H * K].view(H, K), y[2 * H * K:].view(H, V)
            q = q / (q.square().sum(-1, keepdim=True) + 1e-6).sqrt()
            k = k / (k.square().sum(-1, keepdim=True) + 1e-6).sqrt()
            x = a[t].double() + dt_bias.double()
            ea = A_log.double().exp()[:, None]
            g = lower_bound * torch.sigmoid(ea * x) if gf == 1 else \
                -ea * torch.nn.functional.softplus(x)
            S, o = step(S, q, k, v, g, torch.sigmoid(b[t].double()), scale)
            rms = (o.square().mean(-1, keepdim=True) + eps).rsqrt()
            o_ref[t] = o * rms * norm_w.double() * torch.sigmoid(gout[t].double())
        pool_exp[slot] = S.float()
        conv_exp[slot] = win.bfloat16()
        written.append(slot)
    cu_d, idx_d, hi_d = cu.cuda(), idx.cuda(), has_init.cuda()
    o = torch.full((T, H, V), float("nan"), dtype=torch.bfloat16, device="cuda")
    launch = kernel.prepare(
        {"qkv": qkv, "conv_w": conv_w, "a": a, "b": b, "gout": gout,
         "A_log": a if noal else A_log, "dt_bias": a if noal else dt_bias,
         "norm_w": norm_w, "cu_seqlens": cu_d, "state_indices": idx_d,
         "has_initial_state": hi_d, "conv_state": conv_state, "pool": pool, "o": o},
        {"tt": T, "D": D, "h": H, "np1": N + 1, "n": N, "slots": slots},
        {"sx": qkv.stride(0), "scale": scale, "lower_bound": lower_bound, "eps": eps},
        lambda: torch.cuda.current_stream().cuda_stream)
    launch()
    torch.cuda.synchronize()
    row = check_pool(pool, pool_before, pool_exp, written, o, o_ref, padding_rows, "kv")
    conv = check_pool(conv_state, conv_before, conv_exp, written, o, o_ref, [], "kv")
    row.update(kernel=f"conv-gf{gf}" + ("-noal" if noal else ""), st="f32", ss="kv", N=N, T=T,
               H=H, K=K, V=V,
               slots=slots, padding=N - len(written),
               err_conv_state=rel_err(conv_state[written].float(), conv_exp[written].double()),
               conv_untouched_bitwise=conv["untouched_bitwise"])
    # The typed C ABI (kda2rt_kda_decode_conv) from the same states: bitwise
    # the same o, pool and conv_state as the generic launch.
    o2 = torch.full_like(o, float("nan"))
    pool2, conv2 = pool_before.clone(), conv_before.clone()
    kernel.kda_decode_conv(qkv, conv_w, a, b, gout, None if noal else A_log,
                           None if noal else dt_bias, norm_w, cu_d, idx_d, hi_d,
                           conv2, pool2, o2, H, scale, lower_bound, eps,
                           torch.cuda.current_stream().cuda_stream, dtype="bf16",
                           state_dtype="f32", state_layout="kv", index_dtype="i32",
                           qkv_stride=qkv.stride(0))
    torch.cuda.synchronize()
    same = lambda x, y: torch.equal(x.view(torch.uint8), y.view(torch.uint8))  # noqa: E731
    row["c_abi_identical"] = bool(same(o2, o) and same(pool2, pool) and same(conv2, conv_state))
    row["us"] = graph_time_us(launch)
    results.append(row)
    print(json.dumps(row), flush=True)


def bf16_state_cost(rt, kernels, H, steps, results):
    """The accuracy cost of a bf16 pool: `steps` one-token decode calls from
    the same start, fp32 vs bf16 states, against float64."""
    K = V = 128
    errs = {}
    for st in ("f32", "bf16"):
        kernel = rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_pool_k128_{st}_kv.sm_90a.cubin")),
                           "kda_decode_pool")
        N = 16
        q, k, v, g, beta, _ = kda_inputs(N, steps, H, K, V, seed=11)
        pool = make_pool(N, H, K, V, st, "kv", 5)
        S = pool.double().clone()
        idx = torch.arange(N, dtype=torch.int32, device="cuda")
        hi = torch.ones(N, dtype=torch.int32, device="cuda")
        cu = torch.arange(N + 1, dtype=torch.int32, device="cuda")
        o = torch.empty(N, H, V, dtype=torch.bfloat16, device="cuda")
        o_err = []
        for i in range(steps):
            qi, ki, vi, gi, bi = (x[:, i].contiguous() for x in (q, k, v, g, beta))
            kernel.prepare({"q": qi, "k": ki, "v": vi, "g": gi, "beta": bi, "cu_seqlens": cu,
                            "state_indices": idx, "has_initial_state": hi, "pool": pool,
                            "o": o}, {"tt": N, "h": H, "np1": N + 1, "n": N, "slots": N},
                           {"scale": K ** -0.5, **rows(q=qi, k=ki, v=vi, g=gi, beta=bi)},
                           torch.cuda.current_stream().cuda_stream)()
            o_ref = torch.empty(N, H, V, dtype=torch.float64, device="cuda")
            for n in range(N):
                S[n], o_ref[n] = step(S[n], qi[n], ki[n], vi[n], gi[n], bi[n], K ** -0.5)
            torch.cuda.synchronize()
            o_err.append(rel_err(o, o_ref))
        errs[st] = {"err_o_last": o_err[-1], "err_o_max": max(o_err),
                    "err_state": rel_err(pool.float(), S)}
    row = {"kernel": "bf16-state-cost", "steps": steps, "H": H, **{
        f"{st}_{key}": val for st, e in errs.items() for key, val in e.items()}}
    results.append(row)
    print(json.dumps(row), flush=True)


def prefill_act_h16_case(rt, kernels, lengths, fla, results):
    """prefill_act_case (GF 2, softplus) with the bf16 and then the f16
    intermediates, on the same inputs."""
    for h16 in (False, True):
        prefill_act_case(rt, kernels, 2, lengths, 8, 8, 20, fla, results, seed=24, h16=h16)


ONLY = None  # --only: the case functions to run (None: all)


def guarded(results, fn, *args, **kwargs):
    """Runs one case; a failure is printed and recorded, and the next case runs."""
    if ONLY is not None and fn.__name__ not in ONLY:
        return
    try:
        fn(*args, **kwargs)
    except Exception:  # noqa: BLE001 - report and go on
        traceback.print_exc()
        results.append({"kernel": fn.__name__, "error": traceback.format_exc(limit=4)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--fla", default=None)
    parser.add_argument("--only", default=None,
                        help="comma-separated case functions, e.g. conv_case,pool_case")
    parser.add_argument("--checks-only", action="store_true",
                        help="skip the prefill-with-activations speed cases (large shapes)")
    parser.add_argument("--profile-act", action="store_true",
                        help="launch kda_chunk_prep_act (GF 2) once at (1, 4096, 8) and stop "
                             "(for a profiler)")
    args = parser.parse_args()
    global ONLY, PROFILE_ONLY
    ONLY = set(args.only.split(",")) if args.only else None
    PROFILE_ONLY = args.profile_act
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    fla_fwd = None
    if args.fla:
        sys.path.insert(0, args.fla)
        from fla.ops.kda.fused_recurrent import fused_recurrent_kda_fwd as fla_fwd
    results = []
    if PROFILE_ONLY:
        prefill_act_case(rt, args.kernels, 2, [4096], 8, 8, 3, None, results,
                         adversarial=False, check=False)
        return
    mixed = [1, 7, 0, 1, 33, 1, 1, 2, 64, 1] * 3  # decode, chunks, an empty one
    kernels = args.kernels
    for st in ("f32", "bf16"):
        for ss in ("kv", "vk"):
            guarded(results, pool_case, rt, kernels, 128, 128, st, ss, mixed, 96, 8, fla_fwd,
                    results)
            guarded(results, spec_case, rt, kernels, 128, 128, st, ss, 24, 4, 160, 8, fla_fwd,
                    results)
    guarded(results, pool_case, rt, kernels, 128, 64, "f32", "vk", mixed, 96, 8, None, results)
    prefill_lengths = [100, 32, 1, 0, 64, 257, 31, 33] * 2  # < C, = C, 1, 0, > C
    guarded(results, prefill_case, rt, kernels, "f32", "kv", prefill_lengths, 40, 8, results)
    guarded(results, prefill_case, rt, kernels, "bf16", "vk", prefill_lengths, 40, 8, results)
    guarded(results, prefill_then_decode, rt, kernels, results)
    guarded(results, spec_case, rt, kernels, 128, 64, "f32", "kv", 24, 4, 160, 8, None, results)
    # Speed at serving shapes: every slot valid, so that FLA can run too.
    for n in (64, 256):
        for st in ("f32", "bf16"):
            guarded(results, pool_case, rt, kernels, 128, 128, st, "kv", [1] * n, 2 * n, 32,
                    fla_fwd, results, seed=100 + n, pad_p=0.0)
    # The pool decode's value-block / lane split (build-kernels.sh builds
    # the variants), 256 sequences x 32 heads.
    for variant in ("_vb32_l4", "_vb64_l2", "_vb64_l4", "_vb128_l2", "_vb128_l4", "_vb16_l8"):
        guarded(results, pool_case, rt, kernels, 128, 128, "f32", "kv", [1] * 256, 512, 32,
                fla_fwd, results, seed=356, pad_p=0.0, variant=variant)
    for t in (2, 4, 8):
        guarded(results, spec_case, rt, kernels, 128, 128, "f32", "kv", 64, t, 64 * t + 8, 32,
                fla_fwd, results, seed=200 + t, pad_p=0.0)
    for gf in (0, 1, 2):
        guarded(results, serve_case, rt, kernels, gf, mixed, 8, 16, 96, None, results)
        guarded(results, serve_case, rt, kernels, gf, [1] * 256, 16, 32, 300, fla_fwd, results,
                seed=9, pad_p=0.0)
    guarded(results, conv_case, rt, kernels, 1, mixed, 6, 96, results, seed=15, noal=True)
    for gf in (1, 2):
        guarded(results, conv_case, rt, kernels, gf, mixed, 6, 96, results)
        guarded(results, conv_case, rt, kernels, gf, [1] * 256, 32, 300, results, seed=14)
    guarded(results, bf16_state_cost, rt, kernels, 8, 64, results)
    # Prefill for any gate, activations in the kernel (kda_chunk_prep_act):
    # correctness on adversarial gates, then speed beside chunk_kda.
    fla_chunk = None
    if args.fla:
        from fla.ops.kda import chunk_kda as fla_chunk
    act_lengths = [100, 33, 1, 0, 64, 257, 31, 400]
    for gf in (0, 1, 2):
        guarded(results, prefill_act_case, rt, kernels, gf, act_lengths, 8, 8, 20, fla_chunk,
                results)
    guarded(results, prefill_act_case, rt, kernels, 2, act_lengths, 8, 2, 20, None, results,
            seed=22)
    # The f16 intermediates (TP=f16, KL=f16) after the softplus prep.
    guarded(results, prefill_act_h16_case, rt, kernels, act_lengths, fla_chunk, results)
    # A_log and dt_bias optional (AL=0, DB=0: lower_bound·sigmoid(a)).
    guarded(results, prefill_act_case, rt, kernels, 1, act_lengths, 8, 8, 20, fla_chunk,
            results, seed=23, noal=True)
    for gf in (1, 2) if not args.checks_only else ():
        for lens in ([1024] * 2, [4096], [4096] * 8):
            h = 16 if len(lens) == 8 else 8
            guarded(results, prefill_act_case, rt, kernels, gf, lens, h, h, len(lens) + 2,
                    fla_chunk, results, seed=30 + gf, adversarial=False, check=False)

    print("\n| kernel | state | N | T | H | K | V | pad | err o | err state | untouched "
          "| pad rows 0 | C ABI = launch | wrong layout refused | kda2 us | fla us | kda2/fla |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    nan = float("nan")
    for r in results:
        if r["kernel"] not in ("spec", "prefill") and \
                not r["kernel"].startswith(("serve", "conv", "pool")):
            continue
        print(f"| {r['kernel']} | {r['st']} {r['ss']} | {r['N']} | {r['T']} | {r['H']} "
              f"| {r['K']} | {r['V']} | {r['padding']} | {r['err_o']:.2e} "
              f"| {r.get('err_state', nan):.2e} | {r['untouched_bitwise']} "
              f"| {r['padding_rows_zero']} | {r.get('c_abi_identical', r.get('deterministic'))} "
              f"| {r.get('wrong_layout_refused', '-')} | {r['us']:.2f} "
              f"| {r.get('fla_us', nan):.2f} | {r.get('ratio', nan):.2f} |")
    print("\n| prefill, gate in kernel | N | T | H (qk/v) | adversarial | min gate | err o "
          "| err state | err ckpt | untouched | pad rows 0 | finite | C ABI = launch | fla err o "
          "| fla finite | kda2 us (prep; bounded prep) | fla us | kda2/fla |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        if not r["kernel"].startswith("prefill-act"):
            continue
        print(f"| {r['kernel']} | {r['N']} | {r['T']} | {r['H']} | {r['adversarial']} "
              f"| {r['min_gate']:.1f} | {r.get('err_o', nan):.2e} | {r.get('err_state', nan):.2e} "
              f"| {r.get('err_ckpt', nan):.2e} | {r.get('untouched_bitwise', '-')} "
              f"| {r.get('padding_rows_zero', '-')} | {r['finite']} "
              f"| {r.get('c_abi_identical', '-')} "
              f"| {r.get('fla_err_o', nan):.2e} | {r.get('fla_finite', '-')} "
              f"| {r['us']:.1f} ({r['prep_us']:.1f}; {r.get('fast_prep_us', nan):.1f}) "
              f"| {r.get('fla_us', nan):.1f} "
              f"| {r.get('ratio', nan):.2f} |")
    for r in results:
        if r["kernel"] == "prefill":
            print(f"\nprefill {r['st']} {r['ss']}: {r['checkpoints']} checkpoints, err "
                  f"{r['err_ckpt']:.2e}, other blocks untouched: {r['ckpt_untouched_bitwise']}")
    for r in results:
        if r["kernel"].startswith("conv"):
            print(f"\n{r['kernel']} N {r['N']} H {r['H']}: conv state err "
                  f"{r['err_conv_state']:.2e}, other conv slots untouched: "
                  f"{r['conv_untouched_bitwise']}")
    for r in results:
        if r["kernel"] == "prefill-then-decode":
            print(f"\nprefill then decode, K = {r['K']}, V = {r['V']}: err o {r['err_o_max']:.2e}, "
                  f"state {r['err_state']:.2e}; a V-major decode call refused: {r['vk_refused']}")
    for r in results:
        if r["kernel"] == "bf16-state-cost":
            print(f"\nbf16 state cost over {r['steps']} decode steps: err o {r['f32_err_o_last']:.2e}"
                  f" (f32 pool) vs {r['bf16_err_o_last']:.2e} (bf16 pool); state "
                  f"{r['f32_err_state']:.2e} vs {r['bf16_err_state']:.2e}")
    out_dir = os.environ.get("OUT", ".")
    with open(os.path.join(out_dir, "kda_serving.json"), "w") as f:
        json.dump({"results": results}, f, indent=1)


if __name__ == "__main__":
    main()
