// An inline helper of a project header that calls release.cu's wrapper
// (lmdeploy's EnsureNotNull calling ReportNullError of check.cc): found
// from the project root as "include/util/release_twice.h".
#pragma once
void buf_release(void *p);

inline void release_checked(void *p) { buf_release(p); }
