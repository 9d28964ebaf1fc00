/* cuda-bank-lint prelude-mode stand-in for <device_launch_parameters.h>: see cbl_prelude.h. */
#include "cuda_runtime.h"
