#include <stdlib.h>

#include "CSystemd.h"

sd_bus_vtable *lens_vtable_allocate(size_t count) {
    return calloc(count, sizeof(sd_bus_vtable));
}

void lens_vtable_free(sd_bus_vtable *vtable) {
    free(vtable);
}

void lens_vtable_set_start(sd_bus_vtable *entry, uint64_t flags) {
    *entry = (sd_bus_vtable) SD_BUS_VTABLE_START(flags);
}

void lens_vtable_set_method(sd_bus_vtable *entry, const char *member, const char *signature,
                            const char *result, const char *names,
                            sd_bus_message_handler_t handler, uint64_t flags) {
    // The macro pastes its in- and out-name arguments together as adjacent string literals.
    // Run-time strings cannot be pasted, so the caller joins both lists and the whole list
    // goes in the out-names slot, leaving the in-names argument empty.
    *entry = (sd_bus_vtable) SD_BUS_METHOD_WITH_NAMES(member, signature, , result, names, handler, flags);
}

void lens_vtable_set_signal(sd_bus_vtable *entry, const char *member, const char *signature,
                            const char *names, uint64_t flags) {
    *entry = (sd_bus_vtable) SD_BUS_SIGNAL_WITH_NAMES(member, signature, names, flags);
}

void lens_vtable_set_property(sd_bus_vtable *entry, const char *member, const char *signature,
                              sd_bus_property_get_t get, sd_bus_property_set_t set,
                              uint64_t flags) {
    if (set == NULL)
        *entry = (sd_bus_vtable) SD_BUS_PROPERTY(member, signature, get, 0, flags);
    else
        *entry = (sd_bus_vtable) SD_BUS_WRITABLE_PROPERTY(member, signature, get, set, 0, flags);
}

void lens_vtable_set_end(sd_bus_vtable *entry) {
    *entry = (sd_bus_vtable) SD_BUS_VTABLE_END;
}
