//===- HtmlOutput.cpp - --html=DIR: the HTML report written to a directory ---===//
#include "HtmlOutput.h"
#include "cuda-bank-lint/Driver/Coverage.h"
#include "cuda-bank-lint/Report/HtmlReporter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace cbl {

bool writeHtml(const AnalysisOutcome &Result, llvm::StringRef Dir, const std::string &PathRoot) {
  HtmlOptions Opts;
  Opts.PathRoot = PathRoot;
  for (const auto &[File, Kernels] : Result.Unmodelled)
    for (const UnmodelledKernel &K : Kernels)
      Opts.Unmodelled.push_back({File, K.Kernel, K.Where, unmodelledReasonText(K.Reason)});
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    llvm::errs() << "cuda-bank-lint: error: cannot create the HTML report's directory '" << Dir
                 << "': " << EC.message() << "\n";
    return false;
  }
  for (const HtmlPage &Page : htmlReport(Result.Report, Opts)) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Page.Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
    if (!EC) {
      OS << Page.Text;
      OS.close();
      EC = OS.error();
    }
    if (EC) {
      llvm::errs() << "cuda-bank-lint: error: cannot write '" << Path << "': " << EC.message() << "\n";
      return false;
    }
  }
  llvm::SmallString<256> Index(Dir);
  llvm::sys::path::append(Index, "index.html");
  llvm::errs() << "cuda-bank-lint: note: HTML report in '" << Index << "'\n";
  return true;
}

} // namespace cbl
