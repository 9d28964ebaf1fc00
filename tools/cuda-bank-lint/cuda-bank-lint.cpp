//===- cuda-bank-lint.cpp - The command-line tool ---------------------------===//
//
// All behaviour lives in the libraries (lib/Driver/CommandLine.cpp, and
// lib/Server for --lsp); this file only hands over argv.
//
//===----------------------------------------------------------------------===//
#include "cuda-bank-lint/Driver/CommandLine.h"
#include "cuda-bank-lint/Server/LanguageServer.h"

int main(int Argc, const char **Argv) {
  return cbl::runTool(Argc, Argv, cbl::runLanguageServer);
}
