//===- ParameterSignature.cpp - a function's parameter types as model text ===//
#include "ApiModel/ParameterSignature.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"

namespace cgt {

std::vector<std::string> parameterSignature(const clang::FunctionDecl *FD) {
  std::vector<std::string> Out;
  const auto *Proto = FD->getType()->getAs<clang::FunctionProtoType>();
  if (!Proto)
    return Out;
  clang::PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  for (clang::QualType T : Proto->getParamTypes())
    Out.push_back(T.getCanonicalType().getUnqualifiedType().getAsString(Policy));
  return Out;
}

} // namespace cgt
