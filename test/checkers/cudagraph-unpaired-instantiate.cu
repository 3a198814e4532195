// RUN: %check_cudagraph_tidy %s cudagraph-unpaired-instantiate %t
#include <cuda_runtime.h>
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#define CUDA_CHECK_EXIT(call)                                                  \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s\n", cudaGetErrorString(err_));                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#define CUDA_CHECK_RETURN(call)                                                \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess)                                                   \
      return err_;                                                             \
  } while (0)

// ---- leaks ---------------------------------------------------------------

void leak_simple(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path; call cudaGraphExecDestroy or hand it to an owner [cudagraph-unpaired-instantiate]
  cudaGraphLaunch(exec, s);
}

cudaError_t leak_on_early_return(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_CHECK_RETURN(cudaGraphInstantiate(&exec, g, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path
  CUDA_CHECK_RETURN(cudaGraphLaunch(exec, s));
  return cudaGraphExecDestroy(exec);
}

// The fix: destroy on the error path too.
cudaError_t clean_on_early_return(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_CHECK_RETURN(cudaGraphInstantiate(&exec, g, 0));
  cudaError_t st = cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return st;
}

bool leak_on_condition(cudaGraph_t g, cudaStream_t s, bool dry_run) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path
    return false;
  if (dry_run)
    return true;
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return true;
}

bool clean_on_condition(cudaGraph_t g, cudaStream_t s, bool dry_run) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return false;
  if (!dry_run)
    cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
  return true;
}

void leak_in_loop(cudaGraph_t g, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, g, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path
    cudaGraphLaunch(exec, s);
  }
}

void clean_in_loop(cudaGraph_t g, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    cudaGraphExec_t exec;
    cudaGraphInstantiate(&exec, g, 0);
    cudaGraphLaunch(exec, s);
    cudaGraphExecDestroy(exec);
  }
}

void overwrite_in_loop(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaGraphInstantiate(&exec, g, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaGraphInstantiate' overwrites 'exec', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first [cudagraph-unpaired-instantiate]
    cudaGraphLaunch(exec, s);
  }
  cudaGraphExecDestroy(exec);
}

void clean_reinstantiate_in_loop(cudaGraph_t g, cudaStream_t s, int n) {
  cudaGraphExec_t exec = nullptr;
  for (int i = 0; i < n; ++i) {
    if (exec)
      cudaGraphExecDestroy(exec);
    cudaGraphInstantiate(&exec, g, 0);
    cudaGraphLaunch(exec, s);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
}

void overwrite_straight(cudaGraph_t g1, cudaGraph_t g2) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g1, 0);
  cudaGraphInstantiate(&exec, g2, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaGraphInstantiate' overwrites 'exec', which still holds a live graph exec
  cudaGraphExecDestroy(exec);
}

void leak_driver_api(CUgraph g, CUstream s) {
  CUgraphExec exec;
  cuGraphInstantiate(&exec, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'exec' created by 'cuGraphInstantiate' is not destroyed on every path; call cuGraphExecDestroy or hand it to an owner
  cuGraphLaunch(exec, s);
}

void clean_driver_api(CUgraph g, CUstream s) {
  CUgraphExec exec;
  if (cuGraphInstantiate(&exec, g, 0) != CUDA_SUCCESS)
    return;
  cuGraphLaunch(exec, s);
  cuGraphExecDestroy(exec);
}

void leak_cuda11_signature(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, nullptr, nullptr, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path
}

void leak_with_flags(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiateWithFlags(&exec, g, cudaGraphInstantiateFlagAutoFreeOnLaunch);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'exec' created by 'cudaGraphInstantiateWithFlags' is not destroyed on every path
}

// ---- correct patterns that must stay silent ------------------------------

void clean_exit_macro(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_CHECK_EXIT(cudaGraphInstantiate(&exec, g, 0));
  CUDA_CHECK_EXIT(cudaGraphLaunch(exec, s));
  CUDA_CHECK_EXIT(cudaGraphExecDestroy(exec));
}

void clean_status_variable(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaError_t st = cudaGraphInstantiate(&exec, g, 0);
  if (st)
    return;
  cudaGraphExecDestroy(exec);
}

void clean_destroy_graph_right_after(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphDestroy(g); // legal: the exec does not need the graph
  cudaGraphLaunch(exec, s);
  cudaGraphExecDestroy(exec);
}

cudaGraphExec_t clean_returned(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  return exec;
}

cudaError_t clean_out_param(cudaGraphExec_t *out, cudaGraph_t g) {
  return cudaGraphInstantiate(out, g, 0);
}

struct Runner {
  cudaGraphExec_t exec_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  // rebuild_with_update() may leave exec_ live: build() after it overwrites
  // (update_then_build below makes that sequence; the member's owner,
  // across methods, is cudagraph-*-ownership.cu's subject).
  void build() { cudaGraphInstantiate(&exec_, graph_, 0); }
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'cudaGraphInstantiate' overwrites 'exec_', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first
  void rebuild_with_update() {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(exec_, graph_, &info) != cudaSuccess) {
      cudaGraphExecDestroy(exec_);
      cudaGraphInstantiate(&exec_, graph_, 0);
    }
  }
  void store_local(cudaGraph_t g) {
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    exec_ = e;
  }
  ~Runner() {
    if (exec_)
      cudaGraphExecDestroy(exec_);
  }
};

// The sequence that makes build() overwrite: the file shows it.
void update_then_build(Runner &r) {
  r.rebuild_with_update();
  r.build();
}

cudaGraphExec_t global_exec;
void clean_global(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  global_exec = e;
}

struct ExecDeleter {
  void operator()(cudaGraphExec_t e) const { cudaGraphExecDestroy(e); }
};
using ExecPtr = std::unique_ptr<CUgraphExec_st, ExecDeleter>;

ExecPtr clean_unique_ptr(cudaGraph_t g) {
  cudaGraphExec_t e;
  CUDA_CHECK_EXIT(cudaGraphInstantiate(&e, g, 0));
  return ExecPtr(e);
}

void clean_container(std::vector<cudaGraphExec_t> &execs, cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  execs.push_back(e);
}

int clean_goto_cleanup(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  int rc = -1;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    goto fail;
  if (cudaGraphLaunch(exec, s) != cudaSuccess)
    goto fail;
  rc = 0;
fail:
  if (exec)
    cudaGraphExecDestroy(exec);
  return rc;
}

void clean_throw(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    throw 1;
  if (cudaGraphLaunch(exec, s) != cudaSuccess)
    abort();
  cudaGraphExecDestroy(exec);
}

void clean_correlated(cudaGraph_t g, cudaStream_t s, bool use_graph) {
  cudaGraphExec_t exec = nullptr;
  if (use_graph)
    cudaGraphInstantiate(&exec, g, 0);
  for (int i = 0; i < 10; ++i) {
    if (use_graph)
      cudaGraphLaunch(exec, s);
  }
  if (use_graph)
    cudaGraphExecDestroy(exec);
}

void clean_alias(cudaGraph_t g) {
  cudaGraphExec_t a;
  cudaGraphInstantiate(&a, g, 0);
  cudaGraphExec_t b = a;
  cudaGraphExecDestroy(b);
}

// Helpers in the same translation unit are summarised.
static void destroyExec(cudaGraphExec_t e) { cudaGraphExecDestroy(e); }
static void launchExec(cudaGraphExec_t e, cudaStream_t s) { cudaGraphLaunch(e, s); }
static cudaError_t makeExec(cudaGraphExec_t *out, cudaGraph_t g) {
  return cudaGraphInstantiate(out, g, 0);
}

void clean_helper_destroy(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  launchExec(e, s);
  destroyExec(e);
}

void leak_helper_launch(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  launchExec(e, s);
}

void leak_helper_acquire(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (makeExec(&e, g) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'makeExec' is not destroyed on every path
    return;
  launchExec(e, s);
}

void clean_helper_acquire(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (makeExec(&e, g) != cudaSuccess)
    return;
  launchExec(e, s);
  destroyExec(e);
}

void suppressed(cudaGraph_t g) {
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0); // NOLINT(cudagraph-unpaired-instantiate)
}

// Status checked through a wrapper function.
static bool cudaOk(cudaError_t e) { return e == cudaSuccess; }
static bool cudaFailed(cudaError_t e) { return e != cudaSuccess; }

bool clean_wrapper_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (!cudaOk(cudaGraphInstantiate(&e, g, 0)))
    return false;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return true;
}

bool clean_wrapper_failed(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaFailed(cudaGraphInstantiate(&e, g, 0)))
    return false;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return true;
}

bool leak_wrapper_ok(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (!cudaOk(cudaGraphInstantiate(&e, g, 0)))
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return false;
  if (!cudaOk(cudaGraphLaunch(e, s)))
    return false;
  cudaGraphExecDestroy(e);
  return true;
}

// Two acquisitions into one variable leaking at the same place: one warning.
void leak_two_sites_one_variable(cudaGraph_t g, cudaStream_t s, bool update) {
  cudaGraphExec_t e = nullptr;
  if (!update) {
    cudaGraphInstantiate(&e, g, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  } else {
    cudaGraphInstantiateWithFlags(&e, g, 0);
  }
  cudaGraphLaunch(e, s);
}

// A helper that destroys through a pointer and nulls the caller's handle.
static void destroyAndClear(cudaGraphExec_t *e) {
  if (*e) {
    cudaGraphExecDestroy(*e);
    *e = nullptr;
  }
}
static void inspect(cudaGraphExec_t *e) { (void)e; }

void clean_destroy_through_pointer(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
  destroyAndClear(&exec);
}

void clean_address_to_helper(cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, g, 0);
  inspect(&exec); // may keep the address: escapes
}

// The status is copied into the macro's own variable before it is tested.
#define RETURN_IF_ERROR(st)                                                    \
  do {                                                                         \
    cudaError_t status__ = (st);                                               \
    if (status__ != cudaSuccess)                                               \
      return status__;                                                         \
  } while (0)

cudaError_t clean_status_copy(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  RETURN_IF_ERROR(st);
  cudaGraphLaunch(e, s);
  return cudaGraphExecDestroy(e);
}

// The address of the variable was handed out before the instantiate.
struct ExecSlot {
  cudaGraphExec_t *slot;
  ~ExecSlot();
};
void clean_address_escaped_first(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  ExecSlot guard{&e};
  cudaGraphInstantiate(&e, g, 0);
}

// A throw caught in the same function is not a sink.
bool leak_throw_caught(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return false;
  try {
    if (cudaGraphLaunch(e, s) != cudaSuccess)
      throw 1;
  } catch (...) {
    return false;
  }
  cudaGraphExecDestroy(e);
  return true;
}

// A member tested non-null, updated unsuccessfully, then re-instantiated.
struct Updater {
  cudaGraphExec_t h_ = nullptr;
  void refresh(cudaGraph_t g) {
    if (h_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(h_, g, &info) == cudaSuccess)
        return;
    }
    cudaGraphInstantiate(&h_, g, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'cudaGraphInstantiate' overwrites 'h_', which still holds a live graph exec
  }
  void refresh_fixed(cudaGraph_t g) {
    if (h_) {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(h_, g, &info) == cudaSuccess)
        return;
      cudaGraphExecDestroy(h_);
    }
    cudaGraphInstantiate(&h_, g, 0);
  }
  void reset();
  void refresh_via_method(cudaGraph_t g) {
    if (h_)
      reset();
    cudaGraphInstantiate(&h_, g, 0);
  }
};

// Conditions quoted in notes may contain '%'.
void leak_modulo_condition(cudaGraph_t *gs, int n, cudaStream_t s) {
  for (int i = 0; i < n; ++i) {
    cudaGraphExec_t tmp;
    if (cudaGraphInstantiate(&tmp, gs[i], 0) != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: graph exec 'tmp' created by 'cudaGraphInstantiate' is not destroyed on every path
      continue;
    if (i % 2)
      continue;
    cudaGraphLaunch(tmp, s);
    cudaGraphExecDestroy(tmp);
  }
}

// Lambdas that never leave the function act where they are called.
bool leak_cleanup_lambda_skipped(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return false;
  auto cleanup = [&] { cudaGraphExecDestroy(e); };
  if (cudaGraphLaunch(e, s) != cudaSuccess)
    return false;
  cleanup();
  return true;
}

bool clean_cleanup_lambda(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return false;
  auto cleanup = [&] { cudaGraphExecDestroy(e); };
  if (cudaGraphLaunch(e, s) != cudaSuccess) {
    cleanup();
    return false;
  }
  cleanup();
  return true;
}

void leak_launch_lambda(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  auto launch = [e, s] { cudaGraphLaunch(e, s); };
  launch();
}

template <typename F> struct ScopeExit {
  F f;
  ~ScopeExit() { f(); }
};
template <typename F> ScopeExit<F> makeScopeExit(F f) { return {f}; }

void clean_scope_guard(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  auto guard = makeScopeExit([&] { cudaGraphExecDestroy(e); });
  cudaGraphLaunch(e, s);
}

void clean_immediately_invoked(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  [&] { cudaGraphExecDestroy(e); }();
}

// Members of local plain structs and elements of local arrays are followed.
struct GraphHandles {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
};

void leak_struct_member(cudaGraph_t g, cudaStream_t s) {
  GraphHandles h;
  if (cudaGraphInstantiate(&h.exec, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'h.exec' created by 'cudaGraphInstantiate' is not destroyed on every path
    return;
  cudaGraphLaunch(h.exec, s);
}

void clean_struct_member(cudaGraph_t g, cudaStream_t s) {
  GraphHandles h;
  if (cudaGraphInstantiate(&h.exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(h.exec, s);
  cudaGraphExecDestroy(h.exec);
}

GraphHandles clean_struct_returned(cudaGraph_t g) {
  GraphHandles h{};
  cudaGraphInstantiate(&h.exec, g, 0);
  return h;
}

void clean_array_create_destroy(cudaGraph_t const *gs, cudaStream_t s, int n) {
  cudaGraphExec_t execs[8] = {};
  for (int d = 0; d < n; ++d) {
    cudaGraphInstantiate(&execs[d], gs[d], 0);
    cudaGraphLaunch(execs[d], s);
  }
  for (int d = 0; d < n; ++d)
    if (execs[d])
      cudaGraphExecDestroy(execs[d]);
}

bool leak_array_early_return(cudaGraph_t const *gs, cudaStream_t s, int n) {
  cudaGraphExec_t execs[8] = {};
  for (int d = 0; d < n; ++d) {
    if (cudaGraphInstantiate(&execs[d], gs[d], 0) != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: graph exec 'execs[]' created by 'cudaGraphInstantiate' is not destroyed on every path
      return false;
  }
  for (int d = 0; d < n; ++d)
    cudaGraphExecDestroy(execs[d]);
  return true;
}

// The variable itself is handed to an owner before the instantiate.
struct ExecRefGuard {
  cudaGraphExec_t &e;
  explicit ExecRefGuard(cudaGraphExec_t &e) : e(e) {}
  ~ExecRefGuard() { cudaGraphExecDestroy(e); }
};

void clean_reference_guard_first(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  ExecRefGuard guard(exec);
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphLaunch(exec, s);
}

void clean_scope_guard_first(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  auto guard = makeScopeExit([&] { if (exec) cudaGraphExecDestroy(exec); });
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess)
    return;
  cudaGraphLaunch(exec, s);
}

void clean_reference_alias(cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  cudaGraphExec_t &alias = exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphExecDestroy(alias);
}

// A flag written through its address by a CUDA call is no longer known.
int leak_flag_read_back(cudaGraph_t g, cudaStream_t s, const int *d_flag, int steps) {
  cudaGraphExec_t e;
  CUDA_CHECK_EXIT(cudaGraphInstantiate(&e, g, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  for (int i = 0; i < steps; ++i) {
    int overflow = 0;
    cudaGraphLaunch(e, s);
    cudaMemcpyAsync(&overflow, d_flag, sizeof(int), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    if (overflow)
      return i;
  }
  cudaGraphExecDestroy(e);
  return steps;
}

// Overwriting through a factory's return value is reported at the factory.
static cudaGraphExec_t make_exec_or_null(cudaGraph_t g) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  return e;
}

void overwrite_by_factory(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = make_exec_or_null(g);
  cudaGraphLaunch(e, s);
  e = make_exec_or_null(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'make_exec_or_null' overwrites 'e', which still holds a live graph exec
  cudaGraphExecDestroy(e);
}

// A helper that publishes a local exec through its out-parameter.
static cudaError_t try_make_exec(cudaGraph_t g, cudaGraphExec_t *out) {
  cudaGraphExec_t e;
  cudaError_t err = cudaGraphInstantiate(&e, g, 0);
  if (err != cudaSuccess)
    return err;
  *out = e;
  return cudaSuccess;
}

int leak_published_exec(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (try_make_exec(g, &e) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'try_make_exec' is not destroyed on every path
    return -1;
  if (cudaGraphLaunch(e, s) != cudaSuccess)
    return -2;
  cudaGraphExecDestroy(e);
  return 0;
}

// A [[noreturn]] check that throws inside a try goes on to the handler.
[[noreturn]] void fail_check(const char *what);
#define THROW_CHECK(cond)                                                      \
  do {                                                                         \
    if (!(cond))                                                               \
      fail_check(#cond);                                                       \
  } while (0)

bool leak_noreturn_in_try(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  try {
    THROW_CHECK(cudaGraphInstantiate(&e, g, 0) == cudaSuccess);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    THROW_CHECK(cudaGraphLaunch(e, s) == cudaSuccess);
    cudaGraphExecDestroy(e);
  } catch (...) {
    return false;
  }
  return true;
}

bool clean_noreturn_outside_try(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  THROW_CHECK(cudaGraphInstantiate(&e, g, 0) == cudaSuccess);
  THROW_CHECK(cudaGraphLaunch(e, s) == cudaSuccess);
  cudaGraphExecDestroy(e);
  return true;
}

// The same, with the throwing helper defined in this file.
[[noreturn]] inline void throw_cuda_error(const char *what) { throw what; }
#define CUDA_CHECK_THROW(expr)                                                 \
  do {                                                                         \
    cudaError_t e__ = (expr);                                                  \
    if (e__ != cudaSuccess)                                                    \
      throw_cuda_error(#expr);                                                 \
  } while (0)

bool leak_inline_thrower_in_try(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  try {
    CUDA_CHECK_THROW(cudaGraphInstantiate(&exec, g, 0));
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path
    CUDA_CHECK_THROW(cudaGraphLaunch(exec, s));
    CUDA_CHECK_THROW(cudaGraphExecDestroy(exec));
  } catch (const char *) {
    return false;
  }
  return true;
}

// Outside a try the exception leaves the function: the exec is leaked when
// the launch fails (exception safety, lib/Lifetime/Transfer/Exceptions.cpp).
void leak_inline_thrower_outside_try(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  CUDA_CHECK_THROW(cudaGraphInstantiate(&exec, g, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: graph exec 'exec' created by 'cudaGraphInstantiate' is not destroyed on every path
  CUDA_CHECK_THROW(cudaGraphLaunch(exec, s));
  CUDA_CHECK_THROW(cudaGraphExecDestroy(exec));
}

bool clean_handler_destroys(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec = nullptr;
  try {
    CUDA_CHECK_THROW(cudaGraphInstantiate(&exec, g, 0));
    CUDA_CHECK_THROW(cudaGraphLaunch(exec, s));
  } catch (const char *) {
    if (exec)
      cudaGraphExecDestroy(exec);
    return false;
  }
  cudaGraphExecDestroy(exec);
  return true;
}

// Constant indices release single elements.
void leak_array_partly_destroyed(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t stages[3];
  for (int p = 0; p < 3; ++p)
    cudaGraphInstantiate(&stages[p], g, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: graph exec 'stages[]' created by 'cudaGraphInstantiate' is not destroyed on every path
  for (int p = 0; p < 3; ++p)
    cudaGraphLaunch(stages[p], s);
  cudaGraphExecDestroy(stages[2]);
}

void clean_array_destroyed_one_by_one(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t stages[3];
  for (int p = 0; p < 3; ++p)
    cudaGraphInstantiate(&stages[p], g, 0);
  cudaGraphExecDestroy(stages[0]);
  cudaGraphExecDestroy(stages[1]);
  cudaGraphExecDestroy(stages[2]);
}

// Status read by a switch: case 0 succeeds, other cases and default fail.
int clean_switch_on_status(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  switch (cudaGraphInstantiate(&e, g, 0)) {
  case cudaSuccess:
    break;
  case cudaErrorInvalidValue:
    return -1;
  default:
    return -2;
  }
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return 0;
}

int leak_switch_on_status(cudaGraph_t g, cudaStream_t s, int mode) {
  cudaGraphExec_t e;
  switch (cudaGraphInstantiate(&e, g, 0)) {
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  case cudaSuccess:
    break;
  default:
    return -1;
  }
  if (mode == 2)
    return 2;
  cudaGraphExecDestroy(e);
  return 0;
}

// Status chosen by a conditional expression.
int clean_ternary_status(cudaGraph_t g, bool upload, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaError_t st = upload ? cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagUpload)
                          : cudaGraphInstantiate(&e, g, 0);
  if (st != cudaSuccess)
    return 1;
  cudaGraphExecDestroy(e);
  return 0;
}

// cudaGraphInstantiateWithParams reports a second status in params.result_out.
int clean_with_params_result_out(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiateParams p = {};
  if (cudaGraphInstantiateWithParams(&e, g, &p) != cudaSuccess)
    return 1;
  if (p.result_out != cudaGraphInstantiateSuccess)
    return 2;
  cudaGraphExecDestroy(e);
  return 0;
}

// __attribute__((cleanup)) destroys the variable at the end of its scope.
static void destroy_exec_at_scope_end(cudaGraphExec_t *e) {
  if (*e)
    cudaGraphExecDestroy(*e);
}
int clean_cleanup_attribute(cudaGraph_t g) {
  __attribute__((cleanup(destroy_exec_at_scope_end))) cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return 1;
  return 0;
}

// The path knows which arm of `ok ? e : nullptr` it returns.
cudaGraphExec_t leak_ternary_return(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return nullptr;
  bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
  return ok ? e : nullptr;
}

cudaGraphExec_t clean_ternary_return(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return nullptr;
  bool ok = cudaGraphLaunch(e, s) == cudaSuccess;
  if (!ok)
    cudaGraphExecDestroy(e);
  return ok ? e : nullptr;
}

// The status read later through cudaGetLastError.
int clean_status_from_get_last_error(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  cudaGraphExecDestroy(e);
  return 0;
}

int leak_after_get_last_error(cudaGraph_t g, bool dry) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  cudaError_t st = cudaGetLastError();
  if (st != cudaSuccess)
    return 1;
  if (dry)
    return 2;
  cudaGraphExecDestroy(e);
  return 0;
}

// Status folded into a boolean chain.
bool clean_boolean_chain(cudaGraph_t g, cudaStream_t s) {
  bool ok = true;
  cudaGraphExec_t e = nullptr;
  ok = ok && cudaGraphInstantiate(&e, g, 0) == cudaSuccess;
  if (!ok)
    return false;
  ok = ok && cudaGraphLaunch(e, s) == cudaSuccess;
  cudaGraphExecDestroy(e);
  return ok;
}

bool leak_boolean_chain(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  bool failed = cudaGraphInstantiate(&e, g, 0) != cudaSuccess;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  if (failed)
    return false;
  failed = failed || cudaGraphLaunch(e, s) != cudaSuccess;
  if (failed)
    return false;
  cudaGraphExecDestroy(e);
  return true;
}

// The status copied into a success flag, a struct member, or through a pointer.
void clean_success_flag(cudaGraph_t g) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  bool ok = (st == cudaSuccess);
  if (ok)
    cudaGraphExecDestroy(e);
}

struct InstantiateState {
  cudaGraphExec_t exec;
  bool exec_ok;
};
void clean_flag_in_struct(cudaGraph_t g) {
  InstantiateState st;
  cudaError_t e = cudaGraphInstantiate(&st.exec, g, 0);
  st.exec_ok = (e == cudaSuccess);
  if (st.exec_ok)
    cudaGraphExecDestroy(st.exec);
}

void clean_status_through_pointer(cudaGraph_t g, cudaError_t *err, cudaGraphExec_t *out) {
  cudaGraphExec_t tmp;
  *err = cudaGraphInstantiate(&tmp, g, 0);
  if (*err == cudaSuccess)
    *out = tmp;
}

void leak_success_flag(cudaGraph_t g, bool dry) {
  cudaGraphExec_t e;
  cudaError_t st = cudaGraphInstantiate(&e, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  bool ok = (st == cudaSuccess);
  if (ok && !dry)
    cudaGraphExecDestroy(e);
}

// Helpers that hand the exec back through a reference parameter.
static bool make_exec_ref(cudaGraph_t g, cudaGraphExec_t &out) {
  cudaGraphExec_t tmp;
  if (cudaGraphInstantiate(&tmp, g, 0) != cudaSuccess)
    return false;
  out = tmp;
  return true;
}
static cudaError_t make_exec_ref_direct(cudaGraph_t g, cudaGraphExec_t &out) {
  return cudaGraphInstantiate(&out, g, 0);
}

bool leak_reference_out(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (!make_exec_ref(g, e))
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: graph exec 'e' created by 'make_exec_ref' is not destroyed on every path
    return false;
  return cudaGraphLaunch(e, s) == cudaSuccess;
}

bool clean_reference_out(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  if (make_exec_ref_direct(g, e) != cudaSuccess)
    return false;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return true;
}

// C-style helpers: int error codes, handles published into a struct.
enum FxStatus { FX_OK = 0, FX_ERR_CUDA = 1 };
static int fx_make_exec(cudaGraph_t g, cudaGraphExec_t *out) {
  cudaError_t e = cudaGraphInstantiate(out, g, 0);
  return e == cudaSuccess ? FX_OK : FX_ERR_CUDA;
}
int clean_int_status_helper(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e = nullptr;
  int rc = fx_make_exec(g, &e);
  if (rc != FX_OK)
    return rc;
  cudaGraphLaunch(e, s);
  cudaGraphExecDestroy(e);
  return FX_OK;
}

struct AllocGraph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
};
static bool build_into(cudaGraph_t g, AllocGraph *out) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return false;
  out->exec = e;
  return true;
}
cudaError_t leak_published_member(cudaGraph_t g, cudaStream_t s) {
  AllocGraph ag{};
  if (!build_into(g, &ag))
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: graph exec 'ag.exec' created by 'build_into' is not destroyed on every path
    return cudaErrorInvalidValue;
  cudaError_t err = cudaGraphLaunch(ag.exec, s);
  if (err != cudaSuccess)
    return err;
  cudaGraphExecDestroy(ag.exec);
  return cudaSuccess;
}

// One slot of an array written on failure; elements filled by constant index.
int clean_array_slot_cleared(cudaGraph_t const *gs) {
  cudaGraphExec_t ex[3] = {};
  int rc = 0;
  for (int p = 0; p < 3; ++p)
    if (cudaGraphInstantiate(&ex[p], gs[p], 0) != cudaSuccess) {
      ex[p] = nullptr;
      rc = -1;
      goto out;
    }
out:
  for (int p = 0; p < 3; ++p)
    if (ex[p])
      cudaGraphExecDestroy(ex[p]);
  return rc;
}

int clean_array_one_constant_slot(cudaGraph_t g) {
  cudaGraphExec_t ex[3] = {};
  if (cudaGraphInstantiate(&ex[2], g, 0) != cudaSuccess)
    return -1;
  cudaGraphExecDestroy(ex[2]);
  return 0;
}

// A lambda kept in a local std::function and only called.
#include <functional>
cudaError_t leak_std_function_lambda(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
  std::function<cudaError_t()> launch = [&] { return cudaGraphLaunch(e, s); };
  return launch();
}

// A call through a local function pointer.
int leak_through_function_pointer(cudaGraph_t g, cudaStream_t s) {
  cudaError_t (*inst)(cudaGraphExec_t *, cudaGraph_t, unsigned long long) = cudaGraphInstantiate;
  cudaGraphExec_t e;
  if (inst(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return -1;
  return cudaGraphLaunch(e, s) == cudaSuccess ? 0 : -2;
}

// An enum converted from an integer may hold no enumerator: clang's CFG drops
// the edge past a switch that covers every enumerator; the analysis keeps it.
enum class LaunchMode { Graph, Eager };

void leak_enum_from_int(cudaGraph_t g, cudaStream_t s, int requested) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return;
  switch (static_cast<LaunchMode>(requested)) {
  case LaunchMode::Graph:
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
    break;
  case LaunchMode::Eager:
    cudaGraphExecDestroy(e);
    break;
  }
}

void leak_enum_var_from_int_default(cudaGraph_t g, cudaStream_t s, int requested) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
    return;
  LaunchMode mode = (LaunchMode)requested;
  switch (mode) {
  case LaunchMode::Graph:
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
    break;
  case LaunchMode::Eager:
    cudaGraphExecDestroy(e);
    break;
  default:
    return;
  }
}

// A parameter of the enum type: callers pass enumerators; the covered switch is whole.
void clean_enum_param(cudaGraph_t g, cudaStream_t s, LaunchMode mode) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  switch (mode) {
  case LaunchMode::Graph:
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
    break;
  case LaunchMode::Eager:
    cudaGraphExecDestroy(e);
    break;
  }
}

void clean_enum_from_int_default_releases(cudaGraph_t g, cudaStream_t s, int requested) {
  cudaGraphExec_t e;
  if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    return;
  switch (static_cast<LaunchMode>(requested)) {
  case LaunchMode::Graph:
    cudaGraphLaunch(e, s);
    break;
  case LaunchMode::Eager:
    break;
  default:
    break;
  }
  cudaGraphExecDestroy(e);
}

// ---- value facts: a graph cache keyed by batch size ----

#define VK(e) do { cudaError_t st_ = (e); if (st_ != cudaSuccess) abort(); } while (0)

void cache_keyed_by_size(const int *sizes, int n, cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  int cached = -1;
  for (int r = 0; r < n; ++r) {
    const int bs = sizes[r];
    if (bs <= 0)
      continue;
    if (bs != cached) {
      if (cached != -1)
        VK(cudaGraphExecDestroy(exec));
      VK(cudaGraphInstantiate(&exec, g, 0));
      cached = bs;
    }
    VK(cudaGraphLaunch(exec, s));
    if (bs > 64) { // oversized batches do not stay cached
      VK(cudaStreamSynchronize(s));
      VK(cudaGraphExecDestroy(exec));
      cached = -1;
    }
  }
  if (cached != -1)
    VK(cudaGraphExecDestroy(exec));
}

void cache_never_destroys_the_old_exec(const int *sizes, int n, cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  int cached = -1;
  for (int r = 0; r < n; ++r) {
    const int bs = sizes[r];
    if (bs <= 0)
      continue;
    if (bs != cached) {
      VK(cudaGraphInstantiate(&exec, g, 0));
      // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'cudaGraphInstantiate' overwrites 'exec', which still holds a live graph exec; destroy it with cudaGraphExecDestroy first [cudagraph-unpaired-instantiate]
      cached = bs;
    }
    VK(cudaGraphLaunch(exec, s));
  }
  if (cached != -1)
    VK(cudaGraphExecDestroy(exec));
}

// First iteration records, the others replay.
void record_once(int steps, cudaStream_t s, cudaGraph_t g) {
  cudaGraphExec_t exec = nullptr;
  bool recorded = false;
  for (int step = 0; step < steps; ++step) {
    if (!recorded) {
      VK(cudaGraphInstantiate(&exec, g, 0));
      recorded = true;
    }
    VK(cudaGraphLaunch(exec, s));
  }
  if (recorded)
    VK(cudaGraphExecDestroy(exec));
}

// Two switches on one field of an options struct read through `const&`:
// each case edge of the first leaves the path knowing which case it took,
// so the second destroys the exec exactly where the first made it. The
// subject has no value symbol; only the case facts correlate the two.
struct SwitchOpts { int kind; };

void clean_correlated_switches_on_field(cudaGraph_t g, cudaStream_t s, const SwitchOpts &o) {
  cudaGraphExec_t e;
  switch (o.kind) {
  case 1:
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
      return;
    break;
  case 2:
  case 3:
    break;
  default:
    return;
  }
  cudaStreamSynchronize(s);
  switch (o.kind) {
  case 1:
    cudaGraphLaunch(e, s);
    cudaGraphExecDestroy(e);
    break;
  case 2:
  case 3:
    break;
  }
}

void leak_correlated_switches_on_field(cudaGraph_t g, cudaStream_t s, const SwitchOpts &o) {
  cudaGraphExec_t e;
  switch (o.kind) {
  case 1:
    if (cudaGraphInstantiate(&e, g, 0) != cudaSuccess)
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: graph exec 'e' created by 'cudaGraphInstantiate' is not destroyed on every path
      return;
    break;
  case 2:
  case 3:
    break;
  default:
    return;
  }
  cudaStreamSynchronize(s);
  switch (o.kind) {
  case 1:
    cudaGraphLaunch(e, s);
    break;
  case 3:
    cudaGraphExecDestroy(e);
    break;
  }
}
