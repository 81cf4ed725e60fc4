// One library opened on demand, and the macros that define a function of it in its place.
#ifndef CHEST_LIBRARY_H
#define CHEST_LIBRARY_H

#include <stdatomic.h>

struct chest_library {
    /// The name dlopen(3) is given, the one the program would have linked ("libcurl.so.4").
    const char *soname;
    /// The Debian package that installs it, named in the error when it cannot be opened.
    const char *package;
    void *_Atomic handle;
};

/// The address of `name` in `library`, opening the library first if need be, and kept in `bound` for the next call.
/// When the library or the function cannot be found the program cannot go on: it says which package to install and
/// exits with status 69 (EX_UNAVAILABLE).
void *chest_library_bind(struct chest_library *library, const char *name, void *_Atomic *bound);

/// Defines `result name parameters` to call the library's function of that name with `arguments`.
#define CHEST_ON_DEMAND(library, result, name, parameters, arguments)                                                 \
    result name parameters {                                                                                        \
        static void *_Atomic bound;                                                                                 \
        return ((result(*) parameters)chest_library_bind(&library, #name, &bound)) arguments;                      \
    }

/// The same for a function that returns nothing.
#define CHEST_ON_DEMAND_VOID(library, name, parameters, arguments)                                                    \
    void name parameters {                                                                                          \
        static void *_Atomic bound;                                                                                 \
        ((void(*) parameters)chest_library_bind(&library, #name, &bound)) arguments;                               \
    }

#endif
