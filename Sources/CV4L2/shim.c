// SwiftPM needs one C source per C target; everything this shim adds is inline in the header.
#include "CV4L2.h"
