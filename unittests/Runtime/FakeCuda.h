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

/// Metadata of a pool decode kernel as templates/kda_decode_pool.tirx
/// emits it: head dimensions k and v, pool declared [slots, h, V, K] and
/// stored K-major (`layout` "kv") or V-major ("vk"; "" for no `state`
/// line), pool element
/// type `stateDtype`, q/k/v/o type `in`; grid (n, h).
inline std::string poolDecodeMetadata(const std::string &name, int k, int v,
                                      const std::string &layout = "kv",
                                      const std::string &stateDtype = "f32",
                                      const std::string &in = "bf16") {
  std::string K = std::to_string(k), V = std::to_string(v);
  // Declared [slots, h, V, K] whatever the layout, as
  // templates/kda_decode_pool.tirx does: the `state` line gives the order.
  std::string ab = V + " " + K;
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 128 1 1\ngrid.x\ngrid.y n h\nsmem 0\n"
                  "arg ptr q " + in + " in 3 tt h " + K + "\n"
                  "arg ptr k " + in + " in 3 tt h " + K + "\n"
                  "arg ptr v " + in + " in 3 tt h " + V + "\n"
                  "arg ptr g f32 in 3 tt h " + K + "\n"
                  "arg ptr beta f32 in 2 tt h\n"
                  "arg ptr cu_seqlens i32 in 1 np1\n"
                  "arg ptr state_indices i32 in 1 n\n"
                  "arg ptr has_initial_state i32 in 1 n\n"
                  "arg ptr pool " + stateDtype + " inout 4 slots h " + ab +
                  "\n"
                  "arg scalar scale f32\n"
                  "arg ptr o " + in + " out 3 tt h " + V + "\n"
                  "arg dim tt\narg dim h\narg dim np1\narg dim n\n"
                  "arg dim slots\n";
  if (!layout.empty())
    m += "state pool " + layout + "\n";
  return m + "end\n";
}

/// Metadata of a speculative decode kernel as templates/kda_decode_spec.tirx
/// emits it: q, k, g [n, t, h, K], v, o [n, t, h, V], state_indices [n, t],
/// num_accepted [n], the pool declared [slots, h, V, K] and stored in
/// `layout` ("" for no `state` line); grid (2, n h).
inline std::string specDecodeMetadata(const std::string &name, int k, int v,
                                      const std::string &layout = "kv",
                                      const std::string &stateDtype = "f32",
                                      const std::string &in = "bf16") {
  std::string K = std::to_string(k), V = std::to_string(v);
  std::string m = "kda2-kernel-v1\nname " + name +
                  "\nblock 128 1 1\ngrid.x 2\ngrid.y n h\nsmem 0\n"
                  "arg ptr q " + in + " in 4 n t h " + K + "\n"
                  "arg ptr k " + in + " in 4 n t h " + K + "\n"
                  "arg ptr v " + in + " in 4 n t h " + V + "\n"
                  "arg ptr g f32 in 4 n t h " + K + "\n"
                  "arg ptr beta f32 in 3 n t h\n"
                  "arg ptr state_indices i32 in 2 n t\n"
                  "arg ptr num_accepted i32 in 1 n\n"
                  "arg ptr pool " + stateDtype + " inout 4 slots h " + V +
                  " " + K + "\n"
                  "arg scalar scale f32\n"
                  "arg scalar write_states i32\n"
                  "arg ptr o " + in + " out 4 n t h " + V + "\n"
                  "arg dim n\narg dim t\narg dim h\narg dim slots\n";
  if (!layout.empty())
    m += "state pool " + layout + "\n";
  return m + "end\n";
}

} // namespace kda2::fake

/// Hooks of the fake driver (dlsym them from the library handle).
extern "C" {
/// Kernel launches so far (graph launches count their kernels).
typedef int64_t (*kda2_fake_cuda_launches_fn)(void);
/// Name of the function of the last launch ("" if none).
typedef const char *(*kda2_fake_cuda_last_kernel_fn)(void);
/// The grid of the last direct launch (grid[3]) and the first 8 bytes of
/// each of its parameters (up to `capacity`); returns the number of
/// parameters (-1 when the function has no metadata of its own).
typedef int (*kda2_fake_cuda_last_launch_fn)(unsigned *grid, uint64_t *params,
                                             int capacity);
}

#endif // KDA2_UNITTESTS_RUNTIME_FAKECUDA_H
