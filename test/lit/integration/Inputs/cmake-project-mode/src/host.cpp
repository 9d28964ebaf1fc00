// Host-only C++: not a CUDA entry, never linted.
int hostOnly(int x) { return x + 1; }
