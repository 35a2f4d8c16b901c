// Typed, non-variadic wrappers over libcurl's variadic calls (curl_easy_setopt, curl_easy_getinfo,
// curl_multi_setopt), which Swift cannot call, and over the macros it cannot import. One wrapper
// per argument type, so that a wrong type cannot reach libcurl unnoticed.
#ifndef PARLEY_CURL_SHIM_H
#define PARLEY_CURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*parley_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*parley_curl_seek_callback)(void *context, curl_off_t offset, int origin);

static inline CURLcode parley_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }

static inline CURLcode parley_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, parley_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_setopt_seek_callback(CURL *handle, CURLoption option, parley_curl_seek_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode parley_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode parley_curl_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode parley_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// The result of a finished transfer (a union member Swift reads awkwardly).
static inline CURLcode parley_curl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
