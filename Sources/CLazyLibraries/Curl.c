// libcurl, for the weather helper (chest-weather) alone.
#include "Library.h"

#include "../CCurl/shim.h"

#define LIBRARY chest_curl_library
#define FUNCTIONS(F, V, L)                                                                                            \
    F(CURLcode, curl_global_init, (long flags), (flags))                                                              \
    F(CURL *, curl_easy_init, (void), ())                                                                             \
    V(curl_easy_cleanup, (CURL * handle), (handle))                                                                   \
    F(CURLcode, curl_easy_perform, (CURL * handle), (handle))                                                         \
    F(struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *data), (list, data))             \
    V(curl_slist_free_all, (struct curl_slist * list), (list))                                                        \
    L(curl_easy_setopt)                                                                                               \
    L(curl_easy_getinfo)

CHEST_LIBRARY(.soname = "libcurl.so.4")

// The two variadic functions, called with the one argument of the type each wrapper takes.
typedef CURLcode (*setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*getinfo_function)(CURL *, CURLINFO, ...);

CURLcode chest_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return CHEST_FUNCTION(setopt_function, curl_easy_setopt)(handle, option, value);
}

CURLcode chest_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return CHEST_FUNCTION(setopt_function, curl_easy_setopt)(handle, option, value);
}

CURLcode chest_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return CHEST_FUNCTION(setopt_function, curl_easy_setopt)(handle, option, value);
}

CURLcode chest_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return CHEST_FUNCTION(setopt_function, curl_easy_setopt)(handle, option, value);
}

CURLcode chest_curl_setopt_data_function(CURL *handle, CURLoption option, chest_curl_data_function function) {
    return CHEST_FUNCTION(setopt_function, curl_easy_setopt)(handle, option, function);
}

CURLcode chest_curl_setopt_xferinfo_function(CURL *handle, CURLoption option, chest_curl_xferinfo_function function) {
    return CHEST_FUNCTION(setopt_function, curl_easy_setopt)(handle, option, function);
}

CURLcode chest_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return CHEST_FUNCTION(getinfo_function, curl_easy_getinfo)(handle, info, value);
}
