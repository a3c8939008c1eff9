"""Summarises Nsight Compute's source page (SASS, CSV) of one kernel: the
instructions with the most warp-stall samples and their main stall reasons,
and the share of samples per stall reason.

  ncu --import report.ncu-rep --page source --csv --print-source sass > k.csv
  python3 bench/ncu_hotspots.py k.csv [--top 25] [--regions 0,702,770,...]

--regions a,b,c,...: the samples and executed instructions of the rows
[a, b), [b, c), ... (the "#" column: the source page's SASS order), e.g. the
phases of a loop read off the listing.
"""
import argparse
import csv
import collections


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--regions", default="",
                        help="comma-separated row indices: the share of samples in each range")
    args = parser.parse_args()
    rows = list(csv.reader(open(args.csv)))
    start = next(i for i, r in enumerate(rows) if "Source" in r and "Address" in r)
    header, data = rows[start], rows[start + 1:]
    col = {h: i for i, h in enumerate(header)}
    samples = col["Warp Stall Sampling (All Samples)"]
    executed = col.get("Instructions Executed")
    reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]

    def num(row, i):
        try:
            return int(row[i])
        except (ValueError, IndexError):
            return 0

    total = sum(num(r, samples) for r in data) or 1
    by_reason = collections.Counter()
    for r in data:
        for h in reasons:
            by_reason[h] += num(r, col[h])
    print(f"{len(data)} SASS instructions, {total} stall samples")
    print("samples by reason: " + ", ".join(
        f"{h[6:]} {100 * n / total:.1f}%" for h, n in by_reason.most_common(8) if n))
    print(f"{'#':>5} {'samples':>8} {'share':>6} {'executed':>9}  reason            instruction")
    for idx, r in sorted(enumerate(data), key=lambda x: -num(x[1], samples))[:args.top]:
        main_reason = max(reasons, key=lambda h: num(r, col[h]))
        print(f"{idx:>5} {num(r, samples):>8} {100 * num(r, samples) / total:>5.1f}% "
              f"{num(r, executed) if executed is not None else 0:>9}  {main_reason[6:]:<17} "
              f"{r[col['Source']].strip()[:80]}")


    if args.regions:
        cuts = [int(x) for x in args.regions.split(",")]
        for a, b in zip(cuts, cuts[1:]):
            rows_in = data[a:b]
            n = sum(num(r, samples) for r in rows_in)
            live = sum(1 for r in rows_in if executed is not None and num(r, executed) > 0)
            print(f"rows {a:>5}-{b:<5} samples {n:>6} {100 * n / total:5.1f}%  "
                  f"executed instructions {live}")


if __name__ == "__main__":
    main()
