//===- InProgress.cpp - Which function a check is analysing ----------------===//
#include "cuda-bank-lint/Checks/InProgress.h"

#include "llvm/Support/Compiler.h"

namespace cbl {

namespace {
thread_local const FunctionModel *Current = nullptr;
std::string FailIn; // set once, before any analysis starts
} // namespace

FunctionInProgress::FunctionInProgress(const FunctionModel &F) : Outer(Current) {
  Current = &F;
  if (!FailIn.empty() && F.Name == FailIn)
    LLVM_BUILTIN_TRAP;
}

FunctionInProgress::~FunctionInProgress() { Current = Outer; }

const FunctionModel *FunctionInProgress::current() { return Current; }

void FunctionInProgress::reset() { Current = nullptr; }

void FunctionInProgress::failOnPurposeIn(const std::string &Name) { FailIn = Name; }

} // namespace cbl
