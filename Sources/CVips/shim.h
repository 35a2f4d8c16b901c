#ifndef PARLEY_CVIPS_SHIM_H
#define PARLEY_CVIPS_SHIM_H
#include <vips/vips.h>
#endif
