# For config.test: lenient/k.cu opened, its diagnostics.
# LSP> initialize {"debounceMs": 0}
# LSP> open lenient/k.cu 1
# LSP> wait-diagnostics lenient/k.cu 1
# LSP> shutdown
# LSP> exit
