//===- HostFunction.cpp - Running a pure integer function of the host -----===//
#include "cuda-bank-lint/AccessModel/HostFunction.h"

namespace cbl {

namespace {

constexpr const char *SlotReason = "a local of a host function";

enum class Flow { Next, Break, Continue, Return, Fail };

/// One call's state: the locals (unset until assigned), the steps taken.
struct Run {
  const HostFunction &F;
  std::vector<std::optional<int64_t>> Slots;
  unsigned Steps = 0;
  int64_t Returned = 0;

  bool step() { return ++Steps <= HostFunction::MaxSteps; }

  /// E on the current locals, as a constant node; null when it has none.
  SymRef eval(const SymRef &E) {
    if (!E || !step())
      return nullptr;
    if (E->Kind == ExprKind::Uniform && E->Reason == SlotReason) {
      unsigned I = unsigned(std::stoul(E->Name.substr(1)));
      if (I >= Slots.size() || !Slots[I])
        return nullptr;
      return SymExpr::constant(*Slots[I], E->Type);
    }
    if (E->Ops.empty())
      return E->isConst() ? E : nullptr;
    // Only the operand C++ evaluates: the chosen arm, the right side of
    // && and || when the left does not decide.
    if (E->Kind == ExprKind::Select) {
      SymRef C = eval(E->Ops[0]);
      SymRef V = C ? eval(E->Ops[C->Value ? 1 : 2]) : nullptr;
      return V ? SymExpr::constant(V->Value, E->Type) : nullptr;
    }
    std::vector<SymRef> Ops;
    for (size_t I = 0; I < E->Ops.size(); ++I) {
      SymRef V = eval(E->Ops[I]);
      if (!V)
        return nullptr;
      if (I == 0 && E->Kind == ExprKind::Binary &&
          ((E->Op == Opcode::LAnd && V->Value == 0) || (E->Op == Opcode::LOr && V->Value != 0)))
        return SymExpr::constant(V->Value != 0, E->Type);
      Ops.push_back(std::move(V));
    }
    SymRef R = withOperands(E, Ops);
    return R && R->isConst() ? R : nullptr;
  }

  Flow exec(const std::vector<HostFunction::Stmt> &Body) {
    for (const HostFunction::Stmt &S : Body) {
      Flow F = exec(S);
      if (F != Flow::Next)
        return F;
    }
    return Flow::Next;
  }

  /// The condition's truth; nullopt when it has no value.
  std::optional<bool> test(const SymRef &Cond) {
    if (!Cond)
      return true;
    SymRef V = eval(Cond);
    return V ? std::optional<bool>(V->Value != 0) : std::nullopt;
  }

  Flow exec(const HostFunction::Stmt &S) {
    if (!step())
      return Flow::Fail;
    using K = HostFunction::StmtKind;
    switch (S.Kind) {
    case K::Assign: {
      SymRef V = eval(S.Value);
      if (!V || S.Slot >= Slots.size())
        return Flow::Fail;
      Slots[S.Slot] = wrapToType(V->Value, F.SlotTypes[S.Slot]);
      return Flow::Next;
    }
    case K::Return: {
      SymRef V = eval(S.Value);
      if (!V)
        return Flow::Fail;
      Returned = wrapToType(V->Value, F.Result);
      return Flow::Return;
    }
    case K::Break: return Flow::Break;
    case K::Continue: return Flow::Continue;
    case K::If: {
      std::optional<bool> C = test(S.Value);
      if (!C)
        return Flow::Fail;
      return exec(*C ? S.Body : S.Else);
    }
    case K::Loop:
      for (bool First = true;; First = false) {
        if (S.TestFirst || !First) {
          std::optional<bool> C = test(S.Value);
          if (!C)
            return Flow::Fail;
          if (!*C)
            return Flow::Next;
        }
        Flow F = exec(S.Body);
        if (F == Flow::Break)
          return Flow::Next;
        if (F == Flow::Return || F == Flow::Fail)
          return F;
        F = exec(S.Else);
        if (F != Flow::Next)
          return F == Flow::Break || F == Flow::Continue ? Flow::Fail : F;
        if (!step())
          return Flow::Fail;
      }
    }
    return Flow::Fail;
  }
};

} // namespace

SymRef HostFunction::slot(unsigned I, IntType T) {
  return SymExpr::uniform("$" + std::to_string(I), SlotReason, T);
}

std::optional<int64_t> HostFunction::call(const std::vector<int64_t> &Args) const {
  if (Args.size() != Params)
    return std::nullopt;
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    auto It = Cache.find(Args);
    if (It != Cache.end())
      return It->second;
  }
  Run R{*this, std::vector<std::optional<int64_t>>(SlotTypes.size()), 0, 0};
  for (unsigned I = 0; I < Params; ++I)
    R.Slots[I] = wrapToType(Args[I], SlotTypes[I]);
  // Falling off the end of a function that returns a value is undefined.
  std::optional<int64_t> Out;
  if (R.exec(Body) == Flow::Return)
    Out = R.Returned;
  std::lock_guard<std::mutex> Lock(CacheMutex);
  if (Cache.size() < 4096)
    Cache.emplace(Args, Out);
  return Out;
}

} // namespace cbl
