// Host-only C++: not a CUDA entry, never linted.
struct SimParams { int n; };
#include "host_api.cuh"
int hostOnly(int x) { return x + 1; }
