// libcurl, as Debian's libcurl4-openssl-dev installs it.
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed function for each kind of
// argument the weather client passes, each calling libcurl's own (CLazyLibraries, where libcurl is opened).

typedef size_t (*chest_curl_data_function)(char *data, size_t size, size_t count, void *context);
typedef int (*chest_curl_xferinfo_function)(void *context, curl_off_t download_total, curl_off_t download_now,
                                            curl_off_t upload_total, curl_off_t upload_now);

CURLcode chest_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode chest_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode chest_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode chest_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value);
// CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION.
CURLcode chest_curl_setopt_data_function(CURL *handle, CURLoption option, chest_curl_data_function function);
// CURLOPT_XFERINFOFUNCTION.
CURLcode chest_curl_setopt_xferinfo_function(CURL *handle, CURLoption option, chest_curl_xferinfo_function function);
CURLcode chest_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
