// What the tool sees in shared memory but does not model is reported with
// status 'unsupported' and the reason (JSON, --explain, the summary), never
// dropped: atomics without a measured rule, inline PTX with a shared operand (also through
// __cvta_generic_to_shared and integer arithmetic on it), calls without a
// body that receive shared memory. Every __shared__ variable is listed in
// JSON with its accesses by status; a kernel that uses shared memory with no
// recognised access gets a note.
// RUN: %cbl %s 2>&1 | %FileCheck %s
// RUN: %cbl --format=json %s 2>/dev/null | %FileCheck %s --check-prefix=JSON
// RUN: %cbl --explain %s 2>/dev/null | %FileCheck %s --check-prefix=EXPLAIN

__device__ void opaque(int *);

__global__ void instructions(float *out, const int *bins) {
  __shared__ __align__(16) unsigned short tile[64 * 64];
  __shared__ int hist[256];
  __shared__ float unused[32];
  __shared__ unsigned long long wide[32];
  int lane = threadIdx.x % 32;
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  unsigned addr = base + lane * 128;
  unsigned r0, r1, r2, r3;
  // The sm_100 .b8 forms of ldmatrix were not measured.
  // EXPLAIN-DAG: never-silent.cu:[[# @LINE+2]]:{{[0-9]+}}: remark: load from 'tile' in 'instructions' ({{.*}}): unsupported: inline PTX 'ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8' with an operand in shared memory: not modelled yet
  asm volatile("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  // A histogram's atomic is modelled; its address is data: data-dependent.
  // EXPLAIN-DAG: never-silent.cu:[[# @LINE+1]]:3: remark: atomic 'atomicAdd' of 4 bytes from 'hist' in 'instructions' (atomicAdd(&hist[bins[threadIdx.x]], 1)): data-dependent: value loaded from memory
  atomicAdd(&hist[bins[threadIdx.x]], 1);
  // A 64-bit atomicOr is a CAS loop whose cost depends on the values.
  // EXPLAIN-DAG: never-silent.cu:[[# @LINE+1]]:3: remark: atomic 'atomicOr' of 8 bytes from 'wide' in 'instructions' (atomicOr(&wide[lane], 1ull)): unsupported: shared-memory atomic 'atomicOr' on 8-byte values (a compare-and-swap loop that lanes whose value leaves the word unchanged skip, so its cost depends on the data: measured, no rule)
  atomicOr(&wide[lane], 1ull);
  // EXPLAIN-DAG: never-silent.cu:[[# @LINE+1]]:3: remark: load of 4 bytes from 'hist' in 'instructions' (opaque(hist + lane)): unsupported: call of 'opaque', whose body is not available
  opaque(hist + lane);
  out[threadIdx.x] = r0 + r1 + r2 + r3;
}

// The address goes through global memory, which the tool does not follow.
// CHECK: never-silent.cu:[[# @LINE+1]]:17: note: kernel 'laundered' uses shared memory, but no access to it was recognised (its addresses are not modelled); nothing is reported for it
__global__ void laundered(float *out, float **slot) {
  __shared__ float s[64];
  slot[threadIdx.x] = s + threadIdx.x;
  *slot[threadIdx.x ^ 1] = 1.0f;
  out[threadIdx.x] = 0;
}

// CHECK: 1 file analysed, 4 shared accesses (1 data-dependent, 3 unsupported), 0 warnings, 0 errors

// JSON: "op": "ld",
// JSON: "reason": "inline PTX 'ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8' with an operand in shared memory: not modelled yet",
// JSON: "status": "unsupported",
// JSON: "op": "atom",
// JSON: "status": "data-dependent",
// JSON: "op": "atom",
// JSON: "status": "unsupported",
// JSON: "shared_variables": [
// JSON: "accesses": 1,
// JSON-NEXT: "accesses_by_status": {
// JSON-NEXT: "unsupported": 1
// JSON: "name": "tile",
// JSON: "accesses": 2,
// JSON-NEXT: "accesses_by_status": {
// JSON-NEXT: "data-dependent": 1,
// JSON-NEXT: "unsupported": 1
// JSON: "name": "hist",
// JSON: "accesses": 0,
// JSON-NEXT: "accesses_by_status": {},
// JSON: "name": "unused",
// JSON: "accesses": 1,
// JSON: "name": "wide",
// JSON: "name": "s",
