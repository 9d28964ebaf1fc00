//===- BankModel.h - Shared-memory bank model of one warp instruction -----===//
//
// The bank model is the pure, hardware-exact core of cuda-bank-lint: given the
// byte addresses one warp presents to shared memory in a single instruction, it
// says how many wavefronts the hardware needs, how many an ideal (conflict-free)
// layout would need, and which bank/word collision made the difference.
//
// It knows nothing about Clang, isl or source code; callers build a WarpAccess
// and read a BankCost. The sm_70+ rules reproduce every row of the H100
// measurements in shared/bank-model (see test/unit/BankModelTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_BANKMODEL_BANKMODEL_H
#define CUDA_BANK_LINT_BANKMODEL_BANKMODEL_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace cbl {

constexpr unsigned WarpSize = 32;

/// The direction of a shared-memory instruction; Atomic is a read-modify-write
/// (atom/red on shared memory), costed by its AtomicRule.
enum class AccessOp { Load, Store, Atomic };
/// "ld", "st", "atom" (the names Nsight Compute and the JSON use).
const char *accessOpName(AccessOp Op);

/// Bank organisation rules. Only Sm70Plus is measured on hardware; the others
/// follow the CUDA programming guide and are documented as unmeasured.
enum class BankArch {
  Sm70Plus,      ///< sm_50 and newer incl. Volta..Hopper: 32 banks x 4 bytes.
  Sm3xEightByte, ///< Kepler with cudaSharedMemBankSizeEightByte: 32 banks x 8 bytes.
  Sm1x,          ///< pre-Fermi: 16 banks x 4 bytes, served per half-warp.
};

/// Parses "sm_XX" / "compute_XX" / "XX" (an "a"/"f" suffix such as sm_90a is
/// accepted) and the names bankArchName returns; std::nullopt when unknown.
/// 1.0-1.3 -> Sm1x; 2.x, 3.x and 5.0 onwards -> Sm70Plus (Kepler's default
/// four-byte bank mode is approximated by it; its eight-byte mode is only
/// chosen by the name "sm_3x-8byte", since the mode is a runtime setting).
std::optional<BankArch> bankArchFromName(const std::string &Name);
const char *bankArchName(BankArch Arch);

/// What a shared-memory atomic compiles to on sm_70+, one rule per class
/// measured on an H100 (test/data/h100-atomics.csv, docs/bank-model.md).
enum class AtomicRule {
  /// One ATOMS (add, sub, inc, dec, min, max, and, or, xor, exch on 32 bits;
  /// red.shared too): the lanes of a bank are served one per wavefront, even
  /// lanes on the same address (no broadcast).
  Native,
  /// ATOMS.CAS / ATOMS.CAS.64 (atomicCAS): two wavefronts per lane of the
  /// busiest bank; 8-byte CAS is served per half-warp.
  Cas,
  /// A loop of LDS + ATOMS.CAST.SPIN(.64) until every lane succeeded (nvcc's
  /// atomicAdd on float, double and 64-bit integers): one lane per bank (per
  /// bank pair and half-warp for 8 bytes) succeeds per iteration, and only
  /// one of the lanes on one address; an iteration costs two wavefronts per
  /// half-warp (8 bytes) or per warp (4 bytes) with a lane left.
  CasLoop,
  /// CasLoop behind a generic-address attempt (atomicAdd on __half2 and
  /// __nv_bfloat162, whose PTX is a generic atom): one more wavefront.
  GenericCasLoop,
  /// ATOMS.POPC.INC.32: a 32-bit add of the constant 1 whose result is
  /// unused (atomicAdd(p, 1), atomicAdd_block, red.shared.add.u32 [a], 1).
  /// The lanes on one word are merged (the word gets their count): the
  /// busiest bank costs its distinct words, as a load does.
  PopcInc,
};
const char *atomicRuleName(AtomicRule R);

/// One warp-wide shared-memory instruction.
struct WarpAccess {
  unsigned Width = 4;               ///< bytes per lane: 1, 2, 4, 8 or 16
  AccessOp Op = AccessOp::Load;
  AtomicRule Atomic = AtomicRule::Native; ///< Op == Atomic only
  /// ldmatrix / stmatrix (Width 16, one 16-byte row address per lane in
  /// ActiveMask): costed like a 16-byte load or store of those rows, in
  /// 8-lane phases, and never merged (measured: test/data/h100-matrix.csv).
  bool Matrix = false;
  uint32_t ActiveMask = 0xffffffffu; ///< bit i set = lane i participates
  std::array<uint64_t, WarpSize> ByteAddr{}; ///< only active lanes are read
};

/// What the hardware pays for one WarpAccess.
struct BankCost {
  unsigned Wavefronts = 0; ///< wavefronts actually needed (0 if no lane active)
  unsigned Ideal = 0;      ///< wavefronts without bank conflicts
  /// Conflict degree: the largest number of distinct 4-byte words one bank
  /// must deliver within one phase (1 = conflict-free, 32 = fully serialised).
  /// Under Sm3xEightByte the words are 8 bytes; under Sm1x "one phase" is one
  /// 32-bit request of one half-warp. Degree == 1 iff Wavefronts == Ideal.
  unsigned Degree = 0;
  /// The collision that sets Degree, for diagnostics: the bank, the phase
  /// (0 when the access has a single phase), and how many distinct words.
  /// Ties go to the lowest phase, then the lowest bank.
  unsigned WorstBank = 0;
  unsigned WorstPhase = 0;
  /// Phases the warp was split into (1, 2 or 4), after any load merge; 0 when
  /// no lane is active. Sm1x always reports its 2 half-warps.
  unsigned Phases = 1;
  /// Atomics: how many times the instruction ran (a CasLoop's iterations; 1
  /// otherwise), and the wavefronts of the loop's own loads (LDS, counted by
  /// the hardware as loads, not atomics).
  unsigned Iterations = 0;
  unsigned LoopLoadWavefronts = 0;
  unsigned LoopLoadIdeal = 0;
};

/// Costs one warp instruction. Pure and deterministic. Width must be 1, 2, 4,
/// 8 or 16 (any other width costs 0: no instruction has it). With no lane active every field
/// of the result is 0, Phases included.
///
/// Sm70Plus (reproduces all 2,150 H100 rows; docs/bank-model.md has the proof
/// sketch and the data): bank = (addr / 4) % 32; the warp is cut into phases
/// of 32 lanes (1/2/4-byte), 16 lanes (8-byte) or 8 lanes (16-byte); a phase
/// costs the largest number of distinct 4-byte words one bank holds among its
/// active lanes (0 if none active), and Wavefronts is the sum. Loads only:
/// when every active lane reads the same address as its active partner lane
/// L^1 or L^2 (both measured; inactive partners do not block; the check is
/// warp-wide), the phases are twice as wide (8-byte: one phase, 16-byte:
/// two). The model reproduces the hardware counters
/// l1tex__data_{pipe_lsu_wavefronts,bank_conflicts_pipe_lsu}_mem_shared_op_*,
/// not Nsight Compute's source-page "L1 Wavefronts Shared", which is computed
/// by instrumentation and differs for many 8/16-byte loads. Ideal = number of
/// phases with an active lane (each phase moves at most 128 bytes), so
/// Degree == 1 exactly when Wavefronts == Ideal.
BankCost costOf(const WarpAccess &Access, BankArch Arch = BankArch::Sm70Plus);

/// Nsight Compute's source-page ideal ("L1 Wavefronts Shared Ideal") of a
/// plain load or store: ceil(active lanes x width / 128), the wavefronts its
/// bytes would need if the active lanes were packed. Measured with lanes
/// removed from 4-, 8- and 16-byte accesses (test/data/h200-partial-warps.csv:
/// every row). It equals costOf's Ideal when the active lanes fill the phases;
/// it is lower when they are spread over phases (lanes 0-7 and 16-23 of an
/// 8-byte access: 2 wavefronts, no bank conflict, source-page ideal 1).
/// std::nullopt for atomics, ldmatrix/stmatrix and merged loads (not measured).
std::optional<unsigned> sourcePageIdeal(const WarpAccess &Access, BankArch Arch = BankArch::Sm70Plus);

/// Lanes per phase of a load or store after any load merge: 32 (1/2/4-byte),
/// 16 (8-byte) or 8 (16-byte and ldmatrix rows) on sm_70+, doubled when
/// paired lanes merge; 16 (half-warps) under Sm1x. The phases costOf sums.
unsigned lanesPerPhase(const WarpAccess &Access, BankArch Arch = BankArch::Sm70Plus);

/// AtomicRule::CasLoop and GenericCasLoop: the iteration of the loop (from 1)
/// in which each active lane's compare-and-swap succeeds (0 for inactive
/// lanes). Each iteration, in every unit the lowest lane left on each bank
/// (bank pair for 8 bytes) tries, and of the tries on one address only the
/// lowest lane's succeeds; costOf's Iterations is the largest.
std::array<unsigned, WarpSize> casLoopRounds(const WarpAccess &Access);

/// True only when adding the same multiple of ShiftGcdBytes to every active
/// lane's address provably leaves Wavefronts and Ideal unchanged (Degree too).
///
/// Answer for Sm70Plus and Sm1x: yes whenever ShiftGcdBytes is a multiple of 4,
/// for every width. A shift by 4k adds k to every word index, which rotates the
/// banks (a bijection) and keeps "same word" / "same address" relations, while
/// phases and the load merge depend only on lane numbers and address equality.
/// It is not enough to be a multiple of 1 or 2: byte/halfword accesses can move
/// into or out of a shared word (lanes at 3 and 128 conflict; at 4 and 129
/// they do not). For 8/16-byte accesses a shift that is a multiple of 4 but not
/// of the width misaligns them (the hardware faults); the cost model itself is
/// still unchanged, so callers that need alignment must check it separately.
/// Sm3xEightByte needs a multiple of 8 (its words are 8 bytes). ShiftGcdBytes
/// == 0 (no shift) is trivially invariant. Widths outside 1/2/4/8/16: false.
bool costInvariantUnderUniformShift(unsigned Width, uint64_t ShiftGcdBytes,
                                    BankArch Arch = BankArch::Sm70Plus);

/// Whether Access costs the same (wavefronts, ideal, degree) at every uniform
/// shift of its lanes' addresses by a multiple of StepBytes that keeps every
/// active lane aligned to the access's width: the shifts that are not
/// multiples of a bank word (costInvariantUnderUniformShift) checked one by
/// one, modulo the bank period (32 words), beyond which none changes it.
/// False when no shift keeps the lanes aligned.
bool costSameAtEveryShift(const WarpAccess &Access, uint64_t StepBytes,
                          BankArch Arch = BankArch::Sm70Plus);

/// Bank of a byte address under Arch (e.g. (Addr / 4) % 32 for Sm70Plus).
unsigned bankOf(uint64_t ByteAddr, BankArch Arch = BankArch::Sm70Plus);

/// Bytes per bank word under Arch: 4, or 8 for Sm3xEightByte.
unsigned bankWordBytes(BankArch Arch = BankArch::Sm70Plus);

/// Number of banks under Arch.
unsigned bankCount(BankArch Arch = BankArch::Sm70Plus);

} // namespace cbl

#endif
