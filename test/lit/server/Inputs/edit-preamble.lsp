# For debounce.test: an edit after the preamble, then one in it.
# LSP> initialize {"debounceMs": 0}
# LSP> open k.cu 1
# LSP> wait-diagnostics k.cu 1
# LSP> edit k.cu 2 {"old": "= in[threadIdx.x]", "new": "= in[threadIdx.x + 1]"}
# LSP> wait-diagnostics k.cu 2
# LSP> edit k.cu 3 {"old": "#define TILE 32", "new": "#define TILE 32 // edited"}
# LSP> wait-diagnostics k.cu 3
# LSP> shutdown
# LSP> exit
