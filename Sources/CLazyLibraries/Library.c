#define _GNU_SOURCE
#include "Library.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static _Noreturn void unavailable(const struct chest_library *library, const char *what) {
    // program_invocation_short_name: chest, chestd… as the program was called, like its other messages.
    fprintf(stderr, "%s: cannot load %s: %s; install Debian's %s package (sudo apt install %s)\n",
            program_invocation_short_name, library->soname, what, library->package, library->package);
    exit(69);
}

void *chest_library_bind(struct chest_library *library, const char *name, void *_Atomic *bound) {
    void *function = atomic_load_explicit(bound, memory_order_acquire);
    if (function != NULL) return function;
    void *handle = atomic_load_explicit(&library->handle, memory_order_acquire);
    if (handle == NULL) {
        // Two threads may both open it: dlopen counts references and returns the same handle.
        handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) unavailable(library, dlerror());
        atomic_store_explicit(&library->handle, handle, memory_order_release);
    }
    function = dlsym(handle, name);
    if (function == NULL) unavailable(library, dlerror());
    atomic_store_explicit(bound, function, memory_order_release);
    return function;
}
