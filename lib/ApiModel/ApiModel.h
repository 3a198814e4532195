//===- ApiModel.h - CUDA API semantics as data ------------------*- C++ -*-===//
//
// What each CUDA runtime/driver API call does to the resources it touches:
// which argument (or the return value) acquires which kind of resource, which
// argument releases which kinds, which only uses one, how success is reported
// and whether the call is legal while a stream is capturing.
//
// The table is data, not code: the built-in model is the JSON file
// lib/ApiModel/cuda_api_model.json embedded at build time, and users extend it
// with files of the same schema for their own wrappers (docs/api-model.md).
// A later entry for a name replaces an earlier one, so a user file can also
// correct the built-in model.
//
// This layer knows nothing about clang or clang-tidy.
//
//===----------------------------------------------------------------------===//
#ifndef CUDAGRAPH_TIDY_APIMODEL_APIMODEL_H
#define CUDAGRAPH_TIDY_APIMODEL_APIMODEL_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace cgt {

/// The argument index used for "the value the call returns".
constexpr int ReturnValue = -1;

/// A kind of resource: "graphExec", "deviceMemory", ...
struct ResourceKind {
  std::string Name;
  /// Words for messages: "graph exec", "device memory".
  std::string Noun;
  /// Functions that release it correctly, for messages and fix-its.
  std::vector<std::string> ReleasedBy;
  /// Which lifetime check reports leaks of this kind.
  std::string LeakCheck;
  /// Memory a graph's memory node can hand out: a graph launch allocates it
  /// again, at the same address, after a free.
  bool GraphAllocatable = false;
  /// Memory whose lifetime other analyzers already check (host heap:
  /// clang-analyzer's unix.Malloc and cplusplus.NewDelete): followed only so
  /// that a release by a CUDA family, or a CUDA resource released by its
  /// family, is reported as a mismatch; its leaks, double releases and uses
  /// after release are theirs to report.
  bool MismatchOnly = false;
  /// Handle types that hold only this kind (`cudaArray_t`): a release of a
  /// variable declared so is checked against the kind even when the
  /// function did not see it made.
  std::vector<std::string> Types;
  /// Free text for readers of the file ("doc"); not used by the analysis.
  std::string Doc;
};

struct AcquireEffect {
  int Arg = 0;          ///< parameter index, or ReturnValue
  std::string Kind;     ///< resource kind created
  bool Owned = true;    ///< false for getters of handles the caller must not release
  /// Non-empty: the handle goes into this member of the struct the argument
  /// points to (a helper's `out->exec = e`).
  std::string Field;
  /// A stream-ordered allocation (cudaMallocAsync): made inside a stream
  /// capture it becomes a memory node the graph allocates at each launch.
  bool StreamOrdered = false;
  /// A helper summary whose paths acquire different kinds into one argument
  /// (`switch (space)` over cudaMalloc and cudaMallocHost): the others.
  /// Released by the family of any of them, it is no mismatch.
  std::vector<std::string> OrKinds;
  /// Non-empty: the helper acquires into the member only where it found
  /// this member of the same argument null (`if (c->stream) return 0;`
  /// before `cudaStreamCreate(&c->stream)` and `cudaMalloc(&c->buf, n)`, a
  /// lazy `if (!c->ev) cudaEventCreate(&c->ev)`): a caller whose member
  /// holds a live handle there gets nothing new, and nothing is overwritten.
  std::string IfEmpty;
};

struct ReleaseEffect {
  int Arg = 0;
  std::vector<std::string> Kinds; ///< kinds this call may legally release
  /// The argument points to the handle (`destroyExec(&exec)`), as wrappers
  /// that also null the caller's variable do.
  bool ThroughPointer = false;
  /// Non-empty: the call releases this member of the struct the argument
  /// points to or refers to (a helper's `cudaStreamDestroy(ctx->stream)`).
  std::string Field;
  /// A stream-ordered free (cudaFreeAsync): inside a capture it becomes a
  /// free node, which frees only graph allocations.
  bool StreamOrdered = false;
  /// A helper that leaves the member null, or holding another value, after
  /// releasing it (`cudaFree(c->buf); c->buf = NULL;`, a setter that
  /// destroys the old stream and stores the new one): the caller's member
  /// no longer names the released handle, so calling the helper again, or
  /// using the member after it, is no use of a released handle.
  bool Resets = false;
  /// The helper releases it only on some of its paths, under conditions of
  /// its own (`if (*cap >= 0) free_buf(buf);` before it allocates into
  /// `*buf` again): the caller's live handle is the helper's to release, and
  /// one the caller released already is not released twice ("onSomePaths").
  bool OnSomePaths = false;
};

/// A helper that stores into a member of the struct its argument points to
/// (`m->weights = alloc_block(..)`) something that is not a resource it
/// acquired: after the call the caller's member no longer names what it
/// named before, so neither a release of it nor its leak is the caller's
/// to judge by the old value.
struct WriteEffect {
  int Arg = 0;
  std::string Field;
};

struct UseEffect {
  int Arg = 0;
  std::string Kind;     ///< empty: any tracked resource
  bool Launch = false;  ///< launches work that reads the resource (cudaGraphLaunch)
  /// The graph argument of an instantiation: the exec made references the
  /// memory this graph's nodes use (a buffer captured into it).
  bool Instantiates = false;
  /// The exec argument of an update (cudaGraphExecUpdate, node SetParams):
  /// afterwards the exec references whatever memory the update gave it.
  bool Rebinds = false;
  /// The call copies the bytes the argument points to (`cuParamSetv(f, off,
  /// &d, sizeof d)`): a `&x` given there is read, neither written nor kept.
  bool Copies = false;
};

enum class CaptureRole {
  None,         ///< no effect on capture state
  Begin,        ///< begins capture on stream argument `StreamArg`
  End,          ///< ends capture on stream argument `StreamArg`
  /// Swaps the thread's capture mode with the one `CaptureModeArg` points
  /// to (cudaThreadExchangeStreamCaptureMode).
  ExchangeMode,
};

/// What a call does to the order of work on streams (lib/Streams): which
/// stream it enqueues on, which memory that work touches, which events it
/// records or waits for, what it makes the host wait for.
enum class OrderRole {
  None,
  Enqueue,      ///< work on StreamArg that reads or writes MemoryArgs
  Alloc,        ///< stream-ordered allocation into *MemoryArgs[0] on StreamArg
  Free,         ///< stream-ordered free of MemoryArgs[0] on StreamArg
  Record,       ///< records EventArg on StreamArg
  Wait,         ///< StreamArg waits for EventArg
  SyncStream,   ///< the host waits for StreamArg
  SyncEvent,    ///< the host waits for EventArg
  SyncDevice,   ///< the host waits for every stream
  CreateStream, ///< creates the stream *StreamArg (FlagsArg: its flags)
  PollStream,   ///< asks whether StreamArg is idle: 0 says the host waited for it
  PollEvent,    ///< asks whether EventArg completed: 0 says the host waited for it
};

struct OrderEffect {
  OrderRole Role = OrderRole::None;
  /// The stream argument; -1: the call has none and uses the default stream.
  int StreamArg = -1;
  int EventArg = -1;
  std::vector<int> MemoryArgs;
  /// CreateStream: the flags argument and the bit of cudaStreamNonBlocking
  /// (-1: no flags argument, the stream is blocking). Wait: the flags
  /// argument and the bit of cudaEventWaitExternal.
  int FlagsArg = -1;
  long long FlagBit = 0;
  /// Enqueue: the call returns only when the work is done (cudaMemcpy).
  bool Synchronous = false;
  /// PollStream, PollEvent: the status returned while the work still runs
  /// (cudaErrorNotReady); a test that rules it out waited too. -1: none.
  long long PendingStatus = -1;
};

struct FunctionModel {
  std::string Name;
  /// Number of parameters this entry is for; -1 for any. Lets the CUDA 11
  /// 5-argument cudaGraphInstantiate differ from the CUDA 12+ 3-argument one.
  int NumParams = -1;
  /// The parameter types, spelled as clang prints their canonical types
  /// (`CUstream_st *`, `unsigned long`), for entries that tell apart
  /// overloads of one name and arity (`release(cudaStream_t)` and
  /// `release(cudaEvent_t)`); empty: any parameter types.
  std::vector<std::string> Signature;
  std::vector<AcquireEffect> Acquires;
  std::vector<ReleaseEffect> Releases;
  std::vector<UseEffect> Uses;
  std::vector<WriteEffect> Writes;
  /// Name of the status type returned ("cudaError_t", "CUresult"); empty if the
  /// call does not report success through its return value.
  std::string StatusType;
  /// A second status written through an argument (`&params`) into a field
  /// (`result_out`), zero on success; -1 when there is none.
  int StatusOutArg = -1;
  std::string StatusOutField;
  /// Returns the status of the last runtime call (cudaGetLastError): a test
  /// of it tests the acquisitions whose own status nobody looked at.
  bool ReturnsLastStatus = false;
  /// Destroys everything the device or context owns (cudaDeviceReset,
  /// cuDevicePrimaryCtxReset, cuCtxDestroy): no handle is leaked past it.
  bool ReleasesAll = false;
  bool LegalDuringCapture = true;
  /// Why the call is illegal during capture (for the message).
  std::string CaptureNote;
  /// Illegal only in global and thread-local capture modes: a capture begun
  /// in relaxed mode allows it (cudaMalloc).
  bool LegalInRelaxedCapture = false;
  /// Legal in a relaxed capture unless its stream argument is the capturing
  /// stream (`cudaStreamSynchronize(side)` while `work` captures).
  bool LegalInRelaxedCaptureOnOtherStream = false;
  /// Asks whether a stream is capturing (cudaStreamIsCapturing): code that
  /// asks adapts to capture, so a helper that asks is not judged as a whole.
  bool QueriesCapture = false;
  /// Where the query writes the stream's capture status (a pointer
  /// argument; `cudaStreamCaptureStatusNone` is 0): while the stream of
  /// StreamArg is capturing, the status it writes is not None. -1: none.
  int CaptureStatusOutArg = -1;
  CaptureRole Capture = CaptureRole::None;
  int StreamArg = -1;
  /// A method that begins or ends a capture on a stream its object keeps
  /// (`begin(s) { s_ = s; cudaStreamBeginCapture(s_, ...); }`, `end() {
  /// cudaStreamEndCapture(s_, &g); }`): the member ("streamMember") of the
  /// object the method is called on. A "stream" beside it is the argument
  /// the method stored in that member first (`s_ = s`): the caller's `s`
  /// captures too.
  std::string StreamMember;
  OrderEffect Order;
  /// Begin: the graph the capture adds to (cudaStreamBeginCaptureToGraph);
  /// the end call then yields that graph, not a new one. -1: a new graph.
  int IntoGraphArg = -1;
  /// Begin: the argument that gives the capture mode (ExchangeMode: points
  /// to it), and the value of the relaxed mode (cudaStreamCaptureModeRelaxed);
  /// -1 when not given.
  int CaptureModeArg = -1;
  long long RelaxedCaptureMode = -1;
  /// Instantiations: the flags argument and the bit that frees the graph's
  /// allocations at the next launch (cudaGraphInstantiateFlagAutoFreeOnLaunch);
  /// AutoFreeArg -1: unknown. NoAutoFree: the call has no such flag.
  int AutoFreeArg = -1;
  long long AutoFreeBit = 0;
  bool NoAutoFree = false;
  /// An argument the entry does not list escapes, as at an unknown call
  /// (summaries of a function's body: an effect the summary cannot
  /// express, such as storing the handle elsewhere, is not "untouched").
  bool UnlistedArgsEscape = false;
  /// The integers a call may return, every one of them ("returnValues"):
  /// a project's summary of `int warpSizeOf(int dev) { ... return
  /// prop.warpSize; }`, so that a block shape computed from the call in
  /// another file folds (lib/SharedMem/Launch/LaunchResolver.h). Empty:
  /// not known.
  std::vector<long long> ReturnValues;
  static constexpr size_t MaxReturnValues = 16;
  /// Free text for readers of the file ("doc"): for exported summaries, the
  /// definition they summarise.
  std::string Doc;
  /// Where the entry came from: "builtin" or a user file name.
  std::string Origin;
};

/// A launch of a kernel in another file (a project's summaries,
/// "kernelLaunches"): the block shape the kernel runs with there, so that
/// the kernel checks of the file defining it have a shape.
struct KernelLaunch {
  unsigned Block[3] = {1, 1, 1};
  /// Bytes of dynamic shared memory; -1: not known.
  long long DynamicSharedBytes = -1;
  /// Where the launch is ("src/launch.cu:42"), for messages.
  std::string At;
  bool operator<(const KernelLaunch &O) const {
    return std::tie(Block[0], Block[1], Block[2], DynamicSharedBytes, At) <
           std::tie(O.Block[0], O.Block[1], O.Block[2], O.DynamicSharedBytes, O.At);
  }
  bool operator==(const KernelLaunch &O) const { return !(*this < O) && !(O < *this); }
};

class ApiModel {
public:
  /// The model embedded in the binary.
  static llvm::Expected<std::shared_ptr<ApiModel>> builtin();

  /// Adds the entries of a JSON document. `SourceName` names it in errors.
  llvm::Error addJson(llvm::StringRef Text, llvm::StringRef SourceName);
  /// Reads and adds a JSON model file.
  llvm::Error addFile(llvm::StringRef Path);

  /// The entry for a call of `Name` with `NumArgs` arguments. Suffixes that the
  /// CUDA headers add through macros (_v2, _ptsz, _ptds) are ignored.
  /// Where entries of that name and count carry signatures, the one whose
  /// signature is `Signature()`'s (asked only then); an entry without one
  /// matches any call, and with `Signature` absent a lone signed entry does.
  const FunctionModel *
  lookup(llvm::StringRef Name, unsigned NumArgs,
         llvm::function_ref<std::vector<std::string>()> Signature = nullptr) const;
  const ResourceKind *kind(llvm::StringRef Name) const;
  /// The kind whose handles have the type named `TypeName` (a typedef), or null.
  const ResourceKind *kindOfType(llvm::StringRef TypeName) const;
  /// Every kind's name, sorted.
  std::vector<std::string> kindNames() const;
  /// The success enumerator of a status type ("cudaSuccess"), or "".
  llvm::StringRef successValue(llvm::StringRef StatusType) const;
  bool isStatusType(llvm::StringRef TypeName) const;
  /// Every status type and its success enumerator, sorted by type.
  std::vector<std::pair<std::string, std::string>> statusTypes() const;
  /// Status types an entry's "returns" may name without declaring them:
  /// "bool" (true on success) and "int" (zero on success), the two that
  /// summaries of C-style helpers give.
  static bool isPseudoStatusType(llvm::StringRef TypeName);

  /// The launches in other files of the kernel `Kernel` ("ns::k", or
  /// "k<64, true>" for an instantiation), or null; every file's, in order.
  const std::vector<KernelLaunch> *launchesOf(llvm::StringRef Kernel) const;
  const llvm::StringMap<std::vector<KernelLaunch>> &kernelLaunches() const {
    return KernelLaunches;
  }

  /// The value a field of an API struct has on every device the CUDA
  /// version supports ("constantFields": "cudaDeviceProp::warpSize" is 32),
  /// or none.
  std::optional<long long> constantField(llvm::StringRef QualifiedField) const;
  const llvm::StringMap<long long> &constantFields() const { return ConstantFields; }

  size_t numFunctions() const { return Functions.size(); }
  std::vector<const FunctionModel *> functions() const;

  /// Strips the suffixes the CUDA headers append to API names.
  static llvm::StringRef canonicalName(llvm::StringRef Name);

private:
  llvm::StringMap<std::vector<FunctionModel>> Functions;
  llvm::StringMap<ResourceKind> Kinds;
  llvm::StringMap<std::string> StatusTypes;
  llvm::StringMap<std::vector<KernelLaunch>> KernelLaunches;
  llvm::StringMap<long long> ConstantFields;
};

} // namespace cgt

#endif
