//===- KDA2Numerics.cpp - range analysis of kernel values -------*- C++ -*-===//
//
// The numerics check of kda2.kernel: an interval abstract interpretation of
// the kernel body from the value ranges its arguments declare
// (`kda2.range`, `GMEM {range=[lo, hi]}` in .tirx), reporting every `exp`
// and `exp2` whose argument can exceed what its element type holds.
//
// The point is the gate of KDA: chunked schedules scale keys by e^(-G),
// with G the decay accumulated over a chunk, which fits fp32 only when the
// chunk is short enough for the gate's bound (C · |lower_bound| <= 88.7
// nats). A schedule that relies on a bound the declared gate does not
// guarantee is an error naming the range it came from.
//
// Values computed from an argument without a declared range are "unknown"
// and never reported (the analysis knows nothing about them); a declared
// range is the caller's promise. What an op bounds whatever its input is
// known again: exp, softplus and sigmoid (>= 0, [0, 1]), and the constant
// side of min/max (min(x, 0) <= 0), so a gate computed in the kernel from
// raw activations (-exp(A_log)·softplus(a + dt_bias) <= 0, unbounded below)
// is judged. Memory (SMEM and REG buffers) holds the
// join of everything stored into it; a REG tile whose elements are only
// accessed at constant indices is tracked per element with strong updates
// (an accumulator reset to 0 each iteration). Loops with a constant trip
// count run that many times (up to a limit) or to a fixpoint; others run
// to a fixpoint, widened to infinity after a few rounds.
//
//===----------------------------------------------------------------------===//

#include "kda2/Dialect/KDA2/IR/KDA2.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Format.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::kda2;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

/// [lo, hi]; `known` is false when the value depends on an argument without
/// a declared range.
struct Interval {
  double lo = -kInf, hi = kInf;
  bool known = false;

  static Interval of(double lo, double hi, bool known = true) {
    Interval r;
    r.lo = std::isnan(lo) ? -kInf : lo;
    r.hi = std::isnan(hi) ? kInf : hi;
    r.known = known;
    return r;
  }
  bool operator==(const Interval &o) const {
    return lo == o.lo && hi == o.hi && known == o.known;
  }
  bool operator!=(const Interval &o) const { return !(*this == o); }
};

using MaybeInterval = std::optional<Interval>; // nullopt: no value yet

MaybeInterval join(MaybeInterval a, MaybeInterval b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return Interval::of(std::min(a->lo, b->lo), std::max(a->hi, b->hi),
                      a->known && b->known);
}

/// The product bound of two ends, with 0 · inf = 0 (a zero factor bounds).
double mulEnd(double a, double b) {
  if (a == 0 || b == 0)
    return 0;
  return a * b;
}

Interval mul(const Interval &a, const Interval &b) {
  double p[] = {mulEnd(a.lo, b.lo), mulEnd(a.lo, b.hi), mulEnd(a.hi, b.lo),
                mulEnd(a.hi, b.hi)};
  return Interval::of(*std::min_element(p, p + 4), *std::max_element(p, p + 4),
                      a.known && b.known);
}

/// A number for a message, four significant digits.
std::string fmt(double x) {
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.4g", x);
  return s;
}

/// Largest finite value of a float type, as a natural log (exp's limit).
double expLimit(Type type) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!f)
    return kInf;
  return std::log(APFloat::getLargest(f.getFloatSemantics()).convertToDouble());
}

/// Size of the dimension a reduction or a product runs over (inf when
/// dynamic).
double extent(Type type, int64_t dim) {
  auto tile = dyn_cast<RankedTensorType>(type);
  if (!tile || dim < 0 || dim >= tile.getRank() || tile.isDynamicDim(dim))
    return kInf;
  return static_cast<double>(tile.getDimSize(dim));
}

/// The value of an integer computed from constants by kda2 arithmetic
/// (`C / 2` of a bound C), or nullopt.
std::optional<int64_t> foldInteger(Value v, int depth = 0) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  Operation *def = v.getDefiningOp();
  if (!def || depth > 16)
    return std::nullopt;
  if (isa<CastOp>(def))
    return foldInteger(def->getOperand(0), depth + 1);
  if (def->getNumOperands() != 2 ||
      !isa<AddOp, SubOp, MulOp, DivOp, RemOp, MinOp, MaxOp>(def))
    return std::nullopt;
  std::optional<int64_t> a = foldInteger(def->getOperand(0), depth + 1);
  std::optional<int64_t> b = foldInteger(def->getOperand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case<AddOp>([&](auto) { return *a + *b; })
      .Case<SubOp>([&](auto) { return *a - *b; })
      .Case<MulOp>([&](auto) { return *a * *b; })
      .Case<DivOp>([&](auto) {
        return *b ? std::optional<int64_t>(*a / *b) : std::nullopt;
      })
      .Case<RemOp>([&](auto) {
        return *b ? std::optional<int64_t>(*a % *b) : std::nullopt;
      })
      .Case<MinOp>([&](auto) { return std::min(*a, *b); })
      .Case<MaxOp>([&](auto) { return std::max(*a, *b); })
      .Default([](Operation *) { return std::nullopt; });
}

class RangeAnalysis {
public:
  explicit RangeAnalysis(KernelOp kernel) : kernel(kernel) {}

  LogicalResult run() {
    // REG tiles whose accesses all use constant indices: per element.
    kernel.walk([&](Operation *op) {
      Value buffer;
      ValueRange indices;
      if (auto load = dyn_cast<LoadOp>(op)) {
        buffer = load.getSource();
        indices = load.getIndices();
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        buffer = store.getDest();
        indices = store.getIndices();
      } else {
        return;
      }
      if (!buffer.getDefiningOp<RegAllocOp>())
        return;
      bool constant = !indices.empty() && llvm::all_of(indices, [](Value v) {
        return foldInteger(v).has_value();
      });
      auto [it, inserted] = perElement.try_emplace(buffer, constant);
      if (!inserted)
        it->second = it->second && constant;
    });
    interpretBlock(kernel.getBody().front());
    // (A location, not the op: printing a kernel with the diagnostic would
    // verify it, and so run this check, again.)
    if (exhausted)
      mlir::emitWarning(kernel.getLoc())
          << "the numerics check stopped after " << kMaxSteps
          << " steps (loops nested too deep or too long); the ranges of its "
             "exp arguments are not verified";
    if (std::getenv("KDA2_NUMERICS_STEPS"))
      llvm::errs() << "numerics steps: " << steps << "\n";
    return failed ? failure() : success();
  }

private:
  using MemoryKey = std::pair<Value, int64_t>; // element, or -1: the buffer
  using Memory = llvm::DenseMap<MemoryKey, Interval>;

  MaybeInterval get(Value v) {
    auto it = values.find(v);
    if (it != values.end())
      return it->second;
    if (auto c = v.getDefiningOp<arith::ConstantOp>()) {
      if (auto f = dyn_cast<FloatAttr>(c.getValue()))
        return Interval::of(f.getValueAsDouble(), f.getValueAsDouble());
      if (auto i = dyn_cast<IntegerAttr>(c.getValue())) {
        double d = i.getType().isInteger(1)
                       ? static_cast<double>(i.getValue().getZExtValue())
                       : static_cast<double>(i.getValue().getSExtValue());
        return Interval::of(d, d);
      }
    }
    // Indices, sizes, grid coordinates: integers of unknown size.
    return Interval::of(-kInf, kInf, /*known=*/false);
  }

  void set(Value v, MaybeInterval r) {
    if (r)
      values[v] = *r;
    else
      values.erase(v);
  }

  std::optional<int64_t> elementKey(Value buffer, ValueRange indices) {
    auto it = perElement.find(buffer);
    if (it == perElement.end() || !it->second)
      return std::nullopt;
    auto type = cast<KDA2TensorType>(buffer.getType());
    int64_t linear = 0;
    for (auto [d, index] : llvm::enumerate(indices)) {
      std::optional<int64_t> value = foldInteger(index);
      if (!value)
        return std::nullopt;
      linear = linear * type.getShape()[d] + *value;
    }
    return linear;
  }

  MaybeInterval load(LoadOp op) {
    Value source = op.getSource();
    if (auto arg = dyn_cast<BlockArgument>(source);
        arg && arg.getOwner()->getParentOp() == kernel) {
      if (auto range = kernel.getArgAttrOfType<DenseF64ArrayAttr>(
              arg.getArgNumber(), KDA2Dialect::getRangeAttrName()))
        return Interval::of(range[0], range[1]);
      // An output read back: what the kernel stored, else unknown.
      if (kernel.getArgIOKind(arg.getArgNumber()) != IOKind::in)
        if (auto it = memory.find({source, -1}); it != memory.end())
          return it->second;
      return Interval::of(-kInf, kInf, /*known=*/false);
    }
    int64_t key = elementKey(source, op.getIndices()).value_or(-1);
    auto it = memory.find({source, key});
    if (it == memory.end())
      return std::nullopt; // nothing stored yet on this path
    return it->second;
  }

  void store(StoreOp op) {
    MaybeInterval value = get(op.getValue());
    if (!value)
      return;
    Value dest = op.getDest();
    if (std::optional<int64_t> key = elementKey(dest, op.getIndices())) {
      memory[{dest, *key}] = *value; // strong: this element, this value
      return;
    }
    MemoryKey key{dest, -1};
    auto it = memory.find(key);
    memory[key] = it == memory.end() ? *value : *join(it->second, *value);
  }

  /// Reports an exp whose argument can leave the result type's range.
  void checkExp(Operation *op, const Interval &arg, double limit,
                StringRef name) {
    if (!arg.known || arg.hi <= limit)
      return;
    if (!reported.insert(op).second)
      return;
    failed = true;
    std::string type;
    llvm::raw_string_ostream(type)
        << getElementTypeOrSelf(op->getResult(0).getType());
    InFlightDiagnostic diag = op->emitOpError();
    diag << name << " can overflow " << type << ": its argument ";
    if (std::isinf(arg.hi))
      diag << "is unbounded above";
    else
      diag << "can reach " << fmt(arg.hi);
    diag << " (at most " << fmt(limit)
         << " fits) under the declared value ranges";
    // Name the declared ranges the argument comes from.
    llvm::SmallPtrSet<Value, 16> seen;
    SmallVector<Value> work = {op->getOperand(0)};
    SmallVector<unsigned> args;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner()->getParentOp() == kernel &&
            kernel.getArgAttr(arg.getArgNumber(),
                              KDA2Dialect::getRangeAttrName()) &&
            !llvm::is_contained(args, arg.getArgNumber()))
          args.push_back(arg.getArgNumber());
        continue;
      }
      Operation *def = v.getDefiningOp();
      for (Value operand : def->getOperands())
        work.push_back(operand);
      // Through memory: what was stored into a buffer this op reads.
      if (auto load = dyn_cast<LoadOp>(def))
        for (Operation *user : load.getSource().getUsers())
          if (auto st = dyn_cast<StoreOp>(user); st && st.getDest() == load.getSource())
            work.push_back(st.getValue());
    }
    for (unsigned i : args) {
      auto range = kernel.getArgAttrOfType<DenseF64ArrayAttr>(
          i, KDA2Dialect::getRangeAttrName());
      diag.attachNote(kernel.getArgument(i).getLoc())
          << "from '" << kernel.getArgName(i) << "', declared in ["
          << fmt(range[0]) << ", " << fmt(range[1]) << "]";
    }
    if (args.empty())
      diag.attachNote()
          << "the bound comes from the kernel's own operations (exp, "
             "softplus, sigmoid, min, max of undeclared inputs): e.g. a gate "
             "computed in the kernel, -exp(A_log)·softplus(x), is <= 0 but "
             "unbounded below";
  }

  void interpretOp(Operation *op) {
    if (exhausted || ++steps > kMaxSteps) {
      exhausted = true;
      return;
    }
    auto unary = [&](auto fn) {
      MaybeInterval a = get(op->getOperand(0));
      set(op->getResult(0), a ? MaybeInterval(fn(*a)) : std::nullopt);
    };
    auto binary = [&](auto fn) {
      MaybeInterval a = get(op->getOperand(0)), b = get(op->getOperand(1));
      set(op->getResult(0), a && b ? MaybeInterval(fn(*a, *b)) : std::nullopt);
    };
    llvm::TypeSwitch<Operation *>(op)
        .Case<LoopOp>([&](LoopOp loop) { interpretLoop(loop); })
        .Case<IfOp>([&](IfOp branch) {
          steps += static_cast<int64_t>(memory.size());
          Memory before = memory;
          interpretBlock(*branch.getThenBlock());
          if (Block *elseBlock = branch.getElseBlock()) {
            Memory afterThen = std::move(memory);
            memory = std::move(before);
            interpretBlock(*elseBlock);
            joinInto(memory, afterThen);
          } else {
            joinInto(memory, before);
          }
        })
        .Case<LoadOp>([&](LoadOp l) { set(l.getResult(), load(l)); })
        .Case<StoreOp>([&](StoreOp s) { store(s); })
        .Case<AddOp>([&](auto) {
          binary([](Interval a, Interval b) {
            return Interval::of(a.lo + b.lo, a.hi + b.hi, a.known && b.known);
          });
        })
        .Case<SubOp>([&](auto) {
          binary([](Interval a, Interval b) {
            return Interval::of(a.lo - b.hi, a.hi - b.lo, a.known && b.known);
          });
        })
        .Case<MulOp>([&](auto) { binary(mul); })
        .Case<DivOp>([&](auto) {
          binary([](Interval a, Interval b) {
            if (b.lo <= 0 && b.hi >= 0)
              return Interval::of(-kInf, kInf, a.known && b.known);
            return mul(a, Interval::of(1 / b.hi, 1 / b.lo, b.known));
          });
        })
        // max(x, c) >= c and min(x, c) <= c whatever x is: the bound a
        // known side gives is known (an unknown side counts as
        // [-inf, inf]), so min(G_i - G_j, 0) is <= 0 for any gate.
        .Case<MaxOp>([&](auto) {
          binary([](Interval a, Interval b) {
            return Interval::of(std::max(a.lo, b.lo), std::max(a.hi, b.hi),
                                a.known || b.known);
          });
        })
        .Case<MinOp>([&](auto) {
          binary([](Interval a, Interval b) {
            return Interval::of(std::min(a.lo, b.lo), std::min(a.hi, b.hi),
                                a.known || b.known);
          });
        })
        .Case<NegOp>([&](auto) {
          unary([](Interval a) { return Interval::of(-a.hi, -a.lo, a.known); });
        })
        .Case<ExpOp, Exp2Op>([&](Operation *e) {
          bool two = isa<Exp2Op>(e);
          MaybeInterval a = get(e->getOperand(0));
          if (!a)
            return set(e->getResult(0), std::nullopt);
          double limit = expLimit(e->getResult(0).getType());
          if (two)
            limit /= std::log(2.0);
          checkExp(e, *a, limit, two ? "exp2" : "exp");
          auto f = [&](double x) { return two ? std::exp2(x) : std::exp(x); };
          // Known even when its argument is not (the interval of an
          // unknown value is still a sound bound, [-inf, inf] at worst):
          // exp(A_log) lies in [0, inf], so -exp(A_log)·softplus(x) <= 0.
          set(e->getResult(0), Interval::of(f(a->lo), f(a->hi)));
        })
        .Case<LogOp>([&](auto) {
          unary([](Interval a) {
            return Interval::of(a.lo <= 0 ? -kInf : std::log(a.lo),
                                a.hi <= 0 ? -kInf : std::log(a.hi), a.known);
          });
        })
        .Case<SqrtOp>([&](auto) {
          unary([](Interval a) {
            return Interval::of(std::sqrt(std::max(a.lo, 0.0)),
                                std::sqrt(std::max(a.hi, 0.0)), a.known);
          });
        })
        .Case<RsqrtOp>([&](auto) {
          unary([](Interval a) {
            return Interval::of(a.hi <= 0 ? kInf : 1 / std::sqrt(a.hi),
                                a.lo <= 0 ? kInf : 1 / std::sqrt(a.lo), a.known);
          });
        })
        .Case<SigmoidOp>([&](auto) {
          unary([](Interval a) {
            auto s = [](double x) { return 1 / (1 + std::exp(-x)); };
            return Interval::of(s(a.lo), s(a.hi), true);
          });
        })
        .Case<SoftplusOp>([&](auto) {
          unary([](Interval a) {
            auto s = [](double x) {
              return x > 30 ? x : std::log1p(std::exp(x));
            };
            // Non-negative whatever its argument (known, as exp).
            return Interval::of(s(a.lo), s(a.hi));
          });
        })
        .Case<CastOp>([&](auto) { unary([](Interval a) { return a; }); })
        .Case<CmpOp>([&](CmpOp c) { set(c.getResult(), Interval::of(0, 1)); })
        .Case<SelectOp>([&](SelectOp s) {
          set(s.getResult(), join(get(s.getTrueValue()), get(s.getFalseValue())));
        })
        .Case<ReduceOp>([&](ReduceOp r) {
          MaybeInterval a = get(r.getInput());
          if (!a)
            return set(r.getResult(), std::nullopt);
          auto tile = cast<RankedTensorType>(r.getInput().getType());
          int64_t axis = r.getAxis() ? static_cast<int64_t>(*r.getAxis())
                                     : tile.getRank() - 1;
          if (r.getKind() != ReduceKind::sum)
            return set(r.getResult(), a);
          double n = extent(tile, axis);
          set(r.getResult(),
              Interval::of(mulEnd(n, std::min(a->lo, 0.0)),
                           mulEnd(n, std::max(a->hi, 0.0)), a->known));
        })
        .Case<MatmulOp>([&](MatmulOp m) {
          MaybeInterval a = get(m.getA()), b = get(m.getB());
          if (!a || !b)
            return set(m.getResult(), std::nullopt);
          auto at = cast<RankedTensorType>(m.getA().getType());
          double k = extent(at, m.getTransposeA() ? at.getRank() - 2
                                                  : at.getRank() - 1);
          Interval p = mul(*a, *b);
          Interval r = Interval::of(mulEnd(k, std::min(p.lo, 0.0)),
                                    mulEnd(k, std::max(p.hi, 0.0)), p.known);
          if (Value acc = m.getAcc()) {
            MaybeInterval c = get(acc);
            if (!c)
              return set(m.getResult(), std::nullopt);
            r = Interval::of(r.lo + c->lo, r.hi + c->hi, r.known && c->known);
          }
          set(m.getResult(), r);
        })
        .Case<CumsumOp>([&](CumsumOp c) {
          MaybeInterval a = get(c.getInput());
          if (!a)
            return set(c.getResult(), std::nullopt);
          double n = extent(c.getInput().getType(), c.getAxis());
          set(c.getResult(),
              Interval::of(std::min(a->lo, mulEnd(n, a->lo)),
                           std::max(a->hi, mulEnd(n, a->hi)), a->known));
        })
        .Case<L2NormOp>([&](L2NormOp l) {
          set(l.getResult(), Interval::of(-1, 1, true));
        })
        .Case<DeltaMaskedOp>([&](DeltaMaskedOp d) {
          MaybeInterval a = get(d.getValue());
          double fill = d.getFill().convertToDouble();
          set(d.getResult(), join(a, Interval::of(fill, fill)));
        })
        .Case<arith::ConstantOp>([](auto) {}) // read by get()
        .Default([&](Operation *other) {
          // Sizes, indices, products the analysis does not model
          // (tri_solve): unknown.
          for (Value result : other->getResults())
            set(result, Interval::of(-kInf, kInf, /*known=*/false));
        });
  }

  static void joinInto(Memory &into, const Memory &other) {
    for (const auto &[key, value] : other) {
      auto it = into.find(key);
      if (it == into.end())
        into[key] = value;
      else
        it->second = *join(it->second, value);
    }
  }

  void interpretBlock(Block &block) {
    for (Operation &op : block)
      interpretOp(&op);
  }

  /// Runs the body as often as the loop may (bounded), joining what each
  /// round leaves in memory, until nothing changes.
  void interpretLoop(LoopOp loop) {
    constexpr int64_t kMaxRounds = 256, kRoundsBeforeWidening = 6;
    std::optional<int64_t> trips = foldInteger(loop.getUpperBound());
    bool parallel = loop.getMapping() != LoopMapping::serial &&
                    loop.getMapping() != LoopMapping::ahead;
    Memory entry = memory;
    int64_t limit = trips && !parallel ? std::min(*trips, kMaxRounds)
                                       : kMaxRounds;
    bool exact = trips && !parallel && *trips <= kMaxRounds;
    for (int64_t round = 0; round < limit; ++round) {
      steps += static_cast<int64_t>(memory.size());
      Memory before = memory;
      interpretBlock(*loop.getBodyBlock());
      // A loop may run fewer times than its bound: keep the entry state.
      joinInto(memory, exact && round + 1 < limit ? Memory() : before);
      if ((memory == before && round > 0) || exhausted)
        return;
      if (!exact && round + 1 >= kRoundsBeforeWidening)
        widen(before);
    }
    joinInto(memory, entry);
  }

  /// Bounds still moving after several rounds go to infinity.
  void widen(const Memory &before) {
    for (auto &[key, value] : memory) {
      auto it = before.find(key);
      if (it == before.end())
        continue;
      if (value.lo < it->second.lo)
        value.lo = -kInf;
      if (value.hi > it->second.hi)
        value.hi = kInf;
    }
  }

  KernelOp kernel;
  llvm::DenseMap<Value, Interval> values;
  Memory memory;
  llvm::DenseMap<Value, bool> perElement;
  llvm::SmallPtrSet<Operation *, 4> reported;
  bool failed = false;
  /// Op visits plus memory entries copied at loop rounds and branches so
  /// far; past kMaxSteps the check gives up (bounded time on pathological
  /// nests: the largest bundled template takes ~12k).
  static constexpr int64_t kMaxSteps = 250'000;
  int64_t steps = 0;
  bool exhausted = false;
};
} // namespace

LogicalResult mlir::kda2::verifyKernelNumerics(KernelOp kernel) {
  // Nothing to check without a declared range or an exponential (whose
  // argument may be bounded by the kernel's own operations).
  bool any = false;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e && !any; ++i)
    any = kernel.getArgAttr(i, KDA2Dialect::getRangeAttrName()) != nullptr;
  if (!any)
    any = kernel
              .walk([](Operation *op) {
                return isa<ExpOp, Exp2Op>(op) ? WalkResult::interrupt()
                                               : WalkResult::advance();
              })
              .wasInterrupted();
  if (!any)
    return success();
  return RangeAnalysis(kernel).run();
}
