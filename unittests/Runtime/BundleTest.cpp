//===- BundleTest.cpp - kda2-link bundles and the bundle registry ---------===//
//
// CPU-only (always run): kda2-link on small fake cubins (the bytes a cubin
// holds that kda2-link and the registry read: the __kda2_meta_ symbol names
// and the metadata text), the produced library's dynamic section, dlopen and
// registration, dispatch queries, dlclose and unregistration, every bad
// input of kda2-link and of the registry's C ABI, and the failure without a
// driver. With real cubins ($KDA2_KERNELS or <build>/kernels, made by
// scripts/build-kernels.sh) the same on them; with a GPU, decode steps of
// 64 sequences through the state pool.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/Bundle.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace kda2::runtime;
namespace fs = std::filesystem;

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

#ifndef KDA2_LINK_EXE
#error "KDA2_LINK_EXE (the kda2-link binary) must be defined"
#endif

namespace {

/// Metadata of a fake decode-like kernel dispatching on `t`.
std::string fakeMetadata(const std::string &name) {
  return "kda2-kernel-v1\nname " + name +
         "\nblock 32 1 1\ngrid.y n\narg ptr x f32 in 2 n t\narg dim n\n"
         "arg dim t\nend\n";
}

/// The parts of a cubin kda2-link reads: the ELF string-table entry
/// __kda2_meta_<name> and the metadata bytes of .nv.global.init.
std::string fakeCubin(const std::vector<std::string> &kernels) {
  std::string bytes("\x7f" "ELF fake cubin", 15);
  bytes += '\0';
  for (const std::string &k : kernels) {
    bytes += "__kda2_meta_" + k;
    bytes += '\0';
  }
  for (const std::string &k : kernels) {
    bytes += fakeMetadata(k);
    bytes += '\0';
  }
  return bytes;
}

/// A scratch directory, removed with its contents.
class TempDir {
public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "kda2-bundle-XXXXXX");
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()))
      path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty())
      fs::remove_all(path_, ec);
  }
  std::string file(const std::string &name) const {
    return (fs::path(path_) / name).string();
  }
  std::string write(const std::string &name, const std::string &bytes) const {
    std::ofstream(file(name), std::ios::binary) << bytes;
    return file(name);
  }
  bool valid() const { return !path_.empty(); }

private:
  std::string path_;
};

struct Output {
  int status = -1;
  std::string output; // stdout and stderr
};

Output run(const std::string &command) {
  Output r;
  FILE *p = popen((command + " 2>&1").c_str(), "r");
  if (!p)
    return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
    r.output.append(buf, n);
  int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Output link(const std::string &args) {
  return run(std::string(KDA2_LINK_EXE) + " " + args);
}

bool gpuPresent() {
  int count = 0;
  return Context::deviceCount(count).ok() && count > 0;
}

/// A manifest over three fake cubins: sm_90a has a t == 1 specialisation
/// and a generic kernel, sm_80 a generic one.
std::string writeFakeBundleInputs(const TempDir &dir, const char *name) {
  dir.write("dec_t1.sm_90a.cubin", fakeCubin({"dec_t1"}));
  dir.write("dec.sm_90a.cubin", fakeCubin({"dec", "dec__t_1"}));
  dir.write("dec.sm_80.cubin", fakeCubin({"dec"}));
  return dir.write("bundle.manifest",
                   std::string("kda2-bundle-v1\n# a comment\nname ") + name +
                       "\ndim decode t\n"
                       "kernel decode sm_90a 1 dec_t1.sm_90a.cubin dec_t1\n"
                       "kernel decode sm_90a generic dec.sm_90a.cubin dec\n"
                       "kernel decode sm_80 generic dec.sm_80.cubin dec\n"
                       "end\n");
}

using HandleFn = int (*)(kda2rt_bundle *, char *, size_t);
using InfoFn = const char *(*)();
using LaunchFn = int (*)(int, const char *, const char **, void *const *, int,
                         const char **, const int64_t *, int, const char **,
                         const double *, int, void *, char *, size_t);

} // namespace

TEST(Bundle, LinkLoadQueryUnload) {
  TempDir dir;
  ASSERT_TRUE(dir.valid());
  std::string manifest = writeFakeBundleInputs(dir, "fake_decode");
  std::string so = dir.file("libfake.so");
  Output r = link("-o " + so + " --manifest " + manifest);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_CONTAINS(r.output, "kda2-link: wrote " + so + ": ");
  EXPECT_CONTAINS(r.output, "bundle 'fake_decode': 3 image(s)");
  EXPECT_CONTAINS(r.output, "3 table entries");

  // Only libkda2rt (and libc) at run time, stripped, the C ABI exported.
  Output dyn = run("readelf -d -s --dyn-syms " + so);
  if (dyn.status == 0) {
    EXPECT_CONTAINS(dyn.output, "[libkda2rt.so.0]");
    EXPECT_EQ(dyn.output.find("LLVM"), std::string::npos) << dyn.output;
    EXPECT_EQ(dyn.output.find("libstdc++"), std::string::npos) << dyn.output;
    EXPECT_EQ(dyn.output.find(".symtab"), std::string::npos) << "not stripped";
    EXPECT_CONTAINS(dyn.output, "kda2_bundle_info");
    EXPECT_CONTAINS(dyn.output, "kda2_bundle_launch");
  }

  EXPECT_EQ(kda2rt_bundle_find("fake_decode", nullptr, nullptr, 0),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  void *lib = dlopen(so.c_str(), RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  kda2rt_bundle bundle = nullptr;
  char err[1024];
  ASSERT_EQ(kda2rt_bundle_find("fake_decode", &bundle, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  auto handle = reinterpret_cast<HandleFn>(dlsym(lib, "kda2_bundle_handle"));
  auto info = reinterpret_cast<InfoFn>(dlsym(lib, "kda2_bundle_info"));
  auto launch = reinterpret_cast<LaunchFn>(dlsym(lib, "kda2_bundle_launch"));
  ASSERT_TRUE(handle && info && launch);
  kda2rt_bundle viaLib = nullptr;
  ASSERT_EQ(handle(&viaLib, err, sizeof(err)), KDA2RT_OK) << err;
  EXPECT_EQ(viaLib, bundle);
  EXPECT_STREQ(kda2rt_bundle_name(bundle), "fake_decode");
  EXPECT_CONTAINS(info(), "bundle fake_decode");
  EXPECT_CONTAINS(info(), "decode sm_90a t=1..1 dec_t1 image 0");
  EXPECT_CONTAINS(info(), "decode sm_80 t=generic dec image 2");
  EXPECT_CONTAINS(info(), "image 1 sm_90a");

  const char *kernel = nullptr;
  int generic = -1;
  ASSERT_EQ(kda2rt_bundle_query(bundle, "decode", 9, 0, 1, &kernel, &generic,
                                err, sizeof(err)),
            KDA2RT_OK)
      << err;
  EXPECT_STREQ(kernel, "dec_t1");
  EXPECT_EQ(generic, 0);
  ASSERT_EQ(kda2rt_bundle_query(bundle, "decode", 9, 0, 300, &kernel, &generic,
                                err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_STREQ(kernel, "dec");
  EXPECT_EQ(generic, 1);
  ASSERT_EQ(kda2rt_bundle_query(bundle, "decode", 8, 9, 1, &kernel, nullptr,
                                err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_STREQ(kernel, "dec");
  EXPECT_EQ(kda2rt_bundle_query(bundle, "decode", 7, 5, 1, &kernel, nullptr,
                                err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(err, "no kernel for compute capability 7.5");
  EXPECT_EQ(kernel, nullptr);
  EXPECT_EQ(kda2rt_bundle_query(bundle, "prefill", 9, 0, 1, &kernel, nullptr,
                                err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(err, "unknown op 'prefill'; the bundle has: decode");

  // Launch arguments are checked before the GPU is touched.
  const char *dimNames[] = {"n"};
  int64_t dims[] = {4};
  EXPECT_EQ(launch(0, "decode", nullptr, nullptr, 0, dimNames, dims, 1,
                   nullptr, nullptr, 0, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "op 'decode' dispatches on dimension 't'");
  EXPECT_EQ(launch(0, "nope", nullptr, nullptr, 0, nullptr, nullptr, 0,
                   nullptr, nullptr, 0, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(err, "unknown op 'nope'");
  EXPECT_EQ(launch(0, "decode", nullptr, nullptr, 1, nullptr, nullptr, 0,
                   nullptr, nullptr, 0, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "NULL array with a non-zero count");
  if (!gpuPresent()) {
    // Without a driver (or device) the bundle fails loudly, not at load.
    const char *names[] = {"t", "n"};
    int64_t sizes[] = {1, 4};
    int rc = launch(0, "decode", nullptr, nullptr, 0, names, sizes, 2, nullptr,
                    nullptr, 0, nullptr, err, sizeof(err));
    EXPECT_NE(rc, KDA2RT_OK);
    Driver d;
    if (!Driver::load(d).ok()) {
      EXPECT_EQ(rc, KDA2RT_ERROR_NO_DRIVER);
      EXPECT_CONTAINS(err, "libcuda");
    }
    kda2rt_kernel k = reinterpret_cast<kda2rt_kernel>(1);
    EXPECT_NE(kda2rt_bundle_select(bundle, 0, "decode", 1, &k, err,
                                   sizeof(err)),
              KDA2RT_OK);
    EXPECT_EQ(k, nullptr);
  }

  kda2rt_call_stats stats;
  ASSERT_EQ(kda2rt_bundle_stats(bundle, "decode", &stats, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(stats.calls, 0);
  int count = -1;
  ASSERT_EQ(kda2rt_bundle_read_counters(bundle, "decode", nullptr, nullptr, 0,
                                        &count, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(kda2rt_bundle_stats(bundle, "x", &stats, err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);

  // A second library with the same bundle name is refused at registration.
  std::string so2 = dir.file("libfake2.so");
  ASSERT_EQ(link("-o " + so2 + " --manifest " + manifest).status, 0);
  void *lib2 = dlopen(so2.c_str(), RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(lib2, nullptr) << dlerror();
  auto handle2 = reinterpret_cast<HandleFn>(dlsym(lib2, "kda2_bundle_handle"));
  auto info2 = reinterpret_cast<InfoFn>(dlsym(lib2, "kda2_bundle_info"));
  ASSERT_TRUE(handle2 && info2);
  kda2rt_bundle none = reinterpret_cast<kda2rt_bundle>(1);
  EXPECT_EQ(handle2(&none, err, sizeof(err)), KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(none, nullptr);
  EXPECT_CONTAINS(err, "a bundle named 'fake_decode' is already registered");
  EXPECT_CONTAINS(info2(), "already registered");
  EXPECT_EQ(dlclose(lib2), 0);

  int before = kda2rt_bundle_count();
  EXPECT_EQ(dlclose(lib), 0);
  EXPECT_EQ(kda2rt_bundle_count(), before - 1);
  EXPECT_EQ(kda2rt_bundle_find("fake_decode", &bundle, err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);
  EXPECT_CONTAINS(err, "no bundle named 'fake_decode' is registered");
}

TEST(Bundle, PositionalCubinsAndSource) {
  TempDir dir;
  ASSERT_TRUE(dir.valid());
  std::string a = dir.write("dec.sm_90a.cubin", fakeCubin({"dec", "dec__t_1"}));
  std::string b = dir.write("pre.sm_80.cubin", fakeCubin({"pre"}));
  // Variant copies (here none declared by `variant` lines) would be skipped;
  // every kda2 kernel becomes a generic op of its name.
  std::string src = dir.file("bundle.c");
  Output r = link("-o " + dir.file("libpos.so") + " --emit-source " + src + " " +
               a + " " + b);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_CONTAINS(r.output, "bundle 'pos': 2 image(s)");
  EXPECT_CONTAINS(r.output, "3 table entries");
  std::ifstream in(src);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_CONTAINS(text, "{\"dec__t_1\", \"t\", \"sm_90a\", \"dec__t_1\"");
  EXPECT_CONTAINS(text, "__attribute__((constructor))");
  r = link("-o " + dir.file("libx.so") + " --chip sm_86 --name other " + a);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_CONTAINS(r.output, "bundle 'other': 1 image(s)");
}

TEST(Bundle, LinkRejectsBadInputs) {
  TempDir dir;
  ASSERT_TRUE(dir.valid());
  writeFakeBundleInputs(dir, "bad");
  std::string out = " -o " + dir.file("libbad.so");
  int manifests = 0;
  auto manifest = [&](const std::string &body) {
    return " --manifest " +
           dir.write("m" + std::to_string(manifests++) + ".manifest",
                     "kda2-bundle-v1\nname b\n" + body);
  };
  struct Case {
    std::string args, message;
  } cases[] = {
      {"", "no input: give cubins or --manifest"},
      {" " + dir.file("missing.sm_90a.cubin"),
       "cannot read cubin '" + dir.file("missing.sm_90a.cubin") + "'"},
      {" --manifest " + dir.file("missing.manifest"),
       "cannot read manifest '" + dir.file("missing.manifest") + "'"},
      {" " + dir.write("x.cubin", fakeCubin({"x"})),
       "cannot tell the chip of"},
      {" " + dir.write("empty.sm_90a.cubin", ""), "is empty"},
      {" " + dir.write("none.sm_90a.cubin", "no kernels here"),
       "no kda2 kernel (no __kda2_meta_ symbol)"},
      {manifest("kernel decode sm_90a 1 dec_t1.sm_90a.cubin dec_t1\n"
                "kernel decode sm_90a 1..4 dec.sm_90a.cubin dec\nend\n"),
       ".manifest:4: duplicate specialisation of op 'decode' on sm_90a: "
       "lengths 1..4 ('dec') overlap 1..1 ('dec_t1')"},
      {manifest("kernel decode sm_90a generic dec.sm_90a.cubin dec\n"
                "kernel decode sm_90a generic dec.sm_90a.cubin dec__t_1\n"
                "end\n"),
       "duplicate generic kernel for op 'decode' on sm_90a"},
      {manifest("kernel decode sm_90a 1 dec.sm_90a.cubin nope\nend\n"),
       ".manifest:3: kernel 'nope' is not in '" + dir.file("dec.sm_90a.cubin") +
           "'; available: dec, dec__t_1"},
      {manifest("dim decode T\nkernel decode sm_90a 1 dec.sm_90a.cubin dec\n"
                "kernel decode sm_90a generic dec.sm_90a.cubin dec\nend\n"),
       "kernel 'dec' has no dimension 'T' to dispatch on; its dimensions: n, "
       "t"},
      {manifest("kernel decode sm_90a 9..2 dec.sm_90a.cubin dec\nend\n"),
       "bad length range 9..2"},
      {manifest("kernel decode sm_90a x dec.sm_90a.cubin dec\nend\n"),
       "bad length range 'x'"},
      {manifest("kernel decode sm_9z 1 dec.sm_90a.cubin dec\nend\n"),
       "bad chip 'sm_9z'"},
      {manifest("kernel decode sm_90a 1 dec.sm_90a.cubin dec\n"),
       "missing 'end'"},
      {manifest("kernel decode sm_90a 1\nend\n"),
       ".manifest:3: unknown or malformed line 'kernel decode sm_90a 1'"},
      {manifest("end\n"), "no 'kernel' lines"},
      {" --manifest " + dir.write("v.manifest", "kda2-bundle-v2\nend\n"),
       "expected 'kda2-bundle-v1' as the first line"},
      {" --cc=/no/such/cc " + dir.file("dec.sm_90a.cubin"),
       "host C compiler '/no/such/cc' not found"},
      {" --kda2rt-lib=" + dir.file("nolib") + " " +
           dir.file("dec.sm_90a.cubin"),
       "failed"},
  };
  for (const Case &c : cases) {
    Output r = link(out + c.args);
    EXPECT_EQ(r.status, 1) << c.args << "\n" << r.output;
    EXPECT_CONTAINS(r.output, "kda2-link: error: ");
    EXPECT_CONTAINS(r.output, c.message);
    EXPECT_EQ(r.output.find("Stack dump"), std::string::npos) << r.output;
  }
}

TEST(BundleCApi, RegistryRejectsBadDescriptors) {
  static const char image[] = "not a cubin";
  kda2rt_bundle_image images[] = {{"img", "sm_90a", image, sizeof(image)}};
  kda2rt_bundle_entry entries[] = {
      {"op", "t", "sm_90a", "k1", 1, 8, 0, 0},
      {"op", "t", "sm_90a", "k", 0, 0, 1, 0},
  };
  kda2rt_bundle_desc desc = {KDA2RT_BUNDLE_ABI_VERSION, "capi_test", 1, images,
                             2, entries};
  char err[512];
  kda2rt_bundle b = nullptr;
  EXPECT_EQ(kda2rt_bundle_register(nullptr, &b, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "kda2rt_bundle_register: desc is NULL");
  EXPECT_EQ(kda2rt_bundle_register(&desc, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "out is NULL");

  kda2rt_bundle_desc bad = desc;
  bad.abi_version = 99;
  EXPECT_EQ(kda2rt_bundle_register(&bad, &b, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "bundle descriptor ABI version 99, this libkda2rt "
                       "reads 1");
  bad = desc;
  bad.name = "";
  EXPECT_EQ(kda2rt_bundle_register(&bad, &b, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "the name is empty");
  kda2rt_bundle_entry outOfRange[] = {{"op", "t", "sm_90a", "k", 0, 0, 1, 3}};
  bad = desc;
  bad.entries = outOfRange;
  bad.num_entries = 1;
  EXPECT_EQ(kda2rt_bundle_register(&bad, &b, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "entry 0 names image 3 of 1");
  kda2rt_bundle_entry dup[] = {{"op", "t", "sm_90a", "a", 1, 8, 0, 0},
                               {"op", "t", "sm_90a", "b", 8, 9, 0, 0}};
  bad.entries = dup;
  bad.num_entries = 2;
  EXPECT_EQ(kda2rt_bundle_register(&bad, &b, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "bundle 'capi_test': duplicate specialisation");
  kda2rt_bundle_entry nullOp[] = {{nullptr, "t", "sm_90a", "a", 1, 8, 0, 0}};
  bad.entries = nullOp;
  bad.num_entries = 1;
  EXPECT_EQ(kda2rt_bundle_register(&bad, &b, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "the op name is empty");
  EXPECT_EQ(b, nullptr);

  ASSERT_EQ(kda2rt_bundle_register(&desc, &b, err, sizeof(err)), KDA2RT_OK)
      << err;
  EXPECT_EQ(kda2rt_bundle_count() >= 1, true);
  bool listed = false;
  for (int i = 0; i < kda2rt_bundle_count(); ++i)
    listed |= std::string(kda2rt_bundle_name_at(i)) == "capi_test";
  EXPECT_TRUE(listed);
  EXPECT_EQ(kda2rt_bundle_name_at(-1), nullptr);
  EXPECT_CONTAINS(kda2rt_bundle_describe(b), "op sm_90a t=1..8 k1 image 0");

  // Null arguments are named.
  kda2rt_kernel k = nullptr;
  EXPECT_EQ(kda2rt_bundle_select(b, 0, nullptr, 1, &k, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "kda2rt_bundle_select: op is NULL");
  EXPECT_EQ(kda2rt_bundle_kda_decode(b, 0, "op", nullptr, nullptr, err,
                                     sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "kda2rt_bundle_kda_decode: args is NULL");
  kda2rt_kda_decode_args args = {};
  EXPECT_EQ(kda2rt_bundle_decode_step(b, 0, "op", nullptr, nullptr, 0, &args,
                                      nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "kda2rt_bundle_decode_step: pool is NULL");
  EXPECT_EQ(kda2rt_bundle_set_profiling(nullptr, 1, 1, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda2rt_bundle_read_counters(b, "op", nullptr, nullptr, 0, nullptr,
                                        err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "count is NULL");
  ASSERT_EQ(kda2rt_bundle_set_profiling(b, 1, 1, err, sizeof(err)), KDA2RT_OK);
  ASSERT_EQ(kda2rt_bundle_reset_stats(b, err, sizeof(err)), KDA2RT_OK);
  const char *kernel = nullptr;
  EXPECT_EQ(kda2rt_bundle_query(b, "op", 9, 0, 9, &kernel, nullptr, err,
                                sizeof(err)),
            KDA2RT_OK);
  EXPECT_STREQ(kernel, "k");
  if (!gpuPresent()) {
    kda2rt_kda_decode_args a = {};
    a.t = 1;
    EXPECT_NE(kda2rt_bundle_kda_decode(b, 0, "op", &a, nullptr, err,
                                       sizeof(err)),
              KDA2RT_OK);
  }

  EXPECT_EQ(kda2rt_bundle_unregister(b, err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_bundle_unregister(nullptr, err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_bundle_find("capi_test", &b, err, sizeof(err)),
            KDA2RT_ERROR_NOT_FOUND);
}

namespace {
/// Directory of real cubins from scripts/build-kernels.sh, or "".
std::string kernelsDir() {
  const char *env = std::getenv("KDA2_KERNELS");
  std::string dir = env && *env ? env : KDA2_DEFAULT_KERNELS;
  std::error_code ec;
  return fs::exists(fs::path(dir) / "kda_decode_vsplit_k128_vb32_l4.sm_90a.cubin",
                    ec)
             ? dir
             : "";
}
} // namespace

TEST(Bundle, RealDecodeCubins) {
  std::string kernels = kernelsDir();
  if (kernels.empty())
    GTEST_SKIP() << "no cubins from scripts/build-kernels.sh (set "
                    "KDA2_KERNELS)";
  TempDir dir;
  ASSERT_TRUE(dir.valid());
  std::string k = kernels + "/kda_decode_vsplit_k128_vb32_l4";
  std::string manifest = dir.write(
      "decode.manifest",
      "kda2-bundle-v1\nname real_decode\ndim kda_decode t\n"
      "kernel kda_decode sm_90a 1 " + k + ".sm_90a.cubin kda_decode_vsplit__t_1\n"
      "kernel kda_decode sm_90a generic " + k + ".sm_90a.cubin kda_decode_vsplit\n"
      "kernel kda_decode sm_80 generic " + k + ".sm_80.cubin kda_decode_vsplit\n"
      "end\n");
  std::string so = dir.file("libreal.so");
  Output r = link("-o " + so + " --manifest " + manifest);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_CONTAINS(r.output, "bundle 'real_decode': 2 image(s)");
  std::cout << r.output;
  void *lib = dlopen(so.c_str(), RTLD_NOW | RTLD_GLOBAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  kda2rt_bundle bundle = nullptr;
  char err[1024];
  ASSERT_EQ(kda2rt_bundle_find("real_decode", &bundle, err, sizeof(err)),
            KDA2RT_OK)
      << err;
  const char *kernel = nullptr;
  ASSERT_EQ(kda2rt_bundle_query(bundle, "kda_decode", 9, 0, 1, &kernel,
                                nullptr, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_STREQ(kernel, "kda_decode_vsplit__t_1");
  ASSERT_EQ(kda2rt_bundle_query(bundle, "kda_decode", 9, 0, 4, &kernel,
                                nullptr, err, sizeof(err)),
            KDA2RT_OK);
  EXPECT_STREQ(kernel, "kda_decode_vsplit");

  if (gpuPresent()) {
    // 64 sequences, one decode launch per step, states resident on the GPU.
    const int64_t n = 64, h = 2, d = 128;
    kda2rt_state_pool pool = nullptr;
    ASSERT_EQ(kda2rt_state_pool_create(0, h, d, d, nullptr, 64 << 20, 0, &pool,
                                       err, sizeof(err)),
              KDA2RT_OK)
        << err;
    std::vector<int64_t> ids(n);
    for (int64_t i = 0; i < n; ++i)
      ids[i] = 100 + i;
    void *h0 = nullptr, *ht = nullptr;
    ASSERT_EQ(kda2rt_state_create(pool, ids.data(), n, &h0, &ht, err,
                                  sizeof(err)),
              KDA2RT_OK)
        << err;
    size_t tokens = n * h * d;
    std::vector<void *> bufs;
    auto alloc = [&](size_t bytes) {
      void *p = nullptr;
      EXPECT_EQ(kda2rt_mem_alloc(0, bytes, &p, err, sizeof(err)), KDA2RT_OK);
      std::vector<char> zeros(bytes, 0);
      EXPECT_EQ(kda2rt_memcpy_htod(0, p, zeros.data(), bytes, err,
                                   sizeof(err)),
                KDA2RT_OK);
      bufs.push_back(p);
      return p;
    };
    kda2rt_kda_decode_args a = {};
    a.q = alloc(tokens * 2);
    a.k = alloc(tokens * 2);
    a.v = alloc(tokens * 2);
    a.g = alloc(tokens * 4);
    a.beta = alloc(n * h * 4);
    a.o = alloc(tokens * 2);
    a.n = n;
    a.t = 1;
    a.h = h;
    a.k_dim = d;
    a.v_dim = d;
    a.state_layout = "kv";
    ASSERT_EQ(kda2rt_bundle_set_profiling(bundle, 1, 1, err, sizeof(err)),
              KDA2RT_OK);
    for (int step = 0; step < 3; ++step)
      ASSERT_EQ(kda2rt_bundle_decode_step(bundle, 0, "kda_decode", pool,
                                          ids.data(), n, &a, nullptr, err,
                                          sizeof(err)),
                KDA2RT_OK)
          << err;
    kda2rt_call_stats stats;
    ASSERT_EQ(kda2rt_bundle_stats(bundle, "kda_decode", &stats, err,
                                  sizeof(err)),
              KDA2RT_OK)
        << err;
    EXPECT_EQ(stats.calls, 3);
    EXPECT_EQ(stats.timed_calls, 3);
    EXPECT_GT(stats.gpu_ms_total, 0.0);
    void *h0Now = nullptr;
    ASSERT_EQ(kda2rt_state_lookup(pool, ids.data(), n, &h0Now, nullptr, err,
                                  sizeof(err)),
              KDA2RT_OK);
    EXPECT_EQ(h0Now, ht); // three steps: read and write swapped
    for (void *p : bufs)
      EXPECT_EQ(kda2rt_mem_free(0, p, err, sizeof(err)), KDA2RT_OK);
    EXPECT_EQ(kda2rt_state_pool_destroy(pool, err, sizeof(err)), KDA2RT_OK);
  }
  EXPECT_EQ(dlclose(lib), 0);
}
