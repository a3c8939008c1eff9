#!/usr/bin/env bash
# Regenerates the seed corpora in test/Fuzz/corpus/<target>/ from the
# repository's inputs: the bundled .tirx example and templates, the lit tests
# (each `// -----` case of a split file becomes one seed), the hardware
# profiles, and the kernel metadata embedded in PTX compiled from the
# templates. Usage: update-corpus.sh [<build dir with kda2-translate>]
# (default: ${KDA2_BUILD_DIR:-build}).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-${KDA2_BUILD_DIR:-$root/build}}
translate=$build/bin/kda2-translate
[ -x "$translate" ] || { echo "update-corpus: $translate not built" >&2; exit 1; }
corpus=$root/test/Fuzz/corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{tirx,mlir,profile,metadata,rules}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# split <file> <out dir> <ext>: one seed per `// -----` case.
split() {
  python3 - "$1" "$2" "$3" <<'PY'
import os, re, sys
path, out, ext = sys.argv[1:]
stem = os.path.splitext(os.path.basename(path))[0]
cases = re.split(r"^// -----\s*$", open(path).read(), flags=re.M)
for i, case in enumerate(cases):
    if case.strip():
        name = stem if len(cases) == 1 else f"{stem}-{i:03d}"
        open(os.path.join(out, f"{name}.{ext}"), "w").write(case.strip() + "\n")
PY
}

for f in "$root"/docs/examples/*.tirx "$root"/templates/*.tirx \
         "$root"/test/Frontend/TIRx/*.tirx; do
  split "$f" "$corpus/tirx" tirx
done
for f in "$root"/test/Dialect/KDA2/*.mlir "$root"/test/Conversion/*/*.mlir; do
  split "$f" "$corpus/mlir" mlir
done
cp "$root"/profiles/*.yaml "$root"/test/Dialect/KDA2/Inputs/*.yaml "$corpus/profile/"
cp "$root"/docs/examples/rules.yaml "$corpus/rules/"

# metadata <mlir> <name>: the metadata of every kernel in the PTX of <mlir>.
metadata() {
  "$translate" --kda2-to-ptx "$1" -o "$work/$2.ptx"
  python3 - "$work/$2.ptx" "$corpus/metadata" <<'PY'
import os, re, sys
ptx, out = sys.argv[1:]
for name, body in re.findall(r"__kda2_meta_(\w+)\[\d+\] = \{([0-9, ]*)\}", open(ptx).read()):
    data = bytes(int(b) for b in body.split(",")).rstrip(b"\0")
    open(os.path.join(out, f"{name}.meta"), "wb").write(data)
PY
}
# compile <tirx> <name> <bindings>: kda2 IR seed, and the metadata of every
# kernel in its PTX.
compile() {
  "$translate" --import-tirx --tirx-bind="$3" "$1" -o "$corpus/mlir/import-$2.mlir"
  metadata "$corpus/mlir/import-$2.mlir" "$2"
}
compile "$root/docs/examples/delta_softmax_base.tirx" delta_softmax dim=64
compile "$root/templates/kda_decode.tirx" kda_decode IN=bf16,K=128,V=128
compile "$root/templates/kda_decode_vfirst.tirx" kda_decode_vfirst IN=bf16,K=128,V=128
compile "$root/templates/kda_decode_vsplit.tirx" kda_decode_vsplit IN=bf16,K=128,V=128,VB=32,NVB=4,LANES=4
compile "$root/templates/kda_decode_fused.tirx" kda_decode_fused IN=bf16,K=128,V=128,VB=32,NVB=4
compile "$root/templates/kda_chunk_split.tirx" kda_chunk_split IN=bf16,SL=row_major,IX=i32,GB=5,K=128,V=128,C=16,VB=32,NVB=4
# The serving kernels: `state` lines, inout pools, integer scalars.
compile "$root/templates/kda_decode_pool.tirx" kda_decode_pool IN=bf16,ST=bf16,SS=vk,IX=i32,K=128,V=64,VB=32,NVB=2,LANES=4
compile "$root/templates/kda_decode_spec.tirx" kda_decode_spec IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,VB=32,NVB=4,LANES=4
compile "$root/templates/kda_decode_serve.tirx" kda_decode_serve IN=bf16,ST=f32,SS=kv,IX=i32,GF=2,AL=1,DB=1,BS=1,QKN=1,K=128,V=128,VB=32,NVB=4,LANES=4
compile "$root/templates/kda_chunk_h.tirx" kda_chunk_h IN=bf16,ST=f32,SS=kv,IX=i32,K=128,V=128,C=32,VB=16,NVB=8
# The fused layer decode: a `stride` line, two inout buffers, i64 index tensors.
compile "$root/templates/kda_decode_conv.tirx" kda_decode_conv IN=bf16,ST=f32,SS=kv,IX=i64,GF=2,AL=1,DB=1,K=128,V=128,W=4,W1=3,LANES=4
# Metadata with `pad`, `arg tensormap` and dynamic `smem` lines.
for t in coalesced-padding tma-coalesce dynamic-shared; do
  metadata "$root/test/Conversion/KDA2ToGPU/$t.mlir" "$t"
done
# The documented example (docs/Runtime.md), with named and static dims.
python3 - "$root/docs/Runtime.md" "$corpus/metadata/docs-example.meta" <<'PY'
import re, sys
doc, out = sys.argv[1:]
blocks = re.findall(r"^kda2-kernel-v1\n.*?^end$", open(doc).read(), flags=re.M | re.S)
open(out, "w").write([b for b in blocks if "<" not in b][0] + "\n")
PY
# Compile-time bindings at the int64 extremes (`bind` lines; the compiled
# kernels above carry ordinary ones).
cat > "$corpus/metadata/bind-extremes.meta" <<'META'
kda2-kernel-v1
name serve
block 128 1 1
grid.x 1
grid.y n hv
smem 0
arg ptr x f32 in 3 n hv 128
arg scalar lower_bound f32
arg dim n
arg dim hv
bind BS 1
bind GF 2
bind MAX 9223372036854775807
bind MIN -9223372036854775808
bind QKN 0
bind a.b$_1 -1
end
META
# Inputs the fuzzers found bugs with (kept as regression seeds; see
# test/Fuzz/found/): copied in as they are.
for t in tirx mlir profile metadata rules; do
  if [ -d "$root/test/Fuzz/found/$t" ]; then
    cp "$root/test/Fuzz/found/$t"/* "$corpus/$t/"
  fi
done
for t in tirx mlir profile metadata rules; do
  echo "corpus/$t: $(ls "$corpus/$t" | wc -l) seeds, $(cat "$corpus/$t"/* | wc -c) bytes"
done
