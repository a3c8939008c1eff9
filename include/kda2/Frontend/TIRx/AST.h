//===- AST.h - .tirx abstract syntax tree -----------------------*- C++ -*-===//
//
// The abstract syntax tree that the .tirx parser produces and the AST-to-MLIR
// emitter consumes. It is a faithful, unchecked picture of the source: the
// parser only enforces the grammar, so semantically wrong programs (an
// iterator written `range(32)`, a statement outside a schedule loop, an
// unknown annotation) are represented as written and left to the emitter to
// diagnose. Every node carries the `llvm::SMLoc` of the token that defines it
// (documented per node); `getStartLoc` gives the first character of an
// expression. Expressions and statements use LLVM-style RTTI, so
// `llvm::isa`, `llvm::cast` and `llvm::dyn_cast` work on them. The tree
// depends on LLVM Support only; its locations point into the
// `llvm::SourceMgr` buffer it was parsed from, which must outlive it.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_FRONTEND_TIRX_AST_H
#define KDA2_FRONTEND_TIRX_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::kda2::tirx {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base class of all expressions. Owned through `ExprPtr`.
class Expr {
public:
  /// Discriminator for LLVM-style RTTI; one value per concrete subclass.
  enum class Kind {
    IntLit,    ///< IntLitExpr: `32`.
    FloatLit,  ///< FloatLitExpr: `1.0`, `1e-6`, `inf`.
    StringLit, ///< StringLitExpr: `"l2_read_bytes"`.
    Name,      ///< NameExpr: `val`.
    Slice,     ///< SliceExpr: `:` (only as an index).
    Index,     ///< IndexExpr: `x[i, j]`.
    Call,      ///< CallExpr: `reduce.max(x)`.
    Unary,     ///< UnaryExpr: `-x`.
    Binary,    ///< BinaryExpr: `a * b`.
    Cond,      ///< CondExpr: `a if c else b`.
    List,      ///< ListExpr: `[128, 256]`.
  };

  /// Virtual so that an `ExprPtr` deletes the concrete node.
  virtual ~Expr() = default;

  /// Returns the concrete kind of this expression.
  Kind getKind() const { return kind; }

  /// Location of the token that defines the node (see each subclass).
  llvm::SMLoc loc;

protected:
  /// Constructs the base of a node of kind `kind` located at `loc`.
  Expr(Kind kind, llvm::SMLoc loc) : loc(loc), kind(kind) {}

private:
  /// The concrete kind, fixed at construction.
  const Kind kind;
};

/// Owning pointer to an expression.
using ExprPtr = std::unique_ptr<Expr>;

/// An integer literal; `loc` is the literal. Negative numbers are a
/// `UnaryExpr` around a literal.
struct IntLitExpr : Expr {
  /// Constructs the literal `value` at `loc`.
  IntLitExpr(llvm::SMLoc loc, int64_t value)
      : Expr(Kind::IntLit, loc), value(value) {}
  /// The value; always non-negative and representable in int64_t.
  int64_t value;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::IntLit; }
};

/// A floating-point literal (`1.0`, `1e-6`) or the name `inf`; `loc` is the
/// literal.
struct FloatLitExpr : Expr {
  /// Constructs the literal `value` at `loc`.
  FloatLitExpr(llvm::SMLoc loc, double value)
      : Expr(Kind::FloatLit, loc), value(value) {}
  /// The value; +infinity for `inf`, otherwise finite and non-negative.
  double value;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::FloatLit; }
};

/// A double-quoted string literal; `loc` is the opening quote.
struct StringLitExpr : Expr {
  /// Constructs the literal with decoded contents `value` at `loc`.
  StringLitExpr(llvm::SMLoc loc, std::string value)
      : Expr(Kind::StringLit, loc), value(std::move(value)) {}
  /// The contents with escapes (`\"`, `\\`, `\n`, `\t`) decoded, no quotes.
  std::string value;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::StringLit; }
};

/// A reference to a name (parameter, local value, loop variable, symbolic
/// dimension, or a bare word such as `uint8` in an annotation argument);
/// `loc` is the identifier.
struct NameExpr : Expr {
  /// Constructs a reference to `name` at `loc`.
  NameExpr(llvm::SMLoc loc, std::string name)
      : Expr(Kind::Name, loc), name(std::move(name)) {}
  /// The identifier; never dotted.
  std::string name;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }
};

/// A slice index `lower:upper`, where either bound may be omitted; the
/// common form is the full slice `:`. Only appears in `IndexExpr::indices`.
/// `loc` is the `:`.
struct SliceExpr : Expr {
  /// Constructs a slice at `loc`; null bounds are open.
  SliceExpr(llvm::SMLoc loc, ExprPtr lower, ExprPtr upper)
      : Expr(Kind::Slice, loc), lower(std::move(lower)),
        upper(std::move(upper)) {}
  /// The inclusive lower bound, or null for "from the start".
  ExprPtr lower;
  /// The exclusive upper bound, or null for "to the end".
  ExprPtr upper;
  /// Returns true for the full slice `:`.
  bool isFull() const { return !lower && !upper; }
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }
};

/// An indexing expression `base[i, j, ...]`; `loc` is the `[`. Indices are
/// expressions or `SliceExpr`s; there is at least one. `x[i][j]` nests.
struct IndexExpr : Expr {
  /// Constructs `base[indices]` with the `[` at `loc`.
  IndexExpr(llvm::SMLoc loc, ExprPtr base, std::vector<ExprPtr> indices)
      : Expr(Kind::Index, loc), base(std::move(base)),
        indices(std::move(indices)) {}
  /// The indexed value (usually a `NameExpr`).
  ExprPtr base;
  /// The indices, in source order; entries may be `SliceExpr`.
  std::vector<ExprPtr> indices;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Index; }
};

/// A call `callee(args...)`; `loc` is the first character of the callee.
/// Callees are (possibly dotted) names: `exp`, `reduce.max`,
/// `schedule.block`, or anything else the user wrote (`range`).
struct CallExpr : Expr {
  /// Constructs a call of `callee` at `loc`.
  CallExpr(llvm::SMLoc loc, std::string callee, std::vector<ExprPtr> args)
      : Expr(Kind::Call, loc), callee(std::move(callee)),
        args(std::move(args)) {}
  /// The callee spelled with dots and no spaces, e.g. "reduce.max".
  std::string callee;
  /// The positional arguments, in source order (possibly none).
  std::vector<ExprPtr> args;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }
};

/// Unary operators.
enum class UnaryOp {
  Neg, ///< `-x`
  Not, ///< `not x`
};

/// Returns the source spelling of `op`, e.g. "-".
inline llvm::StringRef stringifyUnaryOp(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Not:
    return "not";
  }
  return "?";
}

/// A unary operation; `loc` is the operator.
struct UnaryExpr : Expr {
  /// Constructs `op operand` with the operator at `loc`.
  UnaryExpr(llvm::SMLoc loc, UnaryOp op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  /// The operator.
  UnaryOp op;
  /// The operand.
  ExprPtr operand;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

/// Binary operators, from lowest to highest precedence group: comparisons
/// (non-associative), additive, multiplicative (all left-associative).
enum class BinaryOp {
  Eq,  ///< `==`
  Ne,  ///< `!=`
  Lt,  ///< `<`
  Le,  ///< `<=`
  Gt,  ///< `>`
  Ge,  ///< `>=`
  Add, ///< `+`
  Sub, ///< `-`
  Mul, ///< `*`
  Div, ///< `/`
  Rem, ///< `%`
  And, ///< `and`
  Or,  ///< `or`
};

/// Returns the source spelling of `op`, e.g. "<=".
inline llvm::StringRef stringifyBinaryOp(BinaryOp op) {
  switch (op) {
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::And:
    return "and";
  case BinaryOp::Or:
    return "or";
  }
  return "?";
}

/// Returns true if `op` is one of `== != < <= > >=`.
inline bool isComparison(BinaryOp op) {
  return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt ||
         op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge;
}

/// A binary operation; `loc` is the operator (use `getStartLoc` for the
/// start of the left operand).
struct BinaryExpr : Expr {
  /// Constructs `lhs op rhs` with the operator at `loc`.
  BinaryExpr(llvm::SMLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  /// The operator.
  BinaryOp op;
  /// The left operand.
  ExprPtr lhs;
  /// The right operand.
  ExprPtr rhs;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// A conditional expression `trueValue if condition else falseValue`
/// (Python order); `loc` is the `if`.
struct CondExpr : Expr {
  /// Constructs the conditional with the `if` at `loc`.
  CondExpr(llvm::SMLoc loc, ExprPtr trueValue, ExprPtr condition,
           ExprPtr falseValue)
      : Expr(Kind::Cond, loc), trueValue(std::move(trueValue)),
        condition(std::move(condition)), falseValue(std::move(falseValue)) {}
  /// The value when the condition holds (written first).
  ExprPtr trueValue;
  /// The condition.
  ExprPtr condition;
  /// The value otherwise.
  ExprPtr falseValue;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::Cond; }
};

/// A list literal `[a, b, ...]` (used in annotation arguments such as
/// `@shape_hint(seqlen, [128, 256])`); `loc` is the `[`.
struct ListExpr : Expr {
  /// Constructs the list with the `[` at `loc`.
  ListExpr(llvm::SMLoc loc, std::vector<ExprPtr> elements)
      : Expr(Kind::List, loc), elements(std::move(elements)) {}
  /// The elements, in source order (possibly none).
  std::vector<ExprPtr> elements;
  /// LLVM-style RTTI hook.
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }
};

/// Returns the location of the first character of `expr` (the leftmost
/// operand of binary and conditional expressions, the base of an index).
inline llvm::SMLoc getStartLoc(const Expr &expr) {
  const Expr *e = &expr;
  while (true) {
    const Expr *next = nullptr;
    if (const auto *binary = llvm::dyn_cast<BinaryExpr>(e))
      next = binary->lhs.get();
    else if (const auto *cond = llvm::dyn_cast<CondExpr>(e))
      next = cond->trueValue.get();
    else if (const auto *index = llvm::dyn_cast<IndexExpr>(e))
      next = index->base.get();
    else if (const auto *slice = llvm::dyn_cast<SliceExpr>(e))
      next = slice->lower.get();
    if (!next)
      return e->loc;
    e = next;
  }
}

//===----------------------------------------------------------------------===//
// Annotations, pragmas and types
//===----------------------------------------------------------------------===//

/// One argument of an annotation: `value` or `key=value`.
struct AnnotationArg {
  /// Location of the key if present, otherwise of the value's start.
  llvm::SMLoc loc;
  /// The keyword, or empty for a positional argument.
  std::string key;
  /// The value; any expression (name, literal, list, ...). Never null.
  ExprPtr value;
};

/// A constraint annotation written before (or on the line of) a statement:
/// `@name`, `@name(args)`, `@name if condition else fallback`, or the same
/// with `$` instead of `@`.
struct Annotation {
  /// Location of the `@` or `$`.
  llvm::SMLoc loc;
  /// True if written with `$`, false for `@`.
  bool dollar = false;
  /// The annotation name, e.g. "warp_reduce".
  std::string name;
  /// Location of the name.
  llvm::SMLoc nameLoc;
  /// The parenthesized arguments; empty when there are none (or `()`).
  std::vector<AnnotationArg> args;
  /// The condition of the `if ... else ...` form, or null.
  ExprPtr condition;
  /// The fallback name after `else`; empty iff `condition` is null.
  std::string fallback;
  /// Location of the fallback name (invalid iff `fallback` is empty).
  llvm::SMLoc fallbackLoc;

  /// Returns "@name" or "$name", as written.
  std::string getSpelling() const { return (dollar ? "$" : "@") + name; }
};

/// A `#pragma NAME` directive line.
struct Pragma {
  /// Location of the `#`.
  llvm::SMLoc loc;
  /// The directive name, e.g. "tma_coalesce".
  std::string name;
  /// `#pragma name if NAME`: the binding that makes it apply (nonzero);
  /// empty for an unconditional pragma.
  std::string condition;
  /// Location of the condition's name.
  llvm::SMLoc conditionLoc;
};

/// One dimension of a tensor type.
struct Dim {
  /// How the extent is given.
  enum class Kind {
    Named,   ///< A symbolic name, e.g. `batch`.
    Static,  ///< An integer literal, e.g. `32`.
    Dynamic, ///< `?`.
  };
  /// Location of the dimension token.
  llvm::SMLoc loc;
  /// How the extent is given.
  Kind kind = Kind::Dynamic;
  /// The name for `Kind::Named`; empty otherwise.
  std::string name;
  /// The extent for `Kind::Static` (non-negative; may be 0); -1 otherwise.
  int64_t size = -1;
};

/// A tensor type `Tensor[d0, d1, ..., dtype=T]`.
struct TensorType {
  /// Location of the `Tensor` keyword.
  llvm::SMLoc loc;
  /// The dimensions, outermost first; empty for `Tensor[]` (rank 0).
  std::vector<Dim> dims;
  /// The element type name as written (e.g. "bf16"); empty means the
  /// context's default (f16 for parameters/results, f32 for SMEM buffers).
  std::string dtype;
  /// Location of the element type name (invalid iff `dtype` is empty).
  llvm::SMLoc dtypeLoc;
};

/// A named value with its location: a GMEM tensor name, a returned name.
struct NameRef {
  /// Location of the identifier.
  llvm::SMLoc loc;
  /// The identifier.
  std::string name;
};

/// One `key=value` entry of a GMEM/SMEM attribute dictionary `{...}`.
struct DeclAttr {
  /// The lexical form of the value.
  enum class ValueKind {
    Identifier, ///< A bare word, e.g. `BSHD`; in `stringValue`.
    Integer,    ///< An integer, e.g. `128KB`; bytes in `intValue`.
    String,     ///< A string literal; decoded contents in `stringValue`.
    Range,      ///< `[lo, hi]`: two signed numbers or names; in `range`.
  };
  /// One end of a `[lo, hi]` value: a number, `inf`, or a name bound with
  /// --tirx-bind, optionally negated.
  struct Bound {
    llvm::SMLoc loc;
    bool negative = false;
    /// The bound name (empty for a number).
    std::string name;
    /// The number (for `inf`, infinity).
    double value = 0;
  };
  /// Location of the key.
  llvm::SMLoc loc;
  /// The key, e.g. "layout".
  std::string key;
  /// Location of the value.
  llvm::SMLoc valueLoc;
  /// The lexical form of the value.
  ValueKind valueKind = ValueKind::Identifier;
  /// The value of an identifier or string; empty for integers.
  std::string stringValue;
  /// The value of an integer, with any `B`/`KB`/`MB` suffix applied (so
  /// `128KB` is 131072); 0 otherwise.
  int64_t intValue = 0;
  /// The two ends of a `[lo, hi]` value.
  std::vector<Bound> range;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Base class of all statements. Owned through `StmtPtr`.
class Stmt {
public:
  /// Discriminator for LLVM-style RTTI; one value per concrete subclass.
  enum class Kind {
    GmemDecl, ///< GmemDeclStmt: `GMEM {...} q, k`.
    SmemDecl, ///< SmemDeclStmt: `SMEM {...} s: Tensor[...]`.
    For,      ///< ForStmt: `for i in schedule.block(32):`.
    If,       ///< IfStmt: `if slot >= 0:` … `else:` ….
    Assign,   ///< AssignStmt: `val = ...`, `acc += ...`.
    Store,    ///< StoreStmt: `s_mem[i, j] = ...`.
    Return,   ///< ReturnStmt: `return o, s`.
    Call,     ///< CallStmt: `signal(ready[i])`.
  };

  /// Virtual so that a `StmtPtr` deletes the concrete node.
  virtual ~Stmt() = default;

  /// Returns the concrete kind of this statement.
  Kind getKind() const { return kind; }

  /// Location of the statement's first token (keyword or target name),
  /// not of its annotations.
  llvm::SMLoc loc;
  /// The annotations written before the statement (on preceding lines or
  /// earlier on its own line), in source order.
  std::vector<Annotation> annotations;
  /// The pragmas written on the lines before the statement, in source order.
  std::vector<Pragma> pragmas;

protected:
  /// Constructs the base of a statement of kind `kind` located at `loc`.
  Stmt(Kind kind, llvm::SMLoc loc) : loc(loc), kind(kind) {}

private:
  /// The concrete kind, fixed at construction.
  const Kind kind;
};

/// Owning pointer to a statement.
using StmtPtr = std::unique_ptr<Stmt>;

/// `GMEM {key=value, ...} name, name, ...`: places existing tensors
/// (parameters/results) in global memory. `loc` is `GMEM`. The same node
/// holds `GRID d0, d1, ...` (`isGrid`): the dimensions enumerated by the
/// grid of program instances.
struct GmemDeclStmt : Stmt {
  /// Constructs an empty declaration at `loc`.
  explicit GmemDeclStmt(llvm::SMLoc loc) : Stmt(Kind::GmemDecl, loc) {}
  /// The attribute dictionary entries in source order (empty if omitted).
  std::vector<DeclAttr> attrs;
  /// The declared tensor names (dimension names for GRID); at least one.
  std::vector<NameRef> names;
  /// True for a `GRID` declaration.
  bool isGrid = false;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::GmemDecl; }
};

/// `SMEM {key=value, ...} name: Tensor[...]`: declares a shared-memory
/// buffer; `REG name: Tensor[...]` declares a per-thread register tile with
/// the same syntax (`isRegister`). `loc` is `SMEM` or `REG`.
struct SmemDeclStmt : Stmt {
  /// Constructs an empty declaration at `loc`.
  explicit SmemDeclStmt(llvm::SMLoc loc) : Stmt(Kind::SmemDecl, loc) {}
  /// The attribute dictionary entries in source order (empty if omitted).
  std::vector<DeclAttr> attrs;
  /// The buffer name.
  std::string name;
  /// Location of the buffer name.
  llvm::SMLoc nameLoc;
  /// The buffer type (default element type f32).
  TensorType type;
  /// True for a `REG` declaration.
  bool isRegister = false;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::SmemDecl; }
};

/// `for var in iterator(args):` followed by an indented block. The iterator
/// is recorded as written (`schedule.block(32)`, but also `range(32)`).
/// `loc` is `for`.
struct ForStmt : Stmt {
  /// Constructs an empty loop at `loc`.
  explicit ForStmt(llvm::SMLoc loc) : Stmt(Kind::For, loc) {}
  /// The loop variable.
  std::string var;
  /// Location of the loop variable.
  llvm::SMLoc varLoc;
  /// The second variable of `for r, c in schedule.fragment(t)` (the column;
  /// `var` is then the row), empty otherwise.
  std::string var2;
  /// Location of the second variable.
  llvm::SMLoc var2Loc;
  /// The iterator call; never null.
  std::unique_ptr<CallExpr> iterator;
  /// The loop body; at least one statement.
  std::vector<StmtPtr> body;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }
};

/// `if condition:` followed by an indented block, optionally `else:` and
/// another block at the same indentation as the `if`. `loc` is `if`.
struct IfStmt : Stmt {
  /// Constructs an empty conditional at `loc`.
  explicit IfStmt(llvm::SMLoc loc) : Stmt(Kind::If, loc) {}
  /// The condition; never null.
  ExprPtr condition;
  /// The statements run when the condition holds; at least one.
  std::vector<StmtPtr> thenBody;
  /// The statements run otherwise; empty without `else:`.
  std::vector<StmtPtr> elseBody;
  /// Location of `else` (invalid without it).
  llvm::SMLoc elseLoc;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }
};

/// Assignment operators.
enum class AssignOp {
  Assign, ///< `=`
  Add,    ///< `+=`
  Sub,    ///< `-=`
  Mul,    ///< `*=`
  Div,    ///< `/=`
};

/// Returns the source spelling of `op`, e.g. "+=".
inline llvm::StringRef stringifyAssignOp(AssignOp op) {
  switch (op) {
  case AssignOp::Assign:
    return "=";
  case AssignOp::Add:
    return "+=";
  case AssignOp::Sub:
    return "-=";
  case AssignOp::Mul:
    return "*=";
  case AssignOp::Div:
    return "/=";
  }
  return "?";
}

/// `name op value`: binds (or, for compound operators, updates) a local
/// value. `loc` is the target name.
struct AssignStmt : Stmt {
  /// Constructs an empty assignment at `loc`.
  explicit AssignStmt(llvm::SMLoc loc) : Stmt(Kind::Assign, loc) {}
  /// The assigned name.
  std::string target;
  /// The operator.
  AssignOp op = AssignOp::Assign;
  /// Location of the operator.
  llvm::SMLoc opLoc;
  /// The assigned value; never null.
  ExprPtr value;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }
};

/// `base[indices] op value`: writes into a tensor. `loc` is the start of the
/// target.
struct StoreStmt : Stmt {
  /// Constructs an empty store at `loc`.
  explicit StoreStmt(llvm::SMLoc loc) : Stmt(Kind::Store, loc) {}
  /// The indexed target; never null.
  std::unique_ptr<IndexExpr> target;
  /// The operator.
  AssignOp op = AssignOp::Assign;
  /// Location of the operator.
  llvm::SMLoc opLoc;
  /// The stored value; never null.
  ExprPtr value;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Store; }
};

/// A call standing alone as a statement: `signal(ready[i])`,
/// `wait_for(ready[i])`. `loc` is the callee.
struct CallStmt : Stmt {
  /// Constructs the statement at `loc`.
  explicit CallStmt(llvm::SMLoc loc) : Stmt(Kind::Call, loc) {}
  /// The call; never null.
  std::unique_ptr<CallExpr> call;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Call; }
};

/// `return name, name, ...`. `loc` is `return`.
struct ReturnStmt : Stmt {
  /// Constructs an empty return at `loc`.
  explicit ReturnStmt(llvm::SMLoc loc) : Stmt(Kind::Return, loc) {}
  /// The returned names; at least one.
  std::vector<NameRef> values;
  /// LLVM-style RTTI hook.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }
};

//===----------------------------------------------------------------------===//
// Kernels and modules
//===----------------------------------------------------------------------===//

/// A kernel parameter `name: Tensor[...]` or scalar `name: f32`, or a result
/// (`name` empty when the result is unnamed).
struct Param {
  /// Location of the name, or of `Tensor` for an unnamed result.
  llvm::SMLoc loc;
  /// The name; empty only for an unnamed result.
  std::string name;
  /// The tensor type (unused for a scalar parameter).
  TensorType type;
  /// The element type of a scalar parameter (`scale: f32`); empty for a
  /// tensor.
  std::string scalarType;
  /// `inout name: Tensor[...]`: a parameter the kernel reads and writes in
  /// place (a state pool).
  bool isInOut = false;
  /// Location of `inout` (invalid without it).
  llvm::SMLoc inOutLoc;
  /// Location of the scalar type name.
  llvm::SMLoc scalarTypeLoc;
  /// `name: Tensor[...] if NAME`: the binding that makes the parameter
  /// exist (present when NAME is bound to a nonzero integer); empty for an
  /// unconditional parameter.
  std::string condition;
  /// Location of the condition's name.
  llvm::SMLoc conditionLoc;
};

/// `func name(params) -> results { body }`.
struct Kernel {
  /// Location of the `func` keyword.
  llvm::SMLoc loc;
  /// The kernel name.
  std::string name;
  /// Location of the kernel name.
  llvm::SMLoc nameLoc;
  /// The parameters, in order (possibly none).
  std::vector<Param> params;
  /// The results, in order; empty if there is no `->`.
  std::vector<Param> results;
  /// The file-level pragmas written before `func`, in source order.
  std::vector<Pragma> pragmas;
  /// The top-level statements of the body.
  std::vector<StmtPtr> body;
};

/// `#pragma default NAME=VALUE` at file level: the value NAME takes when
/// --tirx-bind leaves it unbound. VALUE is a binding value (an integer, an
/// element type, a layout, kv or vk) or the name of another binding, whose
/// value it then takes (`#pragma default TP=IN`).
struct BindingDefault {
  /// Location of the `#`, and of VALUE.
  llvm::SMLoc loc, valueLoc;
  std::string name, value;
};

/// A parsed .tirx file: its kernels in source order (possibly none).
struct Module {
  /// The kernels in source order.
  std::vector<Kernel> kernels;
  /// The `#pragma default` lines, in source order.
  std::vector<BindingDefault> defaults;
};

} // namespace mlir::kda2::tirx

#endif // KDA2_FRONTEND_TIRX_AST_H
