//===- NvccCompat.cpp - what nvcc's headers give host code, for clang -----===//
//
// The header gives host code what nvcc's headers include and declare and
// clang's do not: the C library headers nvcc includes into every unit,
// the cache-hinted loads and stores of sm_32_intrinsics.h, and the min/max
// overloads nvcc's crt/math_functions.hpp declares __host__ __device__
// (clang's wrapper makes its copies __device__ only):
// min and max of each integer pair of one rank, with the unsigned type
// winning when signedness is mixed (C's usual arithmetic conversions), and
// of float/double pairs, double winning when mixed. They are declared
// __host__ only, beside clang's __device__ ones, so that device code keeps
// clang's; in both passes, since the device pass checks host functions too. Written here, not copied: an analysis needs the declarations and
// a plausible value, nothing of nvcc's implementation.
//
//===----------------------------------------------------------------------===//
#include "run/NvccCompat.h"
#include "ProjectSummaries/ProjectSummaries.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <atomic>

namespace cgt {
namespace {

std::atomic<bool> Enabled{true};
/// setNvccCompatFolder's; read once, by the first nvccCompatHeader().
std::string Folder;

const char HeaderText[] = R"(/* cudagraph-tidy: what nvcc's CUDA headers give host code and clang's do not.
   Force-included into CUDA translation units by the cudagraph-tidy driver
   (--no-nvcc-compat turns it off). For clang-tidy with the plugin, pass
   -include with the path `cudagraph-tidy --nvcc-compat-header` prints. */
#ifndef CUDAGRAPH_TIDY_NVCC_HOST_COMPAT_H
#define CUDAGRAPH_TIDY_NVCC_HOST_COMPAT_H
#if defined(__CUDA__) && defined(__cplusplus)

/* nvcc defines __CUDACC__ as 1, clang as nothing: `#if __CUDACC__` (NCCL
   2.28's nccl_device headers, which CUDA 13 ships) does not parse. */
#ifdef __CUDACC__
#undef __CUDACC__
#define __CUDACC__ 1
#endif

/* nvcc's crt/common_functions.h includes these into every CUDA unit. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <new>

/* nvcc's crt/math_functions.h includes these too: with them the C names
   (`isfinite(x)` unqualified in host code) are declared as nvcc's units
   see them. */
#include <math.h>
#include <cmath>
#include <cstdlib>

/* The cache-hinted loads and stores nvcc declares in sm_32_intrinsics.h,
   which clang's CUDA headers leave out: clang defines __ldcg, __ldcs,
   __ldcv and __stwt only. Templates, so that an overload clang or the
   toolkit declares for a type wins over them; the second parameter is not
   deduced, so the value converts to the pointee as with nvcc's overloads.
   A hinted store is a store, a hinted load a load: the analysis needs no
   more of them. */
template <class T> struct cgt_nvcc_same { typedef T type; };
#define CGT_NVCC_HINTED_STORE(Name)                                           \
  template <class T>                                                          \
  static inline __attribute__((device)) void Name(                           \
      T *ptr, typename cgt_nvcc_same<T>::type value) { *ptr = value; }
CGT_NVCC_HINTED_STORE(__stcs)
CGT_NVCC_HINTED_STORE(__stcg)
CGT_NVCC_HINTED_STORE(__stwb)
#undef CGT_NVCC_HINTED_STORE
template <class T>
static inline __attribute__((device)) T __ldlu(const T *ptr) { return *ptr; }

/* Host-side min and max as nvcc declares them (__host__ __device__);
   clang's CUDA headers declare them for device code only. Declared in the
   device pass as well, where host functions are still checked. */
#define CGT_NVCC_MINMAX(R, A, B)                                              \
  static inline __attribute__((host)) R min(const A a, const B b) {           \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a)          \
                                                 : static_cast<R>(b);         \
  }                                                                           \
  static inline __attribute__((host)) R max(const A a, const B b) {           \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a)          \
                                                 : static_cast<R>(b);         \
  }
CGT_NVCC_MINMAX(int, int, int)
CGT_NVCC_MINMAX(unsigned int, unsigned int, unsigned int)
CGT_NVCC_MINMAX(unsigned int, int, unsigned int)
CGT_NVCC_MINMAX(unsigned int, unsigned int, int)
CGT_NVCC_MINMAX(long int, long int, long int)
CGT_NVCC_MINMAX(unsigned long int, unsigned long int, unsigned long int)
CGT_NVCC_MINMAX(unsigned long int, long int, unsigned long int)
CGT_NVCC_MINMAX(unsigned long int, unsigned long int, long int)
CGT_NVCC_MINMAX(long long int, long long int, long long int)
CGT_NVCC_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
CGT_NVCC_MINMAX(unsigned long long int, long long int, unsigned long long int)
CGT_NVCC_MINMAX(unsigned long long int, unsigned long long int, long long int)
CGT_NVCC_MINMAX(float, float, float)
CGT_NVCC_MINMAX(double, double, double)
CGT_NVCC_MINMAX(double, float, double)
CGT_NVCC_MINMAX(double, double, float)
#undef CGT_NVCC_MINMAX

#endif /* __CUDA__ && __cplusplus */
#endif /* CUDAGRAPH_TIDY_NVCC_HOST_COMPAT_H */
)";

/// Writes `Text` to `Path` unless a file with that text is there: through
/// a unique temporary name and a rename, so that a concurrent run never
/// reads a half-written header.
bool writeOnce(const std::string &Path, llvm::StringRef Text) {
  if (auto Old = llvm::MemoryBuffer::getFile(Path); Old && (*Old)->getBuffer() == Text)
    return true;
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  if (llvm::sys::fs::create_directories(Dir))
    return false;
  llvm::SmallString<256> Tmp;
  int Fd;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", Fd, Tmp))
    return false;
  {
    llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Tmp);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Tmp, Path)) {
    llvm::sys::fs::remove(Tmp);
    return false;
  }
  return true;
}

std::string writeHeader() {
  llvm::StringRef Text(HeaderText);
  std::string Name =
      "nvcc-host-compat-" + llvm::utohexstr(llvm::xxh3_64bits(Text), /*LowerCase=*/true) + ".h";
  llvm::SmallString<256> Temp;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/false, Temp);
  llvm::sys::path::append(Temp, "cudagraph-tidy");
  std::string Cache = Folder.empty() ? defaultCacheFolder() : Folder;
  for (const std::string &Base : {Cache, std::string(Temp)}) {
    if (Base.empty())
      continue;
    llvm::SmallString<256> Path(Base);
    llvm::sys::path::append(Path, "include", Name);
    if (writeOnce(std::string(Path), Text))
      return std::string(Path);
  }
  return "";
}

std::string realOrSame(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

/// The folder an include option at `I` names ("-Idir", "-I dir",
/// "-isystemdir", "-isystem dir"), with how many arguments it takes; 0 when
/// `Args[I]` is none.
size_t includeAt(const std::vector<std::string> &Args, size_t I, std::string &Dir) {
  llvm::StringRef A = Args[I];
  for (llvm::StringRef Flag : {"-isystem", "-I"}) {
    if (A == Flag && I + 1 < Args.size()) {
      Dir = Args[I + 1];
      return 2;
    }
    if (A.consume_front(Flag) && !A.empty()) {
      Dir = A.str();
      return 1;
    }
  }
  return 0;
}

} // namespace

std::vector<std::string> withoutToolkitInclude(const std::vector<std::string> &Args,
                                               const std::string &CudaPath) {
  if (std::find(Args.begin(), Args.end(), "-nocudainc") != Args.end())
    return Args;
  llvm::SmallString<256> Toolkit(CudaPath);
  llvm::sys::path::append(Toolkit, "include");
  std::string ToolkitReal = realOrSame(Toolkit);
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Dir;
    size_t N = includeAt(Args, I, Dir);
    if (N && realOrSame(Dir) == ToolkitReal) {
      I += N - 1;
      continue;
    }
    Out.push_back(Args[I]);
  }
  return Out;
}

void setNvccCompat(bool On) { Enabled = On; }
void setNvccCompatFolder(const std::string &CacheFolder) { Folder = CacheFolder; }
bool nvccCompatEnabled() { return Enabled; }

const std::string &nvccCompatHeader() {
  // Written once per process, on whichever thread asks first.
  static const std::string Path = writeHeader();
  return Path;
}

const char *nvccCompatHeaderText() { return HeaderText; }

} // namespace cgt
