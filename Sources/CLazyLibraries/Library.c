#define _GNU_SOURCE
#include "Library.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static struct chest_library *const libraries[] = {
    [CHEST_LIBCURL] = &chest_curl_library,
    [CHEST_LIBXML2] = &chest_xml2_library,
    [CHEST_LIBMOSQUITTO] = &chest_mosquitto_library,
    [CHEST_LIBMICROHTTPD] = &chest_microhttpd_library,
};

const char *chest_library_soname(enum chest_library_name name) { return libraries[name]->soname; }

// Every function is looked up when the library opens, so that one missing is an error of the open, reported by the
// module that asked, and never one of a later call.
static int open_library(struct chest_library *library, char *error, size_t size) {
    if (atomic_load_explicit(&library->open, memory_order_acquire)) return 0;
    pthread_mutex_lock(&library->lock);
    int result = 0;
    if (!atomic_load_explicit(&library->open, memory_order_relaxed)) {
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            snprintf(error, size, "%s", dlerror());
            result = -1;
        }
        for (size_t index = 0; result == 0 && index < library->count; index++) {
            library->functions[index] = dlsym(handle, library->names[index]);
            if (library->functions[index] == NULL) {
                snprintf(error, size, "%s has no %s", library->soname, library->names[index]);
                dlclose(handle);
                result = -1;
            }
        }
        if (result == 0) atomic_store_explicit(&library->open, true, memory_order_release);
    }
    pthread_mutex_unlock(&library->lock);
    return result;
}

int chest_library_open(enum chest_library_name name, char *error, size_t size) {
    return open_library(libraries[name], error, size);
}

void *chest_library_function(struct chest_library *library, size_t index) {
    if (!atomic_load_explicit(&library->open, memory_order_acquire)) {
        char error[512];
        if (open_library(library, error, sizeof error) != 0) {
            fprintf(stderr, "%s: bug: %s called before its library was opened (%s)\n", program_invocation_short_name,
                    library->names[index], error);
            abort();
        }
    }
    return library->functions[index];
}
