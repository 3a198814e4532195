// Conditional destroy guarded by a flag set on success.
#include <cuda_runtime.h>

cudaError_t with_flag(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  bool created = false;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
  if (e == cudaSuccess) {
    created = true;
    e = cudaGraphLaunch(exec, s);
  }
  if (e == cudaSuccess)
    e = cudaStreamSynchronize(s);
  if (created)
    cudaGraphExecDestroy(exec);
  return e;
}

int with_flag_int(cudaGraph_t g, cudaStream_t s, bool upload) {
  cudaGraphExec_t exec;
  int have_exec = 0;
  int rc = 1;
  if (cudaGraphInstantiate(&exec, g, 0) == cudaSuccess)
    have_exec = 1;
  if (have_exec && upload && cudaGraphUpload(exec, s) != cudaSuccess)
    goto done;
  if (have_exec && cudaGraphLaunch(exec, s) == cudaSuccess)
    rc = 0;
done:
  if (have_exec)
    cudaGraphExecDestroy(exec);
  return rc;
}

struct State {
  bool exec_ok = false;
  cudaGraphExec_t exec;
};

cudaError_t with_state(cudaGraph_t g, cudaStream_t s) {
  State st;
  cudaError_t e = cudaGraphInstantiate(&st.exec, g, 0);
  st.exec_ok = (e == cudaSuccess);
  if (st.exec_ok) e = cudaGraphLaunch(st.exec, s);
  if (st.exec_ok) cudaGraphExecDestroy(st.exec);
  return e;
}

// BUG: the flag is cleared when the launch fails, so a failed launch leaks.
cudaError_t with_flag_wrong(cudaGraph_t g, cudaStream_t s) {
  cudaGraphExec_t exec;
  bool created = false;
  cudaError_t e = cudaGraphInstantiate(&exec, g, 0); // EXPECT: cudagraph-unpaired-instantiate
  if (e == cudaSuccess) {
    created = true;
    e = cudaGraphLaunch(exec, s);
    if (e != cudaSuccess) created = false;
  }
  if (created)
    cudaGraphExecDestroy(exec);
  return e;
}
