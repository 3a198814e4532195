// 2-D incompressible flow solver (projection method). One time step
// (advect, diffuse, pressure Jacobi sweeps, project) is captured into a graph
// and replayed; convergence is checked on the host every `check_every` steps.
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cfd {

struct Grid {
  int nx, ny;
  float dx, dt, nu;
  float *u, *v, *p, *div, *tmp;
  float* residual;  // device scalar
};

__global__ void advect(float* u, float* v, const float* tmp, int nx, int ny, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx * ny) { u[i] -= dt * tmp[i]; v[i] -= dt * tmp[i] * 0.5f; }
}

__global__ void diffuse(float* u, float* v, int nx, int ny, float nu) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > nx && i < nx * ny - nx) { u[i] += nu * (u[i - 1] + u[i + 1] - 2 * u[i]); v[i] += nu * (v[i - nx] - v[i]); }
}

__global__ void divergence(const float* u, const float* v, float* div, int nx, int ny, float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > nx && i < nx * ny - nx) div[i] = (u[i + 1] - u[i - 1] + v[i + nx] - v[i - nx]) / (2 * dx);
}

__global__ void jacobi(float* p, const float* div, float* tmp, int nx, int ny, float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > nx && i < nx * ny - nx) tmp[i] = 0.25f * (p[i - 1] + p[i + 1] + p[i - nx] + p[i + nx] - dx * dx * div[i]);
}

__global__ void project(float* u, float* v, const float* p, float* residual, int nx, int ny, float dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > nx && i < nx * ny - nx) {
    float gx = (p[i + 1] - p[i - 1]) / (2 * dx);
    u[i] -= gx;
    v[i] -= (p[i + nx] - p[i - nx]) / (2 * dx);
    if (i == nx + 1) *residual = fabsf(gx);
  }
}

static void check(cudaError_t e, const char* where) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "cfd: %s failed: %s\n", where, cudaGetErrorString(e));
    std::exit(EXIT_FAILURE);
  }
}

static cudaError_t capture_step(const Grid& g, cudaStream_t s, int sweeps, cudaGraph_t* out) {
  cudaError_t err = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  if (err != cudaSuccess) return err;
  int n = g.nx * g.ny, t = 256, b = (n + t - 1) / t;
  advect<<<b, t, 0, s>>>(g.u, g.v, g.tmp, g.nx, g.ny, g.dt);
  diffuse<<<b, t, 0, s>>>(g.u, g.v, g.nx, g.ny, g.nu);
  divergence<<<b, t, 0, s>>>(g.u, g.v, g.div, g.nx, g.ny, g.dx);
  for (int k = 0; k < sweeps; ++k) {
    jacobi<<<b, t, 0, s>>>(g.p, g.div, g.tmp, g.nx, g.ny, g.dx);
    cudaMemcpyAsync(g.p, g.tmp, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
  }
  project<<<b, t, 0, s>>>(g.u, g.v, g.p, g.residual, g.nx, g.ny, g.dx);
  return cudaStreamEndCapture(s, out);
}

struct RunStats {
  int steps = 0;
  float final_residual = 0.f;
  bool converged = false;
};

// Main loop. Returns the number of steps run or a negative value on error.
int run_until_converged(Grid& g, cudaStream_t s, int max_steps, int check_every, float tol, RunStats* stats) {
  cudaGraph_t graph = nullptr;
  check(capture_step(g, s, 20, &graph), "capture");
  cudaGraphExec_t step = nullptr;
  check(cudaGraphInstantiate(&step, graph, 0), "instantiate");  // EXPECT: cudagraph-unpaired-instantiate
  cudaGraphDestroy(graph);

  float res = 0.f;
  for (int it = 1; it <= max_steps; ++it) {
    check(cudaGraphLaunch(step, s), "launch");
    if (it % check_every != 0) continue;
    check(cudaMemcpyAsync(&res, g.residual, sizeof(float), cudaMemcpyDeviceToHost, s), "residual copy");
    check(cudaStreamSynchronize(s), "sync");
    if (std::isnan(res)) {
      std::fprintf(stderr, "cfd: diverged at step %d\n", it);
      return -it;  // step exec leaks on divergence
    }
    if (res < tol) {
      stats->steps = it;
      stats->final_residual = res;
      stats->converged = true;
      cudaGraphExecDestroy(step);
      return it;
    }
  }
  stats->steps = max_steps;
  stats->final_residual = res;
  cudaGraphExecDestroy(step);
  return max_steps;
}

// Adaptive time stepping: when CFL is violated, dt is halved and the step
// graph is re-captured. The old exec is destroyed first. Correct.
int run_adaptive(Grid& g, cudaStream_t s, int max_steps, float cfl_limit) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t step = nullptr;
  check(capture_step(g, s, 10, &graph), "capture");
  check(cudaGraphInstantiate(&step, graph, 0), "instantiate");
  cudaGraphDestroy(graph);
  float umax = 0.f;
  int it = 0;
  for (; it < max_steps; ++it) {
    check(cudaGraphLaunch(step, s), "launch");
    check(cudaMemcpyAsync(&umax, g.u + g.nx + 1, sizeof(float), cudaMemcpyDeviceToHost, s), "copy");
    check(cudaStreamSynchronize(s), "sync");
    if (std::fabs(umax) * g.dt / g.dx > cfl_limit) {
      g.dt *= 0.5f;
      cudaGraphExecDestroy(step);
      check(capture_step(g, s, 10, &graph), "recapture");
      check(cudaGraphInstantiate(&step, graph, 0), "re-instantiate");
      cudaGraphDestroy(graph);
    }
  }
  cudaGraphExecDestroy(step);
  return it;
}

// Multigrid-style refinement: a coarse exec for smoothing and a fine one.
// The refinement level changes the number of sweeps; the fine exec is rebuilt
// for every level, but the previous one is never released.
int refine_levels(Grid& g, cudaStream_t s, int levels) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t fine = nullptr;
  for (int lvl = 0; lvl < levels; ++lvl) {
    check(capture_step(g, s, 4 << lvl, &graph), "capture level");
    check(cudaGraphInstantiate(&fine, graph, 0), "instantiate level");  // EXPECT: cudagraph-unpaired-instantiate
    cudaGraphDestroy(graph);
    for (int k = 0; k < 10; ++k) check(cudaGraphLaunch(fine, s), "launch level");
  }
  check(cudaStreamSynchronize(s), "sync");
  if (fine) cudaGraphExecDestroy(fine);
  return levels;
}

Grid make_grid(int nx, int ny) {
  Grid g{};
  g.nx = nx; g.ny = ny; g.dx = 1.0f / nx; g.dt = 1e-3f; g.nu = 1e-4f;
  size_t bytes = size_t(nx) * ny * sizeof(float);
  check(cudaMalloc(&g.u, bytes), "u");
  check(cudaMalloc(&g.v, bytes), "v");
  check(cudaMalloc(&g.p, bytes), "p");
  check(cudaMalloc(&g.div, bytes), "div");
  check(cudaMalloc(&g.tmp, bytes), "tmp");
  check(cudaMalloc(&g.residual, sizeof(float)), "res");
  cudaMemset(g.u, 0, bytes); cudaMemset(g.v, 0, bytes); cudaMemset(g.p, 0, bytes);
  return g;
}

void free_grid(Grid& g) {
  cudaFree(g.u); cudaFree(g.v); cudaFree(g.p); cudaFree(g.div); cudaFree(g.tmp); cudaFree(g.residual);
}

}  // namespace cfd

int cfd_main() {
  cudaStream_t s;
  cfd::check(cudaStreamCreate(&s), "stream");
  cfd::Grid g = cfd::make_grid(512, 512);
  cfd::RunStats st;
  int n = cfd::run_until_converged(g, s, 10000, 50, 1e-5f, &st);
  cfd::run_adaptive(g, s, 200, 0.8f);
  cfd::refine_levels(g, s, 3);
  cfd::free_grid(g);
  cudaStreamDestroy(s);
  return n < 0 ? 1 : 0;
}
