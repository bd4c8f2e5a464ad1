#ifndef CTURBOJPEG_H
#define CTURBOJPEG_H

// TurboJPEG's API is plain C and imports into Swift as it is; only its function-like macros
// need a wrapper.
#include <turbojpeg.h>

/// TJSCALED(): the size TurboJPEG's DCT scaling produces, with the library's own rounding.
static inline int cturbojpeg_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

#endif
