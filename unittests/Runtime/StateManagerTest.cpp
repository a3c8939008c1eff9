//===- StateManagerTest.cpp - recurrent-state bookkeeping (no GPU) --------===//
//
// StateManager over a host fake of DeviceAllocator (malloc'ed "device"
// memory, a count of live allocations, injectable failures): create, lookup,
// advance, batches, eviction (explicit and LRU), the budget and every error
// message; and that nothing is leaked. The real allocator is exercised by
// the GPU tests (BundleTest).
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/StateManager.h"
#include "kda2/Runtime/kda2rt.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <set>

using namespace kda2::runtime;

#define EXPECT_CONTAINS(haystack, needle)                                      \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)             \
      << "message: " << (haystack) << "\nexpected to contain: " << (needle)

namespace {

/// Host memory standing in for device memory. Test-only.
class HostAllocator final : public DeviceAllocator {
public:
  ~HostAllocator() override {
    for (CUdeviceptr p : live_)
      std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(p)));
  }
  Status allocate(size_t bytes, CUdeviceptr &out) override {
    out = 0;
    if (failNext_) {
      failNext_ = false;
      return Status::error(ErrorCode::Cuda,
                           "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY");
    }
    void *p = std::malloc(bytes);
    std::memset(p, 0xAB, bytes); // "undefined" contents
    out = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
    live_.insert(out);
    return Status::success();
  }
  Status free(CUdeviceptr ptr) override {
    if (!ptr)
      return Status::success();
    if (!live_.erase(ptr))
      return Status::error(ErrorCode::InvalidArgument, "double free");
    std::free(reinterpret_cast<void *>(static_cast<uintptr_t>(ptr)));
    return Status::success();
  }
  Status zero(CUdeviceptr ptr, size_t bytes) override {
    std::memset(reinterpret_cast<void *>(static_cast<uintptr_t>(ptr)), 0,
                bytes);
    return Status::success();
  }
  size_t live() const { return live_.size(); }
  void failNextAllocation() { failNext_ = true; }

private:
  std::set<CUdeviceptr> live_;
  bool failNext_ = false;
};

/// [2, 4, 8] f32 states: 256 bytes each, 512 double-buffered.
StateManagerOptions smallOptions(size_t states) {
  StateManagerOptions o;
  o.layout.heads = 2;
  o.layout.kDim = 4;
  o.layout.vDim = 8;
  o.budgetBytes = states * 512;
  return o;
}

float firstFloat(CUdeviceptr p) {
  float f;
  std::memcpy(&f, reinterpret_cast<void *>(static_cast<uintptr_t>(p)),
              sizeof(f));
  return f;
}

} // namespace

TEST(StateManager, OptionsAreChecked) {
  HostAllocator alloc;
  std::unique_ptr<StateManager> m;
  StateManagerOptions o = smallOptions(1);
  o.layout.kDim = 0;
  Status s = StateManager::create(alloc, o, m);
  EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
  EXPECT_CONTAINS(s.message(), "k_dim=0");
  EXPECT_EQ(m, nullptr);
  o = smallOptions(1);
  o.budgetBytes = 511;
  s = StateManager::create(alloc, o, m);
  EXPECT_CONTAINS(s.message(), "state budget 511 bytes");
  EXPECT_CONTAINS(s.message(), "one needs 512 bytes");
  o.doubleBuffer = false;
  ASSERT_TRUE(StateManager::create(alloc, o, m).ok());
  EXPECT_EQ(m->stateBytes(), 256u);
}

TEST(StateManager, CreateLookupAdvanceEvict) {
  HostAllocator alloc;
  {
    std::unique_ptr<StateManager> m;
    ASSERT_TRUE(StateManager::create(alloc, smallOptions(4), m).ok());
    StateView a;
    ASSERT_TRUE(m->create(7, a).ok());
    EXPECT_NE(a.read, 0u);
    EXPECT_NE(a.write, 0u);
    EXPECT_NE(a.read, a.write);
    EXPECT_EQ(a.stateBytes, 256u);
    EXPECT_EQ(firstFloat(a.read), 0.0f); // zeroed on create
    EXPECT_EQ(m->bytesInUse(), 512u);
    EXPECT_TRUE(m->contains(7));

    StateView b;
    ASSERT_TRUE(m->lookup(7, b).ok());
    EXPECT_EQ(b.read, a.read);
    EXPECT_EQ(b.write, a.write);
    int64_t id = 7;
    ASSERT_TRUE(m->advance(&id, 1).ok());
    ASSERT_TRUE(m->lookup(7, b).ok());
    EXPECT_EQ(b.read, a.write); // last step's ht is the next step's h0
    EXPECT_EQ(b.write, a.read);

    Status s = m->create(7, b);
    EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
    EXPECT_CONTAINS(s.message(), "sequence 7 already has a state");
    s = m->lookup(8, b);
    EXPECT_EQ(s.code(), ErrorCode::NotFound);
    EXPECT_CONTAINS(s.message(), "unknown sequence 8");
    id = 8;
    EXPECT_CONTAINS(m->advance(&id, 1).message(), "unknown sequence 8");
    EXPECT_CONTAINS(m->evict(8).message(), "cannot evict unknown sequence 8");

    ASSERT_TRUE(m->evict(7).ok());
    EXPECT_FALSE(m->contains(7));
    EXPECT_EQ(m->bytesInUse(), 0u);
    EXPECT_EQ(alloc.live(), 0u);
    EXPECT_CONTAINS(m->lookup(7, b).message(), "unknown sequence 7");
    ASSERT_TRUE(m->create(9, b).ok());
    EXPECT_EQ(alloc.live(), 2u);
  }
  EXPECT_EQ(alloc.live(), 0u); // the destructor frees every state
}

TEST(StateManager, BudgetExceeded) {
  HostAllocator alloc;
  std::unique_ptr<StateManager> m;
  ASSERT_TRUE(StateManager::create(alloc, smallOptions(2), m).ok());
  StateView v;
  ASSERT_TRUE(m->create(1, v).ok());
  ASSERT_TRUE(m->create(2, v).ok());
  Status s = m->create(3, v);
  EXPECT_EQ(s.code(), ErrorCode::InvalidArgument);
  EXPECT_CONTAINS(s.message(), "state budget exceeded: 2 state(s) use 1024 "
                               "bytes");
  EXPECT_CONTAINS(s.message(), "budget of 1024 bytes");
  EXPECT_CONTAINS(s.message(), "1 new state(s) need 512 bytes");
  EXPECT_FALSE(m->contains(3));
  int64_t ids[3] = {10, 11, 12};
  s = m->createBatch(ids, 3, v);
  EXPECT_CONTAINS(s.message(), "more than the whole budget");
  EXPECT_EQ(m->numSequences(), 2u);
  EXPECT_EQ(alloc.live(), 4u);
}

TEST(StateManager, LruEvictionIsExplicitOrOptedIn) {
  HostAllocator alloc;
  std::unique_ptr<StateManager> m;
  StateManagerOptions o = smallOptions(2);
  o.evictLru = true;
  ASSERT_TRUE(StateManager::create(alloc, o, m).ok());
  StateView v;
  ASSERT_TRUE(m->create(1, v).ok());
  ASSERT_TRUE(m->create(2, v).ok());
  ASSERT_TRUE(m->lookup(1, v).ok()); // 2 is now least recently used
  ASSERT_TRUE(m->create(3, v).ok());
  EXPECT_EQ(m->lastEvicted(), std::vector<int64_t>{2});
  EXPECT_TRUE(m->contains(1));
  EXPECT_FALSE(m->contains(2));
  std::vector<int64_t> evicted;
  ASSERT_TRUE(m->evictLeastRecentlyUsed(evicted).ok());
  EXPECT_EQ(evicted, std::vector<int64_t>{1});
  ASSERT_TRUE(m->evictLeastRecentlyUsed(evicted).ok());
  EXPECT_EQ(evicted, (std::vector<int64_t>{1, 3}));
  EXPECT_CONTAINS(m->evictLeastRecentlyUsed(evicted).message(),
                  "no state to evict");
  EXPECT_EQ(alloc.live(), 0u);
}

TEST(StateManager, BatchesAreContiguous) {
  HostAllocator alloc;
  std::unique_ptr<StateManager> m;
  ASSERT_TRUE(StateManager::create(alloc, smallOptions(64), m).ok());
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < 64; ++i)
    ids.push_back(1000 + i);
  StateView batch;
  ASSERT_TRUE(m->createBatch(ids.data(), ids.size(), batch).ok());
  EXPECT_EQ(batch.count, 64u);
  EXPECT_EQ(alloc.live(), 2u); // one allocation per buffer
  StateView one;
  ASSERT_TRUE(m->lookup(1005, one).ok());
  EXPECT_EQ(one.read, batch.read + 5 * 256);
  StateView sub;
  ASSERT_TRUE(m->lookupBatch(ids.data() + 8, 8, sub).ok());
  EXPECT_EQ(sub.read, batch.read + 8 * 256);
  EXPECT_EQ(sub.count, 8u);

  int64_t shuffled[2] = {1001, 1000};
  EXPECT_CONTAINS(m->lookupBatch(shuffled, 2, sub).message(),
                  "not consecutive states of one batch");
  ASSERT_TRUE(m->advance(ids.data(), 1).ok());
  Status s = m->lookupBatch(ids.data(), 2, sub);
  EXPECT_CONTAINS(s.message(), "sequence 1001 has advanced differently from "
                               "sequence 1000");
  ASSERT_TRUE(m->advance(ids.data() + 1, 63).ok());
  ASSERT_TRUE(m->lookupBatch(ids.data(), 64, sub).ok());
  EXPECT_EQ(sub.read, batch.write);

  int64_t dup[2] = {5, 5};
  EXPECT_CONTAINS(m->createBatch(dup, 2, sub).message(),
                  "sequence 5 appears twice in the batch");
  int64_t clash[2] = {5, 1003};
  EXPECT_CONTAINS(m->createBatch(clash, 2, sub).message(),
                  "sequence 1003 already has a state");
  EXPECT_FALSE(m->contains(5)); // nothing created on error
  EXPECT_CONTAINS(m->createBatch(nullptr, 2, sub).message(), "ids is NULL");

  // The allocation is freed with its last sequence.
  for (int64_t i = 0; i < 63; ++i)
    ASSERT_TRUE(m->evict(ids[i]).ok());
  EXPECT_EQ(alloc.live(), 2u);
  ASSERT_TRUE(m->evict(ids[63]).ok());
  EXPECT_EQ(alloc.live(), 0u);
  EXPECT_EQ(m->bytesInUse(), 0u);
}

TEST(StateManager, AllocationFailureCreatesNothing) {
  HostAllocator alloc;
  std::unique_ptr<StateManager> m;
  ASSERT_TRUE(StateManager::create(alloc, smallOptions(4), m).ok());
  alloc.failNextAllocation();
  StateView v;
  Status s = m->create(1, v);
  EXPECT_EQ(s.code(), ErrorCode::Cuda);
  EXPECT_CONTAINS(s.message(), "allocating 1 state(s)");
  EXPECT_CONTAINS(s.message(), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_FALSE(m->contains(1));
  EXPECT_EQ(m->bytesInUse(), 0u);
  EXPECT_EQ(alloc.live(), 0u);
}

TEST(StateManager, SingleBufferReadsAndWritesInPlace) {
  HostAllocator alloc;
  std::unique_ptr<StateManager> m;
  StateManagerOptions o = smallOptions(1);
  o.doubleBuffer = false;
  o.zeroOnCreate = false;
  ASSERT_TRUE(StateManager::create(alloc, o, m).ok());
  StateView v;
  ASSERT_TRUE(m->create(1, v).ok());
  EXPECT_EQ(v.read, v.write);
  EXPECT_NE(firstFloat(v.read), 0.0f); // not zeroed
  EXPECT_EQ(m->bytesInUse(), 256u);
  EXPECT_EQ(alloc.live(), 1u);
}

TEST(StateManagerCApi, NullArgumentsAndNoDriver) {
  char err[512];
  kda2rt_state_pool pool = reinterpret_cast<kda2rt_state_pool>(1);
  EXPECT_EQ(kda2rt_state_pool_create(0, 2, 4, 8, nullptr, 1 << 20, 0, nullptr,
                                     err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "kda2rt_state_pool_create: out is NULL");
  EXPECT_EQ(kda2rt_state_pool_create(0, 2, 4, 8, "f8", 1 << 20, 0, &pool, err,
                                     sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "unknown dtype 'f8'");
  EXPECT_EQ(pool, nullptr);
  int64_t id = 1;
  void *h0 = reinterpret_cast<void *>(1);
  EXPECT_EQ(kda2rt_state_create(nullptr, &id, 1, &h0, nullptr, err,
                                sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_CONTAINS(err, "kda2rt_state_create: pool is NULL");
  EXPECT_EQ(h0, nullptr);
  EXPECT_EQ(kda2rt_state_lookup(nullptr, &id, 1, nullptr, nullptr, err,
                                sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda2rt_state_evict(nullptr, 1, err, sizeof(err)),
            KDA2RT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(kda2rt_state_pool_destroy(nullptr, err, sizeof(err)), KDA2RT_OK);
  EXPECT_EQ(kda2rt_state_pool_usage(nullptr, nullptr, nullptr, nullptr),
            KDA2RT_ERROR_INVALID_ARGUMENT);

  int count = -1;
  Status s = Context::deviceCount(count);
  if (s.ok() && count > 0)
    GTEST_SKIP() << "a GPU is present (BundleTest covers the real pool)";
  int rc = kda2rt_state_pool_create(0, 2, 4, 8, nullptr, 1 << 20, 0, &pool,
                                    err, sizeof(err));
  EXPECT_NE(rc, KDA2RT_OK);
  EXPECT_EQ(pool, nullptr);
  if (s.code() == ErrorCode::NoDriver) {
    EXPECT_EQ(rc, KDA2RT_ERROR_NO_DRIVER);
    EXPECT_CONTAINS(err, "libcuda");
  }
}
