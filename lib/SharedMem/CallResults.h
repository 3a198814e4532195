//===- CallResults.h - what a function returns, for other files -*- C++ -*-===//
//
// The export half of the host folds' "integers returned by a call"
// (Launch/CallResults.cpp): the driver's cross-file passes record, for each
// definition other files call, the integers it returns whatever its
// arguments, as the "returnValues" of its summary. A launch in another
// file that computes its block from the call then folds.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_SHAREDMEM_CALLRESULTS_H
#define CUDAGRAPH_TIDY_SHAREDMEM_CALLRESULTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <vector>

namespace cgt {
class ApiModel;
}

namespace cgt::smem {

/// The integers every call of `F` may return, sorted, when each of its
/// return statements folds without knowing its arguments (`return
/// getDeviceProperties(dev).warpSize;` with `Model`'s constant fields, or
/// `return 256;`); empty when one does not, or `F` has no body here.
std::vector<long long> constantReturns(clang::ASTContext &Ctx, const clang::FunctionDecl *F,
                                       const ApiModel *Model);

} // namespace cgt::smem

#endif
