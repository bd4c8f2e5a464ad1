// SwiftPM needs one C source per C target; everything this shim adds is inline in the header.
#include "CTurboJPEG.h"
