//===- ParserTest.cpp - .tirx lexer and parser tests ------------*- C++ -*-===//
//
// Unit tests of the .tirx frontend: the example kernel of
// docs/examples/delta_softmax_base.tirx parsed into the expected AST, every
// construct of the language, the exact text and line:column of the parse
// errors, and robustness (every prefix of the example, random bytes and
// mutations, pathological nesting) with the invariant that a failed parse
// reports exactly one error and a successful one none.
//
//===----------------------------------------------------------------------===//

#include "kda2/Frontend/TIRx/Parser.h"
#include "kda2/Frontend/TIRx/AST.h"
#include "kda2/Frontend/TIRx/Lexer.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdio>
#include <random>

using namespace mlir::kda2::tirx;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// The example of docs/examples/delta_softmax_base.tirx, verbatim.
const char *const kExample = R"(// delta_softmax_base.tirx
func delta_softmax(q: Tensor[batch, head, seq_q, dim],
                   k: Tensor[batch, head, seq_k, dim],
                   mask: Tensor[batch, head, seq_q, seq_k]) -> Tensor[batch, head, seq_q, seq_k] {
  GMEM {layout=BSHD, packing=none} q, k, mask
  SMEM {size=128KB} s_mem: Tensor[32, 32]   // used for the partial softmax

  @warp_reduce
  for i in schedule.block(32):
    for j in schedule.thread(32):
      val = q[i] * k[j] * mask[i, j]
      s_mem[i, j] = val

  // softmax over the j dimension
  $bank_conflict_free
  for i in schedule.block(32):
    max_val = reduce.max(s_mem[i, :])
    sum_exp = reduce.sum(exp(s_mem[i, :] - max_val))
    for j in schedule.thread(32):
      out[i, j] = exp(s_mem[i, j] - max_val) / sum_exp
  return out
}
)";

/// A reported diagnostic, resolved to line and column.
struct Diag {
  unsigned line;
  unsigned col;
  std::string message;
};

/// Renders an expression as a compact S-expression for assertions.
std::string show(const Expr *e) {
  if (!e)
    return "_";
  switch (e->getKind()) {
  case Expr::Kind::IntLit:
    return std::to_string(cast<IntLitExpr>(e)->value);
  case Expr::Kind::FloatLit: {
    double v = cast<FloatLitExpr>(e)->value;
    if (std::isinf(v))
      return "inf";
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%gf", v);
    return buf;
  }
  case Expr::Kind::StringLit:
    return "\"" + cast<StringLitExpr>(e)->value + "\"";
  case Expr::Kind::Name:
    return cast<NameExpr>(e)->name;
  case Expr::Kind::Slice: {
    const auto *s = cast<SliceExpr>(e);
    if (s->isFull())
      return ":";
    return "(: " + show(s->lower.get()) + " " + show(s->upper.get()) + ")";
  }
  case Expr::Kind::Index: {
    const auto *i = cast<IndexExpr>(e);
    std::string r = "(idx " + show(i->base.get());
    for (const ExprPtr &x : i->indices)
      r += " " + show(x.get());
    return r + ")";
  }
  case Expr::Kind::Call: {
    const auto *c = cast<CallExpr>(e);
    std::string r = "(call " + c->callee;
    for (const ExprPtr &x : c->args)
      r += " " + show(x.get());
    return r + ")";
  }
  case Expr::Kind::Unary: {
    const auto *u = cast<UnaryExpr>(e);
    return "(" + stringifyUnaryOp(u->op).str() + " " + show(u->operand.get()) +
           ")";
  }
  case Expr::Kind::Binary: {
    const auto *b = cast<BinaryExpr>(e);
    return "(" + stringifyBinaryOp(b->op).str() + " " + show(b->lhs.get()) +
           " " + show(b->rhs.get()) + ")";
  }
  case Expr::Kind::Cond: {
    const auto *c = cast<CondExpr>(e);
    return "(if " + show(c->condition.get()) + " " + show(c->trueValue.get()) +
           " " + show(c->falseValue.get()) + ")";
  }
  case Expr::Kind::List: {
    std::string r = "[";
    for (const ExprPtr &x : cast<ListExpr>(e)->elements)
      r += (r.size() > 1 ? " " : "") + show(x.get());
    return r + "]";
  }
  }
  return "?";
}

/// Renders a tensor type as `[d0,d1|dtype]`.
std::string show(const TensorType &t) {
  std::string r = "[";
  for (size_t i = 0; i < t.dims.size(); ++i) {
    const Dim &d = t.dims[i];
    if (i)
      r += ",";
    if (d.kind == Dim::Kind::Named)
      r += d.name;
    else if (d.kind == Dim::Kind::Static)
      r += std::to_string(d.size);
    else
      r += "?";
  }
  if (!t.dtype.empty())
    r += "|" + t.dtype;
  return r + "]";
}

class TIRxParserTest : public ::testing::Test {
protected:
  /// Parses `source` into a fresh SourceMgr, collecting diagnostics.
  std::optional<Module> parse(llvm::StringRef source) {
    sm = std::make_unique<llvm::SourceMgr>();
    bufferId = sm->AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, "test.tirx"),
        llvm::SMLoc());
    diags.clear();
    return parseTIRx(*sm, bufferId,
                     [&](llvm::SMLoc loc, const llvm::Twine &message) {
                       auto [line, col] = sm->getLineAndColumn(loc, bufferId);
                       diags.push_back({line, col, message.str()});
                     });
  }

  /// Parses `source`, which must succeed, and returns the module.
  Module parseOk(llvm::StringRef source) {
    std::optional<Module> module = parse(source);
    EXPECT_TRUE(module.has_value()) << source.str();
    for (const Diag &d : diags)
      ADD_FAILURE() << d.line << ":" << d.col << ": " << d.message;
    return module ? std::move(*module) : Module();
  }

  /// Parses a single-kernel `body` (lines without the indentation of the
  /// kernel body, which this adds) and returns the kernel's statements.
  std::vector<StmtPtr> parseBody(llvm::StringRef body) {
    std::string source = "func f(x: Tensor[n]) {\n";
    llvm::SmallVector<llvm::StringRef> lines;
    body.split(lines, '\n');
    for (llvm::StringRef line : lines)
      source += "  " + line.str() + "\n";
    source += "}\n";
    Module module = parseOk(source);
    if (module.kernels.size() != 1)
      return {};
    return std::move(module.kernels[0].body);
  }

  /// Parses `x = <expr>` in a kernel body and renders the value.
  std::string showExpr(llvm::StringRef expr) {
    std::vector<StmtPtr> body = parseBody(("x = " + expr).str());
    if (body.size() != 1 || !isa<AssignStmt>(body[0].get()))
      return "<parse failure>";
    return show(cast<AssignStmt>(body[0].get())->value.get());
  }

  /// Checks that `source` fails with exactly one error, at line:col, with
  /// exactly `message`.
  ::testing::AssertionResult fails(llvm::StringRef source, unsigned line,
                                   unsigned col, llvm::StringRef message) {
    std::optional<Module> module = parse(source);
    if (module)
      return ::testing::AssertionFailure() << "parsed successfully";
    if (diags.size() != 1)
      return ::testing::AssertionFailure()
             << diags.size() << " diagnostics reported";
    const Diag &d = diags[0];
    if (d.line != line || d.col != col || d.message != message)
      return ::testing::AssertionFailure()
             << "got " << d.line << ":" << d.col << ": " << d.message;
    return ::testing::AssertionSuccess();
  }

  /// Returns the line:column of `loc` in the last parsed buffer.
  std::pair<unsigned, unsigned> lc(llvm::SMLoc loc) {
    return sm->getLineAndColumn(loc, bufferId);
  }

  std::unique_ptr<llvm::SourceMgr> sm;
  unsigned bufferId = 0;
  std::vector<Diag> diags;
};

using LC = std::pair<unsigned, unsigned>;

//===----------------------------------------------------------------------===//
// The example
//===----------------------------------------------------------------------===//

TEST_F(TIRxParserTest, Example) {
  Module module = parseOk(kExample);
  ASSERT_EQ(module.kernels.size(), 1u);
  const Kernel &k = module.kernels[0];
  EXPECT_EQ(k.name, "delta_softmax");
  EXPECT_EQ(lc(k.loc), LC(2, 1));
  EXPECT_EQ(lc(k.nameLoc), LC(2, 6));
  EXPECT_TRUE(k.pragmas.empty());

  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].name, "q");
  EXPECT_EQ(show(k.params[0].type), "[batch,head,seq_q,dim]");
  EXPECT_EQ(k.params[1].name, "k");
  EXPECT_EQ(lc(k.params[1].loc), LC(3, 20));
  EXPECT_EQ(show(k.params[1].type), "[batch,head,seq_k,dim]");
  EXPECT_EQ(k.params[2].name, "mask");
  EXPECT_EQ(show(k.params[2].type), "[batch,head,seq_q,seq_k]");
  EXPECT_EQ(lc(k.params[2].type.dims[3].loc), LC(4, 53));
  ASSERT_EQ(k.results.size(), 1u);
  EXPECT_EQ(k.results[0].name, "");
  EXPECT_EQ(show(k.results[0].type), "[batch,head,seq_q,seq_k]");
  EXPECT_EQ(lc(k.results[0].loc), LC(4, 64));

  ASSERT_EQ(k.body.size(), 5u);
  auto *gmem = dyn_cast<GmemDeclStmt>(k.body[0].get());
  ASSERT_TRUE(gmem);
  EXPECT_EQ(lc(gmem->loc), LC(5, 3));
  ASSERT_EQ(gmem->attrs.size(), 2u);
  EXPECT_EQ(gmem->attrs[0].key, "layout");
  EXPECT_EQ(gmem->attrs[0].valueKind, DeclAttr::ValueKind::Identifier);
  EXPECT_EQ(gmem->attrs[0].stringValue, "BSHD");
  EXPECT_EQ(gmem->attrs[1].key, "packing");
  EXPECT_EQ(gmem->attrs[1].stringValue, "none");
  EXPECT_EQ(lc(gmem->attrs[1].valueLoc), LC(5, 30));
  ASSERT_EQ(gmem->names.size(), 3u);
  EXPECT_EQ(gmem->names[0].name, "q");
  EXPECT_EQ(gmem->names[2].name, "mask");
  EXPECT_EQ(lc(gmem->names[2].loc), LC(5, 42));

  auto *smem = dyn_cast<SmemDeclStmt>(k.body[1].get());
  ASSERT_TRUE(smem);
  ASSERT_EQ(smem->attrs.size(), 1u);
  EXPECT_EQ(smem->attrs[0].key, "size");
  EXPECT_EQ(smem->attrs[0].valueKind, DeclAttr::ValueKind::Integer);
  EXPECT_EQ(smem->attrs[0].intValue, 128 * 1024);
  EXPECT_EQ(smem->name, "s_mem");
  EXPECT_EQ(show(smem->type), "[32,32]");
  EXPECT_EQ(smem->type.dims[0].kind, Dim::Kind::Static);

  auto *loop1 = dyn_cast<ForStmt>(k.body[2].get());
  ASSERT_TRUE(loop1);
  EXPECT_EQ(lc(loop1->loc), LC(9, 3));
  ASSERT_EQ(loop1->annotations.size(), 1u);
  EXPECT_FALSE(loop1->annotations[0].dollar);
  EXPECT_EQ(loop1->annotations[0].name, "warp_reduce");
  EXPECT_EQ(lc(loop1->annotations[0].loc), LC(8, 3));
  EXPECT_TRUE(loop1->annotations[0].args.empty());
  EXPECT_FALSE(loop1->annotations[0].condition);
  EXPECT_EQ(loop1->var, "i");
  EXPECT_EQ(show(loop1->iterator.get()), "(call schedule.block 32)");
  ASSERT_EQ(loop1->body.size(), 1u);
  auto *inner1 = dyn_cast<ForStmt>(loop1->body[0].get());
  ASSERT_TRUE(inner1);
  EXPECT_EQ(inner1->var, "j");
  EXPECT_EQ(show(inner1->iterator.get()), "(call schedule.thread 32)");
  EXPECT_TRUE(inner1->annotations.empty());
  ASSERT_EQ(inner1->body.size(), 2u);
  auto *val = dyn_cast<AssignStmt>(inner1->body[0].get());
  ASSERT_TRUE(val);
  EXPECT_EQ(val->target, "val");
  EXPECT_EQ(val->op, AssignOp::Assign);
  EXPECT_EQ(show(val->value.get()),
            "(* (* (idx q i) (idx k j)) (idx mask i j))");
  auto *store = dyn_cast<StoreStmt>(inner1->body[1].get());
  ASSERT_TRUE(store);
  EXPECT_EQ(show(store->target.get()), "(idx s_mem i j)");
  EXPECT_EQ(show(store->value.get()), "val");
  EXPECT_EQ(lc(store->loc), LC(12, 7));
  EXPECT_EQ(lc(store->opLoc), LC(12, 19));

  auto *loop2 = dyn_cast<ForStmt>(k.body[3].get());
  ASSERT_TRUE(loop2);
  EXPECT_EQ(lc(loop2->loc), LC(16, 3));
  ASSERT_EQ(loop2->annotations.size(), 1u);
  EXPECT_TRUE(loop2->annotations[0].dollar);
  EXPECT_EQ(loop2->annotations[0].name, "bank_conflict_free");
  EXPECT_EQ(loop2->annotations[0].getSpelling(), "$bank_conflict_free");
  ASSERT_EQ(loop2->body.size(), 3u);
  auto *maxVal = dyn_cast<AssignStmt>(loop2->body[0].get());
  ASSERT_TRUE(maxVal);
  EXPECT_EQ(maxVal->target, "max_val");
  EXPECT_EQ(show(maxVal->value.get()), "(call reduce.max (idx s_mem i :))");
  auto *call = cast<CallExpr>(maxVal->value.get());
  auto *slice = dyn_cast<SliceExpr>(
      cast<IndexExpr>(call->args[0].get())->indices[1].get());
  ASSERT_TRUE(slice);
  EXPECT_TRUE(slice->isFull());
  EXPECT_EQ(lc(slice->loc), LC(17, 35));
  auto *sumExp = dyn_cast<AssignStmt>(loop2->body[1].get());
  ASSERT_TRUE(sumExp);
  EXPECT_EQ(show(sumExp->value.get()),
            "(call reduce.sum (call exp (- (idx s_mem i :) max_val)))");
  auto *inner2 = dyn_cast<ForStmt>(loop2->body[2].get());
  ASSERT_TRUE(inner2);
  ASSERT_EQ(inner2->body.size(), 1u);
  auto *out = dyn_cast<StoreStmt>(inner2->body[0].get());
  ASSERT_TRUE(out);
  EXPECT_EQ(show(out->target.get()), "(idx out i j)");
  EXPECT_EQ(show(out->value.get()),
            "(/ (call exp (- (idx s_mem i j) max_val)) sum_exp)");

  auto *ret = dyn_cast<ReturnStmt>(k.body[4].get());
  ASSERT_TRUE(ret);
  EXPECT_EQ(lc(ret->loc), LC(21, 3));
  ASSERT_EQ(ret->values.size(), 1u);
  EXPECT_EQ(ret->values[0].name, "out");
}

//===----------------------------------------------------------------------===//
// Constructs
//===----------------------------------------------------------------------===//

TEST_F(TIRxParserTest, AnnotationOnStatementLine) {
  auto body = parseBody("@delta_masked(mask_type=uint8) val = q[i] * k[j]");
  ASSERT_EQ(body.size(), 1u);
  auto *assign = dyn_cast<AssignStmt>(body[0].get());
  ASSERT_TRUE(assign);
  EXPECT_EQ(lc(assign->loc), LC(2, 34));
  ASSERT_EQ(assign->annotations.size(), 1u);
  const Annotation &a = assign->annotations[0];
  EXPECT_EQ(a.name, "delta_masked");
  EXPECT_EQ(lc(a.loc), LC(2, 3));
  EXPECT_EQ(lc(a.nameLoc), LC(2, 4));
  ASSERT_EQ(a.args.size(), 1u);
  EXPECT_EQ(a.args[0].key, "mask_type");
  EXPECT_EQ(lc(a.args[0].loc), LC(2, 17));
  EXPECT_EQ(show(a.args[0].value.get()), "uint8");
  EXPECT_EQ(show(assign->value.get()), "(* (idx q i) (idx k j))");
}

TEST_F(TIRxParserTest, AnnotationsOnOwnLines) {
  auto body = parseBody("@delta_masked(mask_type=uint8)\n"
                        "@tma_bound(64, 64) $bank_conflict_free\n"
                        "\n"
                        "// comment between annotation and statement\n"
                        "val = q[i]\n"
                        "other = val");
  ASSERT_EQ(body.size(), 2u);
  ASSERT_EQ(body[0]->annotations.size(), 3u);
  EXPECT_EQ(body[0]->annotations[0].name, "delta_masked");
  EXPECT_EQ(body[0]->annotations[1].name, "tma_bound");
  ASSERT_EQ(body[0]->annotations[1].args.size(), 2u);
  EXPECT_EQ(body[0]->annotations[1].args[0].key, "");
  EXPECT_EQ(show(body[0]->annotations[1].args[0].value.get()), "64");
  EXPECT_EQ(show(body[0]->annotations[1].args[1].value.get()), "64");
  EXPECT_TRUE(body[0]->annotations[2].dollar);
  EXPECT_TRUE(body[1]->annotations.empty());
}

TEST_F(TIRxParserTest, ConditionalAnnotation) {
  auto body =
      parseBody("@coalesced_access if seqlen % 32 == 0 else padding_align32\n"
                "for i in schedule.block(32):\n"
                "  @coalesced_access\n"
                "  x[i] = 1");
  ASSERT_EQ(body.size(), 1u);
  auto *loop = cast<ForStmt>(body[0].get());
  ASSERT_EQ(loop->annotations.size(), 1u);
  const Annotation &a = loop->annotations[0];
  EXPECT_EQ(a.name, "coalesced_access");
  EXPECT_TRUE(a.args.empty());
  EXPECT_EQ(show(a.condition.get()), "(== (% seqlen 32) 0)");
  EXPECT_EQ(a.fallback, "padding_align32");
  EXPECT_EQ(lc(a.fallbackLoc), LC(2, 46));
  ASSERT_EQ(loop->body.size(), 1u);
  const Annotation &plain = loop->body[0]->annotations.at(0);
  EXPECT_EQ(plain.name, "coalesced_access");
  EXPECT_FALSE(plain.condition);
  EXPECT_TRUE(plain.fallback.empty());
}

TEST_F(TIRxParserTest, AnnotationArguments) {
  auto body = parseBody("@shape_hint(seqlen, [128, 256, 512, 1024, 2048])\n"
                        "@custom_counter(\"l2_read_bytes\")\n"
                        "@custom_counter(l2_read_bytes)\n"
                        "@empty()\n"
                        "@multi(\n"
                        "    a=1,\n"
                        "    b=\"s\\\"q\")\n"
                        "x = 1");
  ASSERT_EQ(body.size(), 1u);
  const auto &as = body[0]->annotations;
  ASSERT_EQ(as.size(), 5u);
  ASSERT_EQ(as[0].args.size(), 2u);
  EXPECT_EQ(show(as[0].args[0].value.get()), "seqlen");
  EXPECT_EQ(show(as[0].args[1].value.get()), "[128 256 512 1024 2048]");
  ASSERT_EQ(as[1].args.size(), 1u);
  EXPECT_EQ(show(as[1].args[0].value.get()), "\"l2_read_bytes\"");
  EXPECT_EQ(show(as[2].args[0].value.get()), "l2_read_bytes");
  EXPECT_TRUE(as[3].args.empty());
  ASSERT_EQ(as[4].args.size(), 2u);
  EXPECT_EQ(as[4].args[0].key, "a");
  EXPECT_EQ(as[4].args[1].key, "b");
  EXPECT_EQ(show(as[4].args[1].value.get()), "\"s\"q\"");
}

TEST_F(TIRxParserTest, Pragmas) {
  Module m = parseOk("#pragma l2_prefetch\n"
                     "# an ordinary comment\n"
                     "#pragma sm_shuffle  // trailing comment\n"
                     "func a() {\n"
                     "  #pragma tma_coalesce\n"
                     "  @warp_reduce\n"
                     "  for i in schedule.block(32):\n"
                     "    #pragma l2_prefetch\n"
                     "    x[i] = 1\n"
                     "}\n"
                     "func b() {\n"
                     "}\n");
  ASSERT_EQ(m.kernels.size(), 2u);
  ASSERT_EQ(m.kernels[0].pragmas.size(), 2u);
  EXPECT_EQ(m.kernels[0].pragmas[0].name, "l2_prefetch");
  EXPECT_EQ(m.kernels[0].pragmas[1].name, "sm_shuffle");
  EXPECT_EQ(lc(m.kernels[0].pragmas[1].loc), LC(3, 1));
  EXPECT_TRUE(m.kernels[1].pragmas.empty());
  EXPECT_TRUE(m.kernels[1].body.empty());
  auto *loop = cast<ForStmt>(m.kernels[0].body.at(0).get());
  ASSERT_EQ(loop->pragmas.size(), 1u);
  EXPECT_EQ(loop->pragmas[0].name, "tma_coalesce");
  EXPECT_EQ(loop->annotations.size(), 1u);
  ASSERT_EQ(loop->body.at(0)->pragmas.size(), 1u);
  EXPECT_EQ(loop->body[0]->pragmas[0].name, "l2_prefetch");
}

TEST_F(TIRxParserTest, CompoundAssignments) {
  auto body = parseBody("acc += q[i] * k[i]\n"
                        "acc -= 1\n"
                        "acc *= 2\n"
                        "acc /= 3\n"
                        "o[i] += acc");
  ASSERT_EQ(body.size(), 5u);
  EXPECT_EQ(cast<AssignStmt>(body[0].get())->op, AssignOp::Add);
  EXPECT_EQ(show(cast<AssignStmt>(body[0].get())->value.get()),
            "(* (idx q i) (idx k i))");
  EXPECT_EQ(cast<AssignStmt>(body[1].get())->op, AssignOp::Sub);
  EXPECT_EQ(cast<AssignStmt>(body[2].get())->op, AssignOp::Mul);
  EXPECT_EQ(cast<AssignStmt>(body[3].get())->op, AssignOp::Div);
  EXPECT_EQ(stringifyAssignOp(cast<AssignStmt>(body[3].get())->op), "/=");
  auto *store = cast<StoreStmt>(body[4].get());
  EXPECT_EQ(store->op, AssignOp::Add);
  EXPECT_EQ(lc(store->opLoc), LC(6, 8));
}

TEST_F(TIRxParserTest, Expressions) {
  EXPECT_EQ(showExpr("val if mask[i] else -inf"),
            "(if (idx mask i) val (- inf))");
  EXPECT_EQ(showExpr("a if b else c if d else e"), "(if b a (if d c e))");
  EXPECT_EQ(showExpr("a + b * c - d / e % f"),
            "(- (+ a (* b c)) (% (/ d e) f))");
  EXPECT_EQ(showExpr("(a + b) * c"), "(* (+ a b) c)");
  EXPECT_EQ(showExpr("a + b == c * 2"), "(== (+ a b) (* c 2))");
  EXPECT_EQ(showExpr("a != b"), "(!= a b)");
  EXPECT_EQ(showExpr("a < b"), "(< a b)");
  EXPECT_EQ(showExpr("a <= b"), "(<= a b)");
  EXPECT_EQ(showExpr("a > b"), "(> a b)");
  EXPECT_EQ(showExpr("a >= b"), "(>= a b)");
  EXPECT_EQ(showExpr("--a * -b"), "(* (- (- a)) (- b))");
  EXPECT_EQ(showExpr("1.0 + 1e-6 + 2.5E+3 + 7"),
            "(+ (+ (+ 1f 1e-06f) 2500f) 7)");
  EXPECT_EQ(showExpr("exp(x)"), "(call exp x)");
  EXPECT_EQ(showExpr("reduce.max(x, 1)"), "(call reduce.max x 1)");
  EXPECT_EQ(showExpr("f()"), "(call f)");
  EXPECT_EQ(showExpr("x[i + 1, j]"), "(idx x (+ i 1) j)");
  EXPECT_EQ(showExpr("x[i, :]"), "(idx x i :)");
  EXPECT_EQ(showExpr("x[:, 1:, :n, a:b]"), "(idx x : (: 1 _) (: _ n) (: a b))");
  EXPECT_EQ(showExpr("x[i][j]"), "(idx (idx x i) j)");
  EXPECT_EQ(showExpr("\"s\""), "\"s\"");
  EXPECT_EQ(showExpr("[]"), "[]");
  EXPECT_EQ(showExpr("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(showExpr("exp(a,\n      b)"), "(call exp a b)");
}

TEST_F(TIRxParserTest, ExpressionLocations) {
  auto body = parseBody("x = a * b + c");
  auto *assign = cast<AssignStmt>(body.at(0).get());
  auto *add = cast<BinaryExpr>(assign->value.get());
  EXPECT_EQ(lc(add->loc), LC(2, 13));
  EXPECT_EQ(lc(getStartLoc(*add)), LC(2, 7));
  EXPECT_EQ(lc(assign->opLoc), LC(2, 5));
}

TEST_F(TIRxParserTest, TensorTypes) {
  Module m = parseOk("func f(a: Tensor[batch, seq, dim, dtype=bf16],\n"
                     "       b: Tensor[?, 16, dtype = f32], c: Tensor[],\n"
                     "       d: Tensor[dtype=i8])\n"
                     "    -> (o: Tensor[batch, seq], s: Tensor[seq]) {\n"
                     "  return o, s\n"
                     "}\n");
  const Kernel &k = m.kernels.at(0);
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(show(k.params[0].type), "[batch,seq,dim|bf16]");
  EXPECT_EQ(lc(k.params[0].type.dtypeLoc), LC(1, 41));
  EXPECT_EQ(show(k.params[1].type), "[?,16|f32]");
  EXPECT_EQ(k.params[1].type.dims[0].kind, Dim::Kind::Dynamic);
  EXPECT_EQ(k.params[1].type.dims[1].size, 16);
  EXPECT_EQ(show(k.params[2].type), "[]");
  EXPECT_EQ(show(k.params[3].type), "[|i8]");
  ASSERT_EQ(k.results.size(), 2u);
  EXPECT_EQ(k.results[0].name, "o");
  EXPECT_EQ(k.results[1].name, "s");
  EXPECT_EQ(show(k.results[1].type), "[seq]");
  auto *ret = cast<ReturnStmt>(k.body.at(0).get());
  ASSERT_EQ(ret->values.size(), 2u);
  EXPECT_EQ(ret->values[1].name, "s");
}

TEST_F(TIRxParserTest, ResultForms) {
  Module m = parseOk("func a(x: Tensor[n]) -> o: Tensor[n] {\n}\n"
                     "func b(x: Tensor[n]) -> Tensor[n, dtype=f32] {}\n"
                     "func c(x: Tensor[n]) -> (Tensor[n]) {\n}\n"
                     "func d() {\n}");
  ASSERT_EQ(m.kernels.size(), 4u);
  EXPECT_EQ(m.kernels[0].results.at(0).name, "o");
  EXPECT_EQ(m.kernels[1].results.at(0).name, "");
  EXPECT_EQ(m.kernels[1].results[0].type.dtype, "f32");
  EXPECT_EQ(m.kernels[2].results.size(), 1u);
  EXPECT_TRUE(m.kernels[3].params.empty());
  EXPECT_TRUE(m.kernels[3].results.empty());
}

TEST_F(TIRxParserTest, BadIteratorIsKept) {
  auto body = parseBody("for i in range(32):\n"
                        "  x[i] = 0");
  auto *loop = cast<ForStmt>(body.at(0).get());
  EXPECT_EQ(loop->iterator->callee, "range");
  EXPECT_EQ(show(loop->iterator.get()), "(call range 32)");
  EXPECT_EQ(lc(loop->iterator->loc), LC(2, 12));
}

TEST_F(TIRxParserTest, SmemSizes) {
  auto body = parseBody("SMEM {size=2MB} a: Tensor[4, dtype=f16]\n"
                        "SMEM {size=64B, name=\"buf\"} b: Tensor[4]\n"
                        "SMEM {size=4096} c: Tensor[4]\n"
                        "SMEM d: Tensor[4]\n"
                        "GMEM x");
  ASSERT_EQ(body.size(), 5u);
  EXPECT_EQ(cast<SmemDeclStmt>(body[0].get())->attrs.at(0).intValue,
            2 * 1024 * 1024);
  auto *b = cast<SmemDeclStmt>(body[1].get());
  EXPECT_EQ(b->attrs.at(0).intValue, 64);
  EXPECT_EQ(b->attrs.at(1).valueKind, DeclAttr::ValueKind::String);
  EXPECT_EQ(b->attrs.at(1).stringValue, "buf");
  EXPECT_EQ(cast<SmemDeclStmt>(body[2].get())->attrs.at(0).intValue, 4096);
  EXPECT_TRUE(cast<SmemDeclStmt>(body[3].get())->attrs.empty());
  EXPECT_TRUE(cast<GmemDeclStmt>(body[4].get())->attrs.empty());
}

TEST_F(TIRxParserTest, LayoutAndEmptyInputs) {
  EXPECT_TRUE(parseOk("").kernels.empty());
  EXPECT_TRUE(parseOk("\n\n   \n").kernels.empty());
  EXPECT_TRUE(parseOk("// only a comment").kernels.empty());
  EXPECT_TRUE(parseOk("# a hash comment\n#pragmatic is a comment too\n")
                  .kernels.empty());
  // No trailing newline, CRLF line ends, body indented with one space,
  // closing brace anywhere, statement closing the body on its own line.
  EXPECT_EQ(parseOk("func f() {\n x = 1\n      }").kernels.size(), 1u);
  EXPECT_EQ(parseOk("func f() {\r\n  x = 1\r\n}\r\n").kernels.size(), 1u);
  Module m = parseOk("func f() {\n"
                     "  for i in schedule.block(4):\n"
                     "      for j in schedule.warp(2):\n"
                     "          x[i] = 1\n"
                     "      y = 2\n"
                     "  z = 3 }\n");
  const auto &body = m.kernels.at(0).body;
  ASSERT_EQ(body.size(), 2u);
  auto *outer = cast<ForStmt>(body[0].get());
  ASSERT_EQ(outer->body.size(), 2u);
  EXPECT_TRUE(isa<ForStmt>(outer->body[0].get()));
  EXPECT_TRUE(isa<AssignStmt>(outer->body[1].get()));
  EXPECT_EQ(cast<AssignStmt>(body[1].get())->target, "z");
}

TEST_F(TIRxParserTest, Lexer) {
  std::vector<std::string> errors;
  llvm::StringRef src = "x\t= \"a\\tb\" 128KB ->\n  @y # c\n";
  Lexer lexer(src, [&](llvm::SMLoc, const llvm::Twine &message) {
    errors.push_back(message.str());
  });
  std::vector<Token> toks;
  for (Token t = lexer.lex(); t.isNot(Token::eof); t = lexer.lex())
    toks.push_back(t);
  ASSERT_EQ(toks.size(), 9u);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(toks[0].kind, Token::identifier);
  EXPECT_TRUE(toks[0].atLineStart);
  EXPECT_EQ(toks[1].kind, Token::equal);
  EXPECT_FALSE(toks[1].atLineStart);
  EXPECT_EQ(toks[2].kind, Token::string);
  EXPECT_EQ(toks[2].getStringValue(), "a\tb");
  EXPECT_EQ(toks[3].kind, Token::integer);
  EXPECT_EQ(toks[3].spelling, "128KB");
  EXPECT_EQ(toks[4].kind, Token::arrow);
  EXPECT_EQ(toks[5].kind, Token::newline);
  EXPECT_EQ(toks[5].describe(), "'newline'");
  EXPECT_EQ(toks[6].kind, Token::at);
  EXPECT_EQ(toks[6].column, 2u);
  EXPECT_TRUE(toks[6].atLineStart);
  EXPECT_EQ(toks[7].describe(), "identifier 'y'");
  EXPECT_EQ(toks[8].kind, Token::newline);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(TIRxParserTest, ErrorMissingColonAfterLoopHeader) {
  EXPECT_TRUE(fails("func f() {\n  for i in schedule.block(32)\n    x = 1\n}\n",
                    2, 30, "expected ':' after loop header, found 'newline'"));
}

TEST_F(TIRxParserTest, ErrorTabInIndentation) {
  EXPECT_TRUE(fails("func f() {\n  for i in schedule.block(32):\n \tx = 1\n}\n",
                    3, 2, "tabs are not allowed in indentation; use spaces"));
}

TEST_F(TIRxParserTest, ErrorInconsistentDedent) {
  EXPECT_TRUE(fails("func f() {\n"
                    "  for i in schedule.block(32):\n"
                    "      x = 1\n"
                    "    y = 2\n"
                    "}\n",
                    4, 5,
                    "inconsistent dedent: this line's indentation matches no "
                    "enclosing block"));
  EXPECT_TRUE(fails("func f() {\n    x = 1\n  y = 2\n}\n", 3, 3,
                    "inconsistent dedent: this line's indentation matches no "
                    "enclosing block"));
}

TEST_F(TIRxParserTest, ErrorUnexpectedIndentation) {
  EXPECT_TRUE(fails("func f() {\n  x = 1\n    y = 2\n}\n", 3, 5,
                    "unexpected indentation"));
  EXPECT_TRUE(fails("func f() {\n  @a\n    y = 2\n}\n", 3, 5,
                    "unexpected indentation"));
}

TEST_F(TIRxParserTest, ErrorDanglingAnnotation) {
  EXPECT_TRUE(fails("func f() {\n"
                    "  for i in schedule.block(32):\n"
                    "    x = 1\n"
                    "    @warp_reduce\n"
                    "  y = 2\n"
                    "}\n",
                    4, 5,
                    "annotation '@warp_reduce' is not followed by a "
                    "statement"));
  EXPECT_TRUE(fails("func f() {\n  x = 1\n  $a @b }\n", 3, 3,
                    "annotation '$a' is not followed by a statement"));
}

TEST_F(TIRxParserTest, ErrorDanglingPragma) {
  EXPECT_TRUE(fails("func f() {\n  x = 1\n  #pragma sm_shuffle\n}\n", 3, 3,
                    "pragma 'sm_shuffle' is not followed by a statement"));
  EXPECT_TRUE(fails("func f() {\n}\n#pragma l2_prefetch\n", 3, 1,
                    "pragma 'l2_prefetch' is not followed by a kernel"));
}

TEST_F(TIRxParserTest, ErrorUnterminatedString) {
  EXPECT_TRUE(fails("func f() {\n  @c(\"abc\n}\n", 2, 6,
                    "unterminated string literal"));
  EXPECT_TRUE(fails("\n  \"abc", 2, 3, "unterminated string literal"));
  EXPECT_TRUE(fails("func f() {\n  @c(\"a\\q\")\n}\n", 2, 8,
                    "unknown escape sequence in string literal; expected one "
                    "of \\\" \\\\ \\n \\t"));
}

TEST_F(TIRxParserTest, ErrorIntegerTooLarge) {
  EXPECT_TRUE(fails("func f() {\n  x = 9223372036854775808\n}\n", 2, 7,
                    "integer literal too large"));
  EXPECT_TRUE(fails("func f(a: Tensor[99999999999999999999999999]) {\n}\n", 1,
                    18, "integer literal too large"));
  EXPECT_TRUE(fails("func f() {\n  SMEM {size=9007199254740992MB} s: "
                    "Tensor[1]\n}\n",
                    2, 14, "integer literal too large"));
}

TEST_F(TIRxParserTest, ErrorSizeSuffixes) {
  EXPECT_TRUE(fails("func f() {\n  x = 128KB\n}\n", 2, 10,
                    "size suffix 'KB' is only allowed in an SMEM 'size' "
                    "value"));
  EXPECT_TRUE(fails("func f() {\n  GMEM {size=1KB} x\n}\n", 2, 15,
                    "size suffix 'KB' is only allowed in an SMEM 'size' "
                    "value"));
  EXPECT_TRUE(fails("func f() {\n  SMEM {size=128XB} s: Tensor[1]\n}\n", 2, 17,
                    "invalid suffix 'XB' on integer literal"));
  EXPECT_TRUE(fails("func f() {\n  x = 1.5f\n}\n", 2, 10,
                    "invalid suffix 'f' on float literal"));
}

TEST_F(TIRxParserTest, ErrorMissingClosingBrace) {
  EXPECT_TRUE(fails("func f() {\n  x = 1\n", 3, 1,
                    "expected '}' at the end of kernel 'f', found end of "
                    "file"));
}

TEST_F(TIRxParserTest, ErrorTensorTypes) {
  EXPECT_TRUE(fails("func f(a: Tensor[n, layout=x]) {\n}\n", 1, 21,
                    "unknown tensor type keyword 'layout'; expected 'dtype'"));
  EXPECT_TRUE(fails("func f(a: Tensor[dtype=f16, n]) {\n}\n", 1, 27,
                    "expected ']' after the element type (dtype must come "
                    "last), found ','"));
  EXPECT_TRUE(fails("func f(a: Tensor(n)) {\n}\n", 1, 17,
                    "expected '[' after 'Tensor', found '('"));
  EXPECT_TRUE(fails("func f(a: Tensor[n m]) {\n}\n", 1, 20,
                    "expected ',' or ']' in tensor type, found identifier "
                    "'m'"));
  EXPECT_TRUE(fails("func f(a) {\n}\n", 1, 9,
                    "expected ':' after parameter name 'a', found ')'"));
  EXPECT_TRUE(fails("func f(a: Tensor[n] b: Tensor[n]) {\n}\n", 1, 21,
                    "expected ',' or ')' in parameter list, found identifier "
                    "'b'"));
}

TEST_F(TIRxParserTest, ErrorExpressions) {
  EXPECT_TRUE(fails("func f() {\n  x = a < b < c\n}\n", 2, 13,
                    "comparison operators cannot be chained; use "
                    "parentheses"));
  EXPECT_TRUE(fails("func f() {\n  x = a if b\n}\n", 2, 13,
                    "expected 'else' in conditional expression, found "
                    "'newline'"));
  EXPECT_TRUE(fails("func f() {\n  x = reduce.max\n}\n", 2, 17,
                    "expected '(' after 'reduce.max' (a dotted name must be "
                    "called), found 'newline'"));
  EXPECT_TRUE(fails("func f() {\n  x = (a + b\n}\n", 3, 1,
                    "expected ')' to close '(', found '}'"));
  EXPECT_TRUE(fails("func f() {\n  x = a +\n}\n", 2, 10,
                    "expected expression, found 'newline'"));
  EXPECT_TRUE(
      fails("func f() {\n  x = a ~ b\n}\n", 2, 9, "unexpected character '~'"));
  EXPECT_TRUE(fails("func f() {\n  x = a ! b\n}\n", 2, 9,
                    "unexpected character '!'; did you mean '!='?"));
}

TEST_F(TIRxParserTest, ErrorStatements) {
  EXPECT_TRUE(fails("func f() {\n  exp(x) = 1\n}\n", 2, 3,
                    "assignment target must be a name or an indexed tensor"));
  EXPECT_TRUE(fails("func f() {\n  x\n}\n", 2, 4,
                    "expected '=', '+=', '-=', '*=' or '/=' after assignment "
                    "target, found 'newline'"));
  EXPECT_TRUE(fails("func f() {\n  x = 1 2\n}\n", 2, 9,
                    "expected newline after statement, found integer literal "
                    "'2'"));
  EXPECT_TRUE(
      fails("func f() {\n  + x\n}\n", 2, 3, "expected statement, found '+'"));
  EXPECT_TRUE(fails("func f() {\n  return\n}\n", 2, 9,
                    "expected name after 'return', found 'newline'"));
  EXPECT_TRUE(fails("func f() {\n  SMEM {size=1KB} s Tensor[1]\n}\n", 2, 21,
                    "expected ':' after SMEM buffer name 's', found "
                    "identifier 'Tensor'"));
  EXPECT_TRUE(fails("func f() {\n  GMEM {layout} q\n}\n", 2, 15,
                    "expected '=' after attribute name 'layout', found '}'"));
}

TEST_F(TIRxParserTest, ErrorLoops) {
  EXPECT_TRUE(fails("func f() {\n  for i in schedule.block(32):\n  x = 1\n}\n",
                    3, 3,
                    "expected an indented block after loop header, found "
                    "identifier 'x'"));
  EXPECT_TRUE(fails("func f() {\n  for i in schedule.block(32): x = 1\n}\n", 2,
                    32,
                    "expected newline after ':' (the body goes on the "
                    "following, indented lines), found identifier 'x'"));
  EXPECT_TRUE(fails("func f() {\n  for i in 32:\n    x = 1\n}\n", 2, 12,
                    "expected an iterator call such as 'schedule.block(32)' "
                    "after 'in'"));
  EXPECT_TRUE(fails("func f() {\n  for i schedule.block(32):\n    x = 1\n}\n",
                    2, 9,
                    "expected 'in' after loop variable 'i', found identifier "
                    "'schedule'"));
  EXPECT_TRUE(fails("func f() {\n  for i in schedule.block(32):\n}\n", 3, 1,
                    "expected an indented block after loop header, found "
                    "'}'"));
}

TEST_F(TIRxParserTest, ErrorAnnotations) {
  EXPECT_TRUE(fails("func f() {\n  @a if x == 0\n  y = 1\n}\n", 2, 15,
                    "expected 'else' after the condition of annotation '@a', "
                    "found 'newline'"));
  EXPECT_TRUE(fails("func f() {\n  @a if x else 3\n  y = 1\n}\n", 2, 16,
                    "expected fallback name after 'else' in annotation '@a', "
                    "found integer literal '3'"));
  EXPECT_TRUE(fails("func f() {\n  @\n  y = 1\n}\n", 2, 4,
                    "expected annotation name after '@', found 'newline'"));
  EXPECT_TRUE(fails("func f() {\n  $(x)\n  y = 1\n}\n", 2, 4,
                    "expected annotation name after '$', found '('"));
  EXPECT_TRUE(fails("func f() {\n  @a(x y)\n  y = 1\n}\n", 2, 8,
                    "expected ',' or ')' in the arguments of annotation '@a', "
                    "found identifier 'y'"));
}

TEST_F(TIRxParserTest, ErrorFileLevel) {
  EXPECT_TRUE(fails("x = 1\n", 1, 1,
                    "expected 'func' or '#pragma', found identifier 'x'"));
  EXPECT_TRUE(fails("@a\nfunc f() {\n}\n", 1, 1,
                    "expected 'func' or '#pragma', found '@'"));
  EXPECT_TRUE(fails("func () {\n}\n", 1, 6,
                    "expected kernel name after 'func', found '('"));
  EXPECT_TRUE(fails("func f() x = 1\n", 1, 10,
                    "expected '{' to begin the body of kernel 'f', found "
                    "identifier 'x'"));
  EXPECT_TRUE(fails("func f() { x = 1\n}\n", 1, 12,
                    "expected newline after '{', found identifier 'x'"));
  EXPECT_TRUE(fails("func f() {\n} func g() {\n}\n", 2, 3,
                    "expected newline after '}' ending kernel 'f', found "
                    "'func'"));
  EXPECT_TRUE(fails("#pragma\nfunc f() {\n}\n", 1, 8,
                    "expected pragma name after '#pragma'"));
  EXPECT_TRUE(fails("#pragma a b\n", 1, 11,
                    "expected newline after pragma, found identifier 'b'"));
  EXPECT_TRUE(fails("func f() -> {\n}\n", 1, 13,
                    "expected result name or 'Tensor', found '{'"));
  EXPECT_TRUE(fails("\x01", 1, 1, "unexpected character '\\x01'"));
  EXPECT_TRUE(
      fails(llvm::StringRef("\0", 1), 1, 1, "unexpected character '\\x00'"));
  EXPECT_TRUE(fails("\xff\xfe", 1, 1, "unexpected character '\\xff'"));
}

TEST_F(TIRxParserTest, ErrorNestingTooDeep) {
  std::string deep = "func f() {\n  x = " + std::string(300, '(') + "1" +
                     std::string(300, ')') + "\n}\n";
  ASSERT_FALSE(parse(deep));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message, "nesting too deep (the limit is 256 levels)");
  EXPECT_EQ(diags[0].line, 2u);

  // Just under the limit is fine.
  std::string ok = "func f() {\n  x = " + std::string(200, '(') + "1" +
                   std::string(200, ')') + "\n}\n";
  EXPECT_TRUE(parse(ok));

  for (const std::string &expr :
       {std::string(100000, '-') + "x", std::string(100000, '['),
        [] {
          std::string s;
          for (int i = 0; i < 20000; ++i)
            s += "a if b else ";
          return s + "c";
        }(),
        [] {
          std::string s;
          for (int i = 0; i < 20000; ++i)
            s += "f(";
          return s;
        }()}) {
    EXPECT_FALSE(parse("func f() {\n  x = " + expr + "\n}\n"));
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].message, "nesting too deep (the limit is 256 levels)");
  }

  // Deeply nested loops.
  auto loops = [](int n) {
    std::string s = "func f() {\n";
    for (int i = 0; i < n; ++i)
      s += std::string(i + 1, ' ') + "for i in schedule.block(2):\n";
    s += std::string(n + 1, ' ') + "x = 1\n}\n";
    return s;
  };
  EXPECT_TRUE(parse(loops(100)));
  EXPECT_FALSE(parse(loops(1000)));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].message, "nesting too deep (the limit is 256 levels)");
}

//===----------------------------------------------------------------------===//
// Robustness
//===----------------------------------------------------------------------===//

TEST_F(TIRxParserTest, EveryPrefixOfTheExample) {
  llvm::StringRef example = kExample;
  for (size_t n = 0; n <= example.size(); ++n) {
    std::optional<Module> module = parse(example.take_front(n));
    EXPECT_EQ(diags.size(), module ? 0u : 1u) << "prefix length " << n;
  }
  // The complete file and the file without its final newline parse.
  EXPECT_TRUE(parse(example));
  EXPECT_TRUE(parse(example.drop_back()));
}

TEST_F(TIRxParserTest, RandomInput) {
  std::mt19937 rng(12345);
  llvm::StringRef alphabet = "abcfijnorstuxyz0123456789_ ()[]{},:.@$?#=+-*/%<>"
                             "!\"\\\t\n\n\n    ";
  llvm::StringRef example = kExample;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string input;
    size_t length = rng() % 200;
    switch (iter % 3) {
    case 0: // Arbitrary bytes.
      for (size_t i = 0; i < length; ++i)
        input.push_back(static_cast<char>(rng() % 256));
      break;
    case 1: // Characters the lexer knows.
      for (size_t i = 0; i < length; ++i)
        input.push_back(alphabet[rng() % alphabet.size()]);
      break;
    default: // The example with a few bytes changed, deleted or inserted.
      input = example.str();
      for (int edits = 1 + rng() % 4; edits > 0; --edits) {
        size_t pos = rng() % input.size();
        char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
        case 0:
          input[pos] = c;
          break;
        case 1:
          input.erase(pos, 1);
          break;
        default:
          input.insert(pos, 1, c);
          break;
        }
      }
      break;
    }
    std::optional<Module> module = parse(input);
    EXPECT_EQ(diags.size(), module ? 0u : 1u) << "input: " << input;
  }
}

} // namespace
