"""A/B of activation prep builds on the H200: the same GF 2 prefill
(kda_chunk_prep_act + kda_chunk_h, C = 32, VB = 16) through
kda_serving.prefill_act_case, one folder of cubins per variant, interleaved
so drift hits every variant alike; then the adversarial float64 check per
variant.

  python3 bench/act_prep_ab.py --kernels build-main/kernels DIR_A DIR_B ...

Each DIR holds kda_chunk_prep_act_c32_vb16_k128_gf2.sm_90a.cubin and
kda_chunk_h_c32_vb16_k128.sm_90a.cubin; --kernels holds libkda2rt.so."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import kda2rt  # noqa: E402
import kda_serving  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("variants", nargs="+")
    args = parser.parse_args()
    rt = kda2rt.Runtime(os.path.join(args.kernels, "libkda2rt.so"))
    for rep in range(args.passes):
        for lens, h in (([1024] * 2, 8), ([4096], 8), ([4096] * 8, 16)):
            for v in args.variants:
                res = []
                kda_serving.prefill_act_case(rt, v, 2, lens, h, h, len(lens) + 2, None, res,
                                             seed=32, adversarial=False, check=False)
                r = res[-1]
                print(json.dumps({"variant": v, "pass": rep, "N": r["N"], "T": r["T"],
                                  "H": r["H"], "us": round(r["us"], 1),
                                  "prep_us": round(r["prep_us"], 1)}), flush=True)
    for v in args.variants:
        res = []
        kda_serving.prefill_act_case(rt, v, 2, [100, 33, 1, 0, 64, 257, 31, 400], 8, 8, 20,
                                     None, res)
        r = res[-1]
        keys = ("err_o", "err_state", "err_ckpt", "untouched_bitwise", "padding_rows_zero",
                "finite", "c_abi_identical", "us", "prep_us")
        print(json.dumps({"variant": v, "check": True, **{k: r.get(k) for k in keys}}),
              flush=True)


if __name__ == "__main__":
    main()
