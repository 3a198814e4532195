//===- NvccArgsTest.cpp - translating nvcc compile commands for clang -----===//
#include "CompileDb/NvccArgs.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace cgt;

namespace {

using Args = std::vector<std::string>;

bool has(const Args &A, const std::string &S) {
  return std::find(A.begin(), A.end(), S) != A.end();
}

bool hasPrefix(const Args &A, const std::string &P) {
  return std::any_of(A.begin(), A.end(), [&](const std::string &S) {
    return S.compare(0, P.size(), P) == 0;
  });
}

} // namespace

TEST(NvccArgs, DetectsNvccByBaseNameAndBehindLaunchers) {
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"nvcc"}));
  EXPECT_TRUE(isNvccCommand({"C:\\CUDA\\bin\\nvcc.exe", "-c"}));
  EXPECT_TRUE(isNvccCommand({"/usr/bin/ccache", "/usr/local/cuda/bin/nvcc", "-c"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/clang++", "-c", "a.cu"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/ccache", "g++", "-c"}));
  EXPECT_FALSE(isNvccCommand({"/opt/nvcc-wrapper", "-c"}));
  EXPECT_FALSE(isNvccCommand({}));
}

// The exact command CMake 3.25 writes for nvcc 13 (ecosystem research 3.5).
TEST(NvccArgs, TranslatesTheCMakeCommand) {
  Args In = {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler",
             "-DUSE_GRAPHS=1", "-I/src/include", "-isystem", "/opt/inc",
             "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
             "--expt-relaxed-constexpr", "--extended-lambda",
             "-Xcompiler=-Wall,-fPIC", "-lineinfo", "--diag-suppress=177",
             "-std=c++17", "-x", "cu", "-c", "/src/k.cu", "-o", "k.cu.o"};
  NvccTranslation T = translateNvccArgs(In);
  Args Want = {"clang++", "--cuda-path=/usr/local/cuda", "-DUSE_GRAPHS=1",
               "-I/src/include", "-isystem", "/opt/inc", "--offload-arch=sm_80",
               "-Wall", "-fPIC", "-std=c++17", "-x", "cuda", "-c", "/src/k.cu",
               "-o", "k.cu.o"};
  EXPECT_EQ(T.Args, Want);
  Args Dropped = {"-forward-unknown-to-host-compiler", "--expt-relaxed-constexpr",
                  "--extended-lambda", "-lineinfo", "--diag-suppress=177"};
  EXPECT_EQ(T.Dropped, Dropped);
}

TEST(NvccArgs, UnwrapsHostOptionsInEveryForm) {
  NvccTranslation T = translateNvccArgs(
      {"nvcc", "-Xcompiler=-Wall,-Wextra", "-Xcompiler", "-fopenmp,-O2",
       "--compiler-options", "-DA=1", "--compiler-options=-DB=2,-DC",
       "-Xcompiler", "-Werror -Wshadow", "-c", "a.cu"});
  Args Want = {"clang++", "-Wall", "-Wextra", "-fopenmp", "-O2", "-DA=1",
               "-DB=2", "-DC", "-Werror", "-Wshadow", "-c", "a.cu"};
  EXPECT_EQ(T.Args, Want);
  EXPECT_TRUE(T.Dropped.empty());
}

TEST(NvccArgs, DropsNvccOnlyFlagsWithTheirValues) {
  NvccTranslation T = translateNvccArgs(
      {"nvcc", "-ccbin", "/usr/bin/g++-12", "-ccbin=/usr/bin/g++", "-rdc=false",
       "-rdc", "false", "--relocatable-device-code=false", "--use_fast_math",
       "-use_fast_math", "-G", "-lineinfo", "--default-stream", "legacy",
       "--default-stream=null", "-Xptxas", "-v", "-Xptxas=-O3",
       "-Xcudafe", "--diag_suppress=esa_on_defaulted_function_ignored",
       "--expt-extended-lambda", "-expt-relaxed-constexpr", "--diag-suppress",
       "20012", "-maxrregcount=64", "-Wno-deprecated-gpu-targets",
       "--keep-dir", "/tmp", "-Xnvlink", "--suppress-stack-size-warning",
       "-O3", "-g", "-c", "a.cu"});
  Args Want = {"clang++", "-O3", "-g", "-c", "a.cu"};
  EXPECT_EQ(T.Args, Want);
  EXPECT_TRUE(has(T.Dropped, "-ccbin /usr/bin/g++-12"));
  EXPECT_TRUE(has(T.Dropped, "-Xptxas -v"));
  EXPECT_TRUE(has(T.Dropped, "-rdc false"));
  EXPECT_TRUE(has(T.Dropped, "--default-stream legacy"));
  EXPECT_TRUE(has(T.Dropped, "--default-stream=null"));
}

// Separate compilation changes what clang accepts (`extern __shared__ T x;`
// only with -fgpu-rdc): every spelling of it becomes one -fgpu-rdc.
TEST(NvccArgs, MapsRelocatableDeviceCodeToGpuRdc) {
  Args Want = {"clang++", "-fgpu-rdc", "-c", "a.cu"};
  for (Args Rdc : {Args{"-dc"}, Args{"--device-c"}, Args{"-rdc=true"}, Args{"-rdc", "true"},
                   Args{"--relocatable-device-code=true"}, Args{"--relocatable-device-code", "true"},
                   Args{"-rdc=TRUE"}}) {
    Args Cmd = {"nvcc"};
    Cmd.insert(Cmd.end(), Rdc.begin(), Rdc.end());
    Cmd.insert(Cmd.end(), {"-c", "a.cu"});
    EXPECT_EQ(translateNvccArgs(Cmd).Args, Want) << Rdc.front();
  }
  Args Twice = {"clang++", "-fgpu-rdc", "a.cu"};
  EXPECT_EQ(translateNvccArgs({"nvcc", "-dc", "-rdc=true", "a.cu"}).Args, Twice);
  Args Off = {"clang++", "-c", "a.cu"};
  EXPECT_EQ(translateNvccArgs({"nvcc", "-rdc=false", "-c", "a.cu"}).Args, Off);
}

// Per-thread default streams change what stream 0 is (cudagraph-stream-order,
// cudagraph-capture-structure): clang gets its flag and the macro nvcc defines.
TEST(NvccArgs, KeepsThePerThreadDefaultStream) {
  Args Want = {"clang++", "-fgpu-default-stream=per-thread",
               "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1", "-c", "a.cu"};
  EXPECT_EQ(translateNvccArgs({"nvcc", "--default-stream", "per-thread", "-c", "a.cu"}).Args, Want);
  EXPECT_EQ(translateNvccArgs({"nvcc", "-default-stream=per-thread", "-c", "a.cu"}).Args, Want);
}

// A value-taking nvcc option without its value must not swallow the next
// option: "-Werror" followed by "-c" keeps "-c".
TEST(NvccArgs, ValueOptionsDoNotSwallowFollowingFlags) {
  NvccTranslation T = translateNvccArgs({"nvcc", "-Werror", "-c", "a.cu"});
  Args Want = {"clang++", "-c", "a.cu"};
  EXPECT_EQ(T.Args, Want);
  T = translateNvccArgs({"nvcc", "-Werror", "all-warnings", "-c", "a.cu"});
  EXPECT_EQ(T.Args, Want);
}

TEST(NvccArgs, MapsArchitectures) {
  EXPECT_EQ(nvccArchToOffloadArch("sm_80"), "sm_80");
  EXPECT_EQ(nvccArchToOffloadArch("compute_75"), "sm_75");
  EXPECT_EQ(nvccArchToOffloadArch("arch=compute_80,code=[compute_80,sm_86]"), "sm_86");
  EXPECT_EQ(nvccArchToOffloadArch("arch=compute_90a,code=sm_90a"), "sm_90");
  EXPECT_EQ(nvccArchToOffloadArch("arch=compute_100f,code=\"sm_100f,compute_100f\""),
            "sm_100");
  EXPECT_EQ(nvccArchToOffloadArch("arch=compute_120,code=compute_120"), "sm_120");
  EXPECT_EQ(nvccArchToOffloadArch("native"), "");
  EXPECT_EQ(nvccArchToOffloadArch("all-major"), "");
  EXPECT_EQ(nvccArchToOffloadArch("all"), "");
}

TEST(NvccArgs, ArchFlagsBecomeOneOffloadArchEach) {
  NvccTranslation T = translateNvccArgs(
      {"nvcc", "-arch=sm_80", "-gencode", "arch=compute_80,code=sm_80",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
       "--gpu-architecture", "compute_75", "-arch=native", "-code=sm_80",
       "-c", "a.cu"});
  Args Want = {"clang++", "--offload-arch=sm_80", "--offload-arch=sm_90",
               "--offload-arch=sm_75", "-c", "a.cu"};
  EXPECT_EQ(T.Args, Want);
  EXPECT_TRUE(has(T.Dropped, "-arch=native"));
  EXPECT_TRUE(has(T.Dropped, "-code=sm_80"));
}

TEST(NvccArgs, KeepsIncludesDefinesStdAndLanguage) {
  NvccTranslation T = translateNvccArgs(
      {"nvcc", "-I", "inc", "-Iinc2", "-D", "X=1", "-DY", "-UZ", "-isystem",
       "/sys", "-include", "pre.h", "-std", "c++20", "--std=c++17", "-x", "cu",
       "--include-path", "inc3", "--define-macro=W", "--system-include=/s2",
       "--options-file", "includes.rsp", "-optf=more.rsp", "--compile",
       "--output-file", "o.o", "-M", "-MD", "-MT", "t", "-MF", "d.d", "a.cu"});
  Args Want = {"clang++", "-I", "inc", "-Iinc2", "-D", "X=1", "-DY", "-UZ",
               "-isystem", "/sys", "-include", "pre.h", "-std=c++20",
               "-std=c++17", "-x", "cuda", "-Iinc3", "-DW", "-isystem", "/s2",
               "@includes.rsp", "@more.rsp", "-c", "-oo.o", "-M", "-MD", "-MT",
               "t", "-MF", "d.d", "a.cu"};
  EXPECT_EQ(T.Args, Want);
}

TEST(NvccArgs, CudaPathComesFromNvccUnlessGiven) {
  EXPECT_TRUE(has(translateNvccArgs({"/opt/cuda-13.0/bin/nvcc", "a.cu"}).Args,
                  "--cuda-path=/opt/cuda-13.0"));
  // A relative nvcc or a path without bin/ says nothing reliable.
  EXPECT_FALSE(hasPrefix(translateNvccArgs({"nvcc", "a.cu"}).Args, "--cuda-path"));
  EXPECT_FALSE(hasPrefix(translateNvccArgs({"/opt/nvcc", "a.cu"}).Args, "--cuda-path"));
  Args Given = translateNvccArgs(
                   {"/usr/local/cuda/bin/nvcc", "--cuda-path=/x", "a.cu"})
                   .Args;
  EXPECT_EQ(std::count_if(Given.begin(), Given.end(),
                          [](const std::string &S) {
                            return S.compare(0, 11, "--cuda-path") == 0;
                          }),
            1);
  EXPECT_TRUE(has(Given, "--cuda-path=/x"));
}

TEST(NvccArgs, LauncherIsRemovedWithNvcc) {
  NvccTranslation T =
      translateNvccArgs({"ccache", "nvcc", "--extended-lambda", "-c", "a.cu"});
  Args Want = {"clang++", "-c", "a.cu"};
  EXPECT_EQ(T.Args, Want);
}

TEST(NvccArgs, NonNvccCommandsPassThrough) {
  Args In = {"/usr/bin/clang++", "-x", "cuda", "--expt-relaxed-constexpr"};
  EXPECT_EQ(translateNvccArgs(In).Args, In);
}

TEST(NvccArgs, CustomCompiler) {
  EXPECT_EQ(translateNvccArgs({"nvcc", "a.cu"}, "/usr/lib/llvm-22/bin/clang").Args[0],
            "/usr/lib/llvm-22/bin/clang");
}
