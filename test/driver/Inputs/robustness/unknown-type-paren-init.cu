__global__ void k(int x) {
  PeerGroup p(x, x);
}
