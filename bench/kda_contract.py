"""The serving contract's GPU-only points (docs/Runtime.md): CUDA-graph replay
with different lengths (point 7), batch-packing determinism and prefill versus
prefill + decode (point 10), one sequence past 2^31 elements (point 8), and
int64 index tensors (points 2 and 8: the IX=i64 kernels equal the int32 ones),
inputs sliced from fused projections (point 8: runtime row strides), grouped
value heads in the prefill (point 8: HV a multiple of HQK) and the prefill
workspace sized by the call's tokens on a very uneven batch, eager and in a
CUDA graph captured at the maxima (workspace), and checkpoints at token
offsets inside chunks (point 3: offsets).

  python3 bench/kda_contract.py --kernels build/kernels [--only graph,determinism,long,int64,strided,gva,workspace,offsets]

Every call goes through the typed C ABI (kda2rt_kda_prefill,
kda2rt_kda_decode_pool, kda2rt_kda_decode_spec); outputs are poisoned with
NaN before each run and checked against a float64 recurrence on random
inputs. Prints one JSON line per check; writes $OUT/kda_contract.json. Exit
status 1 when a check raised (the workspace check raises on any wrong
result; the others record theirs).
"""
import argparse
import json
import os
import sys
import traceback

import torch

sys.path.insert(0, os.path.dirname(__file__))
import kda2rt  # noqa: E402
from kda_decode import kda_inputs, rel_err  # noqa: E402
from kda_serving import make_pool, step, to_kmajor  # noqa: E402

C = 32  # the prefill kernels' chunk (kda_chunk_split / kda_chunk_h, C = 32, VB = 16)
GATE_LOWER_BOUND = -5.0  # kda_inputs' gate: 0.1 * logsigmoid(randn), far above -5
# The largest relative error against float64 a strict check accepts (bf16
# inputs and outputs: about 4e-3 for o, 3e-3 for the states, bench/RESULTS.md).
TOL = 1e-2


def stream():
    return torch.cuda.current_stream().cuda_stream


def bitwise(a, b):
    return bool(torch.equal(a.contiguous().view(torch.uint8), b.contiguous().view(torch.uint8)))


def nan(*shape, dtype=torch.bfloat16):
    return torch.full(shape, float("nan"), dtype=dtype, device="cuda")


# Whether the Prefill calls use the fused-output scan (main: --fused), and
# the scan kernels' names (main: --key-split: kda_chunk_scan_ok / _hk).
FUSED = False
SCAN_SUFFIX = ""
# main: --rdy: the kernels built with RDY=1 (*_rdy cubins: ready flags, the
# scan launched as the prep's programmatic dependent).
RDY = ""
# main: --prep-suffix: another build of the same prep (e.g. _tq: TQ=1, its
# chunk's rows copied whole), the cubin name's suffix.
PREP_SUFFIX = ""
# main: --scan-build: another build of the scans' module (e.g. _w8: the
# split-key scan on eight warps), the cubin name's suffix.
SCAN_BUILD = ""

class Prefill:
    """kda2rt_kda_prefill with its three kernels and a workspace for calls of
    up to n sequences and max_tokens tokens in all (the rows of q, padding
    rows included: the intermediates are per chunk slot, max_tokens // C + n
    of them, however the tokens are split), the longest max_seqlen tokens
    (the checkpoint table's ceil(max_seqlen / C) columns), over h heads;
    with m > 0 also up to m checkpoint offsets per sequence (kda_chunk_ckpt
    of the scan's module). prep: another prep cubin's name (the activation
    prep)."""

    def __init__(self, rt, kernels, n, max_tokens, max_seqlen, h, K=128, V=128, st="f32",
                 ss="kv", ix="i32", m=0, prep=None):
        kv = f"k{K}" + (f"v{V}" if V != K else "")
        tail = "" if ix == "i32" else f"_{ix}"  # the IX=i64 builds: *_i64 cubins
        self.rt, self.st, self.ss, self.ix, self.max_seqlen = rt, st, ss, ix, max_seqlen
        self.prep = rt.kernel(rt.load(os.path.join(
            kernels, (prep or f"kda_chunk_split_c32_vb16_{kv}{tail}{PREP_SUFFIX}") + RDY
            + ".sm_90a.cubin")),
            "kda_chunk_prep")
        name = f"kda_chunk_h_c32_vb16_{kv}" + ("" if (st, ss) == ("f32", "kv") else f"_{st}_{ss}")
        mod = rt.load(os.path.join(kernels, name + tail + SCAN_BUILD + RDY + ".sm_90a.cubin"))
        # FUSED (--fused): the scan with the output on it, no output kernel.
        self.scan = rt.kernel(mod, ("kda_chunk_scan_o" if FUSED else "kda_chunk_scan_h")
                              + SCAN_SUFFIX)
        self.out = None if FUSED else rt.kernel(mod, "kda_chunk_out")
        self.ckpt_kernel = rt.kernel(mod, "kda_chunk_ckpt") if m else None
        self.ws_bytes = rt.prefill_workspace_size(self.prep, self.scan, self.out, n,
                                                  max_tokens, h, m_max=m)
        # ws: the first 1024-byte aligned address; the call is given exactly
        # ws_bytes from it (the 1 to 1024 bytes after them: alignment slack).
        self.ws_raw = torch.empty(self.ws_bytes + 1024, dtype=torch.uint8, device="cuda")
        self.ws = (self.ws_raw.data_ptr() + 1023) // 1024 * 1024

    def poison(self):
        """Fills the whole allocation with 0xFF bytes (NaN in bf16 and fp32):
        an intermediate read before it is written shows in the outputs."""
        self.ws_raw.fill_(255)

    def tail_untouched(self):
        """Whether the bytes past the workspace's ws_bytes still hold
        poison()'s 0xFF (the call wrote nothing past its size)."""
        end = self.ws - self.ws_raw.data_ptr() + self.ws_bytes
        return bool((self.ws_raw[end:] == 255).all())

    def __call__(self, q, k, v, g, beta, cu, idx, hi, pool, o, cb=None, ckpt=None,
                 strides=None, hqk=0, offsets=None, blocks=None, **act):
        self.rt.kda_prefill(self.prep, self.scan, self.out, q, k, v, g, beta, cu, idx, hi,
                            pool, o, self.ws, self.max_seqlen, q.shape[-1] ** -0.5, stream(),
                            checkpoint_blocks=cb, ckpt=ckpt, state_dtype=self.st,
                            state_layout=self.ss, gate_lower_bound=GATE_LOWER_BOUND,
                            workspace_bytes=self.ws_bytes, index_dtype=self.ix,
                            strides=strides, hqk=hqk, ckpt_offsets=offsets,
                            offset_blocks=blocks,
                            ckpt_kernel=self.ckpt_kernel if offsets is not None else None,
                            **act)


def decode_pool_kernel(rt, kernels, K=128, V=128, st="f32", ss="kv", ix="i32"):
    suffix = f"k{K}" + (f"v{V}" if V != K else "") + f"_{st}_{ss}" + \
        ("" if ix == "i32" else f"_{ix}")
    return rt.kernel(rt.load(os.path.join(kernels, f"kda_decode_pool_{suffix}.sm_90a.cubin")),
                     "kda_decode_pool")


def recurrence(q, k, v, g, beta, cu, idx, hi, pool, ss="kv", cb=None, start=None, t0=None,
               offs=None):
    """float64 recurrence of a packed batch on a pool (the pool's contents
    before the call): o [T, h, V] (zeros on padding rows), {slot: final
    K-major state}, {block: K-major checkpoint state}. `start`/`t0` override
    one sequence's start: begin at token t0 of sequence 0 from state `start`
    (used to check a tail from a checkpoint). offs[n]: (t, block) pairs, the
    state after the first t tokens of sequence n into that block (offset
    checkpoints; t outside [1, len] or a block < 0: none)."""
    T, H, V = v.shape
    K = q.shape[-1]
    scale = K ** -0.5
    o_ref = torch.zeros(T, H, V, dtype=torch.float64, device="cuda")
    finals, ckpts = {}, {}
    cu, idx, hi = cu.tolist(), idx.tolist(), hi.tolist()
    cb = cb.tolist() if cb is not None else None
    for n in range(len(idx)):
        b, e, slot = cu[n], cu[n + 1], idx[n]
        if not 0 <= slot < pool.shape[0]:
            continue
        S = to_kmajor(pool[slot], ss) if hi[n] else torch.zeros(
            H, K, V, dtype=torch.float64, device="cuda")
        first = b
        if start is not None and n == 0:
            S, first = start.clone(), b + t0
        for t in range(first, e):
            S, o_ref[t] = step(S, q[t], k[t], v[t], g[t], beta[t], scale)
            if cb is not None and ((t - b + 1) % C == 0 or t == e - 1):
                blk = cb[n][(t - b) // C]
                if blk >= 0:
                    ckpts[blk] = S
            for at, blk in (offs[n] if offs is not None else ()):
                if at == t - b + 1 and blk >= 0:
                    ckpts[blk] = S
        finals[slot] = S
    return o_ref, finals, ckpts


def check(row, prefix, o, o_ref, rows, pool, before, finals, ss, padding_rows=(), written=None):
    """Errors of o (rows `rows`) and of the written states; slots outside
    `written` (default: those of finals) bitwise unchanged; padding rows
    exactly zero."""
    rows = torch.tensor(rows, dtype=torch.long, device="cuda")
    row[prefix + "err_o"] = rel_err(o[rows], o_ref[rows]) if len(rows) else None
    if finals:
        slots = sorted(finals)
        row[prefix + "err_state"] = rel_err(
            torch.stack([to_kmajor(pool[s], ss) for s in slots]),
            torch.stack([finals[s] for s in slots]))
    keep = torch.ones(pool.shape[0], dtype=torch.bool, device="cuda")
    keep[list(finals if written is None else written)] = False
    row[prefix + "untouched_bitwise"] = bitwise(pool[keep], before[keep])
    if padding_rows:
        pr = torch.tensor(list(padding_rows), dtype=torch.long, device="cuda")
        row[prefix + "padding_rows_zero"] = bool((o[pr] == 0).all())


def packed(lengths):
    cu = [0]
    for L in lengths:
        cu.append(cu[-1] + L)
    return torch.tensor(cu, dtype=torch.int32)


def padding_rows(cu, idx, slots):
    rows = []
    for n, s in enumerate(idx.tolist()):
        if not 0 <= s < slots:
            rows += range(int(cu[n]), int(cu[n + 1]))
    return rows


def graph_replay(rt, kernels, results, H=8, NP=8, TP=1024, MAXL=256, ND=64, TD=128,
                 prefill_slots=32, decode_slots=64, batches=None, blocks=None, pad_below=None,
                 label="graph-replay", strict=False):
    """Point 7: one CUDA graph holding a prefill (8 sequences, up to 256 tokens
    each, 1024 in all, checkpoints) and a decode (64 sequences, up to 128
    tokens) on one pool, captured once and replayed on three batches of
    different lengths, slots, padding and checkpoint tables written into the
    same buffers. The first replay must equal the eager calls bitwise.

    The arguments give other maxima (the workspace check: 256 sequences and
    32 768 tokens, one of them up to 16 384 tokens long): NP prefill
    sequences, TP prefill tokens (the workspace's max_tokens), MAXL the
    longest; ND, TD the decode's; the prefill's slots are [0,
    prefill_slots), the decode's the next decode_slots. batches: (prefill
    lengths, NP of them; decode lengths, ND) per replay. blocks: that many
    checkpoint blocks at random chunks of each batch (None: a block for most
    of the NP x ceil(MAXL / C) table's entries). pad_below: only sequences
    shorter than that may be padding. strict: raise once all replays are
    checked if one failed (verdict)."""
    K, V = 128, 128
    SLOTS = prefill_slots + decode_slots
    nc = (MAXL + C - 1) // C
    sparse = blocks is not None
    if not sparse:
        blocks = NP * nc + 8
    prefill = Prefill(rt, kernels, NP, TP, MAXL, H)
    dec = decode_pool_kernel(rt, kernels)
    bf, f32, i32 = torch.bfloat16, torch.float32, torch.int32
    z = lambda *s, dt=bf: torch.zeros(*s, dtype=dt, device="cuda")  # noqa: E731
    P = dict(q=z(TP, H, K), k=z(TP, H, K), v=z(TP, H, V), g=z(TP, H, K, dt=f32),
             beta=z(TP, H, dt=f32), cu=z(NP + 1, dt=i32), idx=z(NP, dt=i32),
             hi=z(NP, dt=i32), cb=z(NP, nc, dt=i32), o=z(TP, H, V))
    D = dict(q=z(TD, H, K), k=z(TD, H, K), v=z(TD, H, V), g=z(TD, H, K, dt=f32),
             beta=z(TD, H, dt=f32), cu=z(ND + 1, dt=i32), idx=z(ND, dt=i32),
             hi=z(ND, dt=i32), o=z(TD, H, V))
    pool, ckpt = z(SLOTS, H, K, V, dt=f32), z(blocks, H, K, V, dt=f32)
    if batches is None:
        batches = [
            ([256, 1, 0, 31, 32, 100, 200, 64], [1] * 64),
            ([5, 250, 33, 0, 0, 129, 256, 1], [1, 2, 0, 3] * 16),
            ([17] * 8, [1] * 20 + [0] * 44),
        ]
    for pl, dl in batches:
        assert len(pl) == NP and sum(pl) <= TP and max(pl) <= MAXL, "prefill batch too large"
        assert len(dl) == ND and sum(dl) <= TD, "decode batch too large"

    def load(r):
        """Batch r into the captured buffers; returns what the checks need."""
        gen = torch.Generator().manual_seed(40 + r)
        pl, dl = batches[r]
        for bufs, lengths, seed, lo, hi_slot in ((P, pl, 50 + r, 0, prefill_slots),
                                                 (D, dl, 60 + r, prefill_slots, SLOTS)):
            N = len(lengths)
            T = bufs["q"].shape[0]
            q, k, v, g, beta, _ = kda_inputs(1, T, H, K, V, seed=seed)
            for name, x in (("q", q), ("k", k), ("v", v), ("g", g), ("beta", beta)):
                bufs[name].copy_(x[0])
            bufs["cu"].copy_(packed(lengths))
            idx = (lo + torch.randperm(hi_slot - lo, generator=gen)[:N]).to(i32)
            pad = torch.rand(N, generator=gen) < 0.2
            if pad_below is not None:
                pad &= torch.tensor(lengths) < pad_below
            idx[pad] = torch.where(torch.rand(int(pad.sum()), generator=gen) < 0.5,
                                   torch.tensor(-1), torch.tensor(SLOTS + 5)).to(i32)
            bufs["idx"].copy_(idx)
            bufs["hi"].copy_((torch.rand(N, generator=gen) < 0.7).to(i32))
            bufs["o"].fill_(float("nan"))
        if sparse:  # `blocks` blocks at random chunks the batch has
            cb = torch.full((NP, nc), -1, dtype=i32)
            real = [(i, j) for i, L in enumerate(pl) for j in range((L + C - 1) // C)]
            for b, at in enumerate(torch.randperm(len(real), generator=gen)[:blocks].tolist()):
                cb[real[at]] = b
        else:
            cb = torch.randperm(blocks, generator=gen)[:NP * nc].view(NP, nc).to(i32)
            cb[torch.rand(NP, nc, generator=gen) < 0.3] = -1
        P["cb"].copy_(cb)
        pool.copy_(make_pool(SLOTS, H, K, V, "f32", "kv", 70 + r))
        ckpt.copy_(make_pool(blocks, H, K, V, "f32", "kv", 80 + r))
        return pool.clone(), ckpt.clone()

    def call():
        prefill(P["q"], P["k"], P["v"], P["g"], P["beta"], P["cu"], P["idx"], P["hi"], pool,
                P["o"], cb=P["cb"], ckpt=ckpt)
        dec.kda_decode_pool(D["q"], D["k"], D["v"], D["g"], D["beta"], D["cu"], D["idx"],
                            D["hi"], pool, D["o"], K ** -0.5, stream())

    load(0)
    call()
    torch.cuda.synchronize()
    eager = [x.clone() for x in (P["o"], D["o"], pool, ckpt)]
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.graph(graph, stream=side):
        call()
    torch.cuda.synchronize()
    failed = []
    for r in range(len(batches)):
        pool_before, ckpt_before = load(r)
        graph.replay()
        torch.cuda.synchronize()
        pl = batches[r][0]
        row = {"check": label, "replay": r,
               "prefill_lengths": pl if len(pl) <= 16 else describe(pl),
               "decode_tokens": sum(batches[r][1])}
        if label != "graph-replay":
            row.update(h=H, max_tokens=TP, max_seqlen=MAXL, workspace_bytes=prefill.ws_bytes)
        refs = {prefix: recurrence(bufs["q"], bufs["k"], bufs["v"], bufs["g"], bufs["beta"],
                                   bufs["cu"], bufs["idx"], bufs["hi"], pool_before,
                                   cb=P["cb"] if bufs is P else None)
                for prefix, bufs in (("prefill_", P), ("decode_", D))}
        written = set(refs["prefill_"][1]) | set(refs["decode_"][1])
        for prefix, bufs in (("prefill_", P), ("decode_", D)):
            o_ref, finals, ckpts = refs[prefix]
            T = int(bufs["cu"][-1])
            check(row, prefix, bufs["o"], o_ref, list(range(T)), pool, pool_before, finals,
                  "kv", padding_rows(bufs["cu"], bufs["idx"], SLOTS), written)
            if bufs is P:
                row["ckpt_written"] = len(ckpts)
                check(row, "ckpt_", P["o"], o_ref, [], ckpt, ckpt_before, ckpts, "kv")
            # The tail past the batch's tokens is not written: still NaN.
            row[prefix + "tail_untouched"] = bool(torch.isnan(bufs["o"][T:].float()).all())
        if r == 0:
            row["replay_equals_eager"] = all(
                bitwise(a, b) for a, b in zip(eager, (P["o"], D["o"], pool, ckpt)))
        if strict:
            row["failed"] = verdict(row)
            failed += [f"replay {r}: {key}" for key in row["failed"]]
        results.append(row)
        print(json.dumps(row), flush=True)
    if failed:
        raise AssertionError(f"{label}: " + ", ".join(failed))


def verdict(row, tol=None):
    """The failed entries of a check's row: the errors (keys ending in err_o,
    err_state, err_ckpt; None: nothing to compare) not below tol (NaN
    included), and every boolean that is False."""
    tol = TOL if tol is None else tol
    bad = []
    for key, val in row.items():
        if key.endswith(("err_o", "err_state", "err_ckpt")):
            if val is not None and not val < tol:
                bad.append(key)
        elif isinstance(val, bool) and not val:
            bad.append(key)
    return bad


def describe(lengths):
    """A long list of lengths as runs: [16384, 64, 64, ...] -> '16384 + 64 x 255'."""
    parts, i = [], 0
    while i < len(lengths):
        j = i
        while j + 1 < len(lengths) and lengths[j + 1] == lengths[i]:
            j += 1
        parts.append(f"{lengths[i]}" + (f" x {j - i + 1}" if j > i else ""))
        i = j + 1
    return " + ".join(parts)


def segment_batch(seqs, order, H, K, V):
    """Packs the sequences `order` (indices into seqs, each (q, k, v, g, beta)
    of [L, H, ...]) into one batch: the packed tensors and cu_seqlens."""
    parts = [[seqs[i][j] for i in order] for j in range(5)]
    return [torch.cat(p) for p in parts], packed([seqs[i][0].shape[0] for i in order])


def determinism(rt, kernels, results):
    """Point 10: a sequence alone and inside two different batch packings
    (other position, other neighbours, other slot, another max_seqlen) gives
    bitwise-identical outputs, final state and checkpoints; for prefill,
    decode and speculative decode. And prefill of T tokens against prefill of
    T - n followed by n decode steps."""
    H, K, V = 8, 128, 128
    lengths = [200, 37, 1, 0, 96, 300, 64, 5, 129, 33]
    seqs = []
    for i, L in enumerate(lengths):
        q, k, v, g, beta, _ = kda_inputs(1, L, H, K, V, seed=300 + i)
        seqs.append((q[0], k[0], v[0], g[0], beta[0]))
    x = 0  # the sequence under test: 200 tokens
    start = make_pool(1, H, K, V, "f32", "kv", 9)[0]
    packings = [[x], [4, 1, 2, 3, x, 5], [9, 8, 7, 6, 5, x, 1, 2]]
    prefills = {}
    dec = decode_pool_kernel(rt, kernels)
    outs = {"prefill": [], "decode": []}
    for kind in ("prefill", "decode"):
        for p, order in enumerate(packings):
            (q, k, v, g, beta), cu = segment_batch(seqs, order, H, K, V)
            N, T = len(order), int(cu[-1])
            slots = 3 * N + 4
            gen = torch.Generator().manual_seed(500 + p)
            idx = torch.randperm(slots, generator=gen)[:N].to(torch.int32)
            pool = make_pool(slots, H, K, V, "f32", "kv", 600 + p)
            pos = order.index(x)
            pool[int(idx[pos])] = start
            hi = torch.ones(N, dtype=torch.int32)
            o = nan(T, H, V)
            cu_d, idx_d, hi_d = cu.cuda(), idx.cuda(), hi.cuda()
            if kind == "prefill":
                maxl = max(lengths[i] for i in order)
                if maxl not in prefills:
                    prefills[maxl] = Prefill(rt, kernels, 8, sum(lengths), maxl, H)
                nc = (maxl + C - 1) // C
                cb = torch.arange(N * nc, dtype=torch.int32).view(N, nc)
                ckpt = nan(N * nc, H, K, V, dtype=torch.float32)
                prefills[maxl](q, k, v, g, beta, cu_d, idx_d, hi_d, pool, o, cb=cb.cuda(),
                               ckpt=ckpt)
                nx = (lengths[x] + C - 1) // C
                ck = ckpt[cb[pos, :nx].long().cuda()]
            else:
                dec.kda_decode_pool(q, k, v, g, beta, cu_d, idx_d, hi_d, pool, o, K ** -0.5,
                                    stream())
                ck = None
            torch.cuda.synchronize()
            b, e = int(cu[pos]), int(cu[pos + 1])
            outs[kind].append((o[b:e].clone(), pool[int(idx[pos])].clone(), ck))
        first = outs[kind][0]
        row = {"check": "determinism", "kernel": kind, "tokens": lengths[x],
               "packings": [len(p) for p in packings],
               "identical": all(bitwise(a[0], first[0]) and bitwise(a[1], first[1]) and
                                (a[2] is None or bitwise(a[2], first[2]))
                                for a in outs[kind][1:])}
        o_ref, finals, _ = recurrence(*seqs[x], packed([lengths[x]]).int(),
                                      torch.tensor([0]), torch.tensor([1]), start[None])
        row["err_o"] = rel_err(first[0], o_ref)
        row["err_state"] = rel_err(first[1].double(), finals[0])
        results.append(row)
        print(json.dumps(row), flush=True)
    spec_determinism(rt, kernels, results, H, K, V)
    # Prefill of T tokens vs prefill of T - n and n decode steps (one call of n tokens).
    qx, kx, vx, gx, bx = seqs[x]
    L = lengths[x]
    pf = prefills[L]
    cu1 = packed([L]).cuda()
    idx1 = torch.zeros(1, dtype=torch.int32, device="cuda")
    hi1 = torch.ones(1, dtype=torch.int32, device="cuda")
    o_ref, finals, _ = recurrence(qx, kx, vx, gx, bx, packed([L]), torch.tensor([0]),
                                  torch.tensor([1]), start[None])
    for n in (1, 3, 40):
        full_pool, split_pool = start[None].clone(), start[None].clone()
        o_full, o_split = nan(L, H, V), nan(L, H, V)
        pf(qx, kx, vx, gx, bx, cu1, idx1, hi1, full_pool, o_full)
        pf(qx, kx, vx, gx, bx, packed([L - n]).cuda(), idx1, hi1, split_pool, o_split)
        tail = slice(L - n, L)
        o_dec = nan(n, H, V)
        dec.kda_decode_pool(qx[tail].contiguous(), kx[tail].contiguous(), vx[tail].contiguous(),
                            gx[tail].contiguous(), bx[tail].contiguous(), packed([n]).cuda(),
                            idx1, hi1, split_pool, o_dec, K ** -0.5, stream())
        torch.cuda.synchronize()
        row = {"check": "prefill-vs-prefill+decode", "tokens": L, "decode_steps": n,
               "diff_o_tail": rel_err(o_dec, o_full[tail].double()),
               "diff_state": rel_err(split_pool, full_pool.double()),
               "diff_o_head": rel_err(o_split[:L - n], o_full[:L - n].double()),
               "err_o_full": rel_err(o_full, o_ref),
               "err_o_split_tail": rel_err(o_dec, o_ref[tail]),
               "err_state_full": rel_err(full_pool[0].double(), finals[0]),
               "err_state_split": rel_err(split_pool[0].double(), finals[0])}
        results.append(row)
        print(json.dumps(row), flush=True)


def spec_determinism(rt, kernels, results, H, K, V):
    """kda_decode_spec: one sequence's row alone and inside a batch of 24."""
    kernel = rt.kernel(rt.load(os.path.join(kernels, "kda_decode_spec_k128_f32_kv.sm_90a.cubin")),
                       "kda_decode_spec")
    t = 4
    q, k, v, g, beta, _ = kda_inputs(24, t, H, K, V, seed=700)
    src = make_pool(1, H, K, V, "f32", "kv", 701)[0]
    got = []
    for N, pos in ((1, 0), (24, 13), (24, 5)):
        # Sequence 13 at position pos among the others in a random order.
        gen = torch.Generator().manual_seed(710 + pos)
        order = [i for i in torch.randperm(24, generator=gen).tolist() if i != 13][:N - 1]
        order.insert(pos, 13)
        sel = torch.tensor(order, device="cuda")
        slots = 4 * N + t + 8
        idx = torch.randperm(slots, generator=gen)[:N * t].view(N, t).to(torch.int32)
        acc = torch.randint(1, t + 1, (N,), generator=gen, dtype=torch.int32)
        acc[order.index(13)] = 2
        pool = make_pool(slots, H, K, V, "f32", "kv", 720 + pos)
        row_idx = idx[order.index(13)]
        pool[int(row_idx[1])] = src
        o = nan(N, t, H, V)
        kernel.kda_decode_spec(q[sel], k[sel], v[sel], g[sel], beta[sel], idx.cuda(), acc.cuda(),
                               pool, o, K ** -0.5, stream())
        torch.cuda.synchronize()
        i = order.index(13)
        got.append((o[i].clone(), torch.stack([pool[int(s)] for s in row_idx]).clone()))
    row = {"check": "determinism", "kernel": "spec", "tokens": t,
           "identical": all(bitwise(a[0], got[0][0]) and bitwise(a[1], got[0][1])
                            for a in got[1:])}
    results.append(row)
    print(json.dumps(row), flush=True)


def long_sequence(rt, kernels, results, T=540000, H=32):
    """Point 8, 64-bit index arithmetic: one sequence of T tokens over H heads
    (T * H * 128 > 2^31 elements in q, k, v, o and the intermediates), with
    checkpoints at three windows: the start, around token 2^31 / (H * 128),
    and the end. Each window is checked against a float64 recurrence started
    from the checkpoint before it (the first from the initial state)."""
    K = V = 128
    nc = (T + C - 1) // C
    pf = Prefill(rt, kernels, 1, T, T, H)
    row = {"check": "long-sequence", "T": T, "H": H, "workspace_gb": pf.ws_bytes / 1e9,
           "q_elements": T * H * K}
    q, k, v, g, beta, _ = kda_inputs(1, T, H, K, V, seed=900)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    cross = (1 << 31) // (H * K) // C
    windows = [(0, 8), (cross - 4, cross + 6), (nc - 10, nc)]
    cb = torch.full((1, nc), -1, dtype=torch.int32)
    chunks = [j for lo, hi in windows for j in range(max(lo - 1, 0), hi)]
    for i, j in enumerate(chunks):
        cb[0, j] = i
    ckpt = nan(len(chunks), H, K, V, dtype=torch.float32)
    pool = make_pool(2, H, K, V, "f32", "kv", 901)
    before = pool.clone()
    o = nan(T, H, V)
    idx = torch.tensor([1], dtype=torch.int32)
    hi = torch.tensor([1], dtype=torch.int32)
    pf(q, k, v, g, beta, packed([T]).cuda(), idx.cuda(), hi.cuda(), pool, o, cb=cb.cuda(),
       ckpt=ckpt)
    torch.cuda.synchronize()
    row["o_all_finite"] = bool(torch.isfinite(o).all())
    row["slot0_untouched"] = bitwise(pool[0], before[0])
    for w, (lo, hi_c) in enumerate(windows):
        b, e = lo * C, min(hi_c * C, T)
        S0 = to_kmajor(before[1], "kv") if lo == 0 else ckpt[int(cb[0, lo - 1])].double()
        sub = [x[b:e] for x in (q, k, v, g, beta)]
        o_ref, finals, _ = recurrence(*sub, packed([e - b]), torch.tensor([0]),
                                      torch.tensor([1]), S0[None])
        row[f"w{w}_tokens"] = [b, e]
        row[f"w{w}_err_o"] = rel_err(o[b:e], o_ref)
        last = pool[1] if e == T else ckpt[int(cb[0, hi_c - 1])]
        row[f"w{w}_err_state"] = rel_err(last.double(), finals[0])
    results.append(row)
    print(json.dumps(row), flush=True)


def int64_indices(rt, kernels, results):
    """Points 2 and 8, the index types: int64 cu_seqlens, state_indices and
    checkpoint_blocks (flash-linear-attention's LongTensor) through the IX=i64
    kernels (the _i64 cubins, index_dtype "i64") give bitwise the outputs,
    states and checkpoints of the int32 kernels on the same inputs, for the
    prefill and the pool decode, on a small mixed batch (an empty sequence, a
    one-token one, padding, sequences without an initial state, chunks without
    a checkpoint). The i64 kernel refuses index_dtype "i32"."""
    H, K, V = 4, 128, 128
    lengths = [37, 1, 0, 100, 64, 5]
    N, T, maxl, slots = len(lengths), sum(lengths), max(lengths), 16
    nc = (maxl + C - 1) // C
    q, k, v, g, beta, _ = kda_inputs(1, T, H, K, V, seed=1000)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    cu = packed(lengths)
    idx = torch.tensor([3, 7, 0, -1, 12, 5], dtype=torch.int32)
    hi = torch.tensor([1, 0, 1, 1, 1, 0], dtype=torch.int32)
    cb = torch.arange(N * nc, dtype=torch.int32).view(N, nc)
    cb[1::2, 0] = -1
    start = make_pool(slots, H, K, V, "f32", "kv", 1001)
    runs = {}
    for ix, dt in (("i32", torch.int32), ("i64", torch.int64)):
        pf = Prefill(rt, kernels, N, T, maxl, H, ix=ix)
        dec = decode_pool_kernel(rt, kernels, ix=ix)
        pool_pf, pool_dec = start.clone(), start.clone()
        ckpt = nan(N * nc, H, K, V, dtype=torch.float32)
        o_pf, o_dec = nan(T, H, V), nan(T, H, V)
        cu_d, idx_d, cb_d = cu.to(dt).cuda(), idx.to(dt).cuda(), cb.to(dt).cuda()
        hi_d = hi.cuda()  # has_initial_state: int32 whatever IX is
        pf(q, k, v, g, beta, cu_d, idx_d, hi_d, pool_pf, o_pf, cb=cb_d, ckpt=ckpt)
        dec.kda_decode_pool(q, k, v, g, beta, cu_d, idx_d, hi_d, pool_dec, o_dec, K ** -0.5,
                            stream(), index_dtype=ix)
        torch.cuda.synchronize()
        runs[ix] = (o_pf, pool_pf, ckpt, o_dec, pool_dec)
    row = {"check": "int64-indices", "lengths": lengths, "slots": idx.tolist()}
    names = ("prefill_o", "prefill_pool", "prefill_ckpt", "decode_o", "decode_pool")
    for name, a, b in zip(names, runs["i32"], runs["i64"]):
        row[name + "_bitwise"] = bitwise(a, b)
    o_ref, finals, _ = recurrence(q, k, v, g, beta, cu, idx, hi, start, cb=cb)
    o_pf, pool_pf, _, o_dec, pool_dec = runs["i64"]
    pad = padding_rows(cu, idx, slots)
    check(row, "prefill_", o_pf, o_ref, list(range(T)), pool_pf, start, finals, "kv", pad)
    check(row, "decode_", o_dec, o_ref, list(range(T)), pool_dec, start, finals, "kv", pad)
    try:
        dec.kda_decode_pool(q, k, v, g, beta, cu_d, idx_d, hi_d, pool_dec, o_dec, K ** -0.5,
                            stream(), index_dtype="i32")
        row["i32_refused"] = False
    except kda2rt.Error as e:
        row["i32_refused"] = "reads 'cu_seqlens' as int64" in str(e)
    results.append(row)
    print(json.dumps(row), flush=True)


def strided_inputs(rt, kernels, results):
    """Point 8, runtime strides: q, k, v as column slices of one fused bf16
    projection [T, W] (W > 2hK + hV: rows W elements apart, not contiguous),
    g and beta as slices of one fused f32 tensor, passed in place with their
    row strides through kda2rt_kda_prefill, kda2rt_kda_decode_pool and (rows
    being sequences of t tokens) kda2rt_kda_decode_spec give bitwise the
    outputs, states and checkpoints of the same calls on contiguous copies. A
    stride that is not a multiple of 16 bytes is refused by name."""
    H, K, V = 4, 128, 128
    HK, HV = H * K, H * V
    lengths = [37, 1, 0, 100, 64, 5]
    N, T, maxl, slots = len(lengths), sum(lengths), max(lengths), 16
    nc = (maxl + C - 1) // C
    q, k, v, g, beta, _ = kda_inputs(1, T, H, K, V, seed=1100)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    # One bf16 projection [T, W]: 8 elements of something else, q, k, v, room.
    W = 8 + 2 * HK + HV + 24  # 3120 bytes a row: a multiple of 16
    fused = torch.randn(T, W, device="cuda").to(torch.bfloat16)
    fq = fused[:, 8:8 + HK].view(T, H, K)
    fk = fused[:, 8 + HK:8 + 2 * HK].view(T, H, K)
    fv = fused[:, 8 + 2 * HK:8 + 2 * HK + HV].view(T, H, V)
    WG = HK + 4 + H + 12  # f32 [T, WG]: g, 4 others, beta, room (2112 bytes a row)
    gates = torch.randn(T, WG, device="cuda")
    fg = gates[:, :HK].view(T, H, K)
    fb = gates[:, HK + 4:HK + 4 + H]
    for dst, src in ((fq, q), (fk, k), (fv, v), (fg, g), (fb, beta)):
        dst.copy_(src)
    assert not fq.is_contiguous() and not fb.is_contiguous()
    strides = kda2rt.row_strides(q=fq, k=fk, v=fv, g=fg, beta=fb)
    cu = packed(lengths)
    idx = torch.tensor([3, 7, 0, -1, 12, 5], dtype=torch.int32)
    hi = torch.tensor([1, 0, 1, 1, 1, 0], dtype=torch.int32)
    cb = torch.arange(N * nc, dtype=torch.int32).view(N, nc)
    cb[1::2, 0] = -1
    start = make_pool(slots, H, K, V, "f32", "kv", 1101)
    cu_d, idx_d, hi_d, cb_d = cu.cuda(), idx.cuda(), hi.cuda(), cb.cuda()
    pf = Prefill(rt, kernels, N, T, maxl, H)
    dec = decode_pool_kernel(rt, kernels)
    runs = {}
    for name, ins, st in (("dense", (q, k, v, g, beta), None),
                          ("strided", (fq, fk, fv, fg, fb), strides)):
        pool_pf, pool_dec = start.clone(), start.clone()
        ckpt = nan(N * nc, H, K, V, dtype=torch.float32)
        o_pf, o_dec = nan(T, H, V), nan(T, H, V)
        pf(*ins, cu_d, idx_d, hi_d, pool_pf, o_pf, cb=cb_d, ckpt=ckpt, strides=st)
        dec.kda_decode_pool(*ins, cu_d, idx_d, hi_d, pool_dec, o_dec, K ** -0.5, stream(),
                            strides=st)
        torch.cuda.synchronize()
        runs[name] = (o_pf, pool_pf, ckpt, o_dec, pool_dec)
    row = {"check": "strided", "lengths": lengths, "W": W, "WG": WG,
           "strides": strides}
    names = ("prefill_o", "prefill_pool", "prefill_ckpt", "decode_o", "decode_pool")
    for name, a, b in zip(names, runs["dense"], runs["strided"]):
        row[name + "_bitwise"] = bitwise(a, b)
    o_ref, finals, _ = recurrence(q, k, v, g, beta, cu, idx, hi, start, cb=cb)
    o_pf, pool_pf, _, o_dec, pool_dec = runs["strided"]
    pad = padding_rows(cu, idx, slots)
    check(row, "prefill_", o_pf, o_ref, list(range(T)), pool_pf, start, finals, "kv", pad)
    check(row, "decode_", o_dec, o_ref, list(range(T)), pool_dec, start, finals, "kv", pad)
    # Speculative decode: a row is a sequence of t tokens (dense inside).
    spec = rt.kernel(rt.load(os.path.join(kernels, "kda_decode_spec_k128_f32_kv.sm_90a.cubin")),
                     "kda_decode_spec")
    n, t = 6, 4
    sq, sk, sv, sg, sb, _ = kda_inputs(n, t, H, K, V, seed=1102)
    WS = t * (2 * HK + HV) + 8  # 12304 bytes a row
    sfused = torch.randn(n, WS, device="cuda").to(torch.bfloat16)
    ssq = sfused[:, :t * HK].view(n, t, H, K)
    ssk = sfused[:, t * HK:2 * t * HK].view(n, t, H, K)
    ssv = sfused[:, 2 * t * HK:2 * t * HK + t * HV].view(n, t, H, V)
    WSG = t * HK + t * H + 12  # f32, 8304 bytes a row
    sgates = torch.randn(n, WSG, device="cuda")
    ssg = sgates[:, :t * HK].view(n, t, H, K)
    ssb = sgates[:, t * HK:t * HK + t * H].view(n, t, H)
    for dst, src in ((ssq, sq), (ssk, sk), (ssv, sv), (ssg, sg), (ssb, sb)):
        dst.copy_(src)
    gen = torch.Generator().manual_seed(1103)
    sslots = n * t + 8
    sidx = torch.randperm(sslots, generator=gen)[:n * t].view(n, t).to(torch.int32)
    sidx[2, 0] = -1  # padding
    acc = torch.randint(0, t + 1, (n,), generator=gen, dtype=torch.int32)
    sstart = make_pool(sslots, H, K, V, "f32", "kv", 1104)
    sruns = []
    for ins, st in (((sq, sk, sv, sg, sb), None),
                    ((ssq, ssk, ssv, ssg, ssb),
                     kda2rt.row_strides(q=ssq, k=ssk, v=ssv, g=ssg, beta=ssb))):
        pool, o = sstart.clone(), nan(n, t, H, V)
        spec.kda_decode_spec(*ins, sidx.cuda(), acc.cuda(), pool, o, K ** -0.5, stream(),
                             strides=st)
        torch.cuda.synchronize()
        sruns.append((o, pool))
    row["spec_o_bitwise"] = bitwise(sruns[0][0], sruns[1][0])
    row["spec_pool_bitwise"] = bitwise(sruns[0][1], sruns[1][1])
    row["spec_o_finite"] = bool(torch.isfinite(sruns[1][0].float()).all())
    # beta's rows one f32 past a multiple of 16 bytes: refused by name.
    bad = gates.new_empty(T, WG + 1)[:, :H]
    try:
        dec.kda_decode_pool(fq, fk, fv, fg, bad, cu_d, idx_d, hi_d, start.clone(),
                            nan(T, H, V), K ** -0.5, stream(),
                            strides={**strides, "beta": bad.stride(0)})
        row["misaligned_refused"] = False
    except kda2rt.Error as e:
        row["misaligned_refused"] = ("argument 'beta_stride' is %d: the row stride must be "
                                     "a multiple of 16 bytes" % bad.stride(0)) in str(e)
    row["ok"] = all(row[x] for x in row if x.endswith("_bitwise")) and \
        row["misaligned_refused"] and row["spec_o_finite"]
    results.append(row)
    print(json.dumps(row), flush=True)


def grouped_value_heads(rt, kernels, results):
    """Point 8, grouped value heads in the prefill: q and k with HQK = 2 heads,
    v, g, beta, o and the states with H = 8 (value head j reads q/k head
    j // (H // HQK)), through kda2rt_kda_prefill with hqk = 2 on a small mixed
    batch (an empty sequence, a one-token one, padding, sequences without an
    initial state, checkpoints, chunks without one), against the float64
    recurrence on q, k repeated to H heads (repeat_interleave); the same call
    on those repeated q, k with hqk = 0 gives bitwise the same outputs, states
    and checkpoints. hqk = 3 (not dividing H) is refused by name."""
    H, HQK, K, V = 8, 2, 128, 128
    lengths = [37, 1, 0, 100, 64, 5]
    N, T, maxl, slots = len(lengths), sum(lengths), max(lengths), 16
    nc = (maxl + C - 1) // C
    q, k, _, _, _, _ = kda_inputs(1, T, HQK, K, V, seed=1200)
    _, _, v, g, beta, _ = kda_inputs(1, T, H, K, V, seed=1201)
    q, k, v, g, beta = q[0].contiguous(), k[0].contiguous(), v[0], g[0], beta[0]
    rq = q.repeat_interleave(H // HQK, dim=1).contiguous()
    rk = k.repeat_interleave(H // HQK, dim=1).contiguous()
    cu = packed(lengths)
    idx = torch.tensor([3, 7, 0, -1, 12, 5], dtype=torch.int32)
    hi = torch.tensor([1, 0, 1, 1, 1, 0], dtype=torch.int32)
    cb = torch.arange(N * nc, dtype=torch.int32).view(N, nc)
    cb[1::2, 0] = -1
    start = make_pool(slots, H, K, V, "f32", "kv", 1202)
    cu_d, idx_d, hi_d, cb_d = cu.cuda(), idx.cuda(), hi.cuda(), cb.cuda()
    pf = Prefill(rt, kernels, N, T, maxl, H)
    runs = {}
    for name, qq, kk, hqk in (("gva", q, k, HQK), ("repeated", rq, rk, 0)):
        pool = start.clone()
        ckpt = nan(N * nc, H, K, V, dtype=torch.float32)
        o = nan(T, H, V)
        pf(qq, kk, v, g, beta, cu_d, idx_d, hi_d, pool, o, cb=cb_d, ckpt=ckpt, hqk=hqk)
        torch.cuda.synchronize()
        runs[name] = (o, pool, ckpt)
    row = {"check": "gva", "lengths": lengths, "h": H, "hqk": HQK,
           "slots": idx.tolist()}
    for name, a, b in zip(("o", "pool", "ckpt"), runs["gva"], runs["repeated"]):
        row[name + "_bitwise"] = bitwise(a, b)
    o_ref, finals, ckpts = recurrence(rq, rk, v, g, beta, cu, idx, hi, start, cb=cb)
    o, pool, ckpt = runs["gva"]
    pad = padding_rows(cu, idx, slots)
    check(row, "", o, o_ref, list(range(T)), pool, start, finals, "kv", pad)
    blks = sorted(ckpts)
    row["err_ckpt"] = rel_err(ckpt[blks].double(), torch.stack([ckpts[b] for b in blks]))
    q3 = torch.zeros(T, 3, K, dtype=torch.bfloat16, device="cuda")
    try:
        pf(q3, q3.clone(), v, g, beta, cu_d, idx_d, hi_d, start.clone(), nan(T, H, V),
           cb=cb_d, ckpt=nan(N * nc, H, K, V, dtype=torch.float32), hqk=3)
        row["hqk3_refused"] = False
    except kda2rt.Error as e:
        row["hqk3_refused"] = "argument 'hqk' is 3: h = 8 must be a multiple of it" in str(e)
    row["ok"] = all(row[x] for x in row if x.endswith("_bitwise")) and \
        row["untouched_bitwise"] and row["padding_rows_zero"] and row["hqk3_refused"]
    results.append(row)
    print(json.dumps(row), flush=True)


def workspace(rt, kernels, results, H=4):
    """The prefill workspace sized by the call's tokens, not its longest
    sequence (chunk slots, docs/Prefill.md): a very uneven batch, one
    sequence of 16 384 tokens and 255 of 64 (n = 256, tt = 32 704), through
    kda2rt_kda_prefill with a workspace of exactly
    kda2rt_kda_prefill_workspace_size(n, tt, h) bytes (poisoned with NaN
    bytes; the bytes past its size must stay untouched), against the float64
    recurrence: o (padding sequences' rows zero), the final states (other
    pool slots bitwise unchanged) and checkpoints. Prints the workspace's
    bytes next to those of the layout by the longest sequence (n ·
    ceil(max_seqlen / C) chunks per head). The long sequence and two 64-token
    ones (the first after it, the batch's last) alone, each with its own
    exactly sized workspace: bitwise the o rows, final state and checkpoints
    they get inside the batch (batch-packing determinism). Then the CUDA-graph
    variant: graph_replay captured once at the maxima (256 sequences, 32 768
    tokens, 16 384 the longest) and replayed on this packing, on 8 x 4096 among
    248 empty sequences and on one of 32 386 tokens (1, 16 383, 254 x 63),
    in the same workspace. Raises on any failure (TOL, verdict)."""
    K = V = 128
    lengths = [16384] + [64] * 255
    n, tt, maxl = len(lengths), sum(lengths), max(lengths)
    nc = (maxl + C - 1) // C
    slots = n + 16
    q, k, v, g, beta, _ = kda_inputs(1, tt, H, K, V, seed=1300)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    cu = packed(lengths)
    gen = torch.Generator().manual_seed(1301)
    idx = torch.randperm(slots, generator=gen)[:n].to(torch.int32)
    idx[7], idx[100] = -1, slots + 3  # two padding sequences (64 tokens each)
    hi = (torch.rand(n, generator=gen) < 0.7).to(torch.int32)
    hi[0] = 1
    # Checkpoints: six chunks of the long sequence (both ends, the middle),
    # the first or the last chunk of every other short one.
    cb = torch.full((n, nc), -1, dtype=torch.int32)
    at = [(0, j) for j in (0, 1, nc // 2 - 1, nc // 2, nc - 2, nc - 1)]
    at += [(i, 0 if i % 4 == 3 else 1) for i in range(1, n) if i % 2 == 1]
    for b, ij in enumerate(at):
        cb[ij] = b
    blocks = len(at)
    start = make_pool(slots, H, K, V, "f32", "kv", 1302)
    cu_d, idx_d, hi_d, cb_d = cu.cuda(), idx.cuda(), hi.cuda(), cb.cuda()

    pf = Prefill(rt, kernels, n, tt, maxl, H)
    # The layout by the longest sequence had n · nc chunk slots per head:
    # this layout's bytes at ns = max_tokens // C + n = n · nc.
    try:
        old = rt.prefill_workspace_size(pf.prep, pf.scan, pf.out, n, n * (nc - 1) * C, H)
    except kda2rt.Error:  # past a limit of the call: in proportion to the slots
        old = pf.ws_bytes * n * nc // (tt // C + n)
    pf.poison()
    pool, o = start.clone(), nan(tt, H, V)
    ckpt = nan(blocks, H, K, V, dtype=torch.float32)
    pf(q, k, v, g, beta, cu_d, idx_d, hi_d, pool, o, cb=cb_d, ckpt=ckpt)
    torch.cuda.synchronize()
    row = {"check": "workspace", "lengths": describe(lengths), "n": n, "tt": tt, "h": H,
           "chunk_slots": tt // C + n, "old_chunk_slots": n * nc,
           "workspace_bytes": pf.ws_bytes, "old_layout_bytes": old,
           "old_over_new": old / pf.ws_bytes, "smaller_than_old": pf.ws_bytes < old,
           "ws_tail_untouched": pf.tail_untouched()}
    print(f"workspace: {pf.ws_bytes / 2**20:.1f} MiB for n = {n}, tt = {tt}, h = {H} "
          f"({tt // C + n} chunk slots per head); the layout by the longest sequence "
          f"({n} x {nc} chunks per head): {old / 2**30:.2f} GiB, {old / pf.ws_bytes:.0f} x",
          flush=True)
    o_ref, finals, ckpts = recurrence(q, k, v, g, beta, cu, idx, hi, start, cb=cb)
    check(row, "", o, o_ref, list(range(tt)), pool, start, finals, "kv",
          padding_rows(cu, idx, slots))
    blks = sorted(ckpts)
    row["ckpts_written"] = len(blks)
    row["err_ckpt"] = rel_err(ckpt[blks].double(), torch.stack([ckpts[b] for b in blks]))
    unwritten = [b for b in range(blocks) if b not in ckpts]  # the padding's
    row["ckpt_others_nan"] = bool(torch.isnan(ckpt[unwritten]).all()) if unwritten else True
    # Batch-packing determinism: each sequence alone, its own exact workspace.
    for i in (0, 1, n - 1):
        L, b, s = lengths[i], int(cu[i]), int(idx[i])
        nci = (L + C - 1) // C
        one = Prefill(rt, kernels, 1, L, L, H)
        one.poison()
        pool1, o1 = start.clone(), nan(L, H, V)
        ckpt1 = nan(blocks, H, K, V, dtype=torch.float32)
        one(q[b:b + L], k[b:b + L], v[b:b + L], g[b:b + L], beta[b:b + L], packed([L]).cuda(),
            idx[i:i + 1].cuda(), hi[i:i + 1].cuda(), pool1, o1,
            cb=cb[i:i + 1, :nci].contiguous().cuda(), ckpt=ckpt1)
        torch.cuda.synchronize()
        mine = [x for x in cb[i, :nci].tolist() if x >= 0]
        row[f"alone{i}_o_bitwise"] = bitwise(o1, o[b:b + L])
        row[f"alone{i}_state_bitwise"] = bitwise(pool1[s], pool[s])
        row[f"alone{i}_ckpt_bitwise"] = bitwise(ckpt1[mine], ckpt[mine]) if mine else True
        row[f"alone{i}_ws_tail_untouched"] = one.tail_untouched()
        row[f"alone{i}_workspace_bytes"] = one.ws_bytes
        del one
    row["failed"] = verdict(row)
    results.append(row)
    print(json.dumps(row), flush=True)
    del pf
    torch.cuda.empty_cache()
    try:
        # Captured once at the maxima, replayed on other packings.
        spread = [4096 if i % 32 == 0 else 0 for i in range(n)]  # 8 x 4096, 248 empty
        unaligned = [1, 16383] + [63] * 254  # 32 386 tokens, most starts off a chunk edge
        graph_replay(rt, kernels, results, H=H, NP=n, TP=32768, MAXL=maxl, ND=16, TD=64,
                     prefill_slots=n + 16, decode_slots=32,
                     batches=[(lengths, [4] * 16), (spread, [1, 2, 0, 3] * 4),
                              (unaligned, [1] * 16)],
                     blocks=96, pad_below=65, label="workspace-graph", strict=True)
    finally:
        if row["failed"]:
            raise AssertionError("workspace: " + ", ".join(row["failed"]))


def offsets(rt, kernels, results, H=4):
    """Point 3: checkpoints at token offsets. A varlen batch (a 1-token and an
    empty sequence, one shorter than a chunk, a padding one) with m = 5
    offsets per sequence: inside chunks, on chunk boundaries, t = 1, t = len,
    and ignored ones (t = 0, t = len + 1, negative, a block < 0 or past
    blocks). Each run against the float64 recurrence: the offset checkpoints
    (err_ckpt), o and the final states; blocks nobody names (and those of
    ignored entries) stay NaN. Runs: the bounded prep with fp32 K-major
    states, offsets alone and together with a boundary table (checkpoint at
    every chunk end into other blocks); bf16 V-major states; the activation
    prep with the unbounded softplus gate (GF 2, adversarial: about -15
    nats per step on half the heads); one CUDA graph captured with one
    offset table and replayed after the table changed in place. Then the
    cost: graph time of a 16 x 2048-token, 16-head prefill with 2 offsets per
    sequence against none (same kernels). Raises on any failure."""
    from kda_serving import act_inputs  # noqa: E402 (the activation inputs)
    K = V = 128
    lengths = [300, 1, 77, 64, 0, 150, 31, 500]
    n, tt, maxl = len(lengths), sum(lengths), max(lengths)
    cu = packed(lengths)
    slots = n + 4
    gen = torch.Generator().manual_seed(1400)
    idx = torch.randperm(slots, generator=gen)[:n].to(torch.int32)
    idx[6] = -1  # a padding sequence (31 tokens): no checkpoint, no state
    hi = (torch.rand(n, generator=gen) < 0.7).to(torch.int32)
    m = 5
    table = [[17, 32, 45, 299, 300],   # in chunks 0 and 1, a boundary, len - 1, len
             [1, 0, 2, -3, 1],         # the 1-token sequence: t = 1 twice, ignored 0, 2, -3
             [77, 33, 76, 78, 5],      # short tail chunk; 78 = len + 1 ignored
             [64, 63, 16, 48, 1],      # two whole chunks
             [1, 0, 1, 1, 1],          # the empty sequence: all ignored
             [150, 149, 100, 96, 3],
             [5, 31, 16, 1, 30],       # the padding sequence: all ignored
             [500, 257, 488, 15, 250]]
    blocks = n * m + 3  # the last three: named by no entry
    blk = torch.arange(n * m, dtype=torch.int32).view(n, m)
    blk[0, 4] = -1          # an ignored block
    blk[5, 2] = 10 ** 6  # past blocks (of every run: the boundary run has more): ignored
    off = torch.tensor(table, dtype=torch.int32)
    cu_d, idx_d, hi_d = cu.cuda(), idx.cuda(), hi.cuda()
    failed = []

    def run(label, pf, inputs, ref_inputs, st="f32", ss="kv", cb=None, tables=(off, blk),
            graph_swap=None, **act):
        q, k, v, g, beta = inputs
        pool0 = make_pool(slots, H, K, V, st, ss, 1401)
        pool, o = pool0.clone(), nan(tt, H, V)
        nb = blocks + (0 if cb is None else n * ((maxl + C - 1) // C))
        ckpt = nan(nb, H, K, V, dtype=pool.dtype) if ss == "kv" else nan(nb, H, V, K, dtype=pool.dtype)
        off_d, blk_d = tables[0].cuda(), tables[1].cuda()
        cb_d = cb.cuda() if cb is not None else None
        call = lambda: pf(q, k, v, g, beta, cu_d, idx_d, hi_d, pool, o, cb=cb_d,  # noqa: E731
                          ckpt=ckpt, offsets=off_d, blocks=blk_d, **act)
        if graph_swap is None:
            call()
        else:  # captured with one table, replayed with another
            graph = torch.cuda.CUDAGraph()
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                call()  # warm-up outside the capture
            torch.cuda.current_stream().wait_stream(side)
            pool.copy_(pool0)
            o.fill_(float("nan"))
            ckpt.fill_(float("nan"))
            with torch.cuda.graph(graph):
                call()
            off_d.copy_(graph_swap[0])
            blk_d.copy_(graph_swap[1])
            graph.replay()
        torch.cuda.synchronize()
        used = [[(t, b if 0 <= b < blocks else -1) for t, b in zip(a.tolist(), bb.tolist())]
                for a, bb in zip(*(graph_swap or tables))]
        qr, kr, vr, gr, br = ref_inputs
        o_ref, finals, ckpts = recurrence(qr, kr, vr, gr, br, cu, idx, hi, pool0.float(), ss=ss,
                                          cb=cb, offs=used)
        row = {"check": "offsets", "run": label, "n": n, "tt": tt, "h": H, "m": m,
               "st": st, "ss": ss}
        check(row, "", o, o_ref, [t for t in range(tt) if t not in padding_rows(cu, idx, slots)],
              pool.float(), pool0.float(), finals, ss, padding_rows(cu, idx, slots))
        named = sorted(ckpts)
        row["ckpts_written"] = len(named)
        row["err_ckpt"] = rel_err(torch.stack([to_kmajor(ckpt[b].float(), ss) for b in named]),
                                  torch.stack([ckpts[b] for b in named]))
        others = [b for b in range(nb) if b not in ckpts]
        row["ckpt_others_nan"] = bool(torch.isnan(ckpt[others].float()).all())
        row["failed"] = verdict(row)
        results.append(row)
        print(json.dumps(row), flush=True)
        if row["failed"]:
            failed.append(label)

    q, k, v, g, beta, _ = kda_inputs(1, tt, H, K, V, seed=1402)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    plain = (q, k, v, g, beta)
    pf = Prefill(rt, kernels, n, tt, maxl, H, m=m)
    run("bounded-f32-kv", pf, plain, plain)
    # With a boundary table too: every chunk end of every sequence, blocks
    # after the offsets'.
    nc = (maxl + C - 1) // C
    cb = (blocks + torch.arange(n * nc, dtype=torch.int32)).view(n, nc)
    run("bounded-f32-kv+boundaries", pf, plain, plain, cb=cb)
    # The same call in a CUDA graph, replayed after the tables changed.
    swap_off = off.clone()
    swap_off[0] = torch.tensor([100, 7, 64, 33, 1])
    swap_off[7] = torch.tensor([499, 1, 2, 31, 33])
    swap_off[2] = torch.tensor([0, 0, 0, 0, 77])
    run("bounded-f32-kv-graph", pf, plain, plain, graph_swap=(swap_off, blk.flip(1).contiguous()))
    del pf
    pf = Prefill(rt, kernels, n, tt, maxl, H, st="bf16", ss="vk", m=m)
    run("bounded-bf16-vk", pf, plain, plain, st="bf16", ss="vk")
    del pf
    x = act_inputs(2, tt, H, H, K, V, 1403, adversarial=True)
    pf = Prefill(rt, kernels, n, tt, maxl, H, m=m, prep="kda_chunk_prep_act_c32_vb16_k128_gf2")
    run("softplus-gf2-adversarial", pf, (x["q"], x["k"], x["v"], x["a"], x["b"]),
        (x["qd"], x["kd"], x["v"], x["gd"], x["bd"]), A_log=x["A_log"], dt_bias=x["dt_bias"])
    del pf
    # Cost: 16 x 2048 tokens, 16 heads, two offsets per sequence (one inside
    # a chunk, one at len - 7) against none.
    from kda_decode import graph_time_us  # noqa: E402
    L, N, Hc = 2048, 16, 16
    q, k, v, g, beta, _ = kda_inputs(1, N * L, Hc, K, V, seed=1404)
    q, k, v, g, beta = q[0], k[0], v[0], g[0], beta[0]
    cuc = packed([L] * N).cuda()
    idc = torch.arange(N, dtype=torch.int32, device="cuda")
    hic = torch.ones(N, dtype=torch.int32, device="cuda")
    pool, o = make_pool(N, Hc, K, V, "f32", "kv", 1405), nan(N * L, Hc, V)
    ckc = nan(2 * N, Hc, K, V, dtype=torch.float32)
    offc = torch.tensor([[1000, L - 7]] * N, dtype=torch.int32, device="cuda")
    blc = torch.arange(2 * N, dtype=torch.int32, device="cuda").view(N, 2)
    pf = Prefill(rt, kernels, N, N * L, L, Hc, m=2)
    row = {"check": "offsets", "run": "cost", "n": N, "T": L, "h": Hc, "m": 2}
    row["us_none"] = graph_time_us(lambda: pf(q, k, v, g, beta, cuc, idc, hic, pool, o))
    row["us_offsets"] = graph_time_us(lambda: pf(q, k, v, g, beta, cuc, idc, hic, pool, o,
                                                 ckpt=ckc, offsets=offc, blocks=blc))
    row["ratio"] = row["us_offsets"] / row["us_none"]
    results.append(row)
    print(json.dumps(row), flush=True)
    if failed:
        raise AssertionError("offsets: " + ", ".join(failed))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--only",
                        default="graph,determinism,long,int64,strided,gva,workspace,offsets")
    parser.add_argument("--long-tokens", type=int, default=540000)
    parser.add_argument("--fused", action="store_true",
                        help="run every check on kda_chunk_scan_o (the output on the scan, "
                             "out_kernel NULL) instead of kda_chunk_scan_h + kda_chunk_out")
    parser.add_argument("--rdy", action="store_true",
                        help="the kernels built with RDY=1 (*_rdy cubins; with --fused): "
                             "ready flags per chunk, the scan as the prep's programmatic "
                             "dependent")
    parser.add_argument("--key-split", action="store_true",
                        help="the scans with each chain's keys split over the computing warps (OW): "
                             "kda_chunk_scan_ok (with --fused) or kda_chunk_scan_hk")
    parser.add_argument("--prep-suffix", default="",
                        help="the prep cubin's name suffix: another build of the same "
                             "prep (_tq: TQ=1, bench/prefill_device.sh build)")
    parser.add_argument("--scan-build", default="",
                        help="the scans' cubin name suffix: another build of the same "
                             "module (_w8: OW=8, bench/prefill_device.sh build)")
    args = parser.parse_args()
    global FUSED, SCAN_SUFFIX, RDY, PREP_SUFFIX, SCAN_BUILD
    FUSED = args.fused
    PREP_SUFFIX = args.prep_suffix
    SCAN_BUILD = args.scan_build
    RDY = "_rdy" if args.rdy else ""
    if args.rdy and not args.fused:
        parser.error("--rdy needs --fused (the ready flags are the fused scans')")
    SCAN_SUFFIX = "k" if args.key_split else ""
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    results = []
    checks = {"graph": lambda: graph_replay(rt, args.kernels, results),
              "determinism": lambda: determinism(rt, args.kernels, results),
              "long": lambda: long_sequence(rt, args.kernels, results, T=args.long_tokens),
              "int64": lambda: int64_indices(rt, args.kernels, results),
              "strided": lambda: strided_inputs(rt, args.kernels, results),
              "gva": lambda: grouped_value_heads(rt, args.kernels, results),
              "workspace": lambda: workspace(rt, args.kernels, results),
              "offsets": lambda: offsets(rt, args.kernels, results)}
    failed = []
    for name in args.only.split(","):
        try:
            checks[name]()
        except Exception:  # report and go on with the next check
            traceback.print_exc()
            results.append({"check": name, "error": traceback.format_exc(limit=3)})
            failed.append(name)
        torch.cuda.empty_cache()
    with open(os.path.join(os.environ.get("OUT", "."), "kda_contract.json"), "w") as f:
        json.dump({"results": results}, f, indent=1)
    if failed:  # a check that raised (the strict ones on a wrong result): exit status 1
        print("FAILED: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
