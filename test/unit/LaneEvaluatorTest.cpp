//===- LaneEvaluatorTest.cpp - The numeric path agrees with the symbolic one ===//
//
// evaluateLane computes a plain number without building term maps when every
// leaf is known, and falls back to evaluateSymbolically otherwise. The two
// must agree on every expression: same status, same number, same terms, same
// reason. Random expression trees over every operator, integer types that
// wrap, shifts and divisions that are undefined for some operands, and leaves
// that are sometimes unknown (so both paths are exercised).
//
//===----------------------------------------------------------------------===//

#include "cuda-bank-lint/Symbolic/LaneEvaluator.h"
#include "cuda-bank-lint/AccessModel/HostFunction.h"

#include "llvm/ADT/STLExtras.h"

#include <gtest/gtest.h>

#include <random>

using namespace cbl;

namespace {

const IntType Types[] = {IntType::i32(), IntType::u32(), IntType::i64(), IntType::u64(),
                         IntType::boolean(), IntType{16, false}, IntType{8, true}};
const Opcode Binaries[] = {Opcode::Add, Opcode::Sub, Opcode::Mul, Opcode::Div, Opcode::Rem,
                           Opcode::Shl, Opcode::Shr, Opcode::And, Opcode::Or,  Opcode::Xor,
                           Opcode::Min, Opcode::Max, Opcode::LT,  Opcode::LE,  Opcode::GT,
                           Opcode::GE,  Opcode::EQ,  Opcode::NE,  Opcode::LAnd, Opcode::LOr};
const Opcode Unaries[] = {Opcode::Neg, Opcode::Not, Opcode::LNot, Opcode::Log2};

struct Generator {
  std::mt19937_64 Rng{20261122};
  int pick(int N) { return int(Rng() % uint64_t(N)); }
  IntType type() { return Types[pick(sizeof(Types) / sizeof(Types[0]))]; }

  SymRef leaf() {
    IntType T = type();
    switch (pick(7)) {
    case 0: return SymExpr::constant(int64_t(pick(4096)) - 2048, T);
    case 1: return SymExpr::constant(int64_t(pick(40)), T); // shift amounts, small divisors
    case 2: return SymExpr::cast(SymExpr::threadIdx(Axis(pick(2))), T);
    case 3: return SymExpr::cast(SymExpr::blockDim(Axis(pick(3))), T); // z unknown below
    case 4: return SymExpr::loopVar(unsigned(pick(3)), "c" + std::to_string(pick(3)), "counter",
                                    false, T); // counter 2 unbound below
    case 5: return SymExpr::uniform(pick(2) ? "n" : "m", "kernel parameter", T); // m unknown
    default: return SymExpr::varying("v", "value loaded from memory", T);
    }
  }

  SymRef expr(int Depth) {
    if (Depth == 0 || pick(5) == 0)
      return leaf();
    IntType T = type();
    switch (pick(6)) {
    case 0: return SymExpr::unary(Unaries[pick(3)], expr(Depth - 1), T);
    case 1: return SymExpr::select(expr(Depth - 1), expr(Depth - 1), expr(Depth - 1), T);
    case 2: return SymExpr::cast(expr(Depth - 1), T);
    default:
      return SymExpr::binary(Binaries[pick(sizeof(Binaries) / sizeof(Binaries[0]))],
                             expr(Depth - 1), expr(Depth - 1), T);
    }
  }
};

TEST(LaneEvaluator, NumericPathAgreesWithSymbolicEvaluation) {
  Generator G;
  const std::map<unsigned, int64_t> Loops{{0, 7}, {1, -3}};
  const std::map<std::string, int64_t> Uniforms{{"n", 100}};
  unsigned Numbers = 0, Others = 0;
  for (int I = 0; I < 20000; ++I) {
    SymRef E = G.expr(4);
    LaneEnv Env;
    Env.Tid[0] = unsigned(G.pick(64));
    Env.Tid[1] = unsigned(G.pick(4));
    Env.BlockDim[0] = 64;
    Env.BlockDim[1] = 4;
    Env.LoopValues = &Loops;
    Env.UniformValues = &Uniforms;
    LaneValue Fast = evaluateLane(*E, Env);
    LaneValue Slow = evaluateSymbolically(*E, Env);
    ASSERT_EQ(Fast.Unknown, Slow.Unknown) << toString(E);
    ASSERT_EQ(Fast.Why, Slow.Why) << toString(E);
    ASSERT_EQ(Fast.Terms, Slow.Terms) << toString(E);
    ASSERT_EQ(Fast.C, Slow.C) << toString(E);
    (Slow.exact() ? Numbers : Others) += 1;
  }
  // Both kinds of result occur, so both paths were compared.
  EXPECT_GT(Numbers, 2000u);
  EXPECT_GT(Others, 2000u);
}

// The numbers of a whole warp at once are each lane's own: for random
// expressions, masks, threadIdx values and loop counters that are shared by
// the lanes or not, every lane of the mask has the value evaluateLane gives
// it, and a warp fails only where some lane's value is not a plain number or
// the expression has a leaf with no value.
TEST(LaneEvaluator, WarpNumbersAreEachLanesNumbers) {
  Generator G;
  const std::map<std::string, int64_t> Uniforms{{"n", 100}};
  std::array<std::map<unsigned, int64_t>, WarpLanes::Size> Loops;
  unsigned Warps = 0, Failed = 0;
  for (int I = 0; I < 6000; ++I) {
    SymRef E = G.expr(4);
    bool Shared = G.pick(2);
    LaneEnv Common;
    Common.BlockDim[0] = 64;
    Common.BlockDim[1] = 4;
    Common.UniformValues = &Uniforms;
    WarpLanes W;
    W.Common = &Common;
    W.SameLoops = Shared;
    uint32_t Mask = G.pick(4) ? uint32_t(G.Rng()) | 1u : 0xffffffffu;
    unsigned Base = unsigned(G.pick(2)) * 32, Row = unsigned(G.pick(4));
    for (unsigned L = 0; L < WarpLanes::Size; ++L) {
      W.Tid[L] = {Base + L, Shared ? Row : unsigned(G.pick(4)), 0};
      Loops[L] = {{0, Shared ? 7 : G.pick(9) - 4}, {1, -3}};
      W.Loops[L] = &Loops[L];
    }
    std::array<int64_t, WarpLanes::Size> Out;
    bool Ok = evaluateWarpNumbers(*E, W, Mask, Out);
    bool AllExact = true;
    for (unsigned L = 0; L < WarpLanes::Size; ++L) {
      if (!(Mask >> L & 1))
        continue;
      LaneEnv Env = Common;
      std::copy(W.Tid[L].begin(), W.Tid[L].end(), Env.Tid);
      Env.LoopValues = W.Loops[L];
      LaneValue V = evaluateLane(*E, Env);
      AllExact &= V.exact();
      if (Ok) {
        ASSERT_TRUE(V.exact()) << toString(E) << " lane " << L;
        ASSERT_EQ(Out[L], V.C) << toString(E) << " lane " << L;
      }
    }
    SymLeaves Lv = collectLeaves(E);
    bool HasUnknownLeaf = !Lv.Varyings.empty() || Lv.UsesBlockDim[2] ||
                          llvm::any_of(Lv.Uniforms, [](const SymExpr *U) { return U->Name == "m"; }) ||
                          llvm::any_of(Lv.Loops, [](const SymExpr *X) { return X->LoopId == 2; });
    if (!Ok)
      EXPECT_TRUE(!AllExact || HasUnknownLeaf) << toString(E);
    ++Warps;
    Failed += !Ok;
  }
  // Both outcomes occur.
  EXPECT_GT(Warps - Failed, 1500u);
  EXPECT_GT(Failed, 1500u);
}

// A UniformMemo shared by many lanes, block shapes, threadIdx.y values and
// counter values (as the lanes of one warp share it, over the iterations the
// enumeration visits) changes nothing: every result is the one computed
// without it. The memo is used, so a key that left out a counter's value or
// threadIdx.y would be caught.
TEST(LaneEvaluator, UniformMemoChangesNoResult) {
  Generator G;
  const std::map<std::string, int64_t> Uniforms{{"n", 100}};
  UniformMemo Memo, Pass;
  Memo.Shared = &Pass; // nodes reading no threadIdx are kept there
  std::vector<SymRef> Exprs;
  for (int I = 0; I < 400; ++I)
    Exprs.push_back(G.expr(4));
  for (int I = 0; I < 8000; ++I) {
    const SymRef &E = Exprs[size_t(G.pick(int(Exprs.size())))];
    const std::map<unsigned, int64_t> Loops{{0, G.pick(3)}, {1, G.pick(3) - 1}};
    LaneEnv Env;
    Env.Tid[0] = unsigned(G.pick(64));
    Env.Tid[1] = unsigned(G.pick(4));
    Env.BlockDim[0] = G.pick(2) ? 64 : 32;
    Env.BlockDim[1] = 4;
    Env.WarpUniformAxes = G.pick(2) ? 2 : 0;
    Env.LoopValues = &Loops;
    Env.UniformValues = &Uniforms;
    LaneValue Plain = evaluateSymbolically(*E, Env);
    Env.Memo = &Memo;
    LaneValue Kept = evaluateSymbolically(*E, Env);
    ASSERT_EQ(Plain.Unknown, Kept.Unknown) << toString(E);
    ASSERT_EQ(Plain.Why, Kept.Why) << toString(E);
    ASSERT_EQ(Plain.Terms, Kept.Terms) << toString(E);
    ASSERT_EQ(Plain.C, Kept.C) << toString(E);
  }
  EXPECT_GT(Pass.Values.size(), 100u);
  // Nodes that read threadIdx.y are kept too (per value of it), in the
  // warp's own memo.
  size_t ReadingY = 0;
  for (const auto &KV : Memo.Values)
    ReadingY += KV.first.TidYZ[0] >= 0;
  EXPECT_GT(ReadingY, 20u);
  for (const auto &KV : Pass.Values)
    EXPECT_EQ(KV.first.Node->ThreadAxes, 0);
}

// (int)log2(n) of a launch argument: floor(log2(n)) for n >= 1, folded when
// n is constant; for n <= 0 (converting the logarithm is undefined) an
// unknown with the reason, never a number.
TEST(LaneEvaluator, FloorLog2) {
  auto Log2 = [](SymRef A) { return SymExpr::unary(Opcode::Log2, A, IntType::i32()); };
  EXPECT_EQ(Log2(SymExpr::constant(1, IntType::i32()))->Value, 0);
  EXPECT_EQ(Log2(SymExpr::constant(64, IntType::i32()))->Value, 6);
  EXPECT_EQ(Log2(SymExpr::constant(100, IntType::i32()))->Value, 6);
  EXPECT_FALSE(Log2(SymExpr::constant(0, IntType::i32()))->isConst());
  SymRef Half = SymExpr::binary(Opcode::Div, SymExpr::cast(SymExpr::blockDim(Axis::X), IntType::i32()),
                                SymExpr::constant(2, IntType::i32()), IntType::i32());
  EXPECT_EQ(toString(Log2(Half)), "log2(blockDim.x / 2)");
  LaneEnv Env;
  for (unsigned B : {1u, 2u, 128u, 1000u}) {
    Env.BlockDim[0] = B;
    LaneValue V = evaluateLane(*Log2(Half), Env);
    if (B < 2) {
      EXPECT_EQ(V.Unknown, UnknownKind::Undefined);
      EXPECT_EQ(V.Why, "the logarithm of 0 converted to an integer");
    } else {
      ASSERT_TRUE(V.exact());
      EXPECT_EQ(V.C, floorLog2(B / 2));
    }
  }
}

/// int f(int n) { int r = 0; while (n > Stop) { n = n / 2; r = r + 1; } return r / Div; }
std::shared_ptr<HostFunction> halvings(int Stop, int Div) {
  auto F = std::make_shared<HostFunction>();
  F->Name = "halvings";
  F->Result = IntType::i32();
  F->Params = 1;
  F->SlotTypes = {IntType::i32(), IntType::i32()};
  auto C = [](int64_t V) { return SymExpr::constant(V, IntType::i32()); };
  SymRef N = HostFunction::slot(0, IntType::i32()), R = HostFunction::slot(1, IntType::i32());
  using K = HostFunction::StmtKind;
  HostFunction::Stmt Loop{K::Loop, 0, SymExpr::binary(Opcode::GT, N, C(Stop), IntType::boolean()), {}, {}, true};
  Loop.Body = {{K::Assign, 0, SymExpr::binary(Opcode::Div, N, C(2), IntType::i32()), {}, {}, true},
               {K::Assign, 1, SymExpr::binary(Opcode::Add, R, C(1), IntType::i32()), {}, {}, true}};
  F->Body = {{K::Assign, 1, C(0), {}, {}, true}, Loop,
             {K::Return, 0, SymExpr::binary(Opcode::Div, R, C(Div), IntType::i32()), {}, {}, true}};
  return F;
}

TEST(LaneEvaluator, HostFunctionCall) {
  auto F = halvings(1, 1);
  EXPECT_EQ(F->call({128}), 7);
  EXPECT_EQ(F->call({100}), 6);
  EXPECT_EQ(F->call({1}), 0);
  EXPECT_EQ(F->call({}), std::nullopt); // wrong arity
  // Folded by the builder on constants; evaluated per block width otherwise.
  EXPECT_EQ(SymExpr::call(F, {SymExpr::constant(64, IntType::i32())}, IntType::i32())->Value, 6);
  SymRef Call = SymExpr::call(F, {SymExpr::cast(SymExpr::blockDim(Axis::X), IntType::i32())}, IntType::i32());
  EXPECT_EQ(toString(Call), "halvings(blockDim.x)");
  LaneEnv Env;
  Env.BlockDim[0] = 256;
  LaneValue V = evaluateLane(*Call, Env);
  ASSERT_TRUE(V.exact());
  EXPECT_EQ(V.C, 8);
  // Division by zero, and a loop that never ends (n > -1 halving stays at
  // 0): no value, the run bounded by the step budget.
  EXPECT_EQ(halvings(1, 0)->call({8}), std::nullopt);
  auto Endless = halvings(-1, 1);
  EXPECT_EQ(Endless->call({8}), std::nullopt);
  LaneValue U = evaluateLane(*SymExpr::call(Endless, {SymExpr::cast(SymExpr::blockDim(Axis::X), IntType::i32())},
                                            IntType::i32()),
                             Env);
  EXPECT_EQ(U.Unknown, UnknownKind::Undefined);
  EXPECT_EQ(U.Why, "the host function 'halvings' gives no value for (256) within 200000 steps");
  // Unset locals are not read as anything.
  auto Unset = halvings(1, 1);
  Unset->Body.erase(Unset->Body.begin());
  EXPECT_EQ(Unset->call({8}), std::nullopt);
}

} // namespace

/// Copies of one source expression (an unrolled loop's 'm' and 'm#2') print
/// alike but are distinct values: a non-linear operation on each is an
/// opaque uniform term of its own, so their difference is not 0; the same
/// node twice still cancels.
TEST(LaneEvaluator, OpaqueTermsOfCopiesStayDistinct) {
  const IntType T = IntType::i32();
  auto Third = [&](const char *Name) {
    return SymExpr::binary(Opcode::Div, SymExpr::uniform(Name, "value loaded from memory", T),
                           SymExpr::constant(3, T), T);
  };
  SymRef A = Third("m"), B = Third("m#2");
  ASSERT_EQ(toString(*A), toString(*B));
  LaneEnv Env;
  Env.BlockDim[0] = 32;
  LaneValue Difference = evaluateLane(*SymExpr::binary(Opcode::Sub, A, B, T), Env);
  EXPECT_TRUE(Difference.known());
  EXPECT_FALSE(Difference.exact());
  EXPECT_EQ(Difference.Terms.size(), 2u);
  LaneValue Zero = evaluateLane(*SymExpr::binary(Opcode::Sub, A, A, T), Env);
  EXPECT_TRUE(Zero.exact());
  EXPECT_EQ(Zero.C, 0);
}
