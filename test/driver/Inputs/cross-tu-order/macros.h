// A macro that calls release.cu's wrapper: a file that uses it names only
// RELEASE in its own text; the macro's body says it calls into release.cu
// (UnitOrder.h).
void buf_release(void *p);
#define RELEASE(p) buf_release(p)
