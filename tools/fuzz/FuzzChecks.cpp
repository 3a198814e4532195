//===- FuzzChecks.cpp - libFuzzer target: arbitrary source through the checks ===//
//
// Feeds each input, as the text of a CUDA file that includes a small CUDA
// declarations header (cuda_decls.h, embedded at build time), through every
// cudagraph-* check in-process, the way the driver does: clang parses it
// with error recovery and the checks see whatever AST comes out. What the
// fuzzer looks for is a crash, a sanitizer report, a timeout or a memory
// climb inside our code; findings and compiler errors are ordinary output.
//
// Everything lives in an in-memory file system (the input, the header, and
// empty cuda_runtime.h / cuda.h so that inputs taken from real files keep
// their includes), so a run touches no disk. Built only with -DCGT_FUZZ=ON
// (cmake/Fuzz.cmake); docs/reliability.md says how to run it.
//
//===----------------------------------------------------------------------===//
#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace clang::tidy {
extern volatile int CudaGraphTidyModuleAnchorSource;
static int LLVM_ATTRIBUTE_UNUSED CudaGraphTidyModuleAnchorDestination =
    CudaGraphTidyModuleAnchorSource;
} // namespace clang::tidy

namespace {

const char DeclsHeader[] =
#include "CudaDeclsData.inc"
    ;

const char InputPath[] = "/cgt-fuzz/input.cu";

std::unique_ptr<llvm::MemoryBuffer> buffer(llvm::StringRef Text) {
  return llvm::MemoryBuffer::getMemBufferCopy(Text);
}

/// The files every input sees; the input itself is added per run.
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> baseFiles() {
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  FS->setCurrentWorkingDirectory("/");
  FS->addFile("/cgt-fuzz/include/cuda_decls.h", 0,
              buffer(llvm::StringRef(DeclsHeader, sizeof(DeclsHeader) - 1)));
  for (const char *Empty : {"cuda_runtime.h", "cuda_runtime_api.h", "cuda.h"})
    FS->addFile(std::string("/cgt-fuzz/include/") + Empty, 0, buffer(""));
  return FS;
}

std::vector<std::string> compileArgs() {
  return {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
          "-std=c++17", "-resource-dir=" CGT_CLANG_RESOURCE_DIR,
          "-I/cgt-fuzz/include", "-include", "cuda_decls.h",
          // Inputs that expand macros or templates without end are not what
          // this target is after; clang's own limits stop them sooner.
          "-ftemplate-depth=64", "-fconstexpr-steps=100000",
          "-fbracket-depth=256", "-ferror-limit=50"};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace clang::tidy;
  if (Size > 64 * 1024)
    return -1; // longer inputs only make the run slower
  auto Memory = baseFiles();
  Memory->addFile(InputPath, 0,
                  buffer(llvm::StringRef(reinterpret_cast<const char *>(Data), Size)));
  // runClangTidy overlays its own files on top of this one; the real file
  // system stays underneath for the resource directory's headers.
  // ClangTool enters the command's directory on every layer: the physical
  // one keeps its own working directory instead of chdir()ing the process,
  // and the command runs in "/", which exists on both.
  auto FS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  FS->pushOverlay(Memory);

  ClangTidyOptions Opts = ClangTidyOptions::getDefaults();
  Opts.Checks = "-*,cudagraph-*";
  ClangTidyContext Context(
      std::make_unique<DefaultOptionsProvider>(ClangTidyGlobalOptions(), Opts));
  clang::tooling::FixedCompilationDatabase Db("/", compileArgs());
  runClangTidy(Context, Db, {InputPath}, FS, /*ApplyAnyFix=*/false,
               /*EnableCheckProfile=*/false, "", /*Quiet=*/true);
  return 0;
}
