// libcurl, for the weather helper (chest-weather) alone.
#include "Library.h"

#include <curl/curl.h>
#include <stdarg.h>

static struct chest_library curl = {.soname = "libcurl.so.4", .package = "libcurl4"};

CHEST_ON_DEMAND(curl, CURLcode, curl_global_init, (long flags), (flags))
CHEST_ON_DEMAND(curl, CURL *, curl_easy_init, (void), ())
CHEST_ON_DEMAND_VOID(curl, curl_easy_cleanup, (CURL * handle), (handle))
CHEST_ON_DEMAND(curl, CURLcode, curl_easy_perform, (CURL * handle), (handle))
CHEST_ON_DEMAND(curl, struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *data),
                (list, data))
CHEST_ON_DEMAND_VOID(curl, curl_slist_free_all, (struct curl_slist * list), (list))

// The two variadic functions take exactly one argument after the option, whose type the option's number gives
// (CURLOPTTYPE_*; a CURLINFO always takes a pointer): it is read as that type and passed on as such.
CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    static void *_Atomic bound;
    CURLcode (*setopt)(CURL *, CURLoption, ...) = chest_library_bind(&curl, "curl_easy_setopt", &bound);
    va_list arguments;
    va_start(arguments, option);
    CURLcode result;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        result = setopt(handle, option, va_arg(arguments, long));
    } else if (option >= CURLOPTTYPE_OFF_T && option < CURLOPTTYPE_BLOB) {
        result = setopt(handle, option, va_arg(arguments, curl_off_t));
    } else {
        // Object and function pointers alike: both are pointer-sized on every platform Debian builds for.
        result = setopt(handle, option, va_arg(arguments, void *));
    }
    va_end(arguments);
    return result;
}

CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    static void *_Atomic bound;
    CURLcode (*getinfo)(CURL *, CURLINFO, ...) = chest_library_bind(&curl, "curl_easy_getinfo", &bound);
    va_list arguments;
    va_start(arguments, info);
    CURLcode result = getinfo(handle, info, va_arg(arguments, void *));
    va_end(arguments);
    return result;
}
