#ifndef CTURBOJPEG_H
#define CTURBOJPEG_H

// TurboJPEG's API is plain C and imports into Swift as it is; only its function-like macros
// and its constant arrays need a wrapper.
#include <turbojpeg.h>

/// TJSCALED(): the size TurboJPEG's DCT scaling produces, with the library's own rounding.
static inline int cturbojpeg_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

/// tjMCUWidth/tjMCUHeight (C arrays, which Swift imports as tuples) for a subsampling level;
/// 0 for a level this TurboJPEG does not know.
static inline int cturbojpeg_mcu_width(int subsampling) {
    return subsampling >= 0 && subsampling < TJ_NUMSAMP ? tjMCUWidth[subsampling] : 0;
}
static inline int cturbojpeg_mcu_height(int subsampling) {
    return subsampling >= 0 && subsampling < TJ_NUMSAMP ? tjMCUHeight[subsampling] : 0;
}

#endif
