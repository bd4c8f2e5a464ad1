#include "CCurl.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// libcurl's entry points, resolved once by lens_curl_load.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    CURLcode (*easy_perform)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
} api;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_message[512];

static void *resolve(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && load_failure == NULL) {
        snprintf(load_message, sizeof load_message, "libcurl.so.4 has no %s", name);
        load_failure = load_message;
    }
    return symbol;
}

static void load(void) {
    // Never closed: libcurl keeps global state for the process's lifetime.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_message, sizeof load_message, "libcurl could not be loaded: %s", why ? why : "unknown error");
        load_failure = load_message;
        return;
    }
    api.global_init = resolve(library, "curl_global_init");
    api.easy_init = resolve(library, "curl_easy_init");
    api.easy_cleanup = resolve(library, "curl_easy_cleanup");
    api.easy_perform = resolve(library, "curl_easy_perform");
    api.easy_strerror = resolve(library, "curl_easy_strerror");
    api.easy_setopt = resolve(library, "curl_easy_setopt");
    api.easy_getinfo = resolve(library, "curl_easy_getinfo");
    api.slist_append = resolve(library, "curl_slist_append");
    api.slist_free_all = resolve(library, "curl_slist_free_all");
    if (load_failure == NULL && api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        load_failure = "libcurl could not be initialised";
    }
}

const char *lens_curl_load(void) {
    pthread_once(&loaded, load);
    return load_failure;
}

CURL *lens_curl_easy_init(void) {
    return api.easy_init();
}

void lens_curl_easy_cleanup(CURL *curl) {
    api.easy_cleanup(curl);
}

CURLcode lens_curl_easy_perform(CURL *curl) {
    return api.easy_perform(curl);
}

const char *lens_curl_easy_strerror(CURLcode code) {
    return api.easy_strerror(code);
}

struct curl_slist *lens_curl_slist_append(struct curl_slist *list, const char *string) {
    return api.slist_append(list, string);
}

void lens_curl_slist_free_all(struct curl_slist *list) {
    api.slist_free_all(list);
}

CURLcode lens_curl_set_long(CURL *curl, CURLoption option, long value) {
    return api.easy_setopt(curl, option, value);
}

CURLcode lens_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return api.easy_setopt(curl, option, value);
}

CURLcode lens_curl_set_size(CURL *curl, CURLoption option, long long value) {
    return api.easy_setopt(curl, option, (curl_off_t)value);
}

CURLcode lens_curl_set_blob(CURL *curl, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob = {.data = (void *)data, .len = length, .flags = CURL_BLOB_COPY};
    return api.easy_setopt(curl, option, &blob);
}

CURLcode lens_curl_set_headers(CURL *curl, struct curl_slist *headers) {
    return api.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
}

CURLcode lens_curl_set_error_buffer(CURL *curl, char *buffer) {
    return api.easy_setopt(curl, CURLOPT_ERRORBUFFER, buffer);
}

static size_t read_from_fd(char *buffer, size_t size, size_t count, void *userdata) {
    int fd = *(const int *)userdata;
    for (;;) {
        ssize_t n = read(fd, buffer, size * count);
        if (n >= 0) return (size_t)n;
        if (errno != EINTR) return CURL_READFUNC_ABORT;
    }
}

CURLcode lens_curl_read_body_from(CURL *curl, const int *fd) {
    CURLcode code = api.easy_setopt(curl, CURLOPT_READFUNCTION, read_from_fd);
    return code != CURLE_OK ? code : api.easy_setopt(curl, CURLOPT_READDATA, (void *)fd);
}

CURLcode lens_curl_post_body(CURL *curl, const void *data, long long size) {
    CURLcode code = api.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
    return code != CURLE_OK ? code : api.easy_setopt(curl, CURLOPT_COPYPOSTFIELDS, data);
}

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    lens_curl_buffer *buffer = userdata;
    size_t n = size * count;
    if (n > buffer->limit - buffer->length) return 0;
    unsigned char *grown = realloc(buffer->data, buffer->length + n);
    if (grown == NULL) return 0;
    memcpy(grown + buffer->length, data, n);
    buffer->data = grown;
    buffer->length += n;
    return n;
}

CURLcode lens_curl_collect_response(CURL *curl, lens_curl_buffer *buffer) {
    CURLcode code = api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    return code != CURLE_OK ? code : api.easy_setopt(curl, CURLOPT_WRITEDATA, (void *)buffer);
}

static size_t discard(char *data, size_t size, size_t count, void *userdata) {
    (void)data;
    (void)userdata;
    return size * count;
}

CURLcode lens_curl_discard_response_body(CURL *curl) {
    return api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
}

CURLcode lens_curl_abort_when(CURL *curl, curl_xferinfo_callback should_abort, void *context) {
    CURLcode code = api.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, should_abort);
    if (code == CURLE_OK) code = api.easy_setopt(curl, CURLOPT_XFERINFODATA, context);
    return code != CURLE_OK ? code : api.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
}

long lens_curl_response_code(CURL *curl) {
    long code = 0;
    return api.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0;
}

long long lens_curl_retry_after(CURL *curl) {
    curl_off_t seconds = 0;
    return api.easy_getinfo(curl, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK ? (long long)seconds : 0;
}
