//===- Containers.h - standard containers of handles ------------*- C++ -*-===//
//
// Private to lib/Lifetime. Which expressions name a standard container of
// handles (`std::unordered_map<int, cudaGraphExec_t> cache`, a member
// `std::vector<cudaStream_t> streams_`), one of its elements (`cache[k]`,
// `cache.at(k)`, `it->second`, `*it`, `v.back()`, the variable of a range
// loop over it), and what a method call does to the elements
// (ContainerOps.def); in a struct-valued element, the struct's one pointer
// member is the handle (`kv.second.exec`). Syntactic and per body
// (ContainerView.cpp): the dataflow (ContainerFlow.cpp) and the scan of a
// class's methods both use it.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_LIFETIME_CONTAINERS_H
#define CUDAGRAPH_TIDY_LIFETIME_CONTAINERS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace cgt {
namespace lifetime {

enum class ContainerOp { None, Insert, Access, Iterate, Erase, Clear, Query };

/// A std container (ContainerOps.def) whose element is a pointer (a handle
/// or a device pointer), or a plain struct holding one (elementHandleMember).
bool isHandleContainerType(clang::QualType T);
/// `Slot::exec` of `std::map<int, Slot>` with `struct Slot { cudaGraphExec_t
/// exec; int uses; }`: the one pointer member of a struct-valued element that
/// no destructor looks after. That member of an element is the element's
/// handle (`kv.second.exec`, `v[i].exec`); the struct itself is not one.
const clang::FieldDecl *elementHandleMember(clang::QualType ContainerType);
/// Whether the element type of such a container is a map's pair.
bool isMapContainerType(clang::QualType T);
/// The table's kind of a method or operator of such a container.
ContainerOp containerOpOf(const clang::CXXMethodDecl *MD);

/// What the methods of a class do with one of its member containers.
struct ContainerMemberFacts {
  const clang::CallExpr *Acquisition = nullptr; ///< of a handle some method inserts
  const clang::FunctionDecl *In = nullptr;      ///< that method
  std::string Kind, By;
  /// Kinds other insertions put there (`pinned_ ? cudaMallocHost : cudaMalloc`):
  /// a release of any of them is of the right family.
  std::vector<std::string> OtherKinds;
  bool Released = false;                        ///< some method releases its elements
  /// Those releases (`cudaStreamDestroy(streams_[i])`), in the order scanned.
  std::vector<const clang::CallExpr *> Releases;
};

/// The expressions an insertion's argument is built of, down to the values:
/// `{k, e}`, `std::pair<int, T>(k, e)`, `std::make_pair(k, e)`.
void collectInsertionParts(const clang::Expr *E, llvm::SmallVectorImpl<const clang::Expr *> &Out);

/// `it->first`, `p.second`: the member of a pair with that name.
bool isPairMember(const clang::MemberExpr *ME, llvm::StringRef Name);

/// `cache_.erase(it)`, `streams_.clear()` on a member container of handles.
bool dropsMemberContainerElements(const clang::CallExpr *Call);

/// The containers of one body and the variables that stand for them or for
/// their elements: range variables (`__range1`), iterators initialised from
/// `c.find(k)`/`c.begin()`, range loop variables and their bindings, and
/// references to an element (`auto &s = v[i]`).
class ContainerView {
public:
  explicit ContainerView(const clang::Stmt *Body);

  /// The container a whole expression names: a local variable (not a
  /// parameter, not a reference) or a member of `this`.
  const clang::ValueDecl *containerOf(const clang::Expr *E) const;
  /// The container whose element the expression names, if any.
  const clang::ValueDecl *elementOf(const clang::Expr *E) const;
  /// The container a variable (iterator, loop variable, range) stands for.
  const clang::ValueDecl *aliasedContainer(const clang::Decl *D) const;
  /// A method call on a container: the op and the container.
  std::pair<ContainerOp, const clang::ValueDecl *> opOf(const clang::CallExpr *Call) const;
  /// The range loop variable (or its decomposition) of a loop over a
  /// container: its initialiser is the loop, not a read of an element.
  bool isLoopVariable(const clang::Decl *D) const { return LoopVars.count(D) != 0; }
  /// The key an iterator argument of `erase` was looked up with
  /// (`c.erase(it)` after `it = c.find(k)`: `k`), if one lookup made it.
  const clang::Expr *keyOfIterator(const clang::Expr *E) const;

private:
  enum class AliasKind { Range, Iterator, Element };
  struct Alias {
    AliasKind Kind;
    const clang::ValueDecl *Container;
  };
  const Alias *aliasOf(const clang::Expr *E) const;
  const clang::ValueDecl *elementValueOf(const clang::Expr *E) const;
  const clang::ValueDecl *rangeOrContainer(const clang::Expr *E) const;
  void noteVariable(const clang::VarDecl *VD);

  llvm::DenseMap<const clang::Decl *, Alias> Aliases;
  llvm::DenseMap<const clang::Decl *, bool> LoopVars;
  llvm::DenseMap<const clang::Decl *, const clang::Expr *> IteratorKeys;
};

} // namespace lifetime
} // namespace cgt

#endif
