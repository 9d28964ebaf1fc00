/* cuda-bank-lint prelude-mode stand-in for <cuda.h>: see cbl_prelude.h. */
#include "cuda_runtime.h"
