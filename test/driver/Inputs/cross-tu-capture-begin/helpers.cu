// Capture helpers other files call: begin_on opens a capture on the stream
// it is given, on every call, in global mode; end_on ends it.
#include <cuda_runtime.h>
cudaError_t begin_on(cudaStream_t s) { return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }
cudaError_t end_on(cudaStream_t s, cudaGraph_t *g) { return cudaStreamEndCapture(s, g); }
