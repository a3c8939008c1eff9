"""Writes fake cubins for the fake CUDA driver (unittests/Runtime/FakeCuda.h).

usage: fake_cubin.py <out-dir>
  kda_decode.sm_90a.cubin   a K = V = 128 decode kernel with its t = 1 copy
  kda_decode_vk.sm_90a.cubin          the same with a V-major state
  kda_decode_nolayout.sm_90a.cubin    the same without `state` lines (as
                                      from a kda2 that did not record them)
  fill.sm_90a.cubin         a kernel the tools have no reference for
  kda_decode_pool.sm_90a.cubin        a pool decode kernel (state_indices)
  kda_decode_spec.sm_90a.cubin        a speculative decode kernel
"""
import os
import sys


def decode_meta(name, d, variant=False, layout="kv"):
    dims = dict(d=d)
    m = ("kda2-kernel-v1\nname {name}\nblock 128 1 1\ngrid.x 4\ngrid.y n h\n"
         "smem 0\narg ptr q bf16 in 4 n h t {d}\narg ptr k bf16 in 4 n h t {d}\n"
         "arg ptr v bf16 in 4 n h t {d}\narg ptr g f32 in 4 n h t {d}\n"
         "arg ptr beta f32 in 3 n h t\narg ptr h0 f32 in 4 n h {d} {d}\n"
         "arg scalar scale f32\narg ptr o bf16 out 4 n h t {d}\n"
         "arg ptr ht f32 out 4 n h {d} {d}\narg dim n\narg dim h\narg dim t\n"
         ).format(name=name, **dims)
    if variant:
        m += "variant t 1 %s__t_1\n" % name
    # The layout of the states, as kda2 records it.
    if layout:
        m += "state h0 {0}\nstate ht {0}\n".format(layout)
    return m + "end\n"


def cubin(kernels):
    """The magic, the size in 15 digits and a NUL, then per kernel
    "__kda2_meta_<name>\\0<metadata>\\0"."""
    body = b"".join(b"__kda2_meta_" + n.encode() + b"\0" + m.encode() + b"\0"
                    for n, m in kernels)
    return (b"\x7fELF kda2 fake\0\0" + ("%015d" % (32 + len(body))).encode()
            + b"\0" + body)


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "kda_decode.sm_90a.cubin"), "wb") as f:
    f.write(cubin([("kda_decode", decode_meta("kda_decode", 128, True)),
                   ("kda_decode__t_1", decode_meta("kda_decode__t_1", 128))]))
for suffix, layout in (("vk", "vk"), ("nolayout", "")):
    with open(os.path.join(out, "kda_decode_%s.sm_90a.cubin" % suffix), "wb") as f:
        f.write(cubin([("kda_decode", decode_meta("kda_decode", 128, True, layout)),
                       ("kda_decode__t_1",
                        decode_meta("kda_decode__t_1", 128, False, layout))]))
fill = ("kda2-kernel-v1\nname fill\nblock 128 1 1\ngrid.x n\n"
        "arg ptr x f32 out 1 n\narg scalar value f32\narg counters 1\n"
        "counter writes i64\narg dim n\nend\n")
with open(os.path.join(out, "fill.sm_90a.cubin"), "wb") as f:
    f.write(cubin([("fill", fill)]))

# Pool kernels (templates/kda_decode_pool.tirx, kda_decode_spec.tirx): only
# their argument lists matter to the tools.
pool = ("kda2-kernel-v1\nname kda_decode_pool\nblock 128 1 1\ngrid.x\n"
        "grid.y n h\narg ptr q bf16 in 3 tt h 128\narg ptr k bf16 in 3 tt h 128\n"
        "arg ptr v bf16 in 3 tt h 128\narg ptr g f32 in 3 tt h 128\n"
        "arg ptr beta f32 in 2 tt h\narg ptr cu_seqlens i32 in 1 np1\n"
        "arg ptr state_indices i32 in 1 n\narg ptr has_initial_state i32 in 1 n\n"
        "arg ptr pool f32 inout 4 slots h 128 128\narg scalar scale f32\n"
        "arg ptr o bf16 out 3 tt h 128\narg dim tt\narg dim h\narg dim np1\n"
        "arg dim n\narg dim slots\nstate pool kv\nend\n")
spec = ("kda2-kernel-v1\nname kda_decode_spec\nblock 128 1 1\ngrid.x 2\n"
        "grid.y n h\narg ptr q bf16 in 4 n t h 128\narg ptr k bf16 in 4 n t h 128\n"
        "arg ptr v bf16 in 4 n t h 128\narg ptr g f32 in 4 n t h 128\n"
        "arg ptr beta f32 in 3 n t h\narg ptr state_indices i32 in 2 n t\n"
        "arg ptr num_accepted i32 in 1 n\narg ptr pool f32 inout 4 slots h 128 128\n"
        "arg scalar scale f32\narg scalar write_states i32\narg ptr o bf16 out 4 n t h 128\narg dim n\n"
        "arg dim t\narg dim h\narg dim slots\nstate pool kv\nend\n")
for name, meta in (("kda_decode_pool", pool), ("kda_decode_spec", spec)):
    with open(os.path.join(out, name + ".sm_90a.cubin"), "wb") as f:
        f.write(cubin([(name, meta)]))
