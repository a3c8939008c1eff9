#!/usr/bin/env python3
"""The simulator's fidelity study (issue 5): predicts with kda2's simulator
(docs/Simulator.md) the run time of every kernel measured on the H200 by
bench/fidelity_measure.sh and compares.

  python3 bench/fidelity.py --build build
  python3 bench/fidelity.py --build build --profile-file my/H200-SXM.yaml

For every measured case: the kernel's module is imported from its template
with the bindings scripts/build-kernels.sh uses (kda2-translate --import-tirx
--tirx-bind=...), lowered once (kda2-opt --convert-kda2-to-gpu), ptxas's
register count is read (kda2-translate --kda2-to-cubin --kda2-resource-report)
and the kernel is simulated at the measured launch (kda2-opt
--kda2-test-simulator="profile=... shapes=... data=cu_seqlens=...
registers=... kernel=..."). Prints a table (case, measured us, predicted us,
error %), Spearman's rank correlation over all cases and within the families
(prefill prep, prefill scan, decode) and the median |relative error|.
Python 3, standard library only; the cases run in parallel (--jobs).
"""
import argparse
import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data")

# Prefill variants of bench/kda_prefill.py: bindings of kda_chunk_split.tirx.
PREFILL = {
    "split": dict(C=16, VB=32, NVB=4, SL="row_major"),
    "split_vb16": dict(C=16, VB=16, NVB=8, SL="row_major"),
    "split32": dict(C=32, VB=32, NVB=4, SL="row_major"),
    "split32_vb16": dict(C=32, VB=16, NVB=8, SL="row_major"),
    "split32_vb8": dict(C=32, VB=8, NVB=16, SL="row_major"),
    "split32_vfirst": dict(C=32, VB=32, NVB=4, SL="VK"),
}


def decode_module(variant, dim):
    """(template, bindings, kernel simulated) of a bench/kda_decode.py
    variant. The t = 1 launch runs the `__t_1` shape-hint copy."""
    if variant == "kfirst":
        return "kda_decode.tirx", f"IN=bf16,K={dim},V={dim}", "kda_decode__t_1"
    m = re.fullmatch(r"kfirst/vsplit(\d+)/lanes(\d+)", variant)
    if not m:
        raise ValueError(f"unknown decode variant {variant}")
    vb, lanes = int(m.group(1)), int(m.group(2))
    return ("kda_decode_vsplit.tirx",
            f"IN=bf16,K={dim},V={dim},VB={vb},NVB={dim // vb},LANES={lanes}",
            "kda_decode_vsplit__t_1")


def load_cases(prefill_json, decode_json):
    """One case per measured kernel time."""
    cases = []
    with open(prefill_json) as f:
        rows = json.load(f)
    for r in rows:
        b = PREFILL[r["variant"]]
        dim = r["K"]
        bind = (f"IN=bf16,SL={b['SL']},IX=i32,GB=5,K={dim},V={dim},C={b['C']},"
                f"VB={b['VB']},NVB={b['NVB']}")
        n, t, h = r["B"], r["T"], r["H"]
        # The intermediates per chunk slot (templates as of 65e26a8): ns =
        # tt // C + n slots, nsv = ns * NVB; the measured kernels' templates
        # (--templates-rev abc9778) still size them by the longest sequence
        # (nc, ncv). The simulator ignores sizes a kernel does not use, so
        # both go in and either revision simulates (m = nm = 0: no checkpoint
        # offsets, for templates that have them).
        nc = (t + b["C"] - 1) // b["C"]
        ns = n * t // b["C"] + n
        shapes = (f"n={n},h={h},tt={n * t},np1={n + 1},nc={nc},"
                  f"ncv={nc * b['NVB']},ns={ns},nsv={ns * b['NVB']},m=0,nm=0")
        cu = "/".join(str(i * t) for i in range(n + 1))
        for kernel, key in (("kda_chunk_prep", "prep_us"),
                            ("kda_chunk_scan", "scan_us")):
            cases.append(dict(
                family=kernel.split("_")[-1], variant=r["variant"],
                shape=f"{n}x{t}x{h}", template="kda_chunk_split.tirx",
                bind=bind, kernel=kernel,
                # the prep's q/k heads (hqk: no grouped value heads here)
                shapes=shapes + (f",hqk={h}" if kernel == "kda_chunk_prep" else ""),
                data=f"cu_seqlens={cu}", measured=r[key]))
    with open(decode_json) as f:
        rows = json.load(f)["results"]
    for r in rows:
        template, bind, kernel = decode_module(r["variant"], r["K"])
        cases.append(dict(
            family="decode", variant=r["variant"].replace("kfirst/", ""),
            shape=f"{r['B']}x{r['T']}x{r['H']}", template=template, bind=bind,
            kernel=kernel, shapes=f"n={r['B']},h={r['H']},t={r['T']}",
            data="", measured=r["us"]))
    return cases


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        errors = [l for l in p.stderr.splitlines() if "error" in l][:5]
        raise RuntimeError(f"{' '.join(cmd)} failed:\n" + "\n".join(errors or [p.stderr[-2000:]]))
    return p


def prepare_module(args, tmp, template, bind):
    """Imports and lowers the module once; returns (lowered path, {kernel:
    ptxas registers})."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", template + "_" + bind)
    mlir = os.path.join(tmp, name + ".mlir")
    gpu = os.path.join(tmp, name + ".gpu.mlir")
    source = os.path.join(ROOT, "templates", template)
    if args.templates_rev != "worktree":
        source = os.path.join(tmp, f"{args.templates_rev}_{template}")
        if not os.path.exists(source):
            text = run(["git", "-C", ROOT, "show",
                        f"{args.templates_rev}:templates/{template}"]).stdout
            # Modules of one template are prepared in parallel: a reader must
            # never see the file half written (write aside, then rename).
            with tempfile.NamedTemporaryFile("w", dir=tmp, delete=False) as f:
                f.write(text)
            os.replace(f.name, source)
    run([args.translate, "--import-tirx", f"--tirx-bind={bind}", source,
         "-o", mlir])
    run([args.opt, "--convert-kda2-to-gpu", mlir, "-o", gpu])
    registers = {}
    if not args.estimate_registers:
        p = run([args.translate, "--kda2-to-cubin", "--kda2-resource-report",
                 mlir, "-o", os.devnull])
        current = None
        for line in p.stderr.splitlines():
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m:
                current = m.group(1)
            m = re.search(r"Used (\d+) registers", line)
            if m and current:
                registers[current] = int(m.group(1))
    return gpu, registers


def simulate(args, case, gpu, registers):
    opts = [f"profile={args.profile}", f"shapes={case['shapes']}",
            f"kernel={case['kernel']}"]
    if args.profile_file:
        opts.append(f"profile-file={args.profile_file}")
    if case["data"]:
        opts.append(f"data={case['data']}")
    if case["kernel"] in registers:
        opts.append(f"registers={registers[case['kernel']]}")
    if args.max_trip_count:
        opts.append(f"max-trip-count={args.max_trip_count}")
    p = run([args.opt, gpu, "-o", os.devnull,
             "--kda2-test-simulator=" + " ".join(opts)])
    m = re.search(r"predicted time: ([0-9.]+) us \(bound: (.*)\)\n", p.stdout)
    if not m:
        raise RuntimeError(f"no predicted time for {case}:\n{p.stdout}")
    report = {"predicted": float(m.group(1)), "bound": m.group(2),
              "registers": registers.get(case["kernel"])}
    for key in ("CTAs/SM", "waves", "achieved occupancy"):
        m = re.search(re.escape(key) + r": ([0-9.]+)", p.stdout)
        if m:
            report[key] = float(m.group(1))
    return report


def ranks(xs):
    """Ranks (1-based), ties averaged."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(xs, ys):
    if len(xs) < 2:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def summarize(cases, label):
    meas = [c["measured"] for c in cases]
    pred = [c["predicted"] for c in cases]
    errs = [abs(c["predicted"] / c["measured"] - 1) for c in cases]
    return {"label": label, "n": len(cases), "spearman": spearman(meas, pred),
            "median_abs_err": statistics.median(errs),
            "mean_abs_err": statistics.fmean(errs),
            "max_abs_err": max(errs)}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.environ.get("KDA2_BUILD_DIR",
                                                          os.path.join(ROOT, "build")))
    parser.add_argument("--profile", default=None,
                        help="profile name (default: the --profile-file's stem, else H200-SXM)")
    parser.add_argument("--profile-file", default=None,
                        help="a modified profile YAML (its name must equal its stem; "
                             "it replaces the built-in profile of that name)")
    # The second measurement (kernels of commit e4561a5, templates as of
    # abc9778); the first one (fidelity_*_2026-12-01.json, kernels of
    # 2563a6d) needs the compiler of that commit.
    parser.add_argument("--prefill", default=os.path.join(DATA, "fidelity_prefill_2026-12-01b.json"))
    parser.add_argument("--decode", default=os.path.join(DATA, "fidelity_decode_2026-12-01b.json"))
    parser.add_argument("--templates-rev", default="abc9778",
                        help="git revision whose templates/ the measured kernels were built "
                             "from (default abc9778, the second 2026-12-01 measurement; 2563a6d "
                             "for the first); "
                             "'worktree': the working tree's")
    parser.add_argument("--estimate-registers", action="store_true",
                        help="let the simulator estimate registers instead of ptxas's count")
    parser.add_argument("--max-trip-count", type=int, default=0,
                        help="the simulator's max-trip-count (0: its default)")
    parser.add_argument("--family", default=None, help="only prep, scan or decode")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--json", default=None, help="write cases and summary to this file")
    args = parser.parse_args()
    args.translate = os.path.join(args.build, "bin", "kda2-translate")
    args.opt = os.path.join(args.build, "bin", "kda2-opt")
    if args.profile is None:
        args.profile = (os.path.splitext(os.path.basename(args.profile_file))[0]
                        if args.profile_file else "H200-SXM")

    cases = load_cases(args.prefill, args.decode)
    if args.family:
        cases = [c for c in cases if c["family"] == args.family]
    with tempfile.TemporaryDirectory(prefix="kda2-fidelity-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        if args.profile_file:
            # A built-in profile cannot be registered twice: load the file
            # under a name of its own (the name must equal the file's stem).
            name = args.profile + "-fidelity"
            with open(args.profile_file) as f:
                text = re.sub(r"(?m)^name:.*$", f"name: {name}", f.read())
            args.profile_file = os.path.join(tmp, name + ".yaml")
            with open(args.profile_file, "w") as f:
                f.write(text)
            args.profile = name
        modules = sorted({(c["template"], c["bind"]) for c in cases})
        prepared = dict(zip(modules, pool.map(
            lambda m: prepare_module(args, tmp, *m), modules)))
        reports = pool.map(lambda c: simulate(args, c, *prepared[(c["template"], c["bind"])]),
                           cases)
        for case, report in zip(cases, reports):
            case.update(report)

    for c in cases:
        c["error"] = c["predicted"] / c["measured"] - 1
    if args.markdown:
        print("| case | measured µs | predicted µs | error | bound |")
        print("|---|---|---|---|---|")
    else:
        print(f"{'case':<40} {'measured us':>12} {'predicted us':>13} {'error %':>8}  bound")
    for c in cases:
        name = f"{c['family']} {c['variant']} {c['shape']}"
        if args.markdown:
            print(f"| {name} | {c['measured']:.1f} | {c['predicted']:.1f} "
                  f"| {100 * c['error']:+.0f} % | {c['bound']} |")
        else:
            print(f"{name:<40} {c['measured']:>12.1f} {c['predicted']:>13.1f} "
                  f"{100 * c['error']:>+8.1f}  {c['bound']}")
    summaries = [summarize(cases, "all")]
    for family in ("prep", "scan", "decode"):
        sub = [c for c in cases if c["family"] == family]
        if sub:
            summaries.append(summarize(sub, family))
    print()
    if args.markdown:
        print("| cases | n | Spearman | median abs error | mean abs error | max abs error |")
        print("|---|---|---|---|---|---|")
    for s in summaries:
        if args.markdown:
            print(f"| {s['label']} | {s['n']} | {s['spearman']:.3f} "
                  f"| {100 * s['median_abs_err']:.1f} % | {100 * s['mean_abs_err']:.1f} % "
                  f"| {100 * s['max_abs_err']:.0f} % |")
        else:
            print(f"{s['label']:<7} n={s['n']:<3} Spearman {s['spearman']:.3f}  "
                  f"median |err| {100 * s['median_abs_err']:.1f} %  "
                  f"mean |err| {100 * s['mean_abs_err']:.1f} %  "
                  f"max |err| {100 * s['max_abs_err']:.0f} %")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cases": cases, "summary": summaries}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
