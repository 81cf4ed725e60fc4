// libxml2, as Debian's libxml2-dev installs it: the streaming reader for GPX files and the HTML parser for cache
// descriptions (docs/QUEST.md "A course from a geocaching GPX").
#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, and its encoding.h would include the system's ICU headers, whose enums clash
// with the ICU copy Foundation carries (_FoundationICU). chest uses no ICU converter of libxml2, and only points to
// the structs that differ, so the declarations are read without it.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

// xmlFree is a global function pointer, or a macro in builds with thread-local allocators: one function either way,
// defined where libxml2 is opened (CLazyLibraries).
void chest_xmlFree(void *pointer);
