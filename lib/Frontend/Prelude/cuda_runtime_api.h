/* cuda-bank-lint prelude-mode stand-in for <cuda_runtime_api.h>: see cbl_prelude.h. */
#include "cuda_runtime.h"
