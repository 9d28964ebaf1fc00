//===- JsonReporter.cpp - The stable JSON document (docs/json-schema.md) ---===//
#include <cmath>
#include "cuda-bank-lint/Report/Reporters.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace cbl {

namespace {

llvm::json::Object position(const SourcePos &P) {
  return llvm::json::Object{{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

llvm::json::Array fixes(const std::vector<FixIt> &Fs) {
  llvm::json::Array A;
  for (const FixIt &F : Fs)
    A.push_back(llvm::json::Object{{"file", F.Range.Begin.File},
                                   {"line", F.Range.Begin.Line},
                                   {"column", F.Range.Begin.Column},
                                   {"offset", F.Range.Begin.Offset},
                                   {"length", F.Range.Length},
                                   {"replacement", F.Text}});
  return A;
}

llvm::json::Array strings(const std::vector<std::string> &S) {
  llvm::json::Array A;
  A.reserve(S.size());
  for (const auto &X : S)
    A.push_back(X);
  return A;
}

llvm::json::Array units(const std::vector<UnitStatus> &Units) {
  llvm::json::Array A;
  for (const UnitStatus &U : Units) {
    llvm::json::Array Skipped;
    for (const SkippedFunction &S : U.Skipped) {
      llvm::json::Object O = position(S.Where);
      O["kind"] = skippedKindName(S.What);
      O["function"] = S.Name;
      O["error"] = S.Error;
      O["error_location"] = S.ErrorWhere.valid() ? llvm::json::Value(position(S.ErrorWhere)) : nullptr;
      O["via"] = S.Via.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(S.Via);
      Skipped.push_back(std::move(O));
    }
    llvm::json::Array Notes;
    for (const FrontEndNote &N : U.Notes) {
      llvm::json::Object O = position(N.Where);
      O["message"] = N.Message;
      Notes.push_back(std::move(O));
    }
    llvm::json::Object O{{"file", U.File},
                         {"status", unitStateName(U.Status)},
                         {"skipped", std::move(Skipped)},
                         {"notes", std::move(Notes)}};
    if (U.Status == UnitStatus::State::Failed || U.Status == UnitStatus::State::Skipped) {
      O["error"] = U.Error;
      O["error_location"] = U.ErrorWhere.valid() ? llvm::json::Value(position(U.ErrorWhere)) : nullptr;
      O["missing_header"] = U.MissingHeader.empty() ? llvm::json::Value(nullptr)
                                                    : llvm::json::Value(U.MissingHeader);
    }
    A.push_back(std::move(O));
  }
  return A;
}

llvm::json::Object diagnostic(const Finding &F, FixesOnce &Once) {
  llvm::json::Array Notes;
  for (const FindingNote &N : F.Notes) {
    llvm::json::Object O{{"message", N.Message},
                         {"fixes", fixes(Once.fresh(N.Fixes, F))},
                         {"role", noteRoleName(N.Role)}};
    if (N.Where.valid())
      O["location"] = position(N.Where);
    Notes.push_back(std::move(O));
  }
  llvm::json::Object D = position(F.Where);
  D["check"] = F.Check;
  D["severity"] = severityName(F.Level);
  D["message"] = F.Message;
  D["notes"] = std::move(Notes);
  D["fixes"] = fixes(Once.fresh(F.Fixes, F));
  return D;
}

/// An atomic's rule and the loads of its compare-and-swap loop.
void atomicFields(const AccessRecord &A, llvm::json::Object &O) {
  O["atomic_rule"] = atomicRuleName(A.Atomic);
  O["iterations"] = A.Iterations;
  O["loop_load_wavefronts"] = A.LoopLoadWavefronts;
  if (A.Atomic == AtomicRule::CasLoop || A.Atomic == AtomicRule::GenericCasLoop) {
    O["loop_load_ideal"] = A.LoopLoadIdeal;
    O["block_loop_load_wavefronts"] = int64_t(A.BlockLoopLoadWavefronts);
    O["block_loop_load_ideal"] = int64_t(A.BlockLoopLoadIdeal);
  }
}

llvm::json::Object randomData(const RandomDataRecord &R) {
  llvm::json::Object O{{"expected_wavefronts", std::round(R.Wavefronts * 1000) / 1000},
                       {"expected_ideal", std::round(R.Ideal * 1000) / 1000},
                       {"worst_wavefronts", R.WorstWavefronts},
                       {"worst_ideal", R.WorstIdeal},
                       {"worst_reachable", R.WorstReachable},
                       {"samples", R.Samples},
                       {"lanes", R.Lanes},
                       {"values", strings(R.Values)},
                       {"draw", randomDrawName(R.Draw)}};
  if (R.Draw == RandomDraw::ArrayElement) {
    O["values_read"] = int64_t(R.Values.size());
    O["elements"] = R.Elements;
  }
  if (!R.Regardless.empty())
    O["regardless_of"] = strings(R.Regardless);
  return O;
}

llvm::json::Array cases(const std::vector<AccessCase> &Cs) {
  llvm::json::Array A;
  A.reserve(Cs.size());
  for (const AccessCase &C : Cs)
    A.push_back(llvm::json::Object{{"case", C.Label},
                                   {"degree", C.Degree},
                                   {"wavefronts", C.Wavefronts},
                                   {"ideal", C.Ideal},
                                   {"active_lanes", C.ActiveLanes}});
  return A;
}

/// call_site (the outermost call, in the analysed function) and call_chain.
void callChain(const std::vector<CallFrame> &Frames, llvm::json::Object &O) {
  if (Frames.empty()) {
    O["call_site"] = nullptr;
    O["call_chain"] = llvm::json::Array();
    return;
  }
  const CallFrame &Outer = Frames.front();
  O["call_site"] = llvm::json::Object{{"file", Outer.Site.File},
                                      {"line", Outer.Site.Line},
                                      {"column", Outer.Site.Column},
                                      {"callee", Outer.Callee}};
  llvm::json::Array Chain;
  Chain.reserve(Frames.size());
  for (const CallFrame &C : Frames) {
    llvm::json::Object Frame = position(C.Site);
    Frame["callee"] = C.Callee;
    Chain.push_back(std::move(Frame));
  }
  O["call_chain"] = std::move(Chain);
}

llvm::json::Array lanes(const std::vector<LaneRow> &Rows) {
  llvm::json::Array A;
  A.reserve(Rows.size());
  for (const LaneRow &L : Rows)
    A.push_back(llvm::json::Object{{"lane", L.Lane},
                                   {"tid", llvm::json::Array{L.Tid[0], L.Tid[1], L.Tid[2]}},
                                   {"active", L.Active},
                                   {"address", int64_t(L.Address)},
                                   {"bank", L.Bank},
                                   {"word", int64_t(L.Word)}});
  return A;
}

/// The verdict's figures: status, cost per warp and per block, cases.
void verdictFields(const AccessRecord &A, llvm::json::Object &O) {
  O["status"] = verdictStatusName(A.Status);
  O["reason"] = A.Reason;
  O["wavefronts"] = A.Wavefronts;
  O["ideal"] = A.Ideal;
  O["degree"] = A.Degree;
  O["worst_warp"] = A.WorstWarp;
  O["active_mask"] = llvm::formatv("{0:x8}", A.ActiveMask).str();
  O["never_executed"] = A.NeverExecuted;
  if (A.Status == VerdictStatus::Bound)
    O["per_execution"] = A.PerExecution;
  if (A.Random)
    O["random_data"] = randomData(*A.Random);
  if (A.Edge)
    O["boundary_warp"] = llvm::json::Object{{"wavefronts", A.Edge->Wavefronts},
                                            {"source_page_ideal", A.Edge->PageIdeal},
                                            {"warp", A.Edge->Warp},
                                            {"active_mask", llvm::formatv("{0:x8}", A.Edge->Lanes).str()}};
  O["block_wavefronts"] = int64_t(A.BlockWavefronts);
  O["block_ideal"] = int64_t(A.BlockIdeal);
  O["block_iterations"] = int64_t(A.BlockIterations);
  if (A.RepeatedIterations)
    O["repeated_iterations"] = int64_t(A.RepeatedIterations);
  if (!A.Cases.empty())
    O["cases"] = cases(A.Cases);
}

/// What the verdict assumed and depends on: block shape, call chain,
/// offset, parameters, loops, guards.
void contextFields(const AccessRecord &A, llvm::json::Object &O) {
  if (A.Shape.known())
    O["block_dim"] = llvm::json::Array{A.Shape.Dim[0], A.Shape.Dim[1], A.Shape.Dim[2]};
  else
    O["block_dim"] = nullptr;
  O["block_dim_source"] = blockShapeSourceName(A.Shape.From);
  O["block_dim_note"] = A.Shape.Description;
  O["launch_arguments"] = strings(A.LaunchArguments);
  callChain(A.CallChain, O);
  O["byte_offset"] = A.Index;
  if (!A.MergedWith.empty()) {
    llvm::json::Array Merged;
    for (const auto &[Where, Text] : A.MergedWith) {
      llvm::json::Object M = position(Where);
      M["expression"] = Text;
      Merged.push_back(std::move(M));
    }
    O["merged_with"] = std::move(Merged);
  }
  O["parameters"] = strings(A.Parameters);
  llvm::json::Array Flags;
  for (const SourcePos &L : A.LoopFlags)
    Flags.push_back(position(L));
  O["loop_flags"] = std::move(Flags);
  O["assumed_uniform"] = strings(A.AssumedUniform);
  O["bound_by"] = strings(A.BoundBy);
  if (!A.BoundaryBy.empty()) {
    O["boundary_by"] = strings(A.BoundaryBy);
    O["boundary"] = A.Boundary;
  }
}

llvm::json::Object access(const AccessRecord &A) {
  llvm::json::Object O = position(A.Where);
  O["function"] = A.Function;
  O["array"] = A.Array;
  O["expression"] = A.Spelling;
  O["op"] = accessOpName(A.Op);
  O["width"] = A.Width;
  if (!A.Instruction.empty())
    O["instruction"] = A.Instruction;
  if (A.Op == AccessOp::Atomic)
    atomicFields(A, O);
  verdictFields(A, O);
  contextFields(A, O);
  if (!A.Lanes.empty())
    O["lanes"] = lanes(A.Lanes);
  return O;
}

llvm::json::Object variable(const SharedVariableRecord &V) {
  llvm::json::Object O = position(V.Decl);
  O["name"] = V.Name;
  O["type"] = V.ElementType;
  llvm::json::Array Dims;
  for (uint64_t D : V.Dims)
    Dims.push_back(int64_t(D));
  O["dims"] = std::move(Dims);
  O["bytes"] = int64_t(V.Bytes);
  O["extern"] = V.IsExtern;
  llvm::json::Object ByStatus;
  unsigned Total = 0;
  for (const auto &[Status, N] : V.Accesses) {
    ByStatus[verdictStatusName(Status)] = N;
    Total += N;
  }
  O["accesses"] = Total;
  O["accesses_by_status"] = std::move(ByStatus);
  return O;
}

} // namespace

void printJson(const RunReport &R, llvm::raw_ostream &OS) {
  // Reserved: json::Value's move may throw, so a vector that grows copies
  // every element it holds (each access record, deeply).
  llvm::json::Array Diags;
  Diags.reserve(R.Findings.size());
  FixesOnce Once;
  for (const Finding &F : R.Findings)
    Diags.push_back(diagnostic(F, Once));
  llvm::json::Array Accesses;
  Accesses.reserve(R.Accesses.size());
  for (const AccessRecord &A : R.Accesses)
    Accesses.push_back(access(A));
  llvm::json::Array Variables;
  Variables.reserve(R.Variables.size());
  for (const SharedVariableRecord &V : R.Variables)
    Variables.push_back(variable(V));
  llvm::json::Object Doc{{"tool", "cuda-bank-lint"},
                         {"version", R.ToolVersion},
                         {"schema", 1},
                         {"mode", R.Mode},
                         {"files", R.Files},
                         {"errors", R.Errors},
                         {"partly_analysed", R.PartlyAnalysed},
                         {"translation_units", units(R.Units)},
                         {"shared_variables", std::move(Variables)},
                         {"diagnostics", std::move(Diags)},
                         {"accesses", std::move(Accesses)}};
  OS << llvm::formatv("{0:2}", llvm::json::Value(std::move(Doc))) << "\n";
}

} // namespace cbl
