/*===- cuda_runtime.h - cuda-bank-lint stand-in for the CUDA runtime header -===
 * Used only in prelude mode (no CUDA toolkit): the device declarations come
 * from cbl_prelude.h, plus the host runtime API that examples commonly call, so
 * host code parses; host-only errors never stop the analysis of kernels.
 *===----------------------------------------------------------------------===*/
#ifndef CBL_CUDA_RUNTIME_H
#define CBL_CUDA_RUNTIME_H
#include "cbl_prelude.h"
typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                      cudaMemcpyDefault = 4 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0,
                           cudaSharedMemBankSizeFourByte = 1,
                           cudaSharedMemBankSizeEightByte = 2 };
typedef struct CUevent_st *cudaEvent_t;
struct cudaDeviceProp { char name[256]; int major, minor, multiProcessorCount;
                        size_t sharedMemPerBlock; int warpSize, maxThreadsPerBlock; };
extern "C" {
cudaError_t cudaMalloc(void **, size_t);
cudaError_t cudaMallocHost(void **, size_t);
cudaError_t cudaMallocManaged(void **, size_t, unsigned = 1);
cudaError_t cudaFree(void *);
cudaError_t cudaFreeHost(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
cudaError_t cudaMemcpyAsync(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t = 0);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t);
const char *cudaGetErrorName(cudaError_t);
cudaError_t cudaSetDevice(int);
cudaError_t cudaGetDevice(int *);
cudaError_t cudaGetDeviceCount(int *);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *, int);
cudaError_t cudaEventCreate(cudaEvent_t *);
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t);
cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
cudaError_t cudaEventDestroy(cudaEvent_t);
cudaError_t cudaStreamCreate(cudaStream_t *);
cudaError_t cudaStreamSynchronize(cudaStream_t);
cudaError_t cudaStreamDestroy(cudaStream_t);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig);
cudaError_t cudaFuncSetAttribute(const void *, int, int);
}
/* The runtime's typed overloads, so cudaMalloc(&floatPtr, n) compiles. */
template <class T> cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T> cudaError_t cudaMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
#endif
