#ifndef LENS_CCURL_H
#define LENS_CCURL_H

// libcurl for the outbox, the time-stamp client and EST enrollment. curl_easy_setopt and curl_easy_getinfo are variadic, which Swift does
// not import, and the transfer callbacks are plain C: each gets a typed wrapper here. libcurl
// is opened (dlopen) on first use, not linked: a lensd with no outbox and no TSA never loads it
// nor the two dozen libraries it brings (about 4 MB resident). Nothing here but adaptation.

#include <curl/curl.h>

/// Opens libcurl.so.4 and runs curl_global_init, once for the process: NULL when it is ready,
/// else why not (static storage). Every other function here needs it to have succeeded.
const char *lens_curl_load(void);

/// curl_easy_init, curl_easy_cleanup, curl_easy_perform, curl_easy_strerror.
CURL *lens_curl_easy_init(void);
void lens_curl_easy_cleanup(CURL *curl);
CURLcode lens_curl_easy_perform(CURL *curl);
const char *lens_curl_easy_strerror(CURLcode code);

/// curl_slist_append and curl_slist_free_all.
struct curl_slist *lens_curl_slist_append(struct curl_slist *list, const char *string);
void lens_curl_slist_free_all(struct curl_slist *list);

/// curl_easy_setopt for options that take a long.
CURLcode lens_curl_set_long(CURL *curl, CURLoption option, long value);

/// curl_easy_setopt for options that take a string (copied by libcurl) or NULL.
CURLcode lens_curl_set_string(CURL *curl, CURLoption option, const char *value);

/// curl_easy_setopt for options that take a curl_off_t (sizes).
CURLcode lens_curl_set_size(CURL *curl, CURLoption option, long long value);

/// curl_easy_setopt for options that take a struct curl_blob (CURLOPT_SSLCERT_BLOB, CURLOPT_SSLKEY_BLOB):
/// the bytes are copied by libcurl (CURL_BLOB_COPY), so the caller may clear its own at once.
CURLcode lens_curl_set_blob(CURL *curl, CURLoption option, const void *data, size_t length);

/// CURLOPT_HTTPHEADER; the list must live until the transfer ends.
CURLcode lens_curl_set_headers(CURL *curl, struct curl_slist *headers);

/// CURLOPT_ERRORBUFFER: `buffer` (CURL_ERROR_SIZE bytes) receives libcurl's detailed message.
CURLcode lens_curl_set_error_buffer(CURL *curl, char *buffer);

/// The request body is read(2) from `*fd` from its current offset; `fd` must outlive the transfer.
CURLcode lens_curl_read_body_from(CURL *curl, const int *fd);

/// POST of `size` bytes from `data`, copied by libcurl (the caller's buffer may go at once).
CURLcode lens_curl_post_body(CURL *curl, const void *data, long long size);

/// A response body collected in memory, refused past `limit` bytes. Free `data` with free(3).
typedef struct {
    unsigned char *data;
    size_t length;
    size_t limit;
} lens_curl_buffer;

/// The response body goes into `*buffer` (zero-initialised except `limit`); a body larger than
/// the limit fails the transfer with CURLE_WRITE_ERROR.
CURLcode lens_curl_collect_response(CURL *curl, lens_curl_buffer *buffer);

/// The response body is read and dropped (libcurl writes it to stdout otherwise).
CURLcode lens_curl_discard_response_body(CURL *curl);

/// The transfer is aborted (CURLE_ABORTED_BY_CALLBACK) as soon as `should_abort(context, ...)`
/// returns non-zero; libcurl asks at least once a second, and whenever data moves.
CURLcode lens_curl_abort_when(CURL *curl, curl_xferinfo_callback should_abort, void *context);

/// CURLINFO_RESPONSE_CODE: the last HTTP status, 0 when none arrived.
long lens_curl_response_code(CURL *curl);

/// CURLINFO_RETRY_AFTER: the response's Retry-After in seconds, 0 when absent.
long long lens_curl_retry_after(CURL *curl);

#endif
