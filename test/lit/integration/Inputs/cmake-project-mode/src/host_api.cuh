// Host declarations for host.cpp, which defines SimParams first; no CUDA
// file includes it.
void setParameters(SimParams *hostParams);
