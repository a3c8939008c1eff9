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
/// emits it (K = V = d), with a `variant t 1` copy when `variantT1`.
inline std::string decodeMetadata(const std::string &name, int d,
                                  bool variantT1 = false) {
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
  return m + "end\n";
}

} // namespace kda2::fake

/// Hooks of the fake driver (dlsym them from the library handle).
extern "C" {
/// Kernel launches so far (graph launches count their kernels).
typedef int64_t (*kda2_fake_cuda_launches_fn)(void);
/// Name of the function of the last launch ("" if none).
typedef const char *(*kda2_fake_cuda_last_kernel_fn)(void);
}

#endif // KDA2_UNITTESTS_RUNTIME_FAKECUDA_H
