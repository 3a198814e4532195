// Shadows cfg_release.h once copied to the earlier include directory.
#define CFG_RELEASE(p) (void)(p)
