//===- StateManager.h - device-resident recurrent states --------*- C++ -*-===//
//
// Part of libkda2rt. Keeps each sequence's KDA recurrent state on the device
// across decode calls, keyed by a 64-bit sequence id, within a memory budget,
// so that decode steps never copy a state through the host. The states are
// double-buffered (the decode kernels read h0 and write ht, which must not
// alias): a sequence's `read` buffer is the h0 of its next step, `write` its
// ht; advance() swaps them after the step.
//
// Sequences created together (createBatch) share one contiguous allocation,
// so a batch of n sequences is one decode launch with h0/ht of shape
// [n, H, K, V]. The bookkeeping goes through a DeviceAllocator: the real one
// (makeContextAllocator) uses the CUDA driver; unit tests use a host fake.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_RUNTIME_STATEMANAGER_H
#define KDA2_RUNTIME_STATEMANAGER_H

#include "kda2/Runtime/Module.h"

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace kda2::runtime {

/// Where state buffers come from.
class KDA2RT_API DeviceAllocator {
public:
  virtual ~DeviceAllocator() = default;
  virtual Status allocate(size_t bytes, CUdeviceptr &out) = 0;
  virtual Status free(CUdeviceptr ptr) = 0;
  /// Sets `bytes` bytes at `ptr` to zero.
  virtual Status zero(CUdeviceptr ptr, size_t bytes) = 0;
};

/// Device memory of the context's device (cuMemAlloc / cuMemFree /
/// cuMemsetD8). The context must outlive the allocator. (A factory, so that
/// the class and its vtable stay inside the library, built without RTTI.)
KDA2RT_API std::unique_ptr<DeviceAllocator>
makeContextAllocator(const Context &ctx);

/// Shape of one sequence's state: [heads, kDim, vDim] (K-first) or
/// [heads, vDim, kDim] (V-first), elements of `dtype`.
struct KDA2RT_API StateLayout {
  int64_t heads = 0, kDim = 0, vDim = 0;
  DType dtype = DType::F32;
  bool vFirst = false;
  /// Bytes of one state (0 if a size is not positive).
  size_t bytes() const;
};

struct KDA2RT_API StateManagerOptions {
  StateLayout layout;
  /// Device bytes all states may use together (both buffers counted).
  size_t budgetBytes = 0;
  /// Two buffers per state (h0 and ht of the decode kernels). Without it
  /// read == write: for kernels that update the state in place.
  bool doubleBuffer = true;
  /// When a create would exceed the budget, evict least recently used
  /// allocations (whole batches) until it fits, instead of failing.
  bool evictLru = false;
  /// New states start at zero (else their contents are undefined).
  bool zeroOnCreate = true;
};

/// Device pointers of one sequence, or of a batch of consecutive sequences
/// (then `count` states of `stateBytes` each, in creation order).
struct KDA2RT_API StateView {
  CUdeviceptr read = 0;  // the state now: the decode kernel's h0
  CUdeviceptr write = 0; // where the next state goes: its ht
  size_t stateBytes = 0;
  size_t count = 0;
};

class KDA2RT_API StateManager {
public:
  /// Checks the options (positive layout, a budget that holds one state;
  /// errors name the field). `allocator` must outlive the manager.
  static Status create(DeviceAllocator &allocator,
                       const StateManagerOptions &options,
                       std::unique_ptr<StateManager> &out);
  ~StateManager();
  StateManager(const StateManager &) = delete;
  StateManager &operator=(const StateManager &) = delete;

  /// Creates the state of sequence `id`. Errors: `id` already exists
  /// ("sequence 7 already has a state"), budget exceeded (says how much is
  /// used, needed and allowed), allocation failure.
  Status create(int64_t id, StateView &out);
  /// Creates the states of `n` sequences in one allocation (consecutive, in
  /// the order of `ids`): `out` addresses all of them. Duplicate ids in the
  /// list or existing ids are errors; nothing is created on error.
  Status createBatch(const int64_t *ids, size_t n, StateView &out);
  /// The state of `id` (marks it recently used). Error if unknown.
  Status lookup(int64_t id, StateView &out);
  /// The states of `ids` as one batch: they must have been created together,
  /// be consecutive in creation order and have advanced equally.
  Status lookupBatch(const int64_t *ids, size_t n, StateView &out);
  /// Swaps read and write of each sequence (call after the decode step that
  /// wrote `write` has been enqueued). No-op without double buffering.
  Status advance(const int64_t *ids, size_t n);
  /// Frees the state of `id` (its allocation when it was the last sequence
  /// in it). Error if unknown.
  Status evict(int64_t id);
  /// Evicts the least recently used allocation (all its sequences) and
  /// appends their ids to `evicted`. Error if there is none.
  Status evictLeastRecentlyUsed(std::vector<int64_t> &evicted);
  /// Frees every state.
  Status clear();

  bool contains(int64_t id) const;
  size_t numSequences() const;
  size_t bytesInUse() const;
  size_t budgetBytes() const { return options_.budgetBytes; }
  size_t stateBytes() const { return stateBytes_; }
  const StateManagerOptions &options() const { return options_; }
  /// Ids evicted by the last create/createBatch (evictLru).
  std::vector<int64_t> lastEvicted() const;

private:
  StateManager(DeviceAllocator &allocator, const StateManagerOptions &options);
  struct Block {
    CUdeviceptr base[2] = {0, 0};
    size_t count = 0; // states in the block
    size_t live = 0;  // sequences not evicted yet
    std::vector<int64_t> ids;
    std::list<Block *>::iterator lru;
  };
  struct Entry {
    Block *block = nullptr;
    size_t slot = 0;
    unsigned parity = 0; // which base is `read`
  };
  StateView viewOf(const Entry &e) const;
  size_t buffers() const { return options_.doubleBuffer ? 2 : 1; }
  void touch(Block *block);
  Status freeBlock(Block *block, std::vector<int64_t> *evicted);
  std::string usage() const;

  DeviceAllocator &allocator_;
  StateManagerOptions options_;
  size_t stateBytes_ = 0;
  size_t used_ = 0;
  mutable std::mutex mutex_;
  std::map<int64_t, Entry> entries_;
  std::list<Block *> lru_; // front: most recently used
  std::vector<int64_t> lastEvicted_;
};

} // namespace kda2::runtime

#endif // KDA2_RUNTIME_STATEMANAGER_H
