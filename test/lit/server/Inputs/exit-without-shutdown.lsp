# LSP> initialize
# LSP> exit
