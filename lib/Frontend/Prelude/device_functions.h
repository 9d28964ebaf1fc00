/* cuda-bank-lint prelude-mode stand-in for <device_functions.h>: see cbl_prelude.h. */
#include "cuda_runtime.h"
