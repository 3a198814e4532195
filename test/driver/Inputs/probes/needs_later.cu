// Does not parse until later.h exists.
#include "later.h"
