/* cuda-bank-lint prelude-mode stand-in for <cuda_fp16.h>: __half/__nv_bfloat16 are in cbl_prelude.h. */
#include "cbl_prelude.h"
