// One library opened on demand, and the macros that define its functions in its place.
#ifndef CHEST_LIBRARY_H
#define CHEST_LIBRARY_H

#include "CLazyLibraries.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

struct chest_library {
    /// The name dlopen(3) is given. scripts/deb.sh reads each `.soname = "…"` for the package's Depends.
    const char *soname;
    /// The functions chest calls, in the order of the file's index enum, and their addresses once it is open.
    const char *const *names;
    void **functions;
    size_t count;
    pthread_mutex_t lock;
    atomic_bool open;
};

/// The four, defined in Curl.c, XML2.c, Mosquitto.c and MicroHTTPD.c.
extern struct chest_library chest_curl_library, chest_xml2_library, chest_mosquitto_library,
    chest_microhttpd_library;

/// The address of the library's function number `index`. The module that calls it opened the library first
/// (chest_library_open); a call before that opens it here, and one that finds it missing is a bug in chest, which
/// stops the program as a failed Swift precondition would.
void *chest_library_function(struct chest_library *library, size_t index);

// Each file lists its library's functions once, as FUNCTIONS(F, V, L): F(result, name, parameters, arguments) for a
// function defined here under its own name, V(name, parameters, arguments) for one that returns nothing, and L(name)
// for one only looked up (the variadic ones, called by the typed functions the module maps declare). From that list:
// an index per function (name_index), their names, and the definitions.
#define CHEST_INDEX_F(result, name, parameters, arguments) name##_index,
#define CHEST_INDEX_V(name, parameters, arguments) name##_index,
#define CHEST_INDEX_L(name) name##_index,
#define CHEST_NAME_F(result, name, parameters, arguments) #name,
#define CHEST_NAME_V(name, parameters, arguments) #name,
#define CHEST_NAME_L(name) #name,
#define CHEST_DEFINE_F(result, name, parameters, arguments)                                                          \
    result name parameters { return ((result(*) parameters)chest_library_function(&LIBRARY, name##_index))arguments; }
#define CHEST_DEFINE_V(name, parameters, arguments)                                                                  \
    void name parameters { ((void(*) parameters)chest_library_function(&LIBRARY, name##_index))arguments; }
#define CHEST_DEFINE_L(name)

/// The library `LIBRARY` (a macro the file defines), its soname given as `.soname = "…"`, and its FUNCTIONS.
#define CHEST_LIBRARY(soname_initializer)                                                                                \
    enum { FUNCTIONS(CHEST_INDEX_F, CHEST_INDEX_V, CHEST_INDEX_L) function_count };                                 \
    static const char *const names[] = {FUNCTIONS(CHEST_NAME_F, CHEST_NAME_V, CHEST_NAME_L)};                        \
    static void *functions[function_count];                                                                         \
    struct chest_library LIBRARY = {                                                                                 \
        soname_initializer,                                                                                          \
        .names = names,                                                                                              \
        .functions = functions,                                                                                      \
        .count = function_count,                                                                                     \
        .lock = PTHREAD_MUTEX_INITIALIZER,                                                                           \
    };                                                                                                               \
    FUNCTIONS(CHEST_DEFINE_F, CHEST_DEFINE_V, CHEST_DEFINE_L)

/// The address of the file's function `name`, typed as `type`.
#define CHEST_FUNCTION(type, name) ((type)chest_library_function(&LIBRARY, name##_index))

#endif
