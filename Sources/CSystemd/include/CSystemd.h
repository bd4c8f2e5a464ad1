#ifndef LENS_CSYSTEMD_H
#define LENS_CSYSTEMD_H

#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

// sd-bus vtables are normally written with SD_BUS_* designated-initialiser macros, which Swift
// cannot import. These functions fill one entry each, so LensBus can build a vtable at run time
// from an interface description. Every string passed in must outlive the registration.

/// A zeroed array of `count` entries; sd-bus-vtable.h requires unused union bytes to be zero.
/// Free it with lens_vtable_free once the slot that uses it has been destroyed.
sd_bus_vtable *lens_vtable_allocate(size_t count);
void lens_vtable_free(sd_bus_vtable *vtable);

/// SD_BUS_VTABLE_START(flags), with the argument-names feature announced.
void lens_vtable_set_start(sd_bus_vtable *entry, uint64_t flags);

/// SD_BUS_METHOD_WITH_NAMES: `names` holds the input then the output argument names, each
/// NUL-terminated, back to back ("in1\0in2\0out1\0"), or "" for no names at all.
void lens_vtable_set_method(sd_bus_vtable *entry, const char *member, const char *signature,
                            const char *result, const char *names,
                            sd_bus_message_handler_t handler, uint64_t flags);

/// SD_BUS_SIGNAL_WITH_NAMES; `names` as for methods.
void lens_vtable_set_signal(sd_bus_vtable *entry, const char *member, const char *signature,
                            const char *names, uint64_t flags);

/// SD_BUS_PROPERTY when `set` is NULL, SD_BUS_WRITABLE_PROPERTY otherwise.
void lens_vtable_set_property(sd_bus_vtable *entry, const char *member, const char *signature,
                              sd_bus_property_get_t get, sd_bus_property_set_t set,
                              uint64_t flags);

/// SD_BUS_VTABLE_END.
void lens_vtable_set_end(sd_bus_vtable *entry);

/// A bus connection that never reaches a peer: sd_bus_new over one end of a socket pair, started
/// (so messages can be made, with fds allowed, and sealed as if for sending), for reading back a
/// message built in process. 0, or a negative errno; release it with sd_bus_close_unref.
int lens_bus_new_unconnected(sd_bus **bus);

#endif
