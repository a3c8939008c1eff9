//===- FakeCuda.h - a fake CUDA driver for GPU-less tests -------*- C++ -*-===//
//
// libkda2fakecuda.so (FakeCuda.cpp) implements the driver entry points
// libkda2rt resolves, on the host: "device" memory is host memory, modules
// are fake cubins (fakeCubin below) whose metadata the fake hands out
// through cuModuleGetGlobal, launches only count, events read the host
// clock. Loading it with KDA2RT_LIBCUDA exercises the whole launch path of
// the runtime and the tools (dispatch, state pool, timing, counters, CUDA
// graphs) on a machine without a GPU; kernels compute nothing.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_UNITTESTS_RUNTIME_FAKECUDA_H
#define KDA2_UNITTESTS_RUNTIME_FAKECUDA_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace kda2::fake {

/// Bytes 0..15 of a fake cubin; bytes 16..30 hold the image size in
/// decimal (the driver API passes no size) and byte 31 is NUL, then the
/// kernels follow.
inline constexpr char kMagic[16] = "\x7f" "ELF kda2 fake";

/// A fake cubin holding `kernels` (name, metadata text): for each one the
/// ELF-style string-table entry "__kda2_meta_<name>\0" directly followed by
/// its metadata text and a NUL, which is what kda2-link and
/// scanKernelNames read and what the fake cuModuleGetGlobal returns.
inline std::string
fakeCubin(const std::vector<std::pair<std::string, std::string>> &kernels) {
  std::string body;
  for (const auto &[name, meta] : kernels) {
    body += "__kda2_meta_" + name;
    body += '\0';
    body += meta;
    body += '\0';
  }
  std::string bytes(kMagic, 16);
  char size[17];
  std::snprintf(size, sizeof(size), "%015zu", 32 + body.size());
  bytes += std::string(size, 16); // 15 digits and a NUL
  return bytes + body;
}

/// Metadata of a KDA decode kernel as templates/kda_decode_vsplit.tirx
/// emits it (K = V = d), with a `variant t 1` copy when `variantT1`, and
/// `state` lines declaring h0/ht in `layout` ("kv" or "vk"; "" for none,
/// as a kernel from a kda2 that did not record it).
inline std::string decodeMetadata(const std::string &name, int d,
                                  bool variantT1 = false,
                                  const std::string &layout = "kv") {
  std::string D = std::to_string(d);
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 128 1 1\ngrid.x 4\ngrid.y n h\nsmem 0\n"
                  "arg ptr q bf16 in 4 n h t " + D + "\n"
                  "arg ptr k bf16 in 4 n h t " + D + "\n"
                  "arg ptr v bf16 in 4 n h t " + D + "\n"
                  "arg ptr g f32 in 4 n h t " + D + "\n"
                  "arg ptr beta f32 in 3 n h t\n"
                  "arg ptr h0 f32 in 4 n h " + D + " " + D + "\n"
                  "arg scalar scale f32\n"
                  "arg ptr o bf16 out 4 n h t " + D + "\n"
                  "arg ptr ht f32 out 4 n h " + D + " " + D + "\n"
                  "arg dim n\narg dim h\narg dim t\n";
  if (variantT1)
    m += "variant t 1 " + name + "__t_1\n";
  if (!layout.empty())
    m += "state h0 " + layout + "\nstate ht " + layout + "\n";
  return m + "end\n";
}

/// The `stride` lines and i64 scalars sq, sk, sv, sg, sb of the serving
/// templates (q, k, v, g and beta read with runtime row strides): the
/// `stride` line follows each input's `arg` line (`strideLine`), the
/// scalars follow scale (`strideScalars`); both empty when !strided (a
/// kernel built before the strides: dense inputs).
inline std::string strideLine(bool strided, const std::string &arg) {
  static const char *const names[][2] = {
      {"q", "sq"}, {"k", "sk"}, {"v", "sv"}, {"g", "sg"}, {"beta", "sb"}};
  if (!strided)
    return "";
  for (const auto &n : names)
    if (arg == n[0])
      return std::string("stride ") + n[0] + " " + n[1] + "\n";
  return "";
}
inline std::string strideScalars(bool strided, bool withV = true) {
  if (!strided)
    return "";
  return std::string("arg scalar sq i64\narg scalar sk i64\n") +
         (withV ? "arg scalar sv i64\n" : "") +
         "arg scalar sg i64\narg scalar sb i64\n";
}

/// Metadata of a pool decode kernel as templates/kda_decode_pool.tirx
/// emits it: head dimensions k and v, pool declared [slots, h, V, K] and
/// stored K-major (`layout` "kv") or V-major ("vk"; "" for no `state`
/// line), pool element
/// type `stateDtype`, q/k/v/o type `in`, cu_seqlens and state_indices of
/// type `ix` (the template's IX); grid (n, h); q, k, v, g and beta with
/// runtime row strides unless !strided.
inline std::string poolDecodeMetadata(const std::string &name, int k, int v,
                                      const std::string &layout = "kv",
                                      const std::string &stateDtype = "f32",
                                      const std::string &in = "bf16",
                                      const std::string &ix = "i32",
                                      bool strided = true) {
  std::string K = std::to_string(k), V = std::to_string(v);
  // Declared [slots, h, V, K] whatever the layout, as
  // templates/kda_decode_pool.tirx does: the `state` line gives the order.
  std::string ab = V + " " + K;
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 128 1 1\ngrid.x\ngrid.y n h\nsmem 0\n"
                  "arg ptr q " + in + " in 3 tt h " + K + "\n" +
                  strideLine(strided, "q") +
                  "arg ptr k " + in + " in 3 tt h " + K + "\n" +
                  strideLine(strided, "k") +
                  "arg ptr v " + in + " in 3 tt h " + V + "\n" +
                  strideLine(strided, "v") +
                  "arg ptr g f32 in 3 tt h " + K + "\n" +
                  strideLine(strided, "g") +
                  "arg ptr beta f32 in 2 tt h\n" +
                  strideLine(strided, "beta") +
                  "arg ptr cu_seqlens " + ix + " in 1 np1\n"
                  "arg ptr state_indices " + ix + " in 1 n\n"
                  "arg ptr has_initial_state i32 in 1 n\n"
                  "arg ptr pool " + stateDtype + " inout 4 slots h " + ab +
                  "\n"
                  "arg scalar scale f32\n" +
                  strideScalars(strided) +
                  "arg ptr o " + in + " out 3 tt h " + V + "\n"
                  "arg dim tt\narg dim h\narg dim np1\narg dim n\n"
                  "arg dim slots\n";
  if (!layout.empty())
    m += "state pool " + layout + "\n";
  return m + "end\n";
}

/// Metadata of a fused layer decode kernel as templates/kda_decode_conv.tirx
/// emits it (kda2-translate --import-tirx --tirx-bind=IN=bf16,ST=f32,SS=kv,
/// IX=i32,GF=2,AL=1,DB=1,K=128,V=128,W=4,W1=3,LANES=4 | kda2-opt
/// --convert-kda2-to-gpu gives exactly the default): head dimensions k and
/// v, conv width w (conv_w [D, w], conv_state [slots, D, w - 1]), the pool
/// declared [slots, h, V, K] and stored in `layout` ("" for no `state`
/// line), qkv/gout/conv_state/o of type `in`, the index arrays of type
/// `ix`; grid (n, h); qkv read with the runtime row stride sx unless
/// !strided; the `bind` lines of GF=2, LANES=4 and AL=`al`, DB=`db`
/// (whether it reads A_log and dt_bias; -1 leaves the line out).
inline std::string convDecodeMetadata(const std::string &name = "kda_decode_conv",
                                      int k = 128, int v = 128, int w = 4,
                                      const std::string &layout = "kv",
                                      const std::string &stateDtype = "f32",
                                      const std::string &in = "bf16",
                                      const std::string &ix = "i32",
                                      bool strided = true, int al = 1,
                                      int db = 1) {
  std::string K = std::to_string(k), V = std::to_string(v),
              W = std::to_string(w), W1 = std::to_string(w - 1);
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 512 1 1\ngrid.x 1\ngrid.y n h\nsmem 0\n"
                  "arg ptr qkv " + in + " in 2 tt D\n" +
                  (strided ? "stride qkv sx\n" : "") +
                  "arg ptr conv_w f32 in 2 D " + W + "\n"
                  "arg ptr a f32 in 3 tt h " + K + "\n"
                  "arg ptr b f32 in 2 tt h\n"
                  "arg ptr gout " + in + " in 3 tt h " + V + "\n"
                  "arg ptr A_log f32 in 1 h\n"
                  "arg ptr dt_bias f32 in 2 h " + K + "\n"
                  "arg ptr norm_w f32 in 1 " + V + "\n"
                  "arg ptr cu_seqlens " + ix + " in 1 np1\n"
                  "arg ptr state_indices " + ix + " in 1 n\n"
                  "arg ptr has_initial_state i32 in 1 n\n"
                  "arg ptr conv_state " + in + " inout 3 slots D " + W1 + "\n"
                  "arg ptr pool " + stateDtype + " inout 4 slots h " + V +
                  " " + K + "\n" +
                  (layout.empty() ? "" : "state pool " + layout + "\n") +
                  (strided ? "arg scalar sx i64\n" : "") +
                  "arg scalar scale f32\n"
                  "arg scalar lower_bound f32\n"
                  "arg scalar eps f32\n"
                  "arg ptr o " + in + " out 3 tt h " + V + "\n"
                  "arg dim tt\narg dim D\narg dim h\narg dim np1\n"
                  "arg dim n\narg dim slots\n";
  if (al >= 0)
    m += "bind AL " + std::to_string(al) + "\n";
  if (db >= 0)
    m += "bind DB " + std::to_string(db) + "\n";
  m += "bind GF 2\nbind K " + K + "\nbind LANES 4\nbind V " + V +
       "\nbind W " + W + "\nbind W1 " + W1 + "\n";
  return m + "end\n";
}

/// Metadata of a speculative decode kernel as templates/kda_decode_spec.tirx
/// emits it: q, k, g [n, t, h, K], v, o [n, t, h, V], state_indices [n, t],
/// num_accepted [n] (both of type `ix`), the pool declared [slots, h, V, K]
/// and stored in `layout` ("" for no `state` line); grid (2, n h); q, k,
/// v, g and beta with runtime strides between sequences unless !strided.
inline std::string specDecodeMetadata(const std::string &name, int k, int v,
                                      const std::string &layout = "kv",
                                      const std::string &stateDtype = "f32",
                                      const std::string &in = "bf16",
                                      const std::string &ix = "i32",
                                      bool strided = true) {
  std::string K = std::to_string(k), V = std::to_string(v);
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 128 1 1\ngrid.x 2\ngrid.y n h\nsmem 0\n"
                  "arg ptr q " + in + " in 4 n t h " + K + "\n" +
                  strideLine(strided, "q") +
                  "arg ptr k " + in + " in 4 n t h " + K + "\n" +
                  strideLine(strided, "k") +
                  "arg ptr v " + in + " in 4 n t h " + V + "\n" +
                  strideLine(strided, "v") +
                  "arg ptr g f32 in 4 n t h " + K + "\n" +
                  strideLine(strided, "g") +
                  "arg ptr beta f32 in 3 n t h\n" +
                  strideLine(strided, "beta") +
                  "arg ptr state_indices " + ix + " in 2 n t\n"
                  "arg ptr num_accepted " + ix + " in 1 n\n"
                  "arg ptr pool " + stateDtype + " inout 4 slots h " + V +
                  " " + K + "\n"
                  "arg scalar scale f32\n"
                  "arg scalar write_states i32\n" +
                  strideScalars(strided) +
                  "arg ptr o " + in + " out 4 n t h " + V + "\n"
                  "arg dim n\narg dim t\narg dim h\narg dim slots\n";
  if (!layout.empty())
    m += "state pool " + layout + "\n";
  return m + "end\n";
}

/// The bindings of a prefill kernel set (templates/kda_chunk_split.tirx
/// and templates/kda_chunk_h.tirx): head dimensions, chunk C, value block
/// VB (NVB = V / VB scan programs per (sequence, head)), types, state
/// layout, the `range g` line of the prep kernel ("" for none) and the
/// index type IX (cu_seqlens, state_indices, checkpoint_blocks). With the
/// defaults the three helpers below write the real kernels' metadata
/// (KdaPrefill.FakeHelpersAreTheRealKernelsMetadata).
struct PrefillBinding {
  int k = 128, v = 128, c = 32, vb = 8;
  std::string in = "bf16", state = "f32", layout = "kv", ix = "i32";
  std::string range = "range g -5 0";
  /// The gate bound GB of the prep kernel's `bind GB` line.
  int gb = 5;
  /// The prep kernel reads q, k, g and beta, the scans v, with runtime row
  /// strides.
  bool strided = true;
  /// The prep kernel's q and k are [tt, hqk, K] (grouped value heads, the
  /// template's hqk dimension); false: [tt, h, K].
  bool grouped = true;
  /// The intermediates per (head, chunk slot), [h, ns, ..]; false: per
  /// (sequence, head, chunk), [n, h, nc, ..], as kernels built before
  /// chunk slots declare them.
  bool chunkSlots = true;
  /// Checkpoints at token offsets: prep's ckpt_offsets, kc and ec, the
  /// scan's ckpt_offsets, offset_blocks and boundaries (false: kernels
  /// built before them).
  bool offsets = true;
  /// The `bind` lines the compiler records (sorted by name).
  bool bindings = true;
};

/// An intermediate's `arg` shape: rank and dimensions, per chunk slot
/// ("4 h ns C K") or, for kernels before chunk slots, per (sequence,
/// head, chunk) ("5 n h nc C K"); `tail` its static dimensions.
inline std::string prefillShape(const PrefillBinding &b,
                                const std::string &tail, int tailRank) {
  if (b.chunkSlots)
    return std::to_string(2 + tailRank) + " h ns " + tail;
  return std::to_string(3 + tailRank) + " n h nc " + tail;
}

/// The `bind` lines of the state scans (kda_chunk_scan_h, _o; none when
/// b.bindings is off).
inline std::string prefillScanBinds(const PrefillBinding &b) {
  if (!b.bindings)
    return "";
  return "bind C " + std::to_string(b.c) + "\nbind K " + std::to_string(b.k) +
         "\nbind NVB " + std::to_string(b.v / b.vb) + "\nbind V " +
         std::to_string(b.v) + "\nbind VB " + std::to_string(b.vb) + "\n";
}

/// A tensor map over an intermediate: its dimension order (innermost
/// first) for the intermediate's rank, then `box`, padded with 1s.
inline std::string prefillMap(const PrefillBinding &b, int tailRank,
                              const std::string &box) {
  const int rank = (b.chunkSlots ? 2 : 3) + tailRank;
  std::string m = std::to_string(rank);
  for (int d = rank - 1; d >= 0; --d)
    m += " " + std::to_string(d);
  m += " box " + box;
  int boxRank = 1;
  for (char ch : box)
    boxRank += ch == ' ';
  for (int d = boxRank; d < rank; ++d)
    m += " 1";
  return m;
}

/// The swizzle suffix kda2 gives the tensor map of a tile of 16-bit rows of
/// `rowBytes` bytes read only by tensor-core products (chooseSwizzledBuffers:
/// the 128-byte swizzle for rows a multiple of 128 bytes, 64 or 32 for rows
/// of exactly that many).
inline std::string prefillSwizzle(int rowBytes) {
  int span = rowBytes % 128 == 0 ? 128
             : rowBytes == 64 || rowBytes == 32 ? rowBytes
                                                : 0;
  return span ? " swizzle " + std::to_string(span) : "";
}

/// Metadata of kda_chunk_prep as the compiler emits it (the bindings above;
/// the `range g` line follows g's `arg` line).
inline std::string
prefillPrepMetadata(const PrefillBinding &b = {},
                    const std::string &name = "kda_chunk_prep") {
  std::string K = std::to_string(b.k), C = std::to_string(b.c);
  const std::string &in = b.in;
  const std::string qkHeads = b.grouped ? "hqk" : "h";
  std::string m =
      "kda2-kernel-v1\nname " + name + "\nblock 128 1 1\n" +
      (b.chunkSlots ? "grid.x ns\ngrid.y h\n" : "grid.x nc\ngrid.y n h\n") +
      "smem 0\n"
      "arg ptr q " +
      in + " in 3 tt " + qkHeads + " " + K + "\n" + strideLine(b.strided, "q") +
      "arg ptr k " + in + " in 3 tt " + qkHeads + " " + K + "\n" +
      strideLine(b.strided, "k") + "arg ptr g f32 in 3 tt h " + K +
      "\n" + (b.range.empty() ? "" : b.range + "\n") +
      strideLine(b.strided, "g") + "arg ptr beta f32 in 2 tt h\n" +
      strideLine(b.strided, "beta") + "arg ptr cu_seqlens " + b.ix +
      " in 1 np1\n" +
      (b.offsets ? "arg ptr ckpt_offsets " + b.ix + " in 2 n m\n" : "") +
      "arg scalar scale f32\n" +
      strideScalars(b.strided, /*withV=*/false) + "arg ptr qd " + in + " out " +
      prefillShape(b, C + " " + K, 2) + "\narg ptr kl " + in + " out " +
      prefillShape(b, C + " " + K, 2) + "\narg ptr wn " + in + " out " +
      prefillShape(b, C + " " + K, 2) + "\narg ptr tp " + in + " out " +
      prefillShape(b, C + " " + C, 2) + "\narg ptr pb " + in + " out " +
      prefillShape(b, C + " " + C, 2) + "\narg ptr gl f32 out " +
      prefillShape(b, K, 1) + "\n" +
      (b.offsets ? "arg ptr kc " + in + " out 4 h nm " + C + " " + K +
                       "\narg ptr ec f32 out 3 h nm " + K + "\n"
                 : "") +
      "arg dim tt\n" + (b.grouped ? "arg dim hqk\n" : "") +
      (b.chunkSlots
           ? (b.offsets ? "arg dim h\narg dim np1\narg dim n\narg dim m\n"
                          "arg dim ns\narg dim nm\n"
                        : "arg dim h\narg dim np1\narg dim ns\n")
           : "arg dim h\narg dim np1\narg dim n\narg dim nc\n");
  if (b.bindings)
    m += "bind BPS 0\nbind C " + C + "\nbind GB " + std::to_string(b.gb) +
         "\nbind K " + K + "\nbind PDL 0\n";
  return m + "end\n";
}

/// The switches of an activation prep (templates/kda_chunk_prep_act.tirx):
/// gate family GF, β logits BS, q/k norm QKN; gf < 0 leaves out the `bind
/// GF` line (a kernel from a kda2 that did not record bindings keeps none:
/// bindings = false drops every `bind` line).
struct PrepActBinding {
  int gf = 2, bs = 1, qkn = 1;
  bool bindings = true;
  /// AL and DB: whether the kernel reads A_log and dt_bias (-1: no line).
  int al = 1, db = 1;
  /// Checkpoints at token offsets (ckpt_offsets, kc, ec; false: a kernel
  /// built before them).
  bool offsets = true;
};

/// Metadata of the activation prep kda_chunk_prep as the compiler emits it
/// for IN=bf16, IX=i32, K=128, C=32, HC=16 and the switches
/// of `a` (with GF=2, BS=1, QKN=1 the text of the real kernel's PTX:
/// KdaPrefillAct.FakeHelperIsTheRealKernelsMetadata).
inline std::string prefillPrepActMetadata(const PrepActBinding &a = {}) {
  std::string m =
      "kda2-kernel-v1\nname kda_chunk_prep\nblock 128 1 1\ngrid.x ns\n"
      "grid.y h\nsmem 76032\n"
      "arg ptr q bf16 in 3 tt hqk 128\nstride q sq\n"
      "arg ptr k bf16 in 3 tt hqk 128\nstride k sk\n"
      "arg ptr g f32 in 3 tt h 128\nrange g -inf inf\nstride g sg\n"
      "arg ptr beta f32 in 2 tt h\nstride beta sb\n"
      "arg ptr A_log f32 in 1 h\n"
      "arg ptr dt_bias f32 in 2 h 128\n"
      "arg ptr cu_seqlens i32 in 1 np1\n" +
      std::string(a.offsets ? "arg ptr ckpt_offsets i32 in 2 n m\n" : "") +
      "arg scalar scale f32\narg scalar lower_bound f32\n"
      "arg scalar sq i64\narg scalar sk i64\n"
      "arg scalar sg i64\narg scalar sb i64\n"
      "arg ptr qd bf16 out 4 h ns 32 128\n"
      "arg ptr kl bf16 out 4 h ns 32 128\n"
      "arg ptr wn bf16 out 4 h ns 32 128\n"
      "arg ptr tp bf16 out 4 h ns 32 32\n"
      "arg ptr pb bf16 out 4 h ns 32 32\n"
      "arg ptr gl f32 out 3 h ns 128\n" +
      std::string(a.offsets ? "arg ptr kc bf16 out 4 h nm 32 128\n"
                              "arg ptr ec f32 out 3 h nm 128\n"
                              "arg dim tt\narg dim hqk\narg dim h\n"
                              "arg dim np1\narg dim n\narg dim m\n"
                              "arg dim ns\narg dim nm\n"
                            : "arg dim tt\narg dim hqk\narg dim h\n"
                              "arg dim np1\narg dim ns\n");
  if (a.bindings) {
    // Sorted by name, as the GPU lowering writes them.
    if (a.al >= 0)
      m += "bind AL " + std::to_string(a.al) + "\n";
    m += "bind BPS 3\nbind BS " + std::to_string(a.bs) + "\nbind C 32\n";
    if (a.db >= 0)
      m += "bind DB " + std::to_string(a.db) + "\n";
    if (a.gf >= 0)
      m += "bind GF " + std::to_string(a.gf) + "\n";
    m += "bind HC 16\nbind K 128\nbind QKN " + std::to_string(a.qkn) + "\n";
  }
  return m + "end\n";
}

/// Metadata of kda_chunk_scan_h (grid.x NVB = V / VB, tensor maps of kl,
/// wn, tp, gl and v's windows), pool and ckpt declared [.., K, V] in
/// `layout`.
inline std::string
prefillScanMetadata(const PrefillBinding &b = {},
                    const std::string &name = "kda_chunk_scan_h") {
  std::string K = std::to_string(b.k), V = std::to_string(b.v),
              C = std::to_string(b.c), VB = std::to_string(b.vb),
              NVB = std::to_string(b.v / b.vb);
  const std::string &in = b.in, &st = b.state;
  std::string m =
      "kda2-kernel-v1\nname " + name + "\nblock " +
      // one warp per 16 value columns, at most four, and the warp that
      // issues the tile copies (@producer_warp)
      std::to_string(32 * std::min(4, std::max(1, b.vb / 16)) + 32) +
      " 1 1\ngrid.x " + NVB + "\ngrid.y n h\nsmem 0\n"
      "arg ptr v " +
      in + " in 3 tt h " + V + "\n" + strideLine(b.strided, "v") +
      "arg ptr kl " + in + " in " + prefillShape(b, C + " " + K, 2) +
      "\narg ptr wn " + in + " in " + prefillShape(b, C + " " + K, 2) +
      "\narg ptr tp " + in + " in " + prefillShape(b, C + " " + C, 2) +
      "\narg ptr gl f32 in " + prefillShape(b, K, 1) + "\narg ptr cu_seqlens " +
      b.ix +
      " in 1 np1\n"
      "arg ptr state_indices " +
      b.ix +
      " in 1 n\n"
      "arg ptr has_initial_state i32 in 1 n\n"
      "arg ptr checkpoint_blocks " +
      b.ix + " in 2 n nc\n" +
      (b.offsets ? "arg ptr ckpt_offsets " + b.ix +
                       " in 2 n m\narg ptr offset_blocks " + b.ix +
                       " in 2 n m\narg scalar boundaries i32\n"
                 : "") +
      (b.strided ? "arg scalar sv i64\n" : "") + "arg ptr pool " +
      st + " inout 4 slots h " + K + " " + V + "\n" +
      (b.layout.empty() ? "" : "state pool " + b.layout + "\n") +
      "arg ptr hs " + in + " out " + prefillShape(b, V + " " + K, 2) +
      "\narg ptr us " + in + " out " + prefillShape(b, V + " " + C, 2) +
      "\narg ptr ckpt " + st + " out 4 blocks h " + K + " " + V + "\n" +
      (b.layout.empty() ? "" : "state ckpt " + b.layout + "\n") +
      (b.chunkSlots ? std::string("arg dim tt\narg dim h\narg dim ns\n"
                                  "arg dim np1\narg dim n\narg dim nc\n") +
                          (b.offsets ? "arg dim m\n" : "") +
                          "arg dim slots\narg dim blocks\n"
                    : "arg dim tt\narg dim h\narg dim n\narg dim nc\n"
                      "arg dim np1\narg dim slots\narg dim blocks\n") +
      "arg tensormap kl__tma0 kl " + prefillMap(b, 2, "64 " + C) +
      " swizzle 128\narg tensormap wn__tma1 wn " + prefillMap(b, 2, "64 " + C) +
      " swizzle 128\narg tensormap tp__tma2 tp " +
      prefillMap(b, 2, C + " " + C) + prefillSwizzle(2 * b.c) +
      "\narg tensormap gl__tma3 gl " + prefillMap(b, 1, K) +
      "\narg tensormap v__tma4 v 3 2 1 0 box " + VB + " 1 " + C +
      prefillSwizzle(2 * b.vb) + "\n";
  return m + prefillScanBinds(b) + "end\n";
}

/// Metadata of the fused-output scan kda_chunk_scan_o (templates/
/// kda_chunk_h.tirx: kda_chunk_scan_h's arguments with qd and pb, o in
/// place of hs; grid.x NVB = V / VB, tensor maps of qd, kl, wn, tp, pb, gl
/// and v's windows), pool and ckpt declared [.., K, V] in `layout`. The kernel came
/// after checkpoints at token offsets: b.offsets is not read; smem is the
/// real kernel's at the defaults with VB = 16
/// (KdaPrefillFused.FakeHelperIsTheRealKernelsMetadata).
inline std::string
prefillScanOMetadata(const PrefillBinding &b = {},
                     const std::string &name = "kda_chunk_scan_o") {
  std::string K = std::to_string(b.k), V = std::to_string(b.v),
              C = std::to_string(b.c), VB = std::to_string(b.vb),
              NVB = std::to_string(b.v / b.vb);
  const std::string &in = b.in, &st = b.state, &ix = b.ix;
  std::string m =
      "kda2-kernel-v1\nname " + name + "\nblock " +
      std::to_string(32 * std::min(4, std::max(1, b.vb / 16)) + 32) +
      " 1 1\ngrid.x " + NVB + "\ngrid.y n h\nsmem 61440\n"
      "arg ptr v " +
      in + " in 3 tt h " + V + "\n" + strideLine(b.strided, "v") +
      "arg ptr qd " + in + " in " + prefillShape(b, C + " " + K, 2) +
      "\narg ptr kl " + in + " in " + prefillShape(b, C + " " + K, 2) +
      "\narg ptr wn " + in + " in " + prefillShape(b, C + " " + K, 2) +
      "\narg ptr tp " + in + " in " + prefillShape(b, C + " " + C, 2) +
      "\narg ptr pb " + in + " in " + prefillShape(b, C + " " + C, 2) +
      "\narg ptr gl f32 in " + prefillShape(b, K, 1) +
      "\narg ptr cu_seqlens " + ix + " in 1 np1\narg ptr state_indices " +
      ix + " in 1 n\narg ptr has_initial_state i32 in 1 n\n"
      "arg ptr checkpoint_blocks " +
      ix + " in 2 n nc\narg ptr ckpt_offsets " + ix +
      " in 2 n m\narg ptr offset_blocks " + ix +
      " in 2 n m\narg scalar boundaries i32\n" +
      (b.strided ? "arg scalar sv i64\n" : "") + "arg ptr pool " + st +
      " inout 4 slots h " + K + " " + V + "\n" +
      (b.layout.empty() ? "" : "state pool " + b.layout + "\n") +
      "arg ptr o " + in + " out 3 tt h " + V + "\narg ptr us " + in + " out " +
      prefillShape(b, V + " " + C, 2) + "\narg ptr ckpt " + st +
      " out 4 blocks h " + K + " " + V + "\n" +
      (b.layout.empty() ? "" : "state ckpt " + b.layout + "\n") +
      (b.chunkSlots ? "arg dim tt\narg dim h\narg dim ns\narg dim np1\n"
                      "arg dim n\narg dim nc\narg dim m\narg dim slots\n"
                      "arg dim blocks\n"
                    : "arg dim tt\narg dim n\narg dim h\narg dim nc\n"
                      "arg dim np1\narg dim m\narg dim slots\n"
                      "arg dim blocks\n") +
      "arg tensormap qd__tma0 qd " + prefillMap(b, 2, "64 " + C) +
      " swizzle 128\narg tensormap kl__tma1 kl " + prefillMap(b, 2, "64 " + C) +
      " swizzle 128\narg tensormap wn__tma2 wn " + prefillMap(b, 2, "64 " + C) +
      " swizzle 128\narg tensormap tp__tma3 tp " +
      prefillMap(b, 2, C + " " + C) + prefillSwizzle(2 * b.c) +
      "\narg tensormap pb__tma4 pb " + prefillMap(b, 2, C + " " + C) +
      prefillSwizzle(2 * b.c) + "\narg tensormap gl__tma5 gl " +
      prefillMap(b, 1, K) + "\narg tensormap v__tma6 v 3 2 1 0 box " + VB +
      " 1 " + C + prefillSwizzle(2 * b.vb) + "\n";
  std::string binds = prefillScanBinds(b);
  // kda_chunk_scan_o's own blocks per SM (OB, 0 by default) sorts after NVB.
  if (name == "kda_chunk_scan_o" && b.bindings) {
    std::string nvb = "bind NVB " + NVB + "\n";
    binds.replace(binds.find(nvb), nvb.size(), nvb + "bind OB 0\n");
  }
  return m + binds + "end\n";
}

/// Metadata of kda_chunk_out (grid (ns, h), tensor maps of qd, pb, hs, us;
/// the pool's slot count as the i32 scalar nslots).
inline std::string
prefillOutMetadata(const PrefillBinding &b = {},
                   const std::string &name = "kda_chunk_out") {
  std::string K = std::to_string(b.k), V = std::to_string(b.v),
              C = std::to_string(b.c);
  const std::string &in = b.in;
  std::string m =
      "kda2-kernel-v1\nname " + name + "\nblock 128 1 1\n" +
      (b.chunkSlots ? "grid.x ns\ngrid.y h\n" : "grid.x nc\ngrid.y n h\n") +
      "smem 68608\n"
      "arg ptr qd " +
      in + " in " + prefillShape(b, C + " " + K, 2) + "\narg ptr pb " + in +
      " in " + prefillShape(b, C + " " + C, 2) + "\narg ptr hs " + in + " in " +
      prefillShape(b, V + " " + K, 2) + "\narg ptr us " + in + " in " +
      prefillShape(b, V + " " + C, 2) + "\narg ptr cu_seqlens " + b.ix +
      " in 1 np1\n"
      "arg ptr state_indices " +
      b.ix +
      " in 1 n\n"
      "arg scalar nslots i32\n"
      "arg ptr o " +
      in + " out 3 tt h " + V + "\n" +
      (b.chunkSlots ? "arg dim h\narg dim ns\narg dim np1\narg dim n\n"
                      "arg dim tt\n"
                    : "arg dim n\narg dim h\narg dim nc\narg dim np1\n"
                      "arg dim tt\n") +
      "arg tensormap qd__tma0 qd " + prefillMap(b, 2, "64 " + C) +
      " swizzle 128\narg tensormap pb__tma1 pb " +
      prefillMap(b, 2, C + " " + C) + prefillSwizzle(2 * b.c) +
      "\narg tensormap hs__tma2 hs " + prefillMap(b, 2, "64 " + V) +
      " swizzle 128\narg tensormap us__tma3 us " +
      prefillMap(b, 2, C + " " + V) + prefillSwizzle(2 * b.c) + "\n";
  if (b.bindings)
    m += "bind C " + C + "\nbind K " + K + "\nbind V " + V + "\n";
  return m + "end\n";
}

/// Metadata of kda_chunk_ckpt (templates/kda_chunk_h.tirx: the checkpoints
/// at token offsets, completed after the scan; grid (nm, h), no tensor
/// maps), ckpt inout [blocks, h, K, V] in `layout`.
inline std::string
prefillCkptMetadata(const PrefillBinding &b = {},
                    const std::string &name = "kda_chunk_ckpt") {
  std::string K = std::to_string(b.k), V = std::to_string(b.v),
              C = std::to_string(b.c);
  const std::string &in = b.in, &ix = b.ix;
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 128 1 1\ngrid.x nm\ngrid.y h\nsmem 0\n"
                  "arg ptr kc " +
                  in + " in 4 h nm " + C + " " + K +
                  "\narg ptr ec f32 in 3 h nm " + K + "\narg ptr us " + in +
                  " in 4 h ns " + V + " " + C + "\narg ptr cu_seqlens " + ix +
                  " in 1 np1\narg ptr state_indices " + ix +
                  " in 1 n\narg ptr ckpt_offsets " + ix +
                  " in 2 n m\narg ptr offset_blocks " + ix +
                  " in 2 n m\narg scalar nslots i32\narg ptr ckpt " + b.state +
                  " inout 4 blocks h " + K + " " + V + "\n" +
                  (b.layout.empty() ? "" : "state ckpt " + b.layout + "\n") +
                  "arg dim h\narg dim nm\narg dim ns\narg dim np1\narg dim n\n"
                  "arg dim m\narg dim blocks\n"
                  // kc's and (64 value rows of) us's tiles by TMA, swizzled
                  // (read only by the product), and ec.
                  "arg tensormap kc__tma0 kc 4 3 2 1 0 box 64 " + C +
                  " 1 1 swizzle 128\narg tensormap ec__tma1 ec 3 2 1 0 box " + K +
                  " 1 1\narg tensormap us__tma2 us 4 3 2 1 0 box " + C +
                  " 64 1 1" + prefillSwizzle(2 * b.c) + "\n";
  if (b.bindings)
    m += "bind C " + C + "\nbind K " + K + "\nbind V " + V + "\n";
  return m + "end\n";
}

} // namespace kda2::fake

/// Hooks of the fake driver (dlsym them from the library handle).
extern "C" {
/// Kernel launches so far (graph launches count their kernels).
typedef int64_t (*kda2_fake_cuda_launches_fn)(void);
/// Of those, the launches through cuLaunchKernelEx with programmatic stream
/// serialization allowed (programmatic dependent launches).
typedef int64_t (*kda2_fake_cuda_programmatic_launches_fn)(void);
/// cuMemsetD32Async calls so far; the last one's address, value and count.
typedef int64_t (*kda2_fake_cuda_memsets32_fn)(uint64_t *dst, unsigned *value,
                                                uint64_t *count);
/// Name of the function of the last launch ("" if none).
typedef const char *(*kda2_fake_cuda_last_kernel_fn)(void);
/// The grid of the last direct launch (grid[3]) and the first 8 bytes of
/// each of its parameters (up to `capacity`); returns the number of
/// parameters (-1 when the function has no metadata of its own).
typedef int (*kda2_fake_cuda_last_launch_fn)(unsigned *grid, uint64_t *params,
                                             int capacity);
/// The `back`-th most recent of the last 16 direct launches (0: the
/// latest): its function's name, grid and the first 8 bytes of each
/// parameter (a tensor map: the address of its tensor); returns the number
/// of parameters, -2 when there is no such event. The name stays valid until 16
/// more events are recorded.
typedef int (*kda2_fake_cuda_event_fn)(int back, const char **name,
                                       unsigned *grid, uint64_t *params,
                                       int capacity);
/// The arguments of the `back`-th most recent of the last 16
/// cuTensorMapEncodeTiled calls (0: the latest) as 26 words: address,
/// data type, rank, interleave, swizzle, L2 promotion, OOB fill, dims[5],
/// box[5], element strides[5], strides[4] (unused entries 0); returns 26,
/// or -2 when there is no such call.
typedef int (*kda2_fake_cuda_tensor_map_fn)(int back, uint64_t *words,
                                            int capacity);
/// Forgets the events and the tensor maps above.
typedef void (*kda2_fake_cuda_clear_events_fn)(void);
}

#endif // KDA2_UNITTESTS_RUNTIME_FAKECUDA_H
