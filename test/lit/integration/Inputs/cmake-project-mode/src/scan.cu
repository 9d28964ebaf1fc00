// Defines what scan_impl.cuh needs before including it.
#define WIDTH 64
#include "scan_impl.cuh"
void launchScan(float *o) { pairs<<<1, WIDTH>>>(o); }
