#!/usr/bin/env bash
# Runs the deployment tools on a GPU machine in one go and prints a compact
# summary (docs/Tools.md): kda2-calibrate against H200-SXM (writing a
# calibrated profile), kda2-perf on the decode bundle and on a decode cubin
# (reference check, CUDA events, CUDA graphs, host time per call, JSON),
# kda2-bundle-decode (state pool, 64 sequences) and the ctypes example.
#
#   scripts/build-kernels.sh            # on the build machine
#   bench/device_tools.sh               # on the GPU machine, from the repo root
#
# Needs only the folder scripts/build-kernels.sh fills (${KDA2_KERNELS:-
# build/kernels}: cubins, libkda2rt, libkda_decode.so, the tools), Python 3
# with numpy (and PyTorch for the ctypes example's tensors). Logs and JSON go
# to ${OUT:-/tmp/kda2-device-tools}. Exit code: the number of failed steps.
set -uo pipefail
K=${KDA2_KERNELS:-build/kernels}
out=${OUT:-/tmp/kda2-device-tools}
profile=${KDA2_PROFILE:-H200-SXM}
mkdir -p "$out"
export LD_LIBRARY_PATH="$K${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
failed=0
declare -A codes

# step <name> <command...>: runs it, keeps stdout in $out/<name>.out and
# stderr in $out/<name>.err, prints both.
step() {
  local name=$1
  shift
  echo "=== $name: $*"
  "$@" > "$out/$name.out" 2> "$out/$name.err"
  local rc=$?
  cat "$out/$name.out" "$out/$name.err"
  echo "=== $name: exit code $rc"
  codes[$name]=$rc
  [ $rc -eq 0 ] || failed=$((failed + 1))
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>/dev/null
step calibrate "$K/kda2-calibrate" --profile "$profile" \
  --write-profile "$out/$profile-calibrated.yaml" --json
step perf_bundle "$K/kda2-perf" "$K/libkda_decode.so" --op kda_decode \
  --shape n=64,h=4,t=1 --warmup 50 --iters 2000 --graph --json --profile "$profile"
step perf_bundle_text "$K/kda2-perf" "$K/libkda_decode.so" --op kda_decode \
  --shape n=64,h=4,t=1 --warmup 50 --iters 2000 --graph --profile "$profile"
step perf_cubin "$K/kda2-perf" "$K/kda_decode_vsplit_k128_vb32_l4.sm_90a.cubin" \
  --kernel kda_decode_vsplit --shape n=64,h=4,t=1 --warmup 50 --iters 2000 \
  --graph --json --profile "$profile"
step perf_cubin_t4 "$K/kda2-perf" "$K/kda_decode_k128.sm_90a.cubin" \
  --shape n=32,h=8,t=4 --iters 500 --json --profile "$profile"
step perf_timing_only "$K/kda2-perf" "$K/delta_softmax_d64.sm_90a.cubin" \
  --shape batch=8,head=16,seq_q=128,seq_k=128 --iters 200 --json \
  --profile "$profile"
step bundle_decode "$K/kda2-bundle-decode" "$K/libkda_decode.so" --seqs 64 \
  --heads 4 --dim 128 --steps 8
step ctypes python3 examples/ctypes_decode.py "$K/libkda_decode.so" \
  --lib "$K/libkda2rt.so.0"

echo "=== summary (logs in $out)"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(name):
    try:
        with open(os.path.join(out, name + ".out")) as f:
            return json.load(f)
    except Exception as e:
        return {"error": str(e)}
c = load("calibrate")
for k, m in (c.get("metrics") or {}).items():
    print(f"calibrate {k:16s} measured {m['measured']:10.1f} profile "
          f"{m['profile'] or 0:10.1f} diff {m['difference_pct'] or 0:+6.1f} %"
          f"{'  WARNING' if m['warning'] else ''}")
for name in ("perf_bundle", "perf_cubin", "perf_cubin_t4", "perf_timing_only"):
    d = load(name)
    if "gpu_ms" not in d:
        print(f"{name}: no result ({d.get('error', '?')})")
        continue
    g = d.get("graph") or {}
    graph = (f", graph {g['gpu_ms']['median'] * 1e3:.2f} us"
             if "gpu_ms" in g else "")
    bundle = (f", bundle-internal {d['bundle_host_us_mean']:.2f} us"
              if d.get("bundle_host_us_mean") is not None else "")
    print(f"{name}: {d['input']['kernel']} check {d['check']['status']} "
          f"(o {d['check']['output_rel_error']}, ht {d['check']['state_rel_error']}); "
          f"GPU median {d['gpu_ms']['median'] * 1e3:.2f} us, p99 "
          f"{d['gpu_ms']['p99'] * 1e3:.2f} us{graph}; host launch call median "
          f"{d['host_us']['median']:.2f} us{bundle}; "
          f"{d['gbps'] or 0:.0f} GB/s ({d['peak']['gbps_pct'] or 0:.1f} % of peak)")
for name in ("bundle_decode", "ctypes"):
    try:
        lines = open(os.path.join(out, name + ".out")).read().splitlines()
        print(f"{name}: " + " | ".join(l for l in lines if "error" in l or "us/call" in l or "OK" in l or "MISMATCH" in l))
    except OSError:
        pass
PY
for n in "${!codes[@]}"; do echo "exit $n=${codes[$n]}"; done | sort
exit $failed
