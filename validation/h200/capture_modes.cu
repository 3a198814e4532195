// For one call (argv[1]; "list" prints the names), begins a capture in each
// mode (Global, ThreadLocal, Relaxed) on a blocking and on a non-blocking
// stream, makes the call inside it and prints, one line per configuration:
//   call|mode|stream|call result|capture status after the call|
//   cudaStreamEndCapture result|graph or null|node count|device health after
// The capture holds one kernel node before the call. Every resource the call
// needs is made fresh before the capture begins and released after it ends.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

__device__ int sym[64];
__global__ void touch(int *p) { p[threadIdx.x] += 1; }

struct Rc {
  int code;
  bool driver;
};
static Rc rt(cudaError_t e) { return {int(e), false}; }
static Rc dr(CUresult r) { return {int(r), true}; }
static std::string name(Rc r) {
  if (r.driver) {
    const char *n = nullptr;
    cuGetErrorName(CUresult(r.code), &n);
    return std::string("CU:") + (n ? n : "?");
  }
  return cudaGetErrorName(cudaError_t(r.code));
}

constexpr size_t N = 4096;

struct Env {
  cudaStream_t s{}, other_blocking{}, other_nonblocking{};
  cudaEvent_t ev{}, ev2{};
  int *dev{}, *kernel_target{}, *managed{}, *pinned{}, *pageable{}, *registered{}, *to_register{};
  int *async_outside{};
  cudaGraph_t g0{}, g1{};  // g0 has an exec, g1 none
  cudaGraphExec_t exec{};
  cudaArray_t arr{};
  cudaMipmappedArray_t mip{};
  CUdeviceptr cudev{};
  void *cuhost{};
  CUmemGenericAllocationHandle phys{};
  CUdeviceptr va{};
  size_t gran{};
  cudaMemPool_t pool{};
  cudaUserObject_t uobj{};
  cudaTextureObject_t tex{};
  // What calls inside the capture make; released after it ends.
  void *tmp{}, *htmp{}, *tmp_async{};
  CUdeviceptr cutmp{};
  void *cuhtmp{};
  cudaArray_t tarr{};
  cudaMipmappedArray_t tmip{};
  cudaStream_t tstream{};
  cudaEvent_t tevent{};
  cudaMemPool_t tpool{};
  cudaGraph_t tgraph{};
  cudaGraphExec_t texec{};
  CUmemGenericAllocationHandle tphys{};
  CUdeviceptr tva{};
  CUdeviceptr cutmp_async{};
  CUstream tcustream{};
  CUevent tcuevent{};
  CUmemoryPool tcupool{};
  cudaUserObject_t tuobj{};
  cudaTextureObject_t ttex{};
  bool mapped = false;
  bool reset = false;
};

static CUmemAllocationProp physProp() {
  CUmemAllocationProp p{};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  return p;
}

static cudaTextureObject_t makeTexture(cudaArray_t arr) {
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td{};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &rd, &td, nullptr);
  return t;
}

static CUmemPoolProps cuPoolProps() {
  CUmemPoolProps p{};
  p.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = 0;
  return p;
}

static void setup(Env &e, unsigned streamFlags) {
  cudaStreamCreateWithFlags(&e.s, streamFlags);
  cudaStreamCreate(&e.other_blocking);
  cudaStreamCreateWithFlags(&e.other_nonblocking, cudaStreamNonBlocking);
  cudaMalloc(&e.dev, N);
  cudaMalloc(&e.kernel_target, N);
  cudaMallocManaged(&e.managed, N);
  cudaMallocHost(&e.pinned, N);
  e.pageable = static_cast<int *>(malloc(N));
  e.registered = static_cast<int *>(malloc(N));
  cudaHostRegister(e.registered, N, cudaHostRegisterDefault);
  e.to_register = static_cast<int *>(malloc(N));
  cudaMallocAsync(&e.async_outside, N, e.other_blocking);
  cudaGraphCreate(&e.g0, 0);
  cudaGraphNode_t node;
  cudaGraphAddEmptyNode(&node, e.g0, nullptr, 0);
  cudaGraphInstantiate(&e.exec, e.g0, 0);
  cudaGraphCreate(&e.g1, 0);
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<int>();
  cudaMallocArray(&e.arr, &ch, 16, 16);
  cudaMallocMipmappedArray(&e.mip, &ch, make_cudaExtent(16, 16, 0), 2);
  cuMemAlloc(&e.cudev, N);
  cuMemAllocHost(&e.cuhost, N);
  CUmemAllocationProp prop = physProp();
  cuMemGetAllocationGranularity(&e.gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  cuMemCreate(&e.phys, e.gran, &prop, 0);
  cuMemAddressReserve(&e.va, e.gran, 0, 0, 0);
  cudaMemPoolProps pp{};
  pp.allocType = cudaMemAllocationTypePinned;
  pp.location.type = cudaMemLocationTypeDevice;
  pp.location.id = 0;
  cudaMemPoolCreate(&e.pool, &pp);
  cudaUserObjectCreate(&e.uobj, e.pageable, [](void *) {}, 1, cudaUserObjectNoDestructorSync);
  e.tex = makeTexture(e.arr);
  cudaEventCreate(&e.ev);
  cudaEventCreate(&e.ev2);
  cudaEventRecord(e.ev, e.other_blocking);
  cudaEventRecord(e.ev2, e.other_blocking);
  cudaDeviceSynchronize();
}

static void teardown(Env &e) {
  if (e.reset)
    return;  // cudaDeviceReset destroyed everything
  if (e.mapped) cuMemUnmap(e.va, e.gran);
  if (e.tex) cudaDestroyTextureObject(e.tex);
  if (e.ttex) cudaDestroyTextureObject(e.ttex);
  if (e.uobj) cudaUserObjectRelease(e.uobj);
  if (e.tuobj) cudaUserObjectRelease(e.tuobj);
  if (e.cutmp_async) cuMemFree(e.cutmp_async);
  if (e.tcustream) cuStreamDestroy(e.tcustream);
  if (e.tcuevent) cuEventDestroy(e.tcuevent);
  if (e.tcupool) cuMemPoolDestroy(e.tcupool);
  cudaFree(e.dev);
  cudaFree(e.kernel_target);
  cudaFree(e.managed);
  cudaFreeHost(e.pinned);
  free(e.pageable);
  if (e.registered) cudaHostUnregister(e.registered);
  free(e.registered);
  cudaHostUnregister(e.to_register);
  free(e.to_register);
  if (e.async_outside) cudaFree(e.async_outside);
  if (e.exec) cudaGraphExecDestroy(e.exec);
  if (e.g0) cudaGraphDestroy(e.g0);
  if (e.g1) cudaGraphDestroy(e.g1);
  if (e.arr) cudaFreeArray(e.arr);
  if (e.mip) cudaFreeMipmappedArray(e.mip);
  if (e.cudev) cuMemFree(e.cudev);
  if (e.cuhost) cuMemFreeHost(e.cuhost);
  if (e.phys) cuMemRelease(e.phys);
  if (e.va) cuMemAddressFree(e.va, e.gran);
  if (e.pool) cudaMemPoolDestroy(e.pool);
  if (e.ev) cudaEventDestroy(e.ev);
  cudaEventDestroy(e.ev2);
  if (e.tmp) cudaFree(e.tmp);
  if (e.tmp_async) cudaFree(e.tmp_async);
  if (e.htmp) cudaFreeHost(e.htmp);
  if (e.cutmp) cuMemFree(e.cutmp);
  if (e.cuhtmp) cuMemFreeHost(e.cuhtmp);
  if (e.tarr) cudaFreeArray(e.tarr);
  if (e.tmip) cudaFreeMipmappedArray(e.tmip);
  if (e.tstream) cudaStreamDestroy(e.tstream);
  if (e.tevent) cudaEventDestroy(e.tevent);
  if (e.tpool) cudaMemPoolDestroy(e.tpool);
  if (e.texec) cudaGraphExecDestroy(e.texec);
  if (e.tgraph) cudaGraphDestroy(e.tgraph);
  if (e.tphys) cuMemRelease(e.tphys);
  if (e.tva) cuMemAddressFree(e.tva, e.gran);
  if (e.other_blocking) cudaStreamDestroy(e.other_blocking);
  if (e.other_nonblocking) cudaStreamDestroy(e.other_nonblocking);
  cudaStreamDestroy(e.s);
  cudaGetLastError();
}

static cudaMemLocation devLoc() {
  cudaMemLocation l{};
  l.type = cudaMemLocationTypeDevice;
  l.id = 0;
  return l;
}

struct Call {
  const char *name;
  std::function<Rc(Env &)> run;
};

// A release that succeeded must not be repeated at teardown.
template <class T> static Rc cleared(Rc r, T &handle) {
  if (r.code == 0) handle = T{};
  return r;
}

static std::vector<Call> calls() {
  return {
      // Synchronisation and queries.
      {"cudaStreamSynchronize(capturing)", [](Env &e) { return rt(cudaStreamSynchronize(e.s)); }},
      {"cudaStreamSynchronize(other blocking)", [](Env &e) { return rt(cudaStreamSynchronize(e.other_blocking)); }},
      {"cudaStreamSynchronize(other non-blocking)", [](Env &e) { return rt(cudaStreamSynchronize(e.other_nonblocking)); }},
      {"cudaStreamQuery(capturing)", [](Env &e) { return rt(cudaStreamQuery(e.s)); }},
      {"cudaStreamQuery(other non-blocking)", [](Env &e) { return rt(cudaStreamQuery(e.other_nonblocking)); }},
      {"cudaEventQuery(recorded before)", [](Env &e) { return rt(cudaEventQuery(e.ev)); }},
      {"cudaEventSynchronize(recorded before)", [](Env &e) { return rt(cudaEventSynchronize(e.ev)); }},
      {"cudaEventElapsedTime(recorded before)", [](Env &e) { float ms; return rt(cudaEventElapsedTime(&ms, e.ev, e.ev2)); }},
      {"cudaDeviceSynchronize", [](Env &) { return rt(cudaDeviceSynchronize()); }},
      {"cuStreamSynchronize(capturing)", [](Env &e) { return dr(cuStreamSynchronize(CUstream(e.s))); }},
      {"cuStreamQuery(capturing)", [](Env &e) { return dr(cuStreamQuery(CUstream(e.s))); }},
      {"cuEventSynchronize(recorded before)", [](Env &e) { return dr(cuEventSynchronize(CUevent(e.ev))); }},
      {"cuEventQuery(recorded before)", [](Env &e) { return dr(cuEventQuery(CUevent(e.ev))); }},
      {"cuCtxSynchronize", [](Env &) { return dr(cuCtxSynchronize()); }},
      // Stream-ordered work on the capturing stream.
      {"cudaMemPrefetchAsync(managed)", [](Env &e) { return rt(cudaMemPrefetchAsync(e.managed, N, devLoc(), 0, e.s)); }},
      {"cudaMemAdvise(managed)", [](Env &e) { return rt(cudaMemAdvise(e.managed, N, cudaMemAdviseSetReadMostly, devLoc())); }},
      {"cudaStreamAttachMemAsync(managed)", [](Env &e) { return rt(cudaStreamAttachMemAsync(e.s, e.managed, 0, cudaMemAttachSingle)); }},
      {"cudaGraphLaunch", [](Env &e) { return rt(cudaGraphLaunch(e.exec, e.s)); }},
      {"cudaGraphUpload", [](Env &e) { return rt(cudaGraphUpload(e.exec, e.s)); }},
      {"cudaFreeAsync(cudaMalloc'd)", [](Env &e) { return cleared(rt(cudaFreeAsync(e.dev, e.s)), e.dev); }},
      {"cudaFreeAsync(cudaMallocAsync'd before)", [](Env &e) { return cleared(rt(cudaFreeAsync(e.async_outside, e.s)), e.async_outside); }},
      {"cuMemFreeAsync(cuMemAlloc'd)", [](Env &e) { return cleared(dr(cuMemFreeAsync(e.cudev, CUstream(e.s))), e.cudev); }},
      {"cudaMallocAsync+cudaFreeAsync inside", [](Env &e) {
         void *p = nullptr;
         Rc r = rt(cudaMallocAsync(&p, N, e.s));
         return r.code ? r : rt(cudaFreeAsync(p, e.s)); }},
      {"cudaMallocAsync inside (not freed)", [](Env &e) { return rt(cudaMallocAsync(&e.tmp_async, N, e.s)); }},
      {"cudaMemcpyAsync(H2D pageable)", [](Env &e) { return rt(cudaMemcpyAsync(e.dev, e.pageable, N, cudaMemcpyHostToDevice, e.s)); }},
      {"cudaMemcpyAsync(H2D pinned)", [](Env &e) { return rt(cudaMemcpyAsync(e.dev, e.pinned, N, cudaMemcpyHostToDevice, e.s)); }},
      {"cudaMemcpyToSymbolAsync(pinned)", [](Env &e) { return rt(cudaMemcpyToSymbolAsync(sym, e.pinned, sizeof(sym), 0, cudaMemcpyHostToDevice, e.s)); }},
      {"cudaMemsetAsync", [](Env &e) { return rt(cudaMemsetAsync(e.dev, 0, N, e.s)); }},
      {"cudaStreamWaitEvent(recorded before)", [](Env &e) { return rt(cudaStreamWaitEvent(e.s, e.ev, 0)); }},
      {"cudaStreamWaitEvent(recorded before, WaitExternal)", [](Env &e) { return rt(cudaStreamWaitEvent(e.s, e.ev, cudaEventWaitExternal)); }},
      {"kernel on legacy default stream", [](Env &e) { touch<<<1, 32>>>(e.dev); return rt(cudaGetLastError()); }},
      {"kernel on cudaStreamPerThread", [](Env &e) { touch<<<1, 32, 0, cudaStreamPerThread>>>(e.dev); return rt(cudaGetLastError()); }},
      // Synchronous copies and memsets.
      {"cudaMemcpy(H2D pageable)", [](Env &e) { return rt(cudaMemcpy(e.dev, e.pageable, N, cudaMemcpyHostToDevice)); }},
      {"cudaMemcpy(D2D)", [](Env &e) { return rt(cudaMemcpy(e.dev, e.kernel_target, N, cudaMemcpyDeviceToDevice)); }},
      {"cudaMemcpy2D(D2D)", [](Env &e) { return rt(cudaMemcpy2D(e.dev, 64, e.kernel_target, 64, 64, 4, cudaMemcpyDeviceToDevice)); }},
      {"cudaMemcpy3D(D2D)", [](Env &e) {
         cudaMemcpy3DParms p{};
         p.srcPtr = make_cudaPitchedPtr(e.kernel_target, 64, 64, 4);
         p.dstPtr = make_cudaPitchedPtr(e.dev, 64, 64, 4);
         p.extent = make_cudaExtent(64, 4, 1);
         p.kind = cudaMemcpyDeviceToDevice;
         return rt(cudaMemcpy3D(&p)); }},
      {"cudaMemcpyPeer(same device)", [](Env &e) { return rt(cudaMemcpyPeer(e.dev, 0, e.kernel_target, 0, N)); }},
      {"cudaMemcpy2DToArray", [](Env &e) { return rt(cudaMemcpy2DToArray(e.arr, 0, 0, e.dev, 64, 64, 4, cudaMemcpyDeviceToDevice)); }},
      {"cudaMemcpy2DFromArray", [](Env &e) { return rt(cudaMemcpy2DFromArray(e.dev, 64, e.arr, 0, 0, 64, 4, cudaMemcpyDeviceToDevice)); }},
      {"cudaMemcpyToSymbol", [](Env &e) { return rt(cudaMemcpyToSymbol(sym, e.pageable, sizeof(sym))); }},
      {"cudaMemcpyFromSymbol", [](Env &e) { return rt(cudaMemcpyFromSymbol(e.pageable, sym, sizeof(sym))); }},
      {"cudaMemset", [](Env &e) { return rt(cudaMemset(e.dev, 0, N)); }},
      {"cudaMemset2D", [](Env &e) { return rt(cudaMemset2D(e.dev, 64, 0, 64, 4)); }},
      {"cuMemcpyHtoD", [](Env &e) { return dr(cuMemcpyHtoD(e.cudev, e.pageable, N)); }},
      {"cuMemcpyDtoH", [](Env &e) { return dr(cuMemcpyDtoH(e.pageable, e.cudev, N)); }},
      {"cuMemcpyDtoD", [](Env &e) { return dr(cuMemcpyDtoD(e.cudev, CUdeviceptr(e.dev), N)); }},
      {"cuMemcpy", [](Env &e) { return dr(cuMemcpy(e.cudev, CUdeviceptr(e.dev), N)); }},
      {"cuMemsetD8", [](Env &e) { return dr(cuMemsetD8(e.cudev, 0, N)); }},
      {"cuMemsetD32", [](Env &e) { return dr(cuMemsetD32(e.cudev, 0, N / 4)); }},
      // Allocation.
      {"cudaMalloc", [](Env &e) { return rt(cudaMalloc(&e.tmp, N)); }},
      {"cudaMalloc(other thread)", [](Env &e) {
         Rc r{};
         std::thread t([&] { r = rt(cudaMalloc(&e.tmp, N)); });
         t.join();
         return r; }},
      {"cudaMallocPitch", [](Env &e) { size_t pitch; return rt(cudaMallocPitch(&e.tmp, &pitch, 64, 4)); }},
      {"cudaMalloc3D", [](Env &e) {
         cudaPitchedPtr pp{};
         Rc r = rt(cudaMalloc3D(&pp, make_cudaExtent(64, 4, 1)));
         e.tmp = pp.ptr;
         return r; }},
      {"cudaMallocManaged", [](Env &e) { return rt(cudaMallocManaged(&e.tmp, N)); }},
      {"cudaMallocArray", [](Env &e) { cudaChannelFormatDesc ch = cudaCreateChannelDesc<int>(); return rt(cudaMallocArray(&e.tarr, &ch, 16, 16)); }},
      {"cudaMalloc3DArray", [](Env &e) { cudaChannelFormatDesc ch = cudaCreateChannelDesc<int>(); return rt(cudaMalloc3DArray(&e.tarr, &ch, make_cudaExtent(16, 16, 0))); }},
      {"cudaMallocMipmappedArray", [](Env &e) { cudaChannelFormatDesc ch = cudaCreateChannelDesc<int>(); return rt(cudaMallocMipmappedArray(&e.tmip, &ch, make_cudaExtent(16, 16, 0), 2)); }},
      {"cudaMallocHost", [](Env &e) { return rt(cudaMallocHost(&e.htmp, N)); }},
      {"cudaHostAlloc", [](Env &e) { return rt(cudaHostAlloc(&e.htmp, N, cudaHostAllocDefault)); }},
      {"cudaHostRegister", [](Env &e) { return rt(cudaHostRegister(e.to_register, N, cudaHostRegisterDefault)); }},
      {"cudaHostUnregister", [](Env &e) {
         Rc r = rt(cudaHostUnregister(e.registered));
         if (r.code == 0) { free(e.registered); e.registered = nullptr; }
         return r; }},
      {"cuMemHostRegister", [](Env &e) { return dr(cuMemHostRegister(e.to_register, N, 0)); }},
      {"cuMemHostUnregister", [](Env &e) {
         Rc r = dr(cuMemHostUnregister(e.registered));
         if (r.code == 0) { free(e.registered); e.registered = nullptr; }
         return r; }},
      {"cuMemAlloc", [](Env &e) { return dr(cuMemAlloc(&e.cutmp, N)); }},
      {"cuMemAllocPitch", [](Env &e) { size_t pitch; return dr(cuMemAllocPitch(&e.cutmp, &pitch, 64, 4, 4)); }},
      {"cuMemAllocManaged", [](Env &e) { return dr(cuMemAllocManaged(&e.cutmp, N, CU_MEM_ATTACH_GLOBAL)); }},
      {"cuMemAllocHost", [](Env &e) { return dr(cuMemAllocHost(&e.cuhtmp, N)); }},
      {"cuMemHostAlloc", [](Env &e) { return dr(cuMemHostAlloc(&e.cuhtmp, N, 0)); }},
      {"cuMemCreate", [](Env &e) { CUmemAllocationProp p = physProp(); return dr(cuMemCreate(&e.tphys, e.gran, &p, 0)); }},
      {"cuMemRelease", [](Env &e) { return cleared(dr(cuMemRelease(e.phys)), e.phys); }},
      {"cuMemAddressReserve", [](Env &e) { return dr(cuMemAddressReserve(&e.tva, e.gran, 0, 0, 0)); }},
      {"cuMemAddressFree", [](Env &e) { return cleared(dr(cuMemAddressFree(e.va, e.gran)), e.va); }},
      // Release.
      {"cudaFree(cudaMalloc'd)", [](Env &e) { return cleared(rt(cudaFree(e.dev)), e.dev); }},
      {"cudaFree(nullptr)", [](Env &) { return rt(cudaFree(nullptr)); }},
      {"cudaFree(managed)", [](Env &e) { return cleared(rt(cudaFree(e.managed)), e.managed); }},
      {"cudaFreeHost", [](Env &e) { return cleared(rt(cudaFreeHost(e.pinned)), e.pinned); }},
      {"cudaFreeArray", [](Env &e) { return cleared(rt(cudaFreeArray(e.arr)), e.arr); }},
      {"cudaFreeMipmappedArray", [](Env &e) { return cleared(rt(cudaFreeMipmappedArray(e.mip)), e.mip); }},
      {"cuMemFree", [](Env &e) { return cleared(dr(cuMemFree(e.cudev)), e.cudev); }},
      {"cuMemFreeHost", [](Env &e) { return cleared(dr(cuMemFreeHost(e.cuhost)), e.cuhost); }},
      // Handles the model treats as legal during capture.
      {"cudaStreamCreate", [](Env &e) { return rt(cudaStreamCreate(&e.tstream)); }},
      {"cudaStreamDestroy(other)", [](Env &e) { return cleared(rt(cudaStreamDestroy(e.other_nonblocking)), e.other_nonblocking); }},
      {"cudaEventCreate", [](Env &e) { return rt(cudaEventCreate(&e.tevent)); }},
      {"cudaEventDestroy", [](Env &e) { return cleared(rt(cudaEventDestroy(e.ev)), e.ev); }},
      {"cudaEventRecord(capturing)", [](Env &e) { return rt(cudaEventRecord(e.ev, e.s)); }},
      {"cudaMemPoolCreate", [](Env &e) {
         cudaMemPoolProps pp{};
         pp.allocType = cudaMemAllocationTypePinned;
         pp.location.type = cudaMemLocationTypeDevice;
         pp.location.id = 0;
         return rt(cudaMemPoolCreate(&e.tpool, &pp)); }},
      {"cudaMemPoolDestroy", [](Env &e) { return cleared(rt(cudaMemPoolDestroy(e.pool)), e.pool); }},
      {"cudaMemPoolTrimTo", [](Env &e) { return rt(cudaMemPoolTrimTo(e.pool, 0)); }},
      {"cudaGraphCreate", [](Env &e) { return rt(cudaGraphCreate(&e.tgraph, 0)); }},
      {"cudaGraphInstantiate", [](Env &e) { return rt(cudaGraphInstantiate(&e.texec, e.g0, 0)); }},
      {"cudaGraphExecDestroy", [](Env &e) { return cleared(rt(cudaGraphExecDestroy(e.exec)), e.exec); }},
      {"cudaGraphDestroy", [](Env &e) { return cleared(rt(cudaGraphDestroy(e.g1)), e.g1); }},
      // The rest of the model's functions.
      {"cudaGraphLaunch(other stream)", [](Env &e) { return rt(cudaGraphLaunch(e.exec, e.other_nonblocking)); }},
      {"cuGraphLaunch", [](Env &e) { return dr(cuGraphLaunch(CUgraphExec(e.exec), CUstream(e.s))); }},
      {"cudaGraphInstantiateWithFlags", [](Env &e) { return rt(cudaGraphInstantiateWithFlags(&e.texec, e.g0, 0)); }},
      {"cudaGraphInstantiateWithParams", [](Env &e) {
         cudaGraphInstantiateParams ip{};
         return rt(cudaGraphInstantiateWithParams(&e.texec, e.g0, &ip)); }},
      {"cuGraphInstantiate", [](Env &e) { return dr(cuGraphInstantiate(reinterpret_cast<CUgraphExec *>(&e.texec), CUgraph(e.g0), 0)); }},
      {"cuGraphExecDestroy", [](Env &e) { return cleared(dr(cuGraphExecDestroy(CUgraphExec(e.exec))), e.exec); }},
      {"cudaGraphExecUpdate", [](Env &e) { cudaGraphExecUpdateResultInfo info{}; return rt(cudaGraphExecUpdate(e.exec, e.g0, &info)); }},
      {"cudaGraphExecGetFlags", [](Env &e) { unsigned long long f; return rt(cudaGraphExecGetFlags(e.exec, &f)); }},
      {"cuGraphCreate", [](Env &e) { return dr(cuGraphCreate(reinterpret_cast<CUgraph *>(&e.tgraph), 0)); }},
      {"cuGraphDestroy", [](Env &e) { return cleared(dr(cuGraphDestroy(CUgraph(e.g1))), e.g1); }},
      {"cudaGraphClone", [](Env &e) { return rt(cudaGraphClone(&e.tgraph, e.g0)); }},
      {"cudaGraphAddEmptyNode", [](Env &e) { cudaGraphNode_t n; return rt(cudaGraphAddEmptyNode(&n, e.g1, nullptr, 0)); }},
      {"cudaGraphGetNodes", [](Env &e) { size_t n = 0; return rt(cudaGraphGetNodes(e.g0, nullptr, &n)); }},
      {"cudaGraphDebugDotPrint", [](Env &e) { return rt(cudaGraphDebugDotPrint(e.g0, "/tmp/capture_modes.dot", 0)); }},
      {"cuMemPoolCreate", [](Env &e) { CUmemPoolProps p = cuPoolProps(); return dr(cuMemPoolCreate(&e.tcupool, &p)); }},
      {"cuMemPoolDestroy", [](Env &e) { return cleared(dr(cuMemPoolDestroy(CUmemoryPool(e.pool))), e.pool); }},
      {"cudaMemPoolSetAttribute", [](Env &e) { cuuint64_t v = 0; return rt(cudaMemPoolSetAttribute(e.pool, cudaMemPoolAttrReleaseThreshold, &v)); }},
      {"cudaDeviceGetDefaultMemPool", [](Env &) { cudaMemPool_t p; return rt(cudaDeviceGetDefaultMemPool(&p, 0)); }},
      {"cudaMallocFromPoolAsync inside (not freed)", [](Env &e) { return rt(cudaMallocFromPoolAsync(&e.tmp_async, N, e.pool, e.s)); }},
      {"cuMemAllocAsync+cuMemFreeAsync inside", [](Env &e) {
         CUdeviceptr p = 0;
         Rc r = dr(cuMemAllocAsync(&p, N, CUstream(e.s)));
         return r.code ? r : dr(cuMemFreeAsync(p, CUstream(e.s))); }},
      {"cuStreamWaitEvent(recorded before)", [](Env &e) { return dr(cuStreamWaitEvent(CUstream(e.s), CUevent(e.ev), 0)); }},
      {"cudaEventRecordWithFlags(capturing)", [](Env &e) { return rt(cudaEventRecordWithFlags(e.ev, e.s, 0)); }},
      {"cuEventRecord(capturing)", [](Env &e) { return dr(cuEventRecord(CUevent(e.ev), CUstream(e.s))); }},
      {"cuEventCreate", [](Env &e) { return dr(cuEventCreate(&e.tcuevent, 0)); }},
      {"cuEventDestroy", [](Env &e) { return cleared(dr(cuEventDestroy(CUevent(e.ev))), e.ev); }},
      {"cudaStreamCreateWithFlags", [](Env &e) { return rt(cudaStreamCreateWithFlags(&e.tstream, cudaStreamNonBlocking)); }},
      {"cudaStreamCreateWithPriority", [](Env &e) { return rt(cudaStreamCreateWithPriority(&e.tstream, cudaStreamNonBlocking, 0)); }},
      {"cuStreamCreate", [](Env &e) { return dr(cuStreamCreate(&e.tcustream, CU_STREAM_NON_BLOCKING)); }},
      {"cuStreamDestroy(other)", [](Env &e) { return cleared(dr(cuStreamDestroy(CUstream(e.other_nonblocking))), e.other_nonblocking); }},
      {"cudaMemcpyAsync(D2H pageable)", [](Env &e) { return rt(cudaMemcpyAsync(e.pageable, e.dev, N, cudaMemcpyDeviceToHost, e.s)); }},
      {"cudaMemcpy2DAsync", [](Env &e) { return rt(cudaMemcpy2DAsync(e.dev, 64, e.kernel_target, 64, 64, 4, cudaMemcpyDeviceToDevice, e.s)); }},
      {"cudaMemcpy3DAsync", [](Env &e) {
         cudaMemcpy3DParms p{};
         p.srcPtr = make_cudaPitchedPtr(e.kernel_target, 64, 64, 4);
         p.dstPtr = make_cudaPitchedPtr(e.dev, 64, 64, 4);
         p.extent = make_cudaExtent(64, 4, 1);
         p.kind = cudaMemcpyDeviceToDevice;
         return rt(cudaMemcpy3DAsync(&p, e.s)); }},
      {"cudaMemcpyPeerAsync(same device)", [](Env &e) { return rt(cudaMemcpyPeerAsync(e.dev, 0, e.kernel_target, 0, N, e.s)); }},
      {"cudaMemcpyFromSymbolAsync(pinned)", [](Env &e) { return rt(cudaMemcpyFromSymbolAsync(e.pinned, sym, sizeof(sym), 0, cudaMemcpyDeviceToHost, e.s)); }},
      {"cudaMemcpy2DToArrayAsync", [](Env &e) { return rt(cudaMemcpy2DToArrayAsync(e.arr, 0, 0, e.dev, 64, 64, 4, cudaMemcpyDeviceToDevice, e.s)); }},
      {"cudaMemset2DAsync", [](Env &e) { return rt(cudaMemset2DAsync(e.dev, 64, 0, 64, 4, e.s)); }},
      {"cuMemcpyHtoDAsync(pageable)", [](Env &e) { return dr(cuMemcpyHtoDAsync(e.cudev, e.pageable, N, CUstream(e.s))); }},
      {"cuMemcpyDtoHAsync(pageable)", [](Env &e) { return dr(cuMemcpyDtoHAsync(e.pageable, e.cudev, N, CUstream(e.s))); }},
      {"cuMemcpyDtoDAsync", [](Env &e) { return dr(cuMemcpyDtoDAsync(e.cudev, CUdeviceptr(e.dev), N, CUstream(e.s))); }},
      {"cuMemcpyAsync", [](Env &e) { return dr(cuMemcpyAsync(e.cudev, CUdeviceptr(e.dev), N, CUstream(e.s))); }},
      {"cuMemsetD8Async", [](Env &e) { return dr(cuMemsetD8Async(e.cudev, 0, N, CUstream(e.s))); }},
      {"cuMemsetD32Async", [](Env &e) { return dr(cuMemsetD32Async(e.cudev, 0, N / 4, CUstream(e.s))); }},
      {"cuMemMap", [](Env &e) {
         Rc r = dr(cuMemMap(e.va, e.gran, 0, e.phys, 0));
         e.mapped = r.code == 0;
         return r; }},
      {"cudaHostGetDevicePointer", [](Env &e) { void *d; return rt(cudaHostGetDevicePointer(&d, e.pinned, 0)); }},
      {"cudaUserObjectCreate", [](Env &e) { return rt(cudaUserObjectCreate(&e.tuobj, e.pageable, [](void *) {}, 1, cudaUserObjectNoDestructorSync)); }},
      {"cudaUserObjectRelease", [](Env &e) { return cleared(rt(cudaUserObjectRelease(e.uobj)), e.uobj); }},
      {"cudaCreateTextureObject", [](Env &e) {
         cudaResourceDesc rd{};
         rd.resType = cudaResourceTypeArray;
         rd.res.array.array = e.arr;
         cudaTextureDesc td{};
         td.readMode = cudaReadModeElementType;
         return rt(cudaCreateTextureObject(&e.ttex, &rd, &td, nullptr)); }},
      {"cudaDestroyTextureObject", [](Env &e) { return cleared(rt(cudaDestroyTextureObject(e.tex)), e.tex); }},
      {"cudaDeviceReset", [](Env &e) { e.reset = true; return rt(cudaDeviceReset()); }},
  };
}

static const char *statusName(cudaStreamCaptureStatus st) {
  switch (st) {
    case cudaStreamCaptureStatusNone: return "none";
    case cudaStreamCaptureStatusActive: return "active";
    case cudaStreamCaptureStatusInvalidated: return "invalidated";
  }
  return "?";
}

int main(int argc, char **argv) {
  std::vector<Call> all = calls();
  if (argc < 2 || !strcmp(argv[1], "list")) {
    for (const Call &c : all) printf("%s\n", c.name);
    return 0;
  }
  const Call *call = nullptr;
  for (const Call &c : all)
    if (!strcmp(c.name, argv[1])) call = &c;
  if (!call) {
    fprintf(stderr, "unknown call %s\n", argv[1]);
    return 2;
  }
  // argv[2], when given, runs only that configuration (0-5, in the order
  // below): for calls such as cudaDeviceReset that leave nothing to go on with.
  const int only = argc > 2 ? atoi(argv[2]) : -1;
  cudaSetDevice(0);
  cudaFree(nullptr);
  const struct { const char *name; cudaStreamCaptureMode mode; } modes[] = {
      {"Global", cudaStreamCaptureModeGlobal},
      {"ThreadLocal", cudaStreamCaptureModeThreadLocal},
      {"Relaxed", cudaStreamCaptureModeRelaxed}};
  const struct { const char *name; unsigned flags; } streams[] = {
      {"blocking", cudaStreamDefault}, {"non-blocking", cudaStreamNonBlocking}};
  int config = -1;
  for (auto st : streams)
    for (auto m : modes) {
      if (++config != only && only >= 0)
        continue;
      Env e;
      setup(e, st.flags);
      Rc pre = rt(cudaGetLastError());
      Rc begin = rt(cudaStreamBeginCapture(e.s, m.mode));
      touch<<<1, 32, 0, e.s>>>(e.kernel_target);
      Rc r = call->run(e);
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      Rc isCap = rt(cudaStreamIsCapturing(e.s, &status));
      cudaGraph_t g = nullptr;
      Rc end = rt(cudaStreamEndCapture(e.s, &g));
      size_t nodes = 0;
      if (g) cudaGraphGetNodes(g, nullptr, &nodes);
      Rc last = rt(cudaGetLastError());
      Rc health = rt(cudaDeviceSynchronize());
      printf("%s|%s|%s|%s|%s%s|%s|%s|%zu|%s%s%s\n", call->name, m.name, st.name,
             name(r).c_str(), statusName(status),
             isCap.code ? (" (IsCapturing " + name(isCap) + ")").c_str() : "",
             name(end).c_str(), g ? "graph" : "null", nodes, name(health).c_str(),
             last.code ? (" last=" + name(last)).c_str() : "",
             pre.code || begin.code ? (" SETUP " + name(pre) + "/" + name(begin)).c_str() : "");
      fflush(stdout);
      if (g) cudaGraphDestroy(g);
      teardown(e);
    }
  return 0;
}
