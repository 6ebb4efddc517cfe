#ifndef SMPCTL_CZLIB_SHIM_H
#define SMPCTL_CZLIB_SHIM_H
#include <zlib.h>
#endif
