#ifndef SMPCTL_CYAML_SHIM_H
#define SMPCTL_CYAML_SHIM_H
#include <yaml.h>
#endif
