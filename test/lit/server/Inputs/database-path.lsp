# For database.test: initializationOptions.compilationDatabasePath, relative
# to the root; the database there disappears (build/ is broken meanwhile).
# LSP> initialize {"debounceMs": 0, "compilationDatabasePath": "db"}
# LSP> open src/k.cu 1
# LSP> wait-diagnostics src/k.cu 1
# LSP> shell rm db/compile_commands.json
# LSP> edit src/k.cu 2 {"old": "= in[threadIdx.x]", "new": "= in[threadIdx.x + 1]"}
# LSP> wait-diagnostics src/k.cu 2
# LSP> shutdown
# LSP> exit
