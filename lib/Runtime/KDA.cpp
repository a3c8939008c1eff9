//===- KDA.cpp - Kimi Delta Attention entry points -------------*- C++ -*-===//
//
// Checks the arguments of a KDA decode call against the kernel's metadata
// (no GPU needed) and launches it through Kernel::launch.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/KDA.h"

#include <cmath>
#include <string>

namespace kda2::runtime {

namespace {
Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

/// The static size of the last dimension of pointer argument `name`, or 0.
int64_t lastStaticDim(const KernelInfo &info, const char *name) {
  const ArgInfo *arg = info.findArg(name);
  if (!arg || arg->kind != ArgInfo::Ptr || arg->shape.empty() ||
      arg->shape.back().kind != ShapeDim::Static)
    return 0;
  return arg->shape.back().size;
}

bool supportedHeadDim(int64_t d) {
  for (int64_t s : kKdaHeadDims)
    if (s == d)
      return true;
  return false;
}
} // namespace

Status checkKdaDecode(const KernelInfo &info, const KdaDecodeArgs &args) {
  const std::string kernel = "kernel '" + info.name + "': ";
  for (const char *name : {"q", "k", "v", "g", "beta", "h0", "o", "ht"})
    if (!info.findArg(name))
      return invalid(kernel + "is not a KDA decode kernel (no argument '" +
                     name + "')");
  if (!supportedHeadDim(args.kDim) || !supportedHeadDim(args.vDim))
    return invalid("unsupported head dimension K=" + std::to_string(args.kDim) +
                   ", V=" + std::to_string(args.vDim) +
                   "; the KDA decode kernels support 64, 128 and 256");
  int64_t kernelK = lastStaticDim(info, "q");
  int64_t kernelV = lastStaticDim(info, "v");
  if (args.kDim != kernelK || args.vDim != kernelV)
    return invalid(kernel + "was compiled for K=" + std::to_string(kernelK) +
                   ", V=" + std::to_string(kernelV) + ", got K=" +
                   std::to_string(args.kDim) + ", V=" +
                   std::to_string(args.vDim));
  const char *dtype = args.dtype ? args.dtype : "bf16";
  DType requested;
  if (!parseDType(dtype, requested) ||
      (requested != DType::BF16 && requested != DType::F16))
    return invalid(std::string("dtype '") + dtype +
                   "' is not a KDA input type; expected bf16 or f16");
  for (const char *name : {"q", "k", "v", "o"})
    if (info.findArg(name)->dtype != requested)
      return invalid(kernel + "argument '" + name + "' is " +
                     dtypeName(info.findArg(name)->dtype) +
                     ", the call passes " + dtype);
  if (args.n <= 0 || args.t <= 0 || args.h <= 0)
    return invalid("sizes must be positive, got n=" + std::to_string(args.n) +
                   ", t=" + std::to_string(args.t) +
                   ", h=" + std::to_string(args.h));
  if (!(args.scale >= 0) || std::isinf(args.scale))
    return invalid("scale must be a finite number >= 0 (0: K^-1/2)");
  const std::pair<const char *, const void *> pointers[] = {
      {"q", args.q},   {"k", args.k},       {"v", args.v}, {"g", args.g},
      {"beta", args.beta}, {"h0", args.h0}, {"o", args.o}, {"ht", args.ht}};
  for (auto [name, ptr] : pointers) {
    if (!ptr)
      return invalid(std::string("argument '") + name + "' is NULL");
    if (reinterpret_cast<uintptr_t>(ptr) % 16 != 0)
      return invalid(std::string("argument '") + name +
                     "' is not 16-byte aligned (the kernel uses 128-bit "
                     "accesses)");
  }
  if (args.h0 == args.ht)
    return invalid("h0 and ht alias: the decode kernel reads h0 and writes "
                   "ht in parallel; pass a separate output buffer");
  return Status::success();
}

Status kdaDecodeLaunchArgs(const KernelInfo &info, const KdaDecodeArgs &args,
                           LaunchArgs &out) {
  out = LaunchArgs();
  KDA2RT_TRY(checkKdaDecode(info, args));
  double scale =
      args.scale > 0 ? args.scale : 1.0 / std::sqrt(static_cast<double>(args.kDim));
  out.ptr("q", args.q).ptr("k", args.k).ptr("v", args.v).ptr("g", args.g);
  out.ptr("beta", args.beta).ptr("h0", args.h0).ptr("o", args.o);
  out.ptr("ht", args.ht);
  out.dim("n", args.n).dim("t", args.t).dim("h", args.h);
  out.floatScalar("scale", scale);
  return Status::success();
}

Status launchKdaDecode(const Kernel &kernel, const KdaDecodeArgs &args,
                       CUstream stream) {
  LaunchArgs launch;
  KDA2RT_TRY(kdaDecodeLaunchArgs(kernel.info(), args, launch));
  return kernel.launch(launch, stream);
}

} // namespace kda2::runtime
