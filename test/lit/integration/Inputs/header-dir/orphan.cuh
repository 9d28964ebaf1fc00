// Host declarations for a C++ file that defines SimParams first; no CUDA
// file includes it.
void setParameters(SimParams *hostParams);
