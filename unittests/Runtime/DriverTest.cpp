//===- DriverTest.cpp - driver loading, Status and the C ABI (no GPU) -----===//
//
// These tests pass both without a CUDA driver (asserting the clean failure)
// and with one (asserting success).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/CudaDriver.h"
#include "kda2/Runtime/Module.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace kda2::runtime;

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

namespace {
bool driverPresent() {
  Driver d;
  return Driver::load(d).ok();
}
} // namespace

TEST(Status, DefaultIsOkAndPrependAddsContext) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), ErrorCode::Ok);
  ok.prepend("ignored");
  EXPECT_TRUE(ok.message().empty());

  Status s = Status::error(ErrorCode::Io, "disk on fire");
  EXPECT_FALSE(s.ok());
  s.prepend("loading 'x'");
  EXPECT_EQ(s.message(), "loading 'x': disk on fire");
  EXPECT_EQ(s.code(), ErrorCode::Io);
  // An "error" with code Ok is still an error.
  EXPECT_FALSE(Status::error(ErrorCode::Ok, "x").ok());
}

TEST(Driver, LoadFailsCleanlyOrSucceeds) {
  Driver d;
  Status s = Driver::load(d);
  if (s.ok()) {
    EXPECT_TRUE(d.loaded());
    EXPECT_EQ(d.library(), Driver::defaultLibrary());
    EXPECT_NE(d.api().cuInit, nullptr);
    EXPECT_NE(d.api().cuLaunchKernel, nullptr);
    EXPECT_NE(d.api().cuModuleGetGlobal, nullptr);
    EXPECT_NE(d.api().cuDevicePrimaryCtxRelease, nullptr);
    return;
  }
  EXPECT_EQ(s.code(), ErrorCode::NoDriver);
  EXPECT_FALSE(d.loaded());
  EXPECT_CONTAINS(s.message(), std::string("cannot load the CUDA driver "
                                           "library '") +
                                   Driver::defaultLibrary() + "'");
  if (!std::getenv("KDA2RT_LIBCUDA")) {
    EXPECT_CONTAINS(s.message(), "libcuda.so.1");
  }
}

TEST(Driver, GetMatchesLoad) {
  const Driver *d = nullptr;
  Status s = Driver::get(d);
  if (driverPresent()) {
    // cuInit may still fail (e.g. no device): then the error is a CUDA one.
    if (s.ok())
      EXPECT_NE(d, nullptr);
    else
      EXPECT_EQ(s.code(), ErrorCode::Cuda) << s.message();
  } else {
    EXPECT_EQ(s.code(), ErrorCode::NoDriver);
    EXPECT_EQ(d, nullptr);
    // The failure is remembered.
    Status again = Driver::get(d);
    EXPECT_EQ(again.message(), s.message());
  }
}

TEST(Driver, MissingLibraryIsNamed) {
  Driver d;
  Status s = Driver::load(d, "libkda2rt-no-such-driver.so.1");
  EXPECT_EQ(s.code(), ErrorCode::NoDriver);
  EXPECT_CONTAINS(s.message(), "cannot load the CUDA driver library "
                               "'libkda2rt-no-such-driver.so.1'");
  EXPECT_FALSE(d.loaded());
}

TEST(Driver, MissingSymbolIsNamed) {
  Driver d;
  Status s = Driver::load(d, "libc.so.6"); // loads, but is no CUDA driver
  EXPECT_EQ(s.code(), ErrorCode::NoDriver);
  EXPECT_CONTAINS(s.message(), "the CUDA driver library 'libc.so.6' lacks the "
                               "symbol 'cuInit'");
  EXPECT_FALSE(d.loaded());
}

TEST(Driver, CheckWithoutDriverNamesTheCode) {
  Driver d; // not loaded: no cuGetErrorName
  EXPECT_TRUE(d.check(0, "cuFoo").ok());
  Status s = d.check(700, "cuFoo");
  EXPECT_EQ(s.code(), ErrorCode::Cuda);
  EXPECT_EQ(s.message(), "cuFoo failed: CUresult 700");
}

TEST(Driver, CheckUsesDriverErrorNames) {
  Driver d;
  if (!Driver::load(d).ok())
    GTEST_SKIP() << "no CUDA driver on this machine";
  Status s = d.check(200, "cuModuleLoadData"); // CUDA_ERROR_INVALID_IMAGE
  EXPECT_EQ(s.code(), ErrorCode::Cuda);
  EXPECT_EQ(s.message(), "cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE "
                         "(device kernel image is invalid)");
  EXPECT_EQ(d.errorName(500), "CUDA_ERROR_NOT_FOUND");
}

//===----------------------------------------------------------------------===//
// C ABI without a GPU
//===----------------------------------------------------------------------===//

TEST(CApi, VersionAndErrorNames) {
  EXPECT_CONTAINS(kda2rt_version(), "kda2-kernel-v1");
  EXPECT_STREQ(kda2rt_error_name(KDA2RT_OK), "KDA2RT_OK");
  EXPECT_STREQ(kda2rt_error_name(KDA2RT_ERROR_NO_DRIVER),
               "KDA2RT_ERROR_NO_DRIVER");
  EXPECT_STREQ(kda2rt_error_name(KDA2RT_ERROR_LAUNCH_CONFIG),
               "KDA2RT_ERROR_LAUNCH_CONFIG");
  EXPECT_STREQ(kda2rt_error_name(99), "KDA2RT_ERROR_UNKNOWN");
  // The C++ codes are the C codes.
  EXPECT_EQ(static_cast<int>(ErrorCode::Cuda), KDA2RT_ERROR_CUDA);
  EXPECT_EQ(static_cast<int>(ErrorCode::Metadata), KDA2RT_ERROR_METADATA);
}

TEST(CApi, MetadataCheck) {
  char name[64] = "x";
  char err[256] = "stale";
  int rc = kda2rt_metadata_check("kda2-kernel-v1\nname my_kernel\n"
                                 "block 64 1 1\nend\n",
                                 name, sizeof(name), err, sizeof(err));
  EXPECT_EQ(rc, KDA2RT_OK);
  EXPECT_STREQ(name, "my_kernel");
  EXPECT_STREQ(err, "");

  rc = kda2rt_metadata_check("kda2-kernel-v1\nname k\nblk 1 1 1\nend\n", name,
                             sizeof(name), err, sizeof(err));
  EXPECT_EQ(rc, KDA2RT_ERROR_METADATA);
  EXPECT_STREQ(err, "line 3: unknown directive 'blk'");
  EXPECT_STREQ(kda2rt_last_error(), err);

  // Messages are truncated to the buffer, NUL-terminated.
  char small[8];
  rc = kda2rt_metadata_check("nope", nullptr, 0, small, sizeof(small));
  EXPECT_EQ(rc, KDA2RT_ERROR_METADATA);
  EXPECT_EQ(std::strlen(small), 7u);
  EXPECT_EQ(kda2rt_metadata_check(nullptr, nullptr, 0, nullptr, 0),
            KDA2RT_ERROR_INVALID_ARGUMENT);
}

TEST(CApi, NoDriverFailsCleanly) {
  if (driverPresent())
    GTEST_SKIP() << "a CUDA driver is present";
  char err[512];
  int rc = kda2rt_init(0, err, sizeof(err));
  EXPECT_EQ(rc, KDA2RT_ERROR_NO_DRIVER);
  EXPECT_CONTAINS(err, Driver::defaultLibrary());
  EXPECT_STREQ(kda2rt_last_error(), err);

  int count = -1;
  EXPECT_EQ(kda2rt_device_count(&count, err, sizeof(err)),
            KDA2RT_ERROR_NO_DRIVER);
  EXPECT_EQ(count, 0);

  kda2rt_module m = reinterpret_cast<kda2rt_module>(1);
  EXPECT_EQ(kda2rt_module_load_file(0, "x.cubin", &m, err, sizeof(err)),
            KDA2RT_ERROR_NO_DRIVER);
  EXPECT_EQ(m, nullptr);
  void *p = reinterpret_cast<void *>(1);
  EXPECT_EQ(kda2rt_mem_alloc(0, 16, &p, err, sizeof(err)),
            KDA2RT_ERROR_NO_DRIVER);
  EXPECT_EQ(p, nullptr);

  Context ctx;
  Status s = Context::create(0, ctx);
  EXPECT_EQ(s.code(), ErrorCode::NoDriver);
  EXPECT_FALSE(ctx.valid());
}

TEST(CApi, NullHandlesAreRejected) {
  char err[256];
  EXPECT_EQ(kda2rt_launch(nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0,
                          nullptr, nullptr, 0, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(err, "kda2rt_launch: kernel is NULL");
  kda2rt_kernel k = reinterpret_cast<kda2rt_kernel>(1);
  EXPECT_EQ(kda2rt_kernel_get(nullptr, "k", &k, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(k, nullptr);
  EXPECT_EQ(kda2rt_module_unload(nullptr, err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_module_num_kernels(nullptr), 0);
  EXPECT_EQ(kda2rt_module_kernel_name(nullptr, 0), nullptr);
  EXPECT_EQ(kda2rt_kernel_metadata(nullptr), nullptr);
  EXPECT_EQ(kda2rt_kernel_num_counters(nullptr), 0);
  EXPECT_EQ(kda2rt_kernel_counter_name(nullptr, 0), nullptr);
  EXPECT_EQ(kda2rt_kernel_counter_is_float(nullptr, 0), -1);
  int64_t value = 42;
  EXPECT_EQ(kda2rt_kernel_binding(nullptr, "GF", &value),
            -KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(kda2rt_last_error(),
               "kda2rt_kernel_binding: kernel, name or value is NULL");
  EXPECT_EQ(value, 42);
  EXPECT_EQ(kda2rt_read_counters(nullptr, nullptr, nullptr, nullptr, 0, err,
                                 sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda2rt_module_load_data(0, nullptr, 0, nullptr, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda2rt_mem_free(0, nullptr, err, sizeof(err)), KDA2RT_OK);
}
