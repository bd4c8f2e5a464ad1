#include <sys/eventfd.h>

#include "CSystemd.h"

int lens_eventfd_open(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
