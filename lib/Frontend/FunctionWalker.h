//===- FunctionWalker.h - Symbolic walk of one device function (private) --===//
//
// Walks the body of a kernel or device function in program order, keeping the
// symbolic value of every local integer, of every local pointer into shared
// memory and of every reference bound to shared memory. Each load and store of
// shared memory becomes a SharedAccess whose byte offset and guards are
// SymExprs; each block barrier becomes a BarrierSite.
//
// Control flow: if/else and ?: merge values with Select, so straight-line code
// under conditions stays exact; early return/break/continue narrow the guards
// of what follows. Locals modified in a loop become unknowns (warp-uniform when
// every value they take is uniform); the symbolic engine later refines them.
//
//===----------------------------------------------------------------------===//
#ifndef CUDA_BANK_LINT_LIB_FRONTEND_FUNCTIONWALKER_H
#define CUDA_BANK_LINT_LIB_FRONTEND_FUNCTIONWALKER_H

#include "Atomics.h"
#include "BlockShapes.h"
#include "SharedArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <optional>

namespace cbl {

/// A place in shared memory: which array, the byte offset, the C++ type there.
struct SharedLoc {
  unsigned ArrayId = 0;
  SymRef ByteOffset;
  clang::QualType Type;
};

/// Functions that (transitively) execute a block barrier, with one such barrier.
using BarrierIndex = llvm::DenseMap<const clang::FunctionDecl *, SourcePos>;

/// Recognises a call to a block-level barrier; returns its display spelling.
std::optional<std::string> blockBarrierSpelling(const clang::CallExpr *Call);
/// Recognises inline PTX with bar.sync/barrier.sync and no thread count.
bool isBlockBarrierAsm(const clang::Stmt *S);

class FunctionWalker {
public:
  FunctionWalker(clang::ASTContext &Ctx, SharedArrayTable &Table,
                 std::vector<SharedArray> &Arrays, const BarrierIndex &Barriers)
      : Ctx(Ctx), Table(Table), Arrays(Arrays), Barriers(Barriers) {}

  /// Walks FD's body and returns its accesses and barriers. A kernel's
  /// parameters in Fixed (by position) start with the value every launch
  /// gives them.
  FunctionModel walk(const clang::FunctionDecl *FD,
                     const std::map<unsigned, BlockShapeFinder::FixedArgument> &Fixed = {});

private:
  /// The tracked members of one class object that lives in registers (a
  /// local, a temporary, a by-value parameter): integers, pointers and
  /// references into shared memory, and member objects. Base-class members
  /// belong to the same object (members are keyed by their FieldDecl).
  struct ObjectState {
    llvm::DenseMap<const clang::FieldDecl *, SymRef> Ints;
    llvm::DenseMap<const clang::FieldDecl *, SharedLoc> Ptrs;
    llvm::DenseMap<const clang::FieldDecl *, SharedLoc> Refs;
    llvm::DenseMap<const clang::FieldDecl *, unsigned> Members;
    bool refersToShared() const { return !Ptrs.empty() || !Refs.empty(); }
  };
  struct Env {
    llvm::DenseMap<const clang::VarDecl *, SymRef> Ints;
    llvm::DenseMap<const clang::VarDecl *, SharedLoc> Ptrs;
    llvm::DenseMap<const clang::VarDecl *, SharedLoc> Refs;
    /// Class objects: which object a local (or reference) names, and the
    /// objects by id; temporaries by the expression that made them.
    llvm::DenseMap<const clang::VarDecl *, unsigned> ObjectVars;
    llvm::DenseMap<const clang::Expr *, unsigned> Temporaries;
    std::map<unsigned, ObjectState> Objects;
    /// Integers holding a shared-window address (__cvta_generic_to_shared).
    llvm::DenseMap<const clang::VarDecl *, SharedLoc> SharedAddrs;
    /// cuda::atomic_ref locals bound to an object in shared memory.
    llvm::DenseMap<const clang::VarDecl *, SharedLoc> AtomicRefs;
    /// VD went out of scope: everything known about it leaves.
    void forget(const clang::VarDecl *VD) {
      Ints.erase(VD);
      Ptrs.erase(VD);
      Refs.erase(VD);
      ObjectVars.erase(VD);
      SharedAddrs.erase(VD);
      AtomicRefs.erase(VD);
    }
  };
  /// What `this` is in the member function being walked: an object in
  /// registers, or an object in shared memory (CUB's TempStorage::Alias()).
  struct ThisBinding {
    unsigned Object = 0;              ///< 0: none
    std::optional<SharedLoc> Shared;  ///< the object's place in shared memory
  };

  // --- translation of expressions (ExprTranslator.cpp); no side effects ---
  SymRef intOf(const clang::Expr *E);
  SymRef loadOf(const clang::Expr *Sub, IntType T);
  SymRef boolOf(const clang::Expr *E);
  SymRef unknownFor(const clang::Expr *E, const std::string &Why, bool Varying);
  /// Can E (of any type, floating point included) differ between threads?
  bool threadVarying(const clang::Expr *E);
  /// Can a load of the lvalue LV read different values in different threads
  /// (its address varies)? Shared or not, one rule for every caller.
  bool loadVaries(const clang::Expr *LV);
  /// The stand-in value of a non-integer local: an unknown that is uniform
  /// or varying as its value is, so conditions on it classify correctly.
  SymRef uniformityMarker(const clang::VarDecl *VD, bool Varying);
  SymRef valueOfVar(const clang::VarDecl *VD, const clang::Expr *Use);
  SymRef valueOfCall(const clang::CallExpr *Call);
  /// table[i] of a constant integer table, as selects on i; null otherwise.
  SymRef constantTableLookup(const clang::ArraySubscriptExpr *ASE);
  /// True when the address of a (non-shared) lvalue, or the value of a
  /// pointer, is provably the same for every thread of the block.
  bool uniformAddress(const clang::Expr *LV);
  bool uniformPointer(const clang::Expr *P);
  std::optional<SharedLoc> ptrOf(const clang::Expr *E);
  std::optional<SharedLoc> lvalOf(const clang::Expr *E);
  SymRef scaledIndex(const clang::Expr *Index, const SymRef &ElemBytes);
  SymRef subscriptStride(const clang::Expr *ArrayLValue, clang::QualType Elem);
  IntType intTypeOf(clang::QualType T) const;
  uint64_t sizeOf(clang::QualType T) const;
  std::string spell(const clang::Expr *E) const;
  /// Bytes of E's source text from Begin when it lies on Begin's line, else 0.
  unsigned extentOnLine(const clang::Expr *E, const SourcePos &Begin) const;

  // --- class objects (ObjectModel.cpp) ---
  /// The object an expression of class type denotes, if tracked.
  std::optional<unsigned> objectOf(const clang::Expr *E);
  /// The object a pointer to a class points to, if tracked (`this`, &obj).
  std::optional<unsigned> objectPointedBy(const clang::Expr *P);
  /// The object and member a MemberExpr names, when its base is a tracked object.
  std::optional<std::pair<unsigned, const clang::FieldDecl *>>
  objectMember(const clang::MemberExpr *ME);
  unsigned newObject();
  /// Runs the constructor of a class object into object Id (members, bases,
  /// body), or copies a tracked source object; returns false when the
  /// construction is not modelled (the members stay unknown).
  bool construct(const clang::CXXConstructExpr *CCE, unsigned Id);
  /// Walks RHS (member objects: constructs them) and stores it into a member
  /// of a tracked object; storeMember stores an already walked value.
  void assignMember(unsigned Obj, const clang::FieldDecl *FD, const clang::Expr *RHS);
  void storeMember(unsigned Obj, const clang::FieldDecl *FD, const clang::Expr *Init);
  /// obj.x = e and obj.x op= e on a tracked object (e already walked).
  void assignObjectMember(const clang::BinaryOperator *BO, unsigned Obj,
                          const clang::FieldDecl *FD);
  /// The `this` of a member call: an object in registers or in shared memory.
  ThisBinding thisOf(const clang::Expr *ObjectArg, bool IsArrow);
  bool thisReachesShared(const ThisBinding &B) const;
  /// Inline assembly: outputs become unknowns, except %laneid.
  void walkAsm(const clang::GCCAsmStmt *Asm);

  // --- what the tool sees and does not model (UnsupportedAccesses.cpp) ---
  /// The shared location an integer holds as a shared-window address.
  std::optional<SharedLoc> sharedAddressOf(const clang::Expr *E);
  void recordUnsupported(const clang::Expr *At, const SharedLoc &Loc, AccessOp Op,
                         unsigned Width, std::string Reason);
  /// Atomics on shared memory and calls without a body that receive it.
  bool recordUnsupportedCall(const clang::CallExpr *Call);
  /// Appends an access of Width bytes made by At (null when not recording).
  SharedAccess *addAccess(const clang::Expr *At, const SharedLoc &Loc, AccessOp Op, unsigned Width);
  std::optional<SharedLoc> atomicRefTarget(const clang::Expr *Obj);
  bool recordAtomicRefCall(const clang::CallExpr *Call);
  void recordAtomic(const clang::Expr *At, const SharedLoc &Loc, const AtomicInstruction &I,
                    std::string Instruction);
  void recordUnsupportedAsm(const clang::GCCAsmStmt *Asm);

  // --- walking (FunctionWalker.cpp); records accesses ---
  void visit(const clang::Expr *E);
  void visitLValueOperands(const clang::Expr *LV);
  void visitCall(const clang::CallExpr *Call);
  void recordAccess(const clang::Expr *LV, const SharedLoc &Loc, AccessOp Op,
                    clang::QualType ValueType);
  /// Extents of the array dimensions of LV whose index uses threadIdx.x.
  std::vector<unsigned> threadXExtents(const clang::Expr *LV);
  /// An access at At with what every record has: place, guards, loops, calls.
  SharedAccess newAccess(const clang::Expr *At, const SharedLoc &Loc, AccessOp Op) const;
  void recordBarrier(const clang::Stmt *S, std::string Spelling, std::string ViaCall,
                     SourcePos CalleeBarrier);
  void assignVar(const clang::VarDecl *VD, const clang::Expr *RHS, SymRef Value);
  void declare(const clang::VarDecl *VD);
  void walkStmt(const clang::Stmt *S);
  void forget(const clang::Stmt *S);
  void walkIf(const clang::IfStmt *If);
  void walkLoop(const clang::Stmt *Loop, const clang::Stmt *Init, const clang::Expr *Cond,
                const clang::Expr *Inc, const clang::Stmt *Body, bool CondFirst);
  void walkSwitch(const clang::SwitchStmt *Sw);
  void walkBranch(const clang::Stmt *S, SymRef Cond, bool Negated, GuardKind Kind,
                  clang::SourceLocation Where);
  /// An exit (EarlyReturn, Break or Continue) taken here.
  void exitPath(GuardKind What, clang::SourceLocation Where);
  std::vector<Guard> currentGuards() const;
  /// The guard "not yet returned/broken here" for Alive, naming the exits.
  Guard reachedGuard(const SymRef &AliveCond) const;
  void mergeEnvs(const SymRef &Cond, const Env &Then, const Env &Else, bool ThenLive,
                 bool ElseLive);
  SourcePos pos(clang::SourceLocation L) const;

  clang::ASTContext &Ctx;
  SharedArrayTable &Table;
  std::vector<SharedArray> &Arrays;
  const BarrierIndex &Barriers;

  const clang::FunctionDecl *Fn = nullptr;
  bool InKernel = false;
  FunctionModel *Out = nullptr;
  bool Recording = true;            ///< false during dry walks of loop bodies
  Env Vars;
  std::vector<Guard> Path;          ///< enclosing conditions
  SymRef Alive;                     ///< threads not yet returned/broken here
  bool ExitedUnderVaryingGuard = false;
  /// return/break/continue taken under a thread-varying condition that still
  /// narrow Alive here (breaks and continues are dropped at the end of their
  /// loop or switch), so that barrier diagnostics can point at them.
  struct ExitSite {
    GuardKind Kind; ///< EarlyReturn, Break or Continue
    SourcePos Where;
  };
  std::vector<ExitSite> Exits;
  /// One per loop being walked dry (innermost last): the guards and the
  /// reached condition at the start of its body, and the locals the body
  /// assigns, with whether some assignment may differ between the threads
  /// that run the loop (a thread-varying value, or under a thread-varying
  /// condition taken inside the loop; conditions outside it, an earlier
  /// return included, are the same in every iteration).
  struct DryLoop {
    size_t PathBase = 0;
    SymRef AliveBase;
    llvm::DenseMap<const clang::VarDecl *, bool> Assigned;
  };
  std::vector<DryLoop> DryLoops;
  unsigned LoopDepth = 0;
  std::vector<unsigned> LoopStack;  ///< enclosing counted loops (LoopInfo ids)
  unsigned NextCounterId = 0;       ///< LoopCounter ids are unique per function

  // --- helpers analysed in the caller's context (calls are inlined) ---
public:
  /// Functions whose bodies were analysed inside a caller; the model builder
  /// does not analyse them again on their own.
  llvm::DenseSet<const clang::FunctionDecl *> InlinedFunctions;

private:
  bool inlineCall(const clang::CallExpr *Call, const clang::FunctionDecl *Callee);
  /// Walks Def in place with its parameters bound to Args and `this` bound
  /// to This; Key receives the returned value or pointer.
  bool inlineBody(const clang::FunctionDecl *Def, llvm::ArrayRef<const clang::Expr *> Args,
                  const ThisBinding &This, clang::SourceLocation CallLoc, const clang::CallExpr *Key,
                  const clang::CXXConstructorDecl *Ctor = nullptr, unsigned CtorObject = 0);
  void bindParameter(const clang::ParmVarDecl *P, const clang::Expr *Arg, Env &Into);
  ThisBinding This;
  unsigned NextObjectId = 1;
  unsigned InlinedBodies = 0;       ///< bodies walked in place in this walk
  /// The straight-line stretch of code being walked: changes at branches,
  /// loops and barriers (SharedAccess::Region).
  unsigned Region = 0;
  /// Why the lanes of the warp may be running apart here (SharedAccess::
  /// MaySplit); empty while the warp is known to run together.
  std::string MaySplit;
  void noteRetryLoop(const clang::Stmt *Loop);
  /// The counters' values after L, when it runs on constants alone.
  std::optional<std::vector<SymRef>> valuesAfter(const LoopInfo &L) const;
  void captureReturn(const clang::ReturnStmt *Ret);
  std::vector<const clang::FunctionDecl *> InlineStack;
  /// Whether a helper's body names a __shared__ variable, computed once.
  llvm::DenseMap<const clang::FunctionDecl *, bool> MentionsShared;
  unsigned InlineDepth = 0;
  std::vector<std::pair<SourcePos, std::string>> CallSites; ///< calls being analysed
  llvm::DenseMap<const clang::CallExpr *, SymRef> CallValues;
  llvm::DenseMap<const clang::CallExpr *, SharedLoc> CallPointers;
  struct ReturnCapture {
    unsigned Count = 0;
    SymRef Value;
    std::optional<SharedLoc> Pointer;
  };
  std::vector<ReturnCapture> Returns;
};

} // namespace cbl

#endif
