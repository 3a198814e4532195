// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %cudagraph_tidy --format=text-plain --result-cache=off --quiet %s -- %cuda_args -DBUGGY 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// CLEAN-NOT: warning:
// A reduction of false alarms on real code: both variants stay silent.
// Reduction realcode/class06.cu of ../shared/shapes/2026-12-04 (issues 35, 36).
// Real-code class 6: a loop that exits on an out-parameter the callee leaves null
// FP: a do/while loop exits when the out-parameter `msg` stays null; recv() writes *msg only
// when it returns a message, and the socket is terminated only on the paths where it did not.
// The back edge after terminate() is taken anyway: "used/released after it was released"
// (nccl ras/rasnet.cc:672/675/690/696).
#include <cstdlib>
struct Sock { char *recvMsg; int fd; };

void sock_terminate(Sock *s) { free(s->recvMsg); free(s); }
int sock_recv(Sock *s, char **msg, int *closed) {   // *msg is written only on success
  *closed = 0;
  if (s->fd < 0) { *closed = 1; return 0; }
  if (!s->recvMsg) return 1;
  *msg = s->recvMsg;
  s->recvMsg = nullptr;
  return 0;
}
void sock_poll(Sock *s) {
  char *msg;
  do {
    int closed = 0;
    msg = nullptr;
    if (sock_recv(s, &msg, &closed) != 0) sock_terminate(s);   // msg == nullptr here
    else if (closed) sock_terminate(s);                         // msg == nullptr here
    else if (msg) free(msg);
  } while (msg);
}
