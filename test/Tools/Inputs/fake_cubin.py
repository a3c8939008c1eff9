"""Writes fake cubins for the fake CUDA driver (unittests/Runtime/FakeCuda.h).

usage: fake_cubin.py <out-dir>
  kda_decode.sm_90a.cubin   a K = V = 128 decode kernel with its t = 1 copy
  kda_decode_vk.sm_90a.cubin          the same with a V-major state
  kda_decode_nolayout.sm_90a.cubin    the same without `state` lines (as
                                      from a kda2 that did not record them)
  fill.sm_90a.cubin         a kernel the tools have no reference for
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
