/* cuda-bank-lint prelude-mode stand-in for <vector_types.h>: see cbl_prelude.h. */
#include "cuda_runtime.h"
