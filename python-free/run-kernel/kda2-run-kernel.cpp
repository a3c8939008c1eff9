//===- kda2-run-kernel.cpp - run one kda2 kernel without Python -----------===//
//
//   kda2-run-kernel [--device N] <module.cubin|.ptx> [<kernel> [name=value ...]]
//
// Loads the module with libkda2rt, prints the kernel's metadata, allocates a
// device buffer for every pointer argument (elements from the dimension sizes
// given as name=value, times the dtype size), fills inputs (in/inout) with a
// deterministic pseudo-random pattern and outputs with zeros, launches,
// synchronizes and prints a checksum of every output and the counters.
// name=value gives the size of a named dimension or the value of a scalar
// argument. Without a kernel name, lists the module's kda2 kernels.
//
// Exit status: 0 on success, 1 on a runtime error, 2 on a usage error.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/CudaDriver.h"
#include "kda2/Runtime/Module.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace kda2::runtime;

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: kda2-run-kernel [--device N] <module.cubin|.ptx> "
               "[<kernel> [name=value ...]]\n"
               "  name=value: size of a named dimension, or value of a scalar "
               "argument\n"
               "  without <kernel>: list the kda2 kernels in the module\n");
  return 2;
}

int fail(const Status &s) {
  std::fprintf(stderr, "kda2-run-kernel: error: %s\n", s.message().c_str());
  return 1;
}

bool parseInt(const char *s, int64_t &out) {
  if (!*s)
    return false;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s, &end, 0);
  if (errno || *end)
    return false;
  out = v;
  return true;
}

bool parseDouble(const char *s, double &out) {
  if (!*s)
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtod(s, &end);
  return !errno && !*end;
}

// splitmix64: a small, well-mixed deterministic generator.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

uint64_t fnv1a(const void *data, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const unsigned char *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xffu) == 0xffu) // inf / nan
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));
  if (exp >= 31)
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) { // subnormal or zero
    if (exp < -10)
      return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent: still correct rounding
  return static_cast<uint16_t>(half);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else { // subnormal
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400u));
      x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
          ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000u | (mant << 13);
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) // nan
    return static_cast<uint16_t>((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u); // round to nearest even
  return static_cast<uint16_t>(x >> 16);
}

float bf16ToFloat(uint16_t b) {
  uint32_t x = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

/// Fills `bytes` with `count` elements of `type`: floats uniform in [-1, 1),
/// integers in [-8, 8) (ui8 in [0, 16), i1 in {0, 1}).
void fillPattern(DType type, size_t count, uint64_t seed,
                 std::vector<unsigned char> &bytes) {
  Rng rng{seed};
  size_t size = dtypeSize(type);
  for (size_t i = 0; i < count; ++i) {
    unsigned char *p = bytes.data() + i * size;
    double u = rng.uniform();
    double f = 2.0 * u - 1.0;
    int64_t n = static_cast<int64_t>(rng.next() % 16) - 8;
    switch (type) {
    case DType::F16: {
      uint16_t h = floatToHalf(static_cast<float>(f));
      std::memcpy(p, &h, 2);
      break;
    }
    case DType::BF16: {
      uint16_t h = floatToBf16(static_cast<float>(f));
      std::memcpy(p, &h, 2);
      break;
    }
    case DType::F32: {
      float v = static_cast<float>(f);
      std::memcpy(p, &v, 4);
      break;
    }
    case DType::F64:
      std::memcpy(p, &f, 8);
      break;
    case DType::I1:
      *p = static_cast<unsigned char>(n & 1);
      break;
    case DType::I8:
      *p = static_cast<unsigned char>(static_cast<int8_t>(n));
      break;
    case DType::UI8:
      *p = static_cast<unsigned char>(n + 8);
      break;
    case DType::I16: {
      int16_t v = static_cast<int16_t>(n);
      std::memcpy(p, &v, 2);
      break;
    }
    case DType::I32: {
      int32_t v = static_cast<int32_t>(n);
      std::memcpy(p, &v, 4);
      break;
    }
    case DType::I64:
      std::memcpy(p, &n, 8);
      break;
    }
  }
}

double elementValue(DType type, const unsigned char *p) {
  switch (type) {
  case DType::F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  case DType::BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return bf16ToFloat(h);
  }
  case DType::F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case DType::I1:
    return *p ? 1 : 0;
  case DType::I8:
    return static_cast<int8_t>(*p);
  case DType::UI8:
    return *p;
  case DType::I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  }
  return 0;
}

struct Buffer {
  const ArgInfo *arg = nullptr;
  std::vector<int64_t> shape;
  size_t elements = 1;
  size_t bytes = 0;
  CUdeviceptr ptr = 0;
};

std::string shapeString(const std::vector<int64_t> &shape) {
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s.empty() ? "scalar" : s;
}

} // namespace

int main(int argc, char **argv) {
  int device = 0;
  std::vector<const char *> positional;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--device") && i + 1 < argc) {
      int64_t d = 0;
      if (!parseInt(argv[++i], d) || d < 0)
        return usage();
      device = static_cast<int>(d);
    } else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      usage();
      return 0;
    } else {
      positional.push_back(argv[i]);
    }
  }
  if (positional.empty())
    return usage();

  Context ctx;
  Status s = Context::create(device, ctx);
  if (!s.ok())
    return fail(s);
  std::string devName;
  int major = 0, minor = 0;
  if (ctx.name(devName).ok() && ctx.computeCapability(major, minor).ok())
    std::printf("device %d: %s (sm_%d%d)\n", device, devName.c_str(), major,
                minor);

  Module module;
  s = Module::loadFile(ctx, positional[0], module);
  if (!s.ok())
    return fail(s);
  if (positional.size() == 1) {
    std::printf("kda2 kernels in %s:\n", positional[0]);
    for (const std::string &n : module.kernelNames())
      std::printf("  %s\n", n.c_str());
    return 0;
  }

  Kernel kernel;
  s = module.getKernel(positional[1], kernel);
  if (!s.ok())
    return fail(s);
  const KernelInfo &info = kernel.info();
  std::printf("--- metadata of %s ---\n%s", info.name.c_str(),
              kernel.metadataText().c_str());
  if (kernel.metadataText().empty() || kernel.metadataText().back() != '\n')
    std::printf("\n");
  std::printf("---\n");

  // name=value: dimension sizes and scalar values.
  LaunchArgs args;
  std::vector<std::pair<std::string, int64_t>> dims;
  std::vector<std::string> known = info.dimNames();
  for (size_t i = 2; i < positional.size(); ++i) {
    const char *eq = std::strchr(positional[i], '=');
    if (!eq || eq == positional[i]) {
      std::fprintf(stderr, "kda2-run-kernel: expected name=value, got '%s'\n",
                   positional[i]);
      return 2;
    }
    std::string name(positional[i], eq - positional[i]);
    const char *value = eq + 1;
    const ArgInfo *a = info.findArg(name);
    if (a && a->kind == ArgInfo::Scalar) {
      bool isInt =
          a->scalarType == ScalarType::I32 || a->scalarType == ScalarType::I64;
      int64_t iv = 0;
      double dv = 0;
      if (isInt && parseInt(value, iv)) {
        args.intScalar(name, iv);
      } else if (!isInt && parseDouble(value, dv)) {
        args.floatScalar(name, dv);
      } else {
        std::fprintf(stderr,
                     "kda2-run-kernel: bad value '%s' for scalar '%s' (%s)\n",
                     value, name.c_str(), scalarTypeName(a->scalarType));
        return 2;
      }
      continue;
    }
    bool isDim = false;
    for (const std::string &d : known)
      isDim |= d == name;
    int64_t size = 0;
    if (!isDim) {
      std::string list;
      for (const std::string &d : known)
        list += " " + d;
      for (const ArgInfo &arg : info.args)
        if (arg.kind == ArgInfo::Scalar)
          list += " " + arg.name;
      std::fprintf(stderr,
                   "kda2-run-kernel: '%s' is neither a dimension nor a scalar "
                   "of %s (known:%s)\n",
                   name.c_str(), info.name.c_str(), list.c_str());
      return 2;
    }
    if (!parseInt(value, size) || size < 0) {
      std::fprintf(stderr, "kda2-run-kernel: bad size '%s' for dimension '%s'\n",
                   value, name.c_str());
      return 2;
    }
    args.dim(name, size);
    dims.emplace_back(name, size);
  }
  auto dimValue = [&](const std::string &name, int64_t &out) {
    for (const auto &d : dims)
      if (d.first == name) {
        out = d.second;
        return true;
      }
    return false;
  };

  // One device buffer per pointer argument, plus the counters buffer.
  std::vector<Buffer> buffers;
  int rc = 0;
  for (const ArgInfo &a : info.args) {
    if (a.kind != ArgInfo::Ptr && a.kind != ArgInfo::Counters)
      continue;
    Buffer b;
    b.arg = &a;
    if (a.kind == ArgInfo::Counters) {
      b.elements = static_cast<size_t>(a.numCounters);
      b.bytes = b.elements * 8;
    } else {
      for (const ShapeDim &d : a.shape) {
        int64_t extent = 0;
        if (d.kind == ShapeDim::Static) {
          extent = d.size;
        } else if (d.kind == ShapeDim::Named) {
          if (!dimValue(d.name, extent)) {
            std::fprintf(stderr,
                         "kda2-run-kernel: argument '%s' needs the size of "
                         "dimension '%s': pass %s=<size>\n",
                         a.name.c_str(), d.name.c_str(), d.name.c_str());
            return 2;
          }
        } else {
          std::fprintf(stderr,
                       "kda2-run-kernel: argument '%s' has a dynamic ('?') "
                       "dimension; this tool cannot size it\n",
                       a.name.c_str());
          return 2;
        }
        // A padded dimension (`pad` metadata) is stored rounded up.
        extent = (extent + d.padTo - 1) / d.padTo * d.padTo;
        b.shape.push_back(extent);
        b.elements *= static_cast<size_t>(extent);
      }
      b.bytes = b.elements * dtypeSize(a.dtype);
    }
    s = ctx.allocate(b.bytes ? b.bytes : 16, b.ptr);
    if (!s.ok()) {
      rc = fail(s);
      break;
    }
    std::vector<unsigned char> host(b.bytes, 0);
    if (a.kind == ArgInfo::Ptr && a.access != Access::Out)
      fillPattern(a.dtype, b.elements, fnv1a(a.name.data(), a.name.size()),
                  host);
    s = ctx.copyToDevice(b.ptr, host.data(), b.bytes);
    if (!s.ok()) {
      rc = fail(s);
      break;
    }
    std::printf("arg %-12s %-5s %-6s [%s] %zu bytes%s\n", a.name.c_str(),
                a.kind == ArgInfo::Counters ? "i64" : dtypeName(a.dtype),
                a.kind == ArgInfo::Counters ? "out" : accessName(a.access),
                a.kind == ArgInfo::Counters ? std::to_string(b.elements).c_str()
                                            : shapeString(b.shape).c_str(),
                b.bytes,
                a.kind == ArgInfo::Ptr && a.access != Access::Out
                    ? " (pseudo-random input)"
                    : " (zeroed)");
    buffers.push_back(b);
    if (a.kind == ArgInfo::Counters)
      args.ptr(a.name, b.ptr);
    else
      args.ptr(a.name, reinterpret_cast<const void *>(b.ptr), b.shape);
  }

  if (rc == 0) {
    LaunchConfig cfg;
    s = kernel.launch(args, nullptr, &cfg);
    if (s.ok())
      std::printf("launch grid %ux%ux%u block %ux%ux%u smem %u%s\n",
                  cfg.grid[0], cfg.grid[1], cfg.grid[2], cfg.block[0],
                  cfg.block[1], cfg.block[2], cfg.sharedBytes,
                  cfg.empty() ? " (empty grid: nothing launched)" : "");
    if (s.ok())
      s = ctx.synchronize(nullptr);
    if (!s.ok())
      rc = fail(s);
  }

  for (const Buffer &b : buffers) {
    if (rc != 0)
      break;
    const ArgInfo &a = *b.arg;
    if (a.kind == ArgInfo::Counters) {
      std::vector<CounterValue> values;
      s = kernel.readCounters(b.ptr, values);
      if (!s.ok()) {
        rc = fail(s);
        break;
      }
      for (const CounterValue &v : values) {
        if (v.isFloat)
          std::printf("counter %s = %.17g\n", v.name.c_str(), v.asDouble());
        else
          std::printf("counter %s = %" PRId64 "\n", v.name.c_str(), v.asInt());
      }
      continue;
    }
    if (a.access == Access::In)
      continue;
    std::vector<unsigned char> host(b.bytes);
    s = ctx.copyToHost(host.data(), b.ptr, b.bytes);
    if (!s.ok()) {
      rc = fail(s);
      break;
    }
    size_t size = dtypeSize(a.dtype);
    double sum = 0, absSum = 0;
    size_t nonFinite = 0;
    std::string first;
    for (size_t i = 0; i < b.elements; ++i) {
      double v = elementValue(a.dtype, host.data() + i * size);
      if (!std::isfinite(v)) {
        ++nonFinite;
        continue;
      }
      sum += v;
      absSum += std::fabs(v);
      if (i < 4) {
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%s%.6g", i ? ", " : "", v);
        first += buf;
      }
    }
    std::printf("output %s %s[%s]: sum=%.9g abs_sum=%.9g fnv1a=0x%016" PRIx64
                " nonfinite=%zu first=[%s]\n",
                a.name.c_str(), dtypeName(a.dtype),
                shapeString(b.shape).c_str(), sum, absSum,
                fnv1a(host.data(), host.size()), nonFinite, first.c_str());
  }

  for (const Buffer &b : buffers)
    (void)ctx.free(b.ptr);
  return rc;
}
