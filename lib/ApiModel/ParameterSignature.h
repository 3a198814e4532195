//===- ParameterSignature.h - a function's parameter types as model text -*- C++ -*-===//
//
// The "signature" of an API model entry (FunctionModel::Signature): what
// tells apart overloads of one name and parameter count. Each parameter's
// type as it is in the function's type (arrays and functions decayed, top
// level const dropped), canonical, so that typedefs and the units that
// spell them differently agree: `cudaStream_t` is `CUstream_st *`.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_APIMODEL_PARAMETERSIGNATURE_H
#define CUDAGRAPH_TIDY_APIMODEL_PARAMETERSIGNATURE_H

#include "clang/AST/Decl.h"
#include <string>
#include <vector>

namespace cgt {

std::vector<std::string> parameterSignature(const clang::FunctionDecl *FD);

} // namespace cgt

#endif
