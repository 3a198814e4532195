//===- NvccCompat.h - what nvcc's headers give host code, for clang -*- C++ -*-===//
//
// Code built with nvcc relies on what nvcc's CUDA headers declare for host
// code and clang's CUDA headers do not: host-side min/max for integer and
// floating pairs (mixed signedness and precision included), and the C
// headers crt/common_functions.h includes into every CUDA unit (assert.h,
// stdio.h, stdlib.h, string.h, time.h, <new>). Without them such a unit
// does not parse for clang, and users had to invent flags. The driver
// force-includes a small header with those into CUDA units (adjustCudaArgs);
// --no-nvcc-compat turns it off, and --nvcc-compat-header prints its path
// for clang-tidy plugin runs (`-include PATH` after `--`).
//
// The header's text is compiled into the driver and written, named by a
// hash of its text, into the cache folder (--cache-dir, else
// $XDG_CACHE_HOME/cudagraph-tidy, as the other caches; else the temporary
// directory) the first time a unit needs it: every run with that folder
// sees the same path for the same text. The caches' keys name it by its
// name, not its path (UnitCache::addSelfNamedFile), so that they do not
// depend on where the folder is.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_TOOLS_NVCCCOMPAT_H
#define CUDAGRAPH_TIDY_TOOLS_NVCCCOMPAT_H

#include <string>
#include <vector>

namespace cgt {

/// Whether CUDA units get the header (default on; --no-nvcc-compat).
void setNvccCompat(bool Enabled);
bool nvccCompatEnabled();

/// The cache folder the header goes into (--cache-dir); "" for the
/// default one. Must come before the first nvccCompatHeader(), which fixes
/// the path for the process.
void setNvccCompatFolder(const std::string &CacheFolder);

/// The header's path, written on first use; "" when it cannot be written.
const std::string &nvccCompatHeader();

/// The header's text.
const char *nvccCompatHeaderText();

/// `Args` without the -I or -isystem folders that name the CUDA
/// installation's include folder (`CudaPath`/include, symbolic links
/// resolved): clang adds that folder itself, after every folder of the
/// command, as nvcc does, so a project's own folders come first (its newer
/// nccl.h over the toolkit's older one) even where the command named the
/// toolkit's first. Kept with -nocudainc, where clang adds nothing.
std::vector<std::string> withoutToolkitInclude(const std::vector<std::string> &Args,
                                               const std::string &CudaPath);

} // namespace cgt

#endif
