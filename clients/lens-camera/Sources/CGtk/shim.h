// GTK 4 for Swift: the header, plus adapters for what Swift cannot call directly —
// g_signal_connect is a macro and takes a handler of any signature, so each signature the
// app uses gets a typed connector here.
#pragma once
#include <gtk/gtk.h>

typedef void (*LensVoidHandler)(gpointer instance, gpointer data);
typedef void (*LensPressHandler)(gpointer gesture, gint presses, gdouble x, gdouble y, gpointer data);
typedef void (*LensDoubleHandler)(gpointer instance, gdouble value, gpointer data);
typedef gboolean (*LensScrollHandler)(gpointer controller, gdouble dx, gdouble dy, gpointer data);
typedef gboolean (*LensKeyHandler)(gpointer controller, guint keyval, guint keycode, GdkModifierType state, gpointer data);
// Signals whose one argument is a pointer: a gesture's event sequence, an action's GVariant
// parameter, notify's GParamSpec.
typedef void (*LensPointerHandler)(gpointer instance, gpointer argument, gpointer data);

static inline gulong lens_connect_void(gpointer instance, const char *signal, LensVoidHandler handler,
                                       gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, destroy, 0);
}
static inline gulong lens_connect_press(gpointer instance, const char *signal, LensPressHandler handler,
                                        gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, destroy, 0);
}
static inline gulong lens_connect_double(gpointer instance, const char *signal, LensDoubleHandler handler,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, destroy, 0);
}
static inline gulong lens_connect_scroll(gpointer instance, const char *signal, LensScrollHandler handler,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, destroy, 0);
}
static inline gulong lens_connect_key(gpointer instance, const char *signal, LensKeyHandler handler,
                                      gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, destroy, 0);
}
static inline gulong lens_connect_pointer(gpointer instance, const char *signal, LensPointerHandler handler,
                                          gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, G_CALLBACK(handler), data, destroy, 0);
}

// G_VARIANT_TYPE_STRING is a macro (a cast of "s").
static inline const GVariantType *lens_variant_type_string(void) { return G_VARIANT_TYPE_STRING; }

// gtk_accessible_update_property is variadic: one property at a time, for Swift.
static inline void lens_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void lens_set_accessible_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}
