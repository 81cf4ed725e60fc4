// The C libraries only some commands use, opened when a module first needs one rather than when the program starts
// (docs/PACKAGING.md "Libraries loaded on demand"). Swift code calls their functions through their own modules
// (CCurl, CLibXML2, CMosquitto, CMicroHTTPD) as before; this target defines those functions, each calling the real
// one, and opens each library with dlopen(3). A module opens its library (ChestIO's OnDemandLibrary) before its first
// call, so that a missing library is an error it can report.
#ifndef CHEST_LAZY_LIBRARIES_H
#define CHEST_LAZY_LIBRARIES_H

#include <stddef.h>

/// The libraries opened on demand.
enum chest_library_name {
    CHEST_LIBCURL,
    CHEST_LIBXML2,
    CHEST_LIBMOSQUITTO,
    CHEST_LIBMICROHTTPD,
};

/// The name dlopen(3) is given, the one the program would have linked ("libcurl.so.4").
const char *chest_library_soname(enum chest_library_name name);

/// Opens the library, if it is not open yet, and looks up every function chest calls of it. Returns 0, or -1 with
/// what is missing (dlerror's message) in `error`; the library is then left closed and the next call tries again.
int chest_library_open(enum chest_library_name name, char *error, size_t size);

#endif
