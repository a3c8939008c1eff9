"""kda2-serve-mixed on the fake CUDA driver (unittests/Runtime/FakeCuda.h):
no GPU, kernels compute nothing, "device" memory is host memory.

usage: fake-driver-test.py <kda2-serve-mixed> <libkda2fakecuda.so> <work-dir>

Writes fake cubins under the names scripts/build-kernels.sh gives the real
ones (the kernels' metadata as FakeCuda.h's poolDecodeMetadata,
specDecodeMetadata and prefill*Metadata write it, K = V = 128, C = 32,
VB = 16, bf16 inputs, f32 K-major pool; kda_chunk_ckpt in the scan's file)
and checks the exit codes and messages of the program:
  --check-only: every query accepts its call, nothing is launched (0);
  a full run: every call launches, the untouched NaN-poisoned outputs fail
    the float64 check (1), and the host time per call is printed;
  a speculative kernel storing its pool V-major: its query refuses at
    start-up, before anything is launched (2);
  no driver, no cubins, bad arguments (2, 2, 1).
Exits 1 on the first difference.
"""
import os
import subprocess
import sys

exe, fake_cuda, work = sys.argv[1:4]


def cubin(kernels):
    """FakeCuda.h's fakeCubin: the magic, the size in 15 digits and a NUL,
    then per kernel "__kda2_meta_<name>\\0<metadata>\\0"."""
    body = b"".join(b"__kda2_meta_" + n.encode() + b"\0" + m.encode() + b"\0"
                    for n, m in kernels)
    return (b"\x7fELF kda2 fake\0\0" + ("%015d" % (32 + len(body))).encode()
            + b"\0" + body)


D, C, VB = "128", "32", "16"
# The serving templates read q, k, v, g and beta with runtime row strides:
# a `stride` line after each input's `arg` line, i64 scalars after scale
# (the prefill's prep reads all but v, which its scans read in place).
INPUTS = (("q", "sq"), ("k", "sk"), ("v", "sv"), ("g", "sg"), ("beta", "sb"))


def strided(text, without=()):
    inputs = [(arg, s) for arg, s in INPUTS if arg not in without]
    for arg, s in inputs:
        i = text.index("arg ptr %s " % arg)
        end = text.index("\n", i) + 1
        if text.startswith("range g", end):  # prep: `range g` stays next to g
            end = text.index("\n", end) + 1
        text = text[:end] + "stride %s %s\n" % (arg, s) + text[end:]
    i = text.index("arg scalar scale f32\n") + len("arg scalar scale f32\n")
    if text.startswith("arg scalar write_states i32\n", i):
        i += len("arg scalar write_states i32\n")
    return text[:i] + "".join("arg scalar %s i64\n" % s for _, s in inputs) + text[i:]


pool = ("kda2-kernel-v1\nname kda_decode_pool\nblock 128 1 1\ngrid.x\n"
        "grid.y n h\nsmem 0\n"
        "arg ptr q bf16 in 3 tt h 128\narg ptr k bf16 in 3 tt h 128\n"
        "arg ptr v bf16 in 3 tt h 128\narg ptr g f32 in 3 tt h 128\n"
        "arg ptr beta f32 in 2 tt h\narg ptr cu_seqlens i32 in 1 np1\n"
        "arg ptr state_indices i32 in 1 n\n"
        "arg ptr has_initial_state i32 in 1 n\n"
        "arg ptr pool f32 inout 4 slots h 128 128\narg scalar scale f32\n"
        "arg ptr o bf16 out 3 tt h 128\narg dim tt\narg dim h\narg dim np1\n"
        "arg dim n\narg dim slots\nstate pool kv\nend\n")
pool = strided(pool)


def spec(layout):
    return strided("kda2-kernel-v1\nname kda_decode_spec\nblock 128 1 1\ngrid.x 2\n"
            "grid.y n h\nsmem 0\n"
            "arg ptr q bf16 in 4 n t h 128\narg ptr k bf16 in 4 n t h 128\n"
            "arg ptr v bf16 in 4 n t h 128\narg ptr g f32 in 4 n t h 128\n"
            "arg ptr beta f32 in 3 n t h\narg ptr state_indices i32 in 2 n t\n"
            "arg ptr num_accepted i32 in 1 n\n"
            "arg ptr pool f32 inout 4 slots h 128 128\narg scalar scale f32\n"
            "arg scalar write_states i32\narg ptr o bf16 out 4 n t h 128\n"
            "arg dim n\narg dim t\narg dim h\narg dim slots\n"
            "state pool %s\nend\n" % layout)


# The prefill kernels' intermediates are per (head, chunk slot): [h, ns, ..]
# (templates/kda_chunk_split.tirx, templates/kda_chunk_h.tirx); the scans
# read v in place; the checkpoints at token offsets' kc and ec per (head,
# entry): [h, nm, ..].
prep = ("kda2-kernel-v1\nname kda_chunk_prep\nblock 128 1 1\ngrid.x ns\n"
        "grid.y h\nsmem 68224\n"
        "arg ptr q bf16 in 3 tt hqk {D}\narg ptr k bf16 in 3 tt hqk {D}\n"
        "arg ptr g f32 in 3 tt h {D}\n"
        "range g -5 0\narg ptr beta f32 in 2 tt h\n"
        "arg ptr cu_seqlens i32 in 1 np1\n"
        "arg ptr ckpt_offsets i32 in 2 n m\narg scalar scale f32\n"
        "arg ptr qd bf16 out 4 h ns {C} {D}\n"
        "arg ptr kl bf16 out 4 h ns {C} {D}\n"
        "arg ptr wn bf16 out 4 h ns {C} {D}\n"
        "arg ptr tp bf16 out 4 h ns {C} {C}\n"
        "arg ptr pb bf16 out 4 h ns {C} {C}\n"
        "arg ptr gl f32 out 3 h ns {D}\n"
        "arg ptr kc bf16 out 4 h nm {C} {D}\n"
        "arg ptr ec f32 out 3 h nm {D}\n"
        "arg dim tt\narg dim hqk\narg dim h\narg dim np1\narg dim n\n"
        "arg dim m\narg dim ns\narg dim nm\nend\n"
        ).format(D=D, C=C)
prep = strided(prep, without=("v",))
scan = ("kda2-kernel-v1\nname kda_chunk_scan_h\nblock 128 1 1\ngrid.x 16\n"
        "grid.y n h\nsmem 0\n"
        "arg ptr v bf16 in 3 tt h {D}\nstride v sv\n"
        "arg ptr kl bf16 in 4 h ns {C} {D}\n"
        "arg ptr wn bf16 in 4 h ns {C} {D}\n"
        "arg ptr tp bf16 in 4 h ns {C} {C}\n"
        "arg ptr gl f32 in 3 h ns {D}\n"
        "arg ptr cu_seqlens i32 in 1 np1\narg ptr state_indices i32 in 1 n\n"
        "arg ptr has_initial_state i32 in 1 n\n"
        "arg ptr checkpoint_blocks i32 in 2 n nc\n"
        "arg ptr ckpt_offsets i32 in 2 n m\n"
        "arg ptr offset_blocks i32 in 2 n m\narg scalar boundaries i32\n"
        "arg scalar sv i64\n"
        "arg ptr pool f32 inout 4 slots h {D} {D}\nstate pool kv\n"
        "arg ptr hs bf16 out 4 h ns {D} {D}\n"
        "arg ptr us bf16 out 4 h ns {D} {C}\n"
        "arg ptr ckpt f32 out 4 blocks h {D} {D}\nstate ckpt kv\n"
        "arg dim tt\narg dim h\narg dim ns\narg dim np1\narg dim n\n"
        "arg dim nc\narg dim m\narg dim slots\narg dim blocks\n"
        "arg tensormap kl__tma0 kl 4 3 2 1 0 box 64 {C} 1 1 swizzle 128\n"
        "arg tensormap wn__tma1 wn 4 3 2 1 0 box 64 {C} 1 1 swizzle 128\n"
        "arg tensormap tp__tma2 tp 4 3 2 1 0 box {C} {C} 1 1\n"
        "arg tensormap gl__tma3 gl 3 2 1 0 box {D} 1 1\n"
        "arg tensormap v__tma4 v 3 2 1 0 box {VB} 1 {C}\n"
        "end\n").format(D=D, C=C, VB=VB)
out = ("kda2-kernel-v1\nname kda_chunk_out\nblock 128 1 1\ngrid.x ns\n"
       "grid.y h\nsmem 68608\n"
       "arg ptr qd bf16 in 4 h ns {C} {D}\n"
       "arg ptr pb bf16 in 4 h ns {C} {C}\n"
       "arg ptr hs bf16 in 4 h ns {D} {D}\n"
       "arg ptr us bf16 in 4 h ns {D} {C}\n"
       "arg ptr cu_seqlens i32 in 1 np1\narg ptr state_indices i32 in 1 n\n"
       "arg scalar nslots i32\narg ptr o bf16 out 3 tt h {D}\n"
       "arg dim h\narg dim ns\narg dim np1\narg dim n\narg dim tt\n"
       "arg tensormap qd__tma0 qd 4 3 2 1 0 box 64 {C} 1 1 swizzle 128\n"
       "arg tensormap pb__tma1 pb 4 3 2 1 0 box {C} {C} 1 1\n"
       "arg tensormap hs__tma2 hs 4 3 2 1 0 box 64 {D} 1 1 swizzle 128\n"
       "arg tensormap us__tma3 us 4 3 2 1 0 box {C} {D} 1 1\n"
       "end\n").format(D=D, C=C)
# kda_chunk_ckpt completes the checkpoints at token offsets after the scan.
ckpt = ("kda2-kernel-v1\nname kda_chunk_ckpt\nblock 128 1 1\ngrid.x nm\n"
        "grid.y h\nsmem 82432\n"
        "arg ptr kc bf16 in 4 h nm {C} {D}\narg ptr ec f32 in 3 h nm {D}\n"
        "arg ptr us bf16 in 4 h ns {D} {C}\n"
        "arg ptr cu_seqlens i32 in 1 np1\narg ptr state_indices i32 in 1 n\n"
        "arg ptr ckpt_offsets i32 in 2 n m\n"
        "arg ptr offset_blocks i32 in 2 n m\narg scalar nslots i32\n"
        "arg ptr ckpt f32 inout 4 blocks h {D} {D}\nstate ckpt kv\n"
        "arg dim h\narg dim nm\narg dim ns\narg dim np1\narg dim n\n"
        "arg dim m\narg dim blocks\nend\n").format(D=D, C=C)


def write_kernels(folder, spec_layout):
    os.makedirs(folder, exist_ok=True)
    files = {
        "kda_chunk_split_c32_vb16_k128": [("kda_chunk_prep", prep)],
        "kda_chunk_h_c32_vb16_k128": [("kda_chunk_scan_h", scan),
                                     ("kda_chunk_out", out),
                                     ("kda_chunk_ckpt", ckpt)],
        "kda_decode_pool_k128_f32_kv": [("kda_decode_pool", pool)],
        "kda_decode_spec_k128_f32_kv": [("kda_decode_spec", spec(spec_layout))],
    }
    for name, kernels in files.items():
        with open(os.path.join(folder, name + ".sm_90a.cubin"), "wb") as f:
            f.write(cubin(kernels))


good, vk = os.path.join(work, "kernels"), os.path.join(work, "kernels-vk")
write_kernels(good, "kv")
write_kernels(vk, "vk")
if not os.path.isfile(fake_cuda):
    sys.exit("fake-driver-test: %s is missing (build kda2fakecuda)" % fake_cuda)

failures = 0


def expect(args, code, texts, driver=fake_cuda, absent=()):
    global failures
    env = dict(os.environ, KDA2RT_LIBCUDA=driver)
    r = subprocess.run([exe] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=env)
    text = r.stdout.decode(errors="replace")
    missing = [t for t in texts if t not in text]
    missing += ["not " + t for t in absent if t in text]
    if r.returncode != code or missing:
        failures += 1
        print("FAIL: %s: exit code %d (expected %d), missing %r\n%s" %
              (" ".join(args), r.returncode, code, missing, text))
    else:
        print("ok: %s (exit code %d)" % (" ".join(args), code))


queries = ["kda2rt_kda_prefill_query (step 1): accepted",
           "kda2rt_kda_decode_pool_query (step 1): accepted",
           "kda2rt_kda_decode_pool_query (step 2): accepted",
           "kda2rt_kda_decode_spec_query (step 3): accepted"]
expect([good, "--check-only"], 0, queries + ["nothing launched"],
       absent=["step 1:"])
expect([good, "--check-only", "--heads", "8"], 0, ["8 heads"] + queries)
# Launched: the fake kernels leave the NaN poison in every output and the
# pool as it was, so each check must fail.
expect([good, "--iters", "3"], 1,
       queries + ["prefill: ||o - ref|| / ||ref|| = inf",
                  "checkpoints of A (after 32, 64, 96, 100 tokens): "
                  "||ckpt - ref|| / ||ref|| = inf: MISMATCH",
                  "checkpoints at token offsets (A after 93, B after 30, C "
                  "after 1 tokens): ||ckpt - ref|| / ||ref|| = inf: MISMATCH",
                  "decode : ||o - ref|| / ||ref|| = inf",
                  "verify : ||o - ref|| / ||ref|| = inf",
                  "step 1:", "step 2:", "step 3:",
                  "host time per call (median of 3):",
                  "kda2rt_kda_prefill (3 sequences, 138 tokens, 4 launches)",
                  "kda2rt_kda_decode_spec (2 sequences x 4 tokens)",
                  "serve-mixed: MISMATCH"])
# Refused at start-up, before anything is launched.
expect([vk], 2,
       ["kda2rt_kda_decode_spec_query (step 3) refused the call:",
        "stores its state V-major (vk), the call says K-major (kv)"],
       absent=["step 1:"])
expect([good], 2, ["finding a CUDA device failed", "KDA2RT_ERROR_NO_DRIVER"],
       driver=os.path.join(work, "no-such-libcuda.so.1"))
expect([os.path.join(work, "no-such-dir")], 2,
       ["no-such-dir/kda_chunk_split_c32_vb16_k128.sm_90a.cubin"])
expect([], 1, ["usage: serve-mixed <kernels-dir>"])
expect([good, "--heads", "0"], 1, ["bad arguments"])
sys.exit(1 if failures else 0)
