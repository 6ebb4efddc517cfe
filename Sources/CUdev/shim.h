#ifndef SMPCTL_CUDEV_SHIM_H
#define SMPCTL_CUDEV_SHIM_H
#include <libudev.h>
#endif
