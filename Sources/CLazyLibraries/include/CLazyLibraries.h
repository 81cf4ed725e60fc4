// The C libraries only some commands use, opened at the first call of one of their functions rather than when the
// program starts (docs/PACKAGING.md "Libraries loaded on demand"). Swift code calls them through their own modules
// (CCurl, CLibXML2, CMosquitto, CMicroHTTPD) as before; this target defines those functions, and each loads its
// library with dlopen(3) the first time it runs. Nothing here is called from Swift by name.
#ifndef CHEST_LAZY_LIBRARIES_H
#define CHEST_LAZY_LIBRARIES_H
#endif
