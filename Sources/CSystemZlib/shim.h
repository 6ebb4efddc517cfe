#ifndef SMPCTL_CSYSTEMZLIB_SHIM_H
#define SMPCTL_CSYSTEMZLIB_SHIM_H
#include <zlib.h>
#endif
