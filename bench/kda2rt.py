"""Minimal ctypes binding of libkda2rt for the GPU benchmarks (see docs/Runtime.md).

Benchmarks only: the compiler and the runtime themselves do not use Python.
"""
import ctypes as C

P, S, I, Z = C.c_void_p, C.c_char_p, C.c_int, C.c_size_t


class Error(RuntimeError):
    pass


class Runtime:
    def __init__(self, lib, device=0):
        rt = self.rt = C.CDLL(lib)
        sig = {
            "kda2rt_init": [I, S, Z],
            "kda2rt_module_load_file": [I, S, C.POINTER(P), S, Z],
            "kda2rt_kernel_get": [P, S, C.POINTER(P), S, Z],
            "kda2rt_kernel_metadata": [P],
            "kda2rt_launch": [P, C.POINTER(S), C.POINTER(P), I,
                              C.POINTER(S), C.POINTER(C.c_int64), I,
                              C.POINTER(S), C.POINTER(C.c_double), I, P, S, Z],
        }
        for name, args in sig.items():
            getattr(rt, name).argtypes = args
            getattr(rt, name).restype = I
        rt.kda2rt_kernel_metadata.restype = S
        self.device = device
        self._err = C.create_string_buffer(4096)
        self._check(rt.kda2rt_init(device, self._err, 4096), "init")

    def _check(self, rc, what):
        if rc != 0:
            raise Error(f"kda2rt {what}: {self._err.value.decode()}")

    def load(self, path):
        module = P()
        self._check(self.rt.kda2rt_module_load_file(
            self.device, path.encode(), C.byref(module), self._err, 4096), f"load {path}")
        return module

    def kernel(self, module, name):
        kernel = P()
        self._check(self.rt.kda2rt_kernel_get(module, name.encode(), C.byref(kernel),
                                              self._err, 4096), f"kernel {name}")
        return Kernel(self, kernel)


    def prefill_workspace_size(self, prep, scan, out, n_max, max_total_tokens, h, m_max=0):
        """kda2rt_kda_prefill_workspace_size: bytes of the workspace of a prefill of
        up to n_max sequences and up to max_total_tokens tokens in all (a call's
        total_tokens, padding included), h heads, whatever the lengths: the
        intermediates are per chunk slot, floor(max_total_tokens / C) + n_max of
        them per head (the kernels are Kernel objects: kda_chunk_prep,
        kda_chunk_scan_h, kda_chunk_out; or scan = the fused-output scan
        kda_chunk_scan_o and out = None, whose workspace holds no hs). m_max > 0:
        calls with up to m_max checkpoint offsets per sequence too
        (kda2rt_kda_prefill_workspace_size_offsets)."""
        rt = self.rt
        fn = rt.kda2rt_kda_prefill_workspace_size_offsets if m_max else \
            rt.kda2rt_kda_prefill_workspace_size
        fn.argtypes = [P, P, P, C.c_int64, C.c_int64, C.c_int64] + \
            ([C.c_int64] if m_max else []) + [C.POINTER(Z), S, Z]
        fn.restype = I
        size = Z()
        self._check(fn(prep.handle, scan.handle, _handle(out), n_max, max_total_tokens, h,
                       *([m_max] if m_max else []), C.byref(size), self._err, 4096),
                    "kda_prefill_workspace_size")
        return size.value

    def kda_prefill(self, prep, scan, out, q, k, v, g, beta, cu_seqlens, state_indices,
                    has_initial_state, pool, o, workspace, max_seqlen, scale, stream,
                    checkpoint_blocks=None, ckpt=None, dtype="bf16", state_dtype="f32",
                    state_layout="kv", gate_lower_bound=float("-inf"), workspace_bytes=None,
                    index_dtype="i32", strides=None, hqk=0, A_log=None, dt_bias=None,
                    lower_bound=0.0, ckpt_offsets=None, offset_blocks=None,
                    ckpt_kernel=None):
        """kda2rt_kda_prefill (docs/Runtime.md, "Prefill"): q, k [T, hqk, K]; g [T, h,
        K]; v, o [T, h, V]; beta [T, h]; cu_seqlens [n + 1], state_indices [n] of index_dtype
        ("i32" or "i64": the kernels' IX), has_initial_state [n] int32;
        checkpoint_blocks [n, ceil(max_seqlen / C)] of index_dtype and ckpt
        [blocks, h, ..] both or neither (max_seqlen sizes only that table; a
        longer sequence's later checkpoints repeat its last column); pool [slots,
        h, K, V] ("kv") or [slots, h, V, K] ("vk") in place; workspace: a 1024-byte
        aligned device buffer (tensor or address) of at least
        prefill_workspace_size(prep, scan, out, n, T, h) bytes (n and T of this
        call or more).
        gate_lower_bound: the lowest per-step log decay the gate can produce (-inf
        for the softplus family; -5 for a gate bounded at -5); the call refuses a prep
        kernel compiled for a narrower range of g. strides: the row strides
        (elements between tokens) of q, k, v, g, beta, e.g. row_strides(q=q, ...) for
        slices of a fused projection (inner dimensions dense); None: dense.
        hqk: the q/k heads of grouped value heads (h a multiple of it; value head j
        reads q/k head j * hqk // h); 0: h (q and k have h heads).
        A_log [h] f32, dt_bias [h, K] f32, lower_bound: for an activation prep
        (templates/kda_chunk_prep_act.tirx, a prep kernel with A_log): with its
        gate family GF 1 or 2 g holds the raw activation, the gate is computed in
        the kernel (GF 1: lower_bound * sigmoid(exp(A_log) * (g + dt_bias)),
        lower_bound finite and <= 0; GF 2: -exp(A_log) * softplus(g + dt_bias))
        and gate_lower_bound is ignored; GF 0 reads none of the three (None
        allowed). Other prep kernels never read them.
        ckpt_offsets, offset_blocks [n, m] of index_dtype, with ckpt_kernel
        (kda_chunk_ckpt of the scan's module) and ckpt: entry (i, j) = t in [1,
        len_i] stores the state after the first t tokens of sequence i in block
        offset_blocks[i, j] of ckpt (other t or blocks: none); the workspace
        then needs prefill_workspace_size(..., m_max=m).
        out=None with scan = kda_chunk_scan_o (the fused-output scan, same module):
        prep and the scan (then ckpt_kernel) run, no kda_chunk_out, the workspace
        from prefill_workspace_size(prep, scan, None, ...). Pick it when the scan
        launch is throughput-bound (n * h * V / VB programs more than the SMs, 132
        on the H200); kda_chunk_scan_h + kda_chunk_out for a few long sequences."""
        rt = self.rt
        rt.kda2rt_kda_prefill.argtypes = [P, P, P, C.POINTER(KdaPrefillArgs), P, S, Z]
        rt.kda2rt_kda_prefill.restype = I
        total, qk_heads, kd = q.shape
        h = v.shape[1]
        if hqk and qk_heads != hqk:
            raise ValueError(f"kda_prefill: q has {qk_heads} heads, hqk = {hqk}")
        n = state_indices.shape[0]
        ptr = lambda x: None if x is None else (x if isinstance(x, int) else x.data_ptr())
        if workspace_bytes is None:
            workspace_bytes = workspace.numel() * workspace.element_size()
        args = KdaPrefillArgs(
            *(ptr(x) for x in (q, k, v, g, beta, cu_seqlens, state_indices,
                               has_initial_state, checkpoint_blocks, pool, ckpt, o,
                               workspace)),
            workspace_bytes, n, total, max_seqlen, h, kd, v.shape[-1], pool.shape[0],
            ckpt.shape[0] if ckpt is not None else 0, scale, dtype.encode(),
            state_dtype.encode(), state_layout.encode(), gate_lower_bound,
            index_dtype.encode(), *stride_values(strides), hqk, ptr(A_log),
            ptr(dt_bias), lower_bound, ptr(ckpt_offsets), ptr(offset_blocks),
            ckpt_offsets.shape[1] if ckpt_offsets is not None else 0,
            ckpt_kernel.handle if ckpt_kernel is not None else None)
        self._check(rt.kda2rt_kda_prefill(prep.handle, scan.handle, _handle(out),
                                          C.byref(args), P(stream), self._err, 4096),
                    "kda_prefill")


def _handle(kernel):
    """A Kernel's handle, or NULL for None (the prefill's out_kernel with a
    fused-output scan)."""
    return None if kernel is None else kernel.handle


# The row-stride fields that end the pool, spec and prefill arguments.
STRIDES = ("q_stride", "k_stride", "v_stride", "g_stride", "beta_stride")


def stride_values(strides):
    """The five row strides (elements) for the C arguments from a dict keyed q, k,
    v, g, beta (or q_stride, ...); missing or None: 0, the dense rows."""
    strides = strides or {}
    return [int(strides.get(f[:-len("_stride")], strides.get(f, 0)) or 0)
            for f in STRIDES]


def row_strides(**tensors):
    """{name: tensor.stride(0)} of slices of a fused projection: the strides
    argument of the typed entry points (e.g. row_strides(q=q, beta=beta))."""
    return {name: t.stride(0) for name, t in tensors.items()}


class KdaDecodeArgs(C.Structure):
    """kda2rt_kda_decode_args (kda2rt.h)."""
    _fields_ = [(name, P) for name in ("q", "k", "v", "g", "beta", "h0", "o", "ht")] + \
        [(name, C.c_int64) for name in ("n", "t", "h", "k_dim", "v_dim")] + \
        [("scale", C.c_double), ("dtype", C.c_char_p), ("state_layout", C.c_char_p)]


class KdaDecodePoolArgs(C.Structure):
    """kda2rt_kda_decode_pool_args (kda2rt.h; docs/Runtime.md, the serving contract)."""
    _fields_ = [(name, P) for name in ("q", "k", "v", "g", "beta", "cu_seqlens",
                                       "state_indices", "has_initial_state", "pool", "o")] + \
        [(name, C.c_int64) for name in ("n", "total_tokens", "h", "k_dim", "v_dim", "slots")] + \
        [("scale", C.c_double), ("dtype", C.c_char_p), ("state_dtype", C.c_char_p),
         ("state_layout", C.c_char_p), ("index_dtype", C.c_char_p)] + \
        [(name, C.c_int64) for name in STRIDES]


class KdaDecodeConvArgs(C.Structure):
    """kda2rt_kda_decode_conv_args (kda2rt.h; docs/Runtime.md, "Fused layer decode")."""
    _fields_ = [(name, P) for name in ("qkv", "conv_w", "a", "b", "gout", "A_log",
                                       "dt_bias", "norm_w", "cu_seqlens", "state_indices",
                                       "has_initial_state", "conv_state", "pool", "o")] + \
        [(name, C.c_int64) for name in ("n", "total_tokens", "h", "k_dim", "v_dim",
                                        "conv_width", "slots", "qkv_stride")] + \
        [(name, C.c_double) for name in ("scale", "lower_bound", "eps")] + \
        [(name, C.c_char_p) for name in ("dtype", "state_dtype", "state_layout",
                                         "index_dtype")]


class KdaDecodeSpecArgs(C.Structure):
    """kda2rt_kda_decode_spec_args (kda2rt.h; docs/Runtime.md, the serving contract)."""
    _fields_ = [(name, P) for name in ("q", "k", "v", "g", "beta", "state_indices",
                                       "num_accepted", "pool", "o")] + \
        [(name, C.c_int64) for name in ("n", "t", "h", "k_dim", "v_dim", "slots")] + \
        [("scale", C.c_double), ("dtype", C.c_char_p), ("state_dtype", C.c_char_p),
         ("state_layout", C.c_char_p)] + [("write_states", C.c_int64)] + \
        [("index_dtype", C.c_char_p)] + [(name, C.c_int64) for name in STRIDES]


class KdaPrefillArgs(C.Structure):
    """kda2rt_kda_prefill_args (kda2rt.h; docs/Runtime.md, "Prefill")."""
    _fields_ = [(name, P) for name in ("q", "k", "v", "g", "beta", "cu_seqlens",
                                       "state_indices", "has_initial_state",
                                       "checkpoint_blocks", "pool", "ckpt", "o",
                                       "workspace")] + \
        [("workspace_bytes", Z)] + \
        [(name, C.c_int64) for name in ("n", "total_tokens", "max_seqlen", "h", "k_dim",
                                        "v_dim", "slots", "blocks")] + \
        [("scale", C.c_double), ("dtype", C.c_char_p), ("state_dtype", C.c_char_p),
         ("state_layout", C.c_char_p), ("gate_lower_bound", C.c_double),
         ("index_dtype", C.c_char_p)] + [(name, C.c_int64) for name in STRIDES] + \
        [("hqk", C.c_int64), ("A_log", P), ("dt_bias", P), ("lower_bound", C.c_double)] + \
        [("ckpt_offsets", P), ("offset_blocks", P), ("m", C.c_int64), ("ckpt_kernel", P)]


class Kernel:
    def __init__(self, runtime, handle):
        self.runtime, self.handle = runtime, handle

    def kda_decode(self, q, k, v, g, beta, h0, o, ht, scale, stream, dtype="bf16",
                   state_layout="kv"):
        """The typed C ABI entry point kda2rt_kda_decode (argument checks + launch).
        state_layout: "kv" (h0/ht [n, h, K, V]) or "vk" ([n, h, V, K]), the kernel's."""
        rt = self.runtime.rt
        rt.kda2rt_kda_decode.argtypes = [P, C.POINTER(KdaDecodeArgs), P, S, Z]
        rt.kda2rt_kda_decode.restype = I
        n, t, h, kd = q.shape
        args = KdaDecodeArgs(*(x.data_ptr() for x in (q, k, v, g, beta, h0, o, ht)),
                             n, t, h, kd, v.shape[-1], scale, dtype.encode(),
                             state_layout.encode())
        self.runtime._check(rt.kda2rt_kda_decode(self.handle, C.byref(args), P(stream),
                                                 self.runtime._err, 4096), "kda_decode")

    def kda_decode_pool(self, q, k, v, g, beta, cu_seqlens, state_indices,
                        has_initial_state, pool, o, scale, stream, dtype="bf16",
                        state_dtype="f32", state_layout="kv", index_dtype="i32",
                        strides=None):
        """kda2rt_kda_decode_pool: q, k, g [T, h, K]; v, o [T, h, V]; beta [T, h];
        cu_seqlens [n + 1], state_indices [n] of index_dtype ("i32" or "i64": the
        kernel's IX), has_initial_state [n] int32;
        pool [slots, h, K, V] ("kv") or [slots, h, V, K] ("vk"), updated in place.
        strides: the row (token) strides of q, k, v, g, beta (row_strides); None:
        dense."""
        rt = self.runtime.rt
        rt.kda2rt_kda_decode_pool.argtypes = [P, C.POINTER(KdaDecodePoolArgs), P, S, Z]
        rt.kda2rt_kda_decode_pool.restype = I
        total, h, kd = q.shape
        n = state_indices.shape[0]
        args = KdaDecodePoolArgs(
            *(x.data_ptr() for x in (q, k, v, g, beta, cu_seqlens, state_indices,
                                     has_initial_state, pool, o)),
            n, total, h, kd, v.shape[-1], pool.shape[0], scale, dtype.encode(),
            state_dtype.encode(), state_layout.encode(), index_dtype.encode(),
            *stride_values(strides))
        self.runtime._check(rt.kda2rt_kda_decode_pool(self.handle, C.byref(args), P(stream),
                                                      self.runtime._err, 4096),
                            "kda_decode_pool")

    def kda_decode_conv(self, qkv, conv_w, a, b, gout, A_log, dt_bias, norm_w, cu_seqlens,
                        state_indices, has_initial_state, conv_state, pool, o, h, scale,
                        lower_bound, eps, stream, dtype="bf16", state_dtype="f32",
                        state_layout="kv", index_dtype="i32", qkv_stride=None):
        """kda2rt_kda_decode_conv (the fused layer decode): qkv [T, D] (D = 2·h·K +
        h·V; a row slice of a wider tensor is fine), conv_w [D, W] f32, a [T, h, K]
        f32, b [T, h] f32, gout [T, h, V], A_log [h], dt_bias [h, K], norm_w [V] f32;
        cu_seqlens [n + 1], state_indices [n] of index_dtype (the kernel's IX),
        has_initial_state [n] int32; conv_state [slots, D, W - 1] and pool [slots,
        h, K, V] ("kv") or [slots, h, V, K] ("vk"), both updated in place; o [T, h,
        V]. h is the head count (not derivable from qkv alone). qkv_stride: the
        row stride of qkv in elements; None takes qkv.stride(0) (0 is dense, D).
        lower_bound is ignored by GF 2 kernels. A_log, dt_bias: None (NULL) for a
        kernel built without them (AL=0, DB=0)."""
        rt = self.runtime.rt
        rt.kda2rt_kda_decode_conv.argtypes = [P, C.POINTER(KdaDecodeConvArgs), P, S, Z]
        rt.kda2rt_kda_decode_conv.restype = I
        total = qkv.shape[0]
        kd, vd = a.shape[-1], o.shape[-1]
        n = state_indices.shape[0]
        if qkv_stride is None:
            qkv_stride = qkv.stride(0) if total > 1 else 0
        args = KdaDecodeConvArgs(
            *(None if x is None else x.data_ptr()
              for x in (qkv, conv_w, a, b, gout, A_log, dt_bias, norm_w, cu_seqlens,
                        state_indices, has_initial_state, conv_state, pool, o)),
            n, total, h, kd, vd, conv_w.shape[-1], pool.shape[0], qkv_stride,
            scale, lower_bound, eps, dtype.encode(), state_dtype.encode(),
            state_layout.encode(), index_dtype.encode())
        self.runtime._check(rt.kda2rt_kda_decode_conv(self.handle, C.byref(args), P(stream),
                                                      self.runtime._err, 4096),
                            "kda_decode_conv")

    def kda_decode_spec(self, q, k, v, g, beta, state_indices, num_accepted, pool, o,
                        scale, stream, dtype="bf16", state_dtype="f32", state_layout="kv",
                        write_states=1, index_dtype="i32", strides=None):
        """kda2rt_kda_decode_spec (speculative decode verify): q, k, g [n, t, h, K];
        v, o [n, t, h, V]; beta [n, t, h]; state_indices [n, t] of index_dtype ("i32"
        or "i64": the kernel's IX; slot of the state after each token, -1: not
        stored; row[0] < 0: padding); num_accepted [n] of index_dtype (start from slot state_indices[seq, num_accepted - 1], zeros if
        0); pool [slots, h, K, V] ("kv") or [slots, h, V, K] ("vk"), in place;
        write_states 0: output only (the pool is only read). strides: the strides
        between SEQUENCES (dim 0; each sequence's t tokens dense) of q, k, v, g,
        beta; None: dense."""
        rt = self.runtime.rt
        rt.kda2rt_kda_decode_spec.argtypes = [P, C.POINTER(KdaDecodeSpecArgs), P, S, Z]
        rt.kda2rt_kda_decode_spec.restype = I
        n, t, h, kd = q.shape
        args = KdaDecodeSpecArgs(
            *(x.data_ptr() for x in (q, k, v, g, beta, state_indices, num_accepted,
                                     pool, o)),
            n, t, h, kd, v.shape[-1], pool.shape[0], scale, dtype.encode(),
            state_dtype.encode(), state_layout.encode(), write_states,
            index_dtype.encode(), *stride_values(strides))
        self.runtime._check(rt.kda2rt_kda_decode_spec(self.handle, C.byref(args), P(stream),
                                                      self.runtime._err, 4096),
                            "kda_decode_spec")

    def metadata(self):
        return self.runtime.rt.kda2rt_kernel_metadata(self.handle).decode()

    def check_sizes(self, ptrs, dims):
        """Raises Error, naming the argument, when a tensor holds fewer bytes
        than the kernel's metadata says it reads or writes at these dims (the
        generic launch takes bare pointers: a buffer sized for another
        binding would otherwise be overrun on the device)."""
        elt = {"bf16": 2, "f16": 2, "f32": 4, "i32": 4, "i64": 8, "i8": 1}
        for line in self.metadata().splitlines():
            f = line.split()
            if len(f) < 6 or f[:2] != ["arg", "ptr"] or f[2] not in ptrs:
                continue
            name, dtype, rank = f[2], f[3], int(f[5])
            count = 1
            for d in f[6:6 + rank]:
                count *= int(d) if d.lstrip("-").isdigit() else int(dims.get(d, 0))
            t = ptrs[name]
            if hasattr(t, "numel") and dtype in elt:
                have = t.numel() * t.element_size()
                if have < count * elt[dtype]:
                    raise Error(f"kda2rt prepare: argument '{name}' holds {have} bytes; the "
                                f"kernel's {dtype} {' x '.join(f[6:6 + rank])} needs "
                                f"{count * elt[dtype]} at these dims")

    def prepare(self, ptrs, dims, scalars, stream):
        """Packs the arguments once (after check_sizes); returns a
        zero-argument launcher.

        `stream` is a CUDA stream handle, or a callable returning one at each
        launch (e.g. PyTorch's current stream, so graph capture sees it)."""
        self.check_sizes(ptrs, dims)

        def arr(ctype, values):
            return (ctype * len(values))(*values)
        names = [k.encode() for k in ptrs]
        pn, pv = arr(S, names), arr(P, [int(t.data_ptr()) for t in ptrs.values()])
        dn = arr(S, [k.encode() for k in dims])
        dv = arr(C.c_int64, list(dims.values()))
        sn = arr(S, [k.encode() for k in scalars])
        sv = arr(C.c_double, list(scalars.values()))
        rt, handle, err = self.runtime.rt, self.handle, self.runtime._err
        keep = (pn, pv, dn, dv, sn, sv, ptrs)

        def launch():
            handle_stream = stream() if callable(stream) else stream
            rc = rt.kda2rt_launch(handle, pn, pv, len(ptrs), dn, dv, len(dims),
                                  sn, sv, len(scalars), P(handle_stream), err, 4096)
            if rc != 0:
                raise Error(f"kda2rt launch: {err.value.decode()}")
        launch.keep = keep
        return launch
