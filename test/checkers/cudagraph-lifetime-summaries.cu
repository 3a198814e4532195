// RUN: %check_cudagraph_tidy %s cudagraph-handle-leak %t -check-suffixes=LEAK
// RUN: %check_cudagraph_tidy %s cudagraph-mismatched-dealloc %t -check-suffixes=MISMATCH
// RUN: %check_cudagraph_tidy %s cudagraph-use-after-dealloc %t -check-suffixes=UAF
// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t -check-suffixes=EXEC
//
// Summaries of helpers defined in the file, per parameter (issue 20 items 2
// and 3): a helper that only launches kernels on a buffer or reads it is no
// hand-off; a call that copies the bytes of `&ptr` takes nothing; a helper
// that switches on a constant argument is summarised for that constant; a
// C-style context struct is followed member by member from the helper that
// acquires into it to the helper that releases it. Every bug has a correct
// twin beside it that must stay silent.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

__global__ void scale(float *p, int n);
__global__ void axpy(const float *x, float *y, int n);

// ---- helpers that only use what they are given ---------------------------

static void launch_axpy(const float *x, float *y, int n, cudaStream_t s) {
  axpy<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
}
static void backward(float *dinp, float *ones, int n, cudaStream_t s) {
  launch_axpy(ones, dinp, n, s);
  scale<<<1, 32, 0, s>>>(dinp, n);
}

int ones_leaked(float *dinp, int n, cudaStream_t s) {
  float *d_ones;
  if (cudaMalloc(&d_ones, n * sizeof(float)) != cudaSuccess)
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: device memory 'd_ones' created by 'cudaMalloc' is not released on every path
    return 1;
  backward(dinp, d_ones, n, s);
  return 0;
}

int ones_freed(float *dinp, int n, cudaStream_t s) {
  float *d_ones;
  if (cudaMalloc(&d_ones, n * sizeof(float)) != cudaSuccess)
    return 1;
  backward(dinp, d_ones, n, s);
  cudaStreamSynchronize(s);
  cudaFree(d_ones);
  return 0;
}

static float *g_scratch;
static void keep_scratch(float *p) { g_scratch = p; }

void scratch_kept(int n) {
  float *p;
  if (cudaMalloc(&p, n) == cudaSuccess)
    keep_scratch(p); // the helper stores it: handed on
}

static void publish(float **slot, float *p) { *slot = p; }

void published(float **slot, int n) {
  float *p;
  if (cudaMalloc(&p, n) == cudaSuccess)
    publish(slot, p);
}

// ---- a call that copies the bytes of a handle ----------------------------

void table_entry_leaked(float **d_table, size_t n) {
  float *ptr;
  if (cudaMalloc(&ptr, n) != cudaSuccess)
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: device memory 'ptr' created by 'cudaMalloc' is not released on every path
    return;
  cudaMemcpy(d_table, &ptr, sizeof ptr, cudaMemcpyHostToDevice);
}

void table_entry_freed(float **d_table, size_t n) {
  float *ptr;
  if (cudaMalloc(&ptr, n) != cudaSuccess)
    return;
  cudaMemcpy(d_table, &ptr, sizeof ptr, cudaMemcpyHostToDevice);
  cudaDeviceSynchronize();
  cudaFree(ptr);
}

// ---- helpers specialised to a constant argument --------------------------

enum Space { DEVICE_MEMORY, PINNED_MEMORY, MANAGED_MEMORY };

static void allocate(void **p, size_t bytes, Space space) {
  switch (space) {
  case DEVICE_MEMORY: cudaMalloc(p, bytes); break;
  case PINNED_MEMORY: cudaMallocHost(p, bytes); break;
  case MANAGED_MEMORY: cudaMallocManaged(p, bytes); break;
  }
}
static void deallocate(void *p, Space space) {
  if (space == PINNED_MEMORY)
    cudaFreeHost(p);
  else
    cudaFree(p);
}

void pinned_freed_as_device(size_t n) {
  void *h;
  allocate(&h, n, PINNED_MEMORY);
  cudaFree(h);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: pinned host memory 'h' allocated by 'allocate' is released by 'cudaFree'; release it with cudaFreeHost
}

void pinned_freed_as_pinned(size_t n) {
  void *h;
  allocate(&h, n, PINNED_MEMORY);
  cudaFreeHost(h);
}

void pinned_released_by_helper_as_device(size_t n) {
  void *h;
  allocate(&h, n, PINNED_MEMORY);
  deallocate(h, DEVICE_MEMORY);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: pinned host memory 'h' allocated by 'allocate' is released by 'deallocate'; release it with cudaFreeHost
}

void pinned_released_by_helper(size_t n) {
  void *h;
  allocate(&h, n, PINNED_MEMORY);
  deallocate(h, PINNED_MEMORY);
}

// The space is not known here: either family may release it, and it still
// leaks when nothing does.
void any_space_released(size_t n, Space space) {
  void *h;
  allocate(&h, n, space);
  deallocate(h, space);
}

void any_space_released_inline(size_t n, Space space) {
  void *h;
  allocate(&h, n, space);
  if (space == PINNED_MEMORY)
    cudaFreeHost(h);
  else
    cudaFree(h);
}

void any_space_leaked(size_t n, Space space) {
  void *h;
  allocate(&h, n, space);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: device memory 'h' created by 'allocate' is not released on every path
}

static void release_if(float *p, bool owned) {
  if (owned)
    cudaFree(p);
}

void kept_by_flag(size_t n) {
  float *p;
  cudaMalloc(&p, n);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:3: warning: device memory 'p' created by 'cudaMalloc' is not released on every path
  release_if(p, false);
}

void released_by_flag(size_t n) {
  float *p;
  cudaMalloc(&p, n);
  release_if(p, true);
}

// ---- context structs across free functions -------------------------------

struct Ctx {
  cudaStream_t stream;
  float *buf;
  int n;
};

static int ctx_init(Ctx *c, int n) {
  c->n = n;
  if (cudaStreamCreate(&c->stream) != cudaSuccess)
    return -1;
  if (cudaMalloc(&c->buf, n) != cudaSuccess) {
    cudaStreamDestroy(c->stream);
    return -1;
  }
  return 0;
}
static void ctx_free(Ctx *c) {
  cudaStreamDestroy(c->stream);
  cudaFree(c->buf);
}

int ctx_leaked_on_error(int n, bool fail) {
  Ctx c;
  if (ctx_init(&c, n) != 0)
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: stream 'c.stream' created by 'ctx_init' is not released on every path
    return 1;
  if (fail)
    return 2;
  ctx_free(&c);
  return 0;
}

int ctx_freed(int n, bool fail) {
  Ctx c;
  if (ctx_init(&c, n) != 0)
    return 1;
  if (fail) {
    ctx_free(&c);
    return 2;
  }
  ctx_free(&c);
  return 0;
}

void ctx_used_after_free(int n) {
  Ctx c;
  if (ctx_init(&c, n) != 0)
    return;
  ctx_free(&c);
  cudaMemsetAsync(c.buf, 0, n, c.stream);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:3: warning: 'c.buf' is used by 'cudaMemsetAsync' after it was released
}

void ctx_used_before_free(int n) {
  Ctx c;
  if (ctx_init(&c, n) != 0)
    return;
  cudaMemsetAsync(c.buf, 0, n, c.stream);
  ctx_free(&c);
}

// The same pair through references, and a release of the wrong family.
struct HostData {
  float *h_data;
  float *d_data;
  int num;
};

static void host_data_alloc(HostData &data) {
  cudaMallocHost((void **)&data.h_data, sizeof(float) * data.num);
  cudaMalloc((void **)&data.d_data, sizeof(float) * data.num);
}
static void host_data_free_wrong(HostData &data) {
  free(data.h_data);
  // CHECK-MESSAGES-MISMATCH: :[[@LINE-1]]:3: warning: pinned host memory 'data.h_data' allocated by 'cudaMallocHost' is released by 'free'; release it with cudaFreeHost
  cudaFree(data.d_data);
}
static void host_data_free(HostData &data) {
  cudaFreeHost(data.h_data);
  cudaFree(data.d_data);
}

void host_data_mismatched(int n) {
  HostData d;
  d.num = n;
  host_data_alloc(d);
  host_data_free_wrong(d); // one defect, reported once: inside the helper
}

void host_data_matched(int n) {
  HostData d;
  d.num = n;
  host_data_alloc(d);
  host_data_free(d);
}

// A helper that uses a member temporarily and releases it is no effect.
static void ctx_scratch(Ctx *c) {
  cudaMalloc(&c->buf, 16);
  scale<<<1, 32, 0, c->stream>>>(c->buf, 4);
  cudaFree(c->buf);
}

void ctx_scratch_only(Ctx *shared) {
  Ctx c;
  c.stream = shared->stream;
  ctx_scratch(&c);
}

// A lazy getter instantiates into a member of the object it is given and
// returns that member: the object keeps the exec, the caller borrows it.
// A factory that returns what it instantiated into a local hands it over.
struct LazyPlan {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
};
static cudaGraphExec_t lazy_exec(LazyPlan *p) {
  if (!p->exec && cudaGraphInstantiate(&p->exec, p->graph, 0) != cudaSuccess)
    return nullptr;
  return p->exec;
}
static cudaGraphExec_t fresh_exec(LazyPlan *p) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, p->graph, 0) != cudaSuccess)
    return nullptr;
  return e;
}
bool lazy_launch(LazyPlan *p, cudaStream_t s) {
  cudaGraphExec_t e = lazy_exec(p);
  if (!e)
    return false;
  return cudaGraphLaunch(e, s) == cudaSuccess;
}
bool fresh_launch(LazyPlan *p, cudaStream_t s) {
  cudaGraphExec_t e = fresh_exec(p);
  // CHECK-MESSAGES-EXEC: :[[@LINE-1]]:23: warning: graph exec created by 'fresh_exec' is not destroyed on every path
  if (!e)
    return false;
  return cudaGraphLaunch(e, s) == cudaSuccess;
}

// ---- one handle published through two out-parameters ---------------------
// A mapping helper that returns the same IPC pointer through two
// out-parameters (`*ipcPtr = *devMem`, nccl's p2p transport): the caller
// keeps it twice, and the copy in its resources is the one it closes, so
// the summary acquires into neither. The same helper without the second
// store hands the caller one mapping it must close.
struct PeerMem { unsigned long head; };
struct PeerResources { void *memIpc; };
struct PeerConn { unsigned long *head; };
static cudaError_t map_peer(cudaIpcMemHandle_t h, void **devMem, void **ipcPtr) {
  cudaError_t e = cudaIpcOpenMemHandle(devMem, h, cudaIpcMemLazyEnablePeerAccess);
  if (e != cudaSuccess)
    return e;
  *ipcPtr = *devMem;
  return cudaSuccess;
}
static cudaError_t map_peer_once(cudaIpcMemHandle_t h, void **devMem) {
  return cudaIpcOpenMemHandle(devMem, h, cudaIpcMemLazyEnablePeerAccess);
}
int peer_connect(PeerResources *res, PeerConn *conn, cudaIpcMemHandle_t h) {
  PeerMem *rem = nullptr;
  if (map_peer(h, (void **)&rem, &res->memIpc) != cudaSuccess)
    return 1;
  conn->head = &rem->head;
  return 0;
}
int peer_connect_once(PeerConn *conn, cudaIpcMemHandle_t h) {
  PeerMem *rem = nullptr;
  if (map_peer_once(h, (void **)&rem) != cudaSuccess)
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: IPC memory mapping 'rem' created by 'map_peer_once' is not released on every path
    return 1;
  conn->head = &rem->head;
  return 0;
}

// ---- a lazy getter that rebuilds through a helper -------------------------
// `rebuild` destroys the graph a plan holds and captures a new one into the
// same member; the getter returns the member. Its caller uses the new graph
// (warp's apic.cu): no use after release, no leak. A helper that only
// destroys it leaves the caller a released member.
struct RebuiltPlan {
  cudaGraph_t graph;
};
static bool rebuild_plan(RebuiltPlan *p, cudaStream_t s, float *d) {
  if (p->graph) {
    cudaGraphDestroy(p->graph);
    p->graph = nullptr;
  }
  if (cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    return false;
  cudaMemsetAsync(d, 0, 4, s);
  cudaGraph_t captured = nullptr;
  if (cudaStreamEndCapture(s, &captured) != cudaSuccess)
    return false;
  p->graph = captured;
  return true;
}
static void drop_plan(RebuiltPlan *p) { cudaGraphDestroy(p->graph); }
static cudaGraph_t plan_graph(RebuiltPlan *p, cudaStream_t s, float *d) {
  if (!p->graph && !rebuild_plan(p, s, d))
    return nullptr;
  return p->graph;
}
static cudaGraph_t dropped_graph(RebuiltPlan *p) {
  drop_plan(p);
  return p->graph;
}
bool plan_instantiate(RebuiltPlan *p, cudaStream_t s, float *d, cudaGraphExec_t *out) {
  if (!plan_graph(p, s, d))
    return false;
  return cudaGraphInstantiate(out, p->graph, 0) == cudaSuccess;
}
bool dropped_instantiate(RebuiltPlan *p, cudaGraphExec_t *out) {
  dropped_graph(p);
  return cudaGraphInstantiate(out, p->graph, 0) == cudaSuccess;
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:10: warning: 'p->graph' is used by 'cudaGraphInstantiate' after it was released
}

// ---- helpers that only read through a struct pointer ---------------------
// `pools_clear(&p)` only reads `p->a` and `p->cap`: the members of `p` stay
// as they were, so a grow that re-allocates `a` over the live buffer is
// seen after it. A helper that writes through the pointer (`memset`) may
// have changed them: silent.
typedef struct {
  void *a;
  size_t cap;
} rpools_t;
static int rpools_init(rpools_t *p, size_t n) {
  if (cudaMalloc(&p->a, n) != cudaSuccess)
    return -1;
  p->cap = n;
  return 0;
}
static void rpools_free(rpools_t *p) { cudaFree(p->a); }
static int rpools_grow(rpools_t *p, size_t n) {
  if (n <= p->cap)
    return 0;
  if (cudaMalloc(&p->a, n) != cudaSuccess)
    return -1;
  p->cap = n;
  return 0;
}
static int rpools_clear(rpools_t *p, cudaStream_t s) {
  return cudaMemsetAsync(p->a, 0, p->cap, s) == cudaSuccess ? 0 : -1;
}
static void rpools_forget(rpools_t *p) { memset(p, 0, sizeof(*p)); }
int rpools_clear_then_grow(void) {
  rpools_t p;
  if (rpools_init(&p, 1 << 20) != 0)
    return 1;
  int rc = rpools_clear(&p, 0);
  if (rc == 0)
    rc = rpools_grow(&p, 1 << 22);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:10: warning: 'rpools_grow' overwrites 'p.a', which still holds a live device memory
  rpools_free(&p);
  return rc;
}
int rpools_forget_then_grow(void) {
  rpools_t p;
  if (rpools_init(&p, 1 << 20) != 0)
    return 1;
  rpools_forget(&p);
  int rc = rpools_grow(&p, 1 << 22);
  rpools_free(&p);
  return rc;
}

// ---- helpers that reset what they release, and lazy acquisitions ----------
// A free helper that nulls each member after releasing it can be called
// again (an init's error path calls it, then its caller does); a setter that
// destroys the old stream and stores a new one leaves no released handle in
// the member; an init that returns when its member is already set keeps it.
// Their twins without the null, or without the test, are the bugs.

typedef struct {
  cudaStream_t stream;
  cudaMemPool_t pool;
  void *scratch;
} rctx_t;
static void rctx_free(rctx_t *c) {
  if (c->pool) {
    cudaMemPoolDestroy(c->pool);
    c->pool = NULL;
  }
  cudaFree(c->scratch);
  c->scratch = NULL;
  if (c->stream)
    cudaStreamDestroy(c->stream);
  c->stream = NULL;
}
static void rctx_free_keeps(rctx_t *c) {
  cudaFree(c->scratch);
  cudaStreamDestroy(c->stream);
}
static int rctx_init(rctx_t *c, size_t n) {
  if (c->stream != NULL)
    return 0;
  if (cudaStreamCreate(&c->stream) != cudaSuccess)
    return -1;
  if (cudaMalloc(&c->scratch, n) != cudaSuccess) {
    rctx_free(c);
    return -1;
  }
  return 0;
}
static int rctx_init_always(rctx_t *c) {
  return cudaStreamCreate(&c->stream) == cudaSuccess ? 0 : -1;
}
static void rctx_set_stream(rctx_t *c, cudaStream_t borrowed) {
  if (c->stream)
    cudaStreamDestroy(c->stream);
  c->stream = borrowed;
}
static int rctx_reinit(rctx_t *c, size_t n) {
  rctx_free(c);
  return rctx_init(c, n);
}

int rctx_freed_twice(size_t n) {
  rctx_t c = {NULL, NULL, NULL};
  if (rctx_init(&c, n) != 0)
    return 1;
  if (rctx_reinit(&c, n) != 0)
    return 2;
  rctx_free(&c);
  rctx_free(&c);
  return 0;
}
int rctx_freed_twice_kept(size_t n) {
  rctx_t c = {NULL, NULL, NULL};
  if (rctx_init(&c, n) != 0)
    return 1;
  rctx_free_keeps(&c);
  rctx_free_keeps(&c);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:3: warning: 'c.scratch' is released again by 'rctx_free_keeps' (undefined behaviour)
  return 0;
}
int rctx_raw_release_then_helper(size_t n) {
  rctx_t c = {NULL, NULL, NULL};
  if (rctx_init(&c, n) != 0)
    return 1;
  cudaStreamDestroy(c.stream);
  rctx_free(&c);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:3: warning: 'c.stream' is released again by 'rctx_free' (undefined behaviour)
  return 0;
}
int rctx_lazy_init_twice(size_t n) {
  rctx_t c = {NULL, NULL, NULL};
  if (rctx_init(&c, n) != 0)
    return 1;
  if (rctx_init(&c, n) != 0)
    return 1;
  rctx_free(&c);
  return 0;
}
int rctx_init_twice(void) {
  rctx_t c = {NULL, NULL, NULL};
  if (rctx_init_always(&c) != 0)
    return 1;
  if (rctx_init_always(&c) != 0)
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:7: warning: 'rctx_init_always' overwrites 'c.stream', which still holds a live stream
    return 1;
  rctx_free(&c);
  return 0;
}
int rctx_borrow(cudaStream_t user, size_t n) {
  rctx_t c = {NULL, NULL, NULL};
  if (rctx_init(&c, n) != 0)
    return 1;
  rctx_set_stream(&c, user);
  cudaStreamSynchronize(c.stream);
  cudaFree(c.scratch); // the stream is the caller's now
  return 0;
}

// ---- a helper that frees through the pointer it hands on, then allocates --
// GROMACS's reallocateDeviceBuffer: it gives its own `buffer` parameter to
// a helper that frees `*buffer`, then allocates into `*buffer`. Called in a
// loop it replaces the buffer each time; without the free it overwrites it.

static void free_buf(float **buf) {
  if (*buf)
    cudaFree(*buf);
}
static void alloc_buf(float **buf, size_t n) { cudaMalloc(buf, n * sizeof(float)); }
static void realloc_buf(float **buf, size_t n, int *cap) {
  if ((int)n > *cap) {
    if (*cap >= 0)
      free_buf(buf);
    *cap = (int)(n * 2);
    alloc_buf(buf, *cap);
  }
}
static void grow_buf(float **buf, size_t n, int *cap) {
  if ((int)n > *cap) {
    *cap = (int)(n * 2);
    alloc_buf(buf, *cap);
  }
}
struct grids_t {
  float *cells;
  int cap;
};
void grids_fill(grids_t *g, int count, const int *sizes) {
  for (int i = 0; i < count; i++)
    realloc_buf(&g->cells, sizes[i], &g->cap);
}
void grids_fill_no_free(grids_t *g, int count, const int *sizes) {
  for (int i = 0; i < count; i++)
    grow_buf(&g->cells, sizes[i], &g->cap);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: 'grow_buf' overwrites 'g->cells', which still holds a live device memory
}
int grids_local(int count, const int *sizes) {
  float *cells = NULL;
  int cap = -1;
  for (int i = 0; i < count; i++)
    realloc_buf(&cells, sizes[i], &cap);
  free_buf(&cells);
  return 0;
}
int grids_local_leaked(int count, const int *sizes) {
  float *cells = NULL;
  int cap = -1;
  for (int i = 0; i < count; i++)
    realloc_buf(&cells, sizes[i], &cap);
  // CHECK-MESSAGES-LEAK: :[[@LINE-1]]:5: warning: device memory 'cells' created by 'realloc_buf' is not released on every path
  return 0;
}
// The test that decides the free is the caller's constant: a summary run
// with it bound knows the free happens.
static void drop_buf(float **buf, bool own) {
  if (own)
    cudaFree(*buf);
}
int drop_then_use(cudaStream_t s) {
  float *d = NULL;
  if (cudaMalloc(&d, 256) != cudaSuccess)
    return 1;
  drop_buf(&d, true);
  cudaMemsetAsync(d, 0, 256, s);
  // CHECK-MESSAGES-UAF: :[[@LINE-1]]:3: warning: 'd' is used by 'cudaMemsetAsync' after it was released
  return 0;
}
int drop_if_owned(cudaStream_t s, bool own) {
  float *d = NULL;
  if (cudaMalloc(&d, 256) != cudaSuccess)
    return 1;
  cudaMemsetAsync(d, 0, 256, s);
  drop_buf(&d, own);
  return 0;
}
// One level up: a wrapper that always calls the reallocation helper frees
// on some paths only, as the helper does.
static void grow_cells(float **cells, size_t n, int *cap) { realloc_buf(cells, n, cap); }
int regrow_after_free(int n) {
  float *c = NULL;
  int cap = -1;
  grow_cells(&c, n, &cap);
  free_buf(&c);
  cap = -1;
  grow_cells(&c, n * 2, &cap);
  free_buf(&c);
  return 0;
}
