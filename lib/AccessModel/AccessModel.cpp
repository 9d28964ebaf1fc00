//===- AccessModel.cpp - Names and text for access-model values ------------===//
#include "cuda-bank-lint/AccessModel/AccessModel.h"

#include <fmt/format.h>

namespace cbl {

const char *randomDrawName(RandomDraw D) {
  return D == RandomDraw::LoadedValues ? "loaded-values" : "array-element";
}

const char *verdictStatusName(VerdictStatus S) {
  switch (S) {
  case VerdictStatus::Exact: return "exact";
  case VerdictStatus::Bound: return "bound";
  case VerdictStatus::Unknown: return "unknown";
  case VerdictStatus::DataDependent: return "data-dependent";
  case VerdictStatus::Unsupported: return "unsupported";
  }
  return "unknown";
}

const char *guardKindSpelling(GuardKind K) {
  switch (K) {
  case GuardKind::If: return "if";
  case GuardKind::Else: return "else";
  case GuardKind::Conditional: return "?:";
  case GuardKind::And: return "&&";
  case GuardKind::Or: return "||";
  case GuardKind::Loop: return "loop";
  case GuardKind::Switch: return "switch";
  case GuardKind::EarlyReturn: return "early return";
  case GuardKind::Break: return "break";
  case GuardKind::Continue: return "continue";
  case GuardKind::Reached: return "reached";
  case GuardKind::Unrolled: return "unrolled";
  }
  return "if";
}

const char *blockShapeSourceName(BlockShape::Source S) {
  switch (S) {
  case BlockShape::Source::CommandLine: return "command-line";
  case BlockShape::Source::Config: return "config";
  case BlockShape::Source::Annotation: return "annotation";
  case BlockShape::Source::Launch: return "launch";
  case BlockShape::Source::LaunchBounds: return "launch-bounds";
  case BlockShape::Source::Assumed: return "assumed";
  }
  return "assumed";
}

const char *skippedKindName(SkippedFunction::Kind K) {
  switch (K) {
  case SkippedFunction::Kind::Kernel: return "kernel";
  case SkippedFunction::Kind::Device: return "device";
  case SkippedFunction::Kind::Host: return "host";
  }
  return "device";
}

std::string internalLoopFlagName(unsigned Line) {
  return "a lane runs another iteration of the loop at line " + std::to_string(Line);
}

const LoopInfo *loopOfInternalFlag(const std::vector<LoopInfo> &Loops, const std::string &Name) {
  for (const LoopInfo &L : Loops)
    for (const LoopCounter &C : L.Counters)
      if (C.Internal && C.Name == Name)
        return &L;
  return nullptr;
}

std::string describeBlockShape(const BlockShape &S) {
  if (!S.known())
    return S.Description;
  return fmt::format("block {}x{}x{} {}", S.Dim[0], S.Dim[1], S.Dim[2], S.Description);
}

std::string threadBoundText(const BlockShape &S) {
  return S.MaxThreads < 1024 ? fmt::format(", {} threads at most (__launch_bounds__)", S.MaxThreads) : "";
}

std::string describeLaunchArgument(const LaunchArgument &A) {
  std::string Launch = fmt::format("{}:{}:{}", A.Where.File, A.Where.Line, A.Where.Column);
  return fmt::format("kernel parameter '{}' taken as {}: {} '{}' for it", A.Param, A.Value,
                     A.Launches == 1 ? "the launch at " + Launch + " (the only one in this file) passes"
                                     : fmt::format("all {} launches in this file pass", A.Launches),
                     A.Spelling);
}

// A new member that holds a position must be visited: update forEachPosition.
static_assert(sizeof(FunctionModel) == 648 && sizeof(SharedAccess) == 392 && sizeof(BarrierSite) == 216 &&
                  sizeof(Guard) == 80 && sizeof(LoopInfo) == 104 && sizeof(LaunchArgument) == 152 &&
                  sizeof(BlockShape) == 112 && sizeof(CallFrame) == 80,
              "a model struct changed: update forEachPosition");

void forEachPosition(FunctionModel &F, const std::function<void(SourcePos &)> &Fn) {
  auto Guards = [&](std::vector<Guard> &Gs) {
    for (Guard &G : Gs)
      Fn(G.Where);
  };
  Fn(F.Where);
  Fn(F.Shape.Where);
  for (std::optional<BlockShape> *S : {&F.LaunchShape, &F.BoundsShape})
    if (*S)
      Fn((*S)->Where);
  for (BlockShape &S : F.OtherLaunchShapes)
    Fn(S.Where);
  for (LaunchArgument &A : F.LaunchArguments)
    Fn(A.Where);
  for (SharedAccess &A : F.Accesses) {
    Fn(A.Where);
    Guards(A.Guards);
    for (auto &M : A.MergedWith)
      Fn(M.first);
    for (CallFrame &C : A.CallChain)
      Fn(C.Site);
  }
  for (BarrierSite &B : F.Barriers) {
    Fn(B.Where);
    Guards(B.Guards);
    Fn(B.CalleeBarrier);
  }
  for (LoopInfo &L : F.Loops)
    Fn(L.Where);
}

} // namespace cbl
