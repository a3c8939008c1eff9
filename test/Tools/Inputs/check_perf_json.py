"""Checks a kda2-perf --json document against the kda2-perf-v1 schema
(docs/Tools.md) and prints the fields the test matches."""
import json
import sys

d = json.load(sys.stdin)
assert d["schema"] == "kda2-perf-v1", d["schema"]
for key in ("device", "input", "shape", "warmup", "iters", "check", "gpu_ms",
            "gpu_ms_pipelined", "host_us", "bundle_host_us_mean", "graph",
            "flops", "bytes", "tflops", "gbps", "peak", "counters",
            "counters_note", "notes"):
    assert key in d, "missing key " + key
for s in ("gpu_ms", "host_us"):
    for k in ("median", "p99", "min", "max", "mean"):
        assert isinstance(d[s][k], (int, float)), (s, k)
print("kind", d["input"]["kind"], "kernel", d["input"]["kernel"])
print("check", d["check"]["status"])
print("peak", d["peak"]["source"], d["peak"]["tflops"], d["peak"]["gbps"])
print("graph", "gpu_ms" in (d["graph"] or {}))
print("counters", [(c["name"], c["value"]) for c in d["counters"]])
print("shape", sorted(d["shape"].items()))
