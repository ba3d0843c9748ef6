#ifndef PASSMINT_CCURL_SHIM_H
#define PASSMINT_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt / curl_multi_setopt / curl_easy_getinfo are variadic, which Swift cannot call:
// one typed wrapper per argument kind.

/// Variadic curl_easy_setopt with a long argument (CURLOPTTYPE_LONG / VALUES).
static inline CURLcode pm_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }

/// Variadic curl_easy_setopt with a C string argument (curl copies strings it is given).
static inline CURLcode pm_curl_easy_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}

/// Variadic curl_easy_setopt with an opaque pointer argument (WRITEDATA, HEADERDATA, PRIVATE).
static inline CURLcode pm_curl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) {
    return curl_easy_setopt(h, o, v);
}

/// Variadic curl_easy_setopt with a header list; the list must outlive the transfers that use it.
static inline CURLcode pm_curl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
    return curl_easy_setopt(h, o, v);
}

/// Variadic curl_easy_setopt with a write/header callback (same C signature for both).
static inline CURLcode pm_curl_easy_setopt_write_function(CURL *h, CURLoption o,
                                                          size_t (*f)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(h, o, f);
}

/// Variadic curl_easy_setopt with a struct curl_blob; CURL_BLOB_COPY so the bytes need not outlive the call
/// (used for in-memory PEM certificate and key: no decrypted key is ever written to disk).
static inline CURLcode pm_curl_easy_setopt_blob_copy(CURL *h, CURLoption o, const void *data, size_t len) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = len;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(h, o, &blob);
}

/// Variadic curl_easy_getinfo with a long result (CURLINFO_RESPONSE_CODE, CURLINFO_HTTP_VERSION).
static inline CURLcode pm_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }

/// Variadic curl_easy_getinfo with a pointer result (CURLINFO_PRIVATE).
static inline CURLcode pm_curl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **out) {
    char *p = NULL;
    CURLcode rc = curl_easy_getinfo(h, i, &p);
    *out = (void *)p;
    return rc;
}

/// Variadic curl_multi_setopt with a long argument.
static inline CURLMcode pm_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

/// CURLMsg.data is an anonymous union: read the transfer's result code in C.
static inline CURLcode pm_curl_msg_result(const CURLMsg *msg) { return msg->data.result; }

#endif
