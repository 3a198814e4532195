#include "util.h"

bool any_printable(uint32_t a, uint32_t b) { return printable(a) || printable(b); }
