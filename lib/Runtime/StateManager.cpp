//===- StateManager.cpp - device-resident recurrent states ----------------===//
//
// Part of libkda2rt (no LLVM/MLIR). The bookkeeping only talks to a
// DeviceAllocator, so it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#include "kda2/Runtime/StateManager.h"

#include <cstdio>
#include <set>

using namespace kda2::runtime;

namespace {
Status invalid(std::string message) {
  return Status::error(ErrorCode::InvalidArgument, std::move(message));
}

std::string seq(int64_t id) { return "sequence " + std::to_string(id); }

Status checkIds(const char *fn, const int64_t *ids, size_t n) {
  if (!ids || n == 0)
    return invalid(std::string(fn) +
                   ": no sequence ids (ids is NULL or n is 0)");
  return Status::success();
}

std::string mib(size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f MiB",
                static_cast<double>(bytes) / (1024.0 * 1024.0));
  return std::to_string(bytes) + " bytes (" + buf + ")";
}
} // namespace

namespace {
class ContextAllocator final : public DeviceAllocator {
public:
  explicit ContextAllocator(const Context &ctx) : ctx_(ctx) {}
  Status allocate(size_t bytes, CUdeviceptr &out) override {
    return ctx_.allocate(bytes, out);
  }
  Status free(CUdeviceptr ptr) override { return ctx_.free(ptr); }
  Status zero(CUdeviceptr ptr, size_t bytes) override {
    return ctx_.zero(ptr, bytes);
  }

private:
  const Context &ctx_;
};
} // namespace

std::unique_ptr<DeviceAllocator>
kda2::runtime::makeContextAllocator(const Context &ctx) {
  return std::make_unique<ContextAllocator>(ctx);
}

size_t StateLayout::bytes() const {
  if (heads <= 0 || kDim <= 0 || vDim <= 0)
    return 0;
  return static_cast<size_t>(heads) * static_cast<size_t>(kDim) *
         static_cast<size_t>(vDim) * dtypeSize(dtype);
}

StateManager::StateManager(DeviceAllocator &allocator,
                           const StateManagerOptions &options)
    : allocator_(allocator), options_(options),
      stateBytes_(options.layout.bytes()) {}

StateManager::~StateManager() { (void)clear(); }

Status StateManager::create(DeviceAllocator &allocator,
                            const StateManagerOptions &options,
                            std::unique_ptr<StateManager> &out) {
  out.reset();
  const StateLayout &l = options.layout;
  if (l.heads <= 0 || l.kDim <= 0 || l.vDim <= 0)
    return invalid("state layout: heads, k_dim and v_dim must be positive, "
                   "got heads=" +
                   std::to_string(l.heads) + ", k_dim=" +
                   std::to_string(l.kDim) + ", v_dim=" +
                   std::to_string(l.vDim));
  size_t perState = l.bytes() * (options.doubleBuffer ? 2 : 1);
  if (options.budgetBytes < perState)
    return invalid("state budget " + mib(options.budgetBytes) +
                   " holds no state: one needs " + mib(perState));
  out.reset(new StateManager(allocator, options));
  return Status::success();
}

std::string StateManager::usage() const {
  return std::to_string(entries_.size()) + " state(s) use " + mib(used_) +
         " of the budget of " + mib(options_.budgetBytes);
}

StateView StateManager::viewOf(const Entry &e) const {
  StateView v;
  size_t offset = e.slot * stateBytes_;
  v.read = e.block->base[e.parity] + offset;
  v.write = e.block->base[options_.doubleBuffer ? 1 - e.parity : e.parity] +
            offset;
  v.stateBytes = stateBytes_;
  v.count = 1;
  return v;
}

void StateManager::touch(Block *block) {
  lru_.splice(lru_.begin(), lru_, block->lru);
}

Status StateManager::freeBlock(Block *block, std::vector<int64_t> *evicted) {
  for (int64_t id : block->ids) {
    auto it = entries_.find(id);
    if (it != entries_.end() && it->second.block == block) {
      if (evicted)
        evicted->push_back(id);
      entries_.erase(it);
    }
  }
  Status s = allocator_.free(block->base[0]);
  if (options_.doubleBuffer) {
    Status s2 = allocator_.free(block->base[1]);
    if (s.ok())
      s = s2;
  }
  used_ -= block->count * stateBytes_ * buffers();
  lru_.erase(block->lru);
  delete block;
  return s;
}

Status StateManager::create(int64_t id, StateView &out) {
  return createBatch(&id, 1, out);
}

Status StateManager::createBatch(const int64_t *ids, size_t n,
                                 StateView &out) {
  out = StateView();
  KDA2RT_TRY(checkIds("createBatch", ids, n));
  std::lock_guard<std::mutex> lock(mutex_);
  lastEvicted_.clear();
  std::set<int64_t> seen;
  for (size_t i = 0; i < n; ++i) {
    if (!seen.insert(ids[i]).second)
      return invalid(seq(ids[i]) + " appears twice in the batch");
    if (entries_.count(ids[i]))
      return invalid(seq(ids[i]) + " already has a state (evict it first)");
  }
  const size_t buffers = this->buffers();
  if (n > options_.budgetBytes / (stateBytes_ * buffers))
    return Status::error(ErrorCode::InvalidArgument,
                         "state budget exceeded: " + std::to_string(n) +
                             " new state(s) need " +
                             mib(n * stateBytes_ * buffers) +
                             ", more than the whole budget of " +
                             mib(options_.budgetBytes));
  size_t need = n * stateBytes_ * buffers;
  while (used_ + need > options_.budgetBytes) {
    if (!options_.evictLru || lru_.empty())
      return Status::error(ErrorCode::InvalidArgument,
                           "state budget exceeded: " + usage() + "; " +
                               std::to_string(n) + " new state(s) need " +
                               mib(need) +
                               " more (evict sequences, enable LRU eviction "
                               "or raise the budget)");
    KDA2RT_TRY(freeBlock(lru_.back(), &lastEvicted_));
  }
  auto block = std::make_unique<Block>();
  block->count = n;
  block->live = n;
  block->ids.assign(ids, ids + n);
  for (size_t b = 0; b < buffers; ++b) {
    Status s = allocator_.allocate(n * stateBytes_, block->base[b]);
    if (s.ok() && options_.zeroOnCreate)
      s = allocator_.zero(block->base[b], n * stateBytes_);
    if (!s.ok()) {
      for (size_t f = 0; f <= b; ++f)
        (void)allocator_.free(block->base[f]);
      return s.prepend("allocating " + std::to_string(n) + " state(s) of " +
                       mib(stateBytes_));
    }
  }
  Block *raw = block.release();
  lru_.push_front(raw);
  raw->lru = lru_.begin();
  used_ += need;
  for (size_t i = 0; i < n; ++i)
    entries_[ids[i]] = Entry{raw, i, 0};
  out = viewOf(entries_[ids[0]]);
  out.count = n;
  return Status::success();
}

Status StateManager::lookup(int64_t id, StateView &out) {
  return lookupBatch(&id, 1, out);
}

Status StateManager::lookupBatch(const int64_t *ids, size_t n,
                                 StateView &out) {
  out = StateView();
  KDA2RT_TRY(checkIds("lookup", ids, n));
  std::lock_guard<std::mutex> lock(mutex_);
  const Entry *first = nullptr;
  for (size_t i = 0; i < n; ++i) {
    auto it = entries_.find(ids[i]);
    if (it == entries_.end())
      return Status::error(ErrorCode::NotFound,
                           "unknown " + seq(ids[i]) +
                               " (never created, or evicted)");
    const Entry &e = it->second;
    if (!first) {
      first = &e;
      continue;
    }
    if (e.block != first->block || e.slot != first->slot + i)
      return invalid("sequences " + std::to_string(ids[0]) + " and " +
                     std::to_string(ids[i]) +
                     " are not consecutive states of one batch; create "
                     "them together with createBatch, in this order");
    if (e.parity != first->parity)
      return invalid(seq(ids[i]) + " has advanced differently from " +
                     seq(ids[0]) + "; they cannot be one batch");
  }
  touch(first->block);
  out = viewOf(*first);
  out.count = n;
  return Status::success();
}

Status StateManager::advance(const int64_t *ids, size_t n) {
  KDA2RT_TRY(checkIds("advance", ids, n));
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < n; ++i)
    if (!entries_.count(ids[i]))
      return Status::error(ErrorCode::NotFound, "unknown " + seq(ids[i]) +
                                                    " (never created, or "
                                                    "evicted)");
  if (options_.doubleBuffer)
    for (size_t i = 0; i < n; ++i)
      entries_[ids[i]].parity ^= 1u;
  return Status::success();
}

Status StateManager::evict(int64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(id);
  if (it == entries_.end())
    return Status::error(ErrorCode::NotFound,
                         "cannot evict unknown " + seq(id));
  Block *block = it->second.block;
  entries_.erase(it);
  if (--block->live == 0)
    return freeBlock(block, nullptr);
  return Status::success();
}

Status StateManager::evictLeastRecentlyUsed(std::vector<int64_t> &evicted) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lru_.empty())
    return Status::error(ErrorCode::NotFound, "no state to evict");
  return freeBlock(lru_.back(), &evicted);
}

Status StateManager::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  Status result;
  while (!lru_.empty()) {
    Status s = freeBlock(lru_.back(), nullptr);
    if (result.ok())
      result = s;
  }
  return result;
}

bool StateManager::contains(int64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.count(id) != 0;
}

size_t StateManager::numSequences() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t StateManager::bytesInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return used_;
}

std::vector<int64_t> StateManager::lastEvicted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lastEvicted_;
}
