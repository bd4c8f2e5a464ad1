#include "CGPS.h"
