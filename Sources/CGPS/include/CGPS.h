#ifndef CGPS_H
#define CGPS_H

// libgps, the gpsd client library, as Debian 12 ships it (gpsd 3.22: libgps.so.28, API 11).
// Build and run against the same release: 3.25 has another soname and API. Everything LensCore
// uses imports into Swift as is (gps_open/stream/waiting/read/close/errstr, WATCH_*, MODE_*,
// the *_SET masks), so nothing here but the include.
#include <gps.h>

#endif
