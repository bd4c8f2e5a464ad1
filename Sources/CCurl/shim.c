#include "CCurl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

CURLcode lens_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode lens_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

CURLcode lens_curl_set_size(CURL *curl, CURLoption option, long long value) {
    return curl_easy_setopt(curl, option, (curl_off_t)value);
}

CURLcode lens_curl_set_headers(CURL *curl, struct curl_slist *headers) {
    return curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
}

CURLcode lens_curl_set_error_buffer(CURL *curl, char *buffer) {
    return curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, buffer);
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
    CURLcode code = curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_from_fd);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_READDATA, (void *)fd);
}

CURLcode lens_curl_post_body(CURL *curl, const void *data, long long size) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_COPYPOSTFIELDS, data);
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
    CURLcode code = curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_WRITEDATA, (void *)buffer);
}

static size_t discard(char *data, size_t size, size_t count, void *userdata) {
    (void)data;
    (void)userdata;
    return size * count;
}

CURLcode lens_curl_discard_response_body(CURL *curl) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
}

CURLcode lens_curl_abort_when(CURL *curl, curl_xferinfo_callback should_abort, void *context) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, should_abort);
    if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_XFERINFODATA, context);
    return code != CURLE_OK ? code : curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
}

long lens_curl_response_code(CURL *curl) {
    long code = 0;
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0;
}

long long lens_curl_retry_after(CURL *curl) {
    curl_off_t seconds = 0;
    return curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &seconds) == CURLE_OK ? (long long)seconds : 0;
}
