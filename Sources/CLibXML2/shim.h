// libxml2, as Debian's libxml2-dev installs it: the streaming reader for GPX files and the HTML parser for cache
// descriptions (docs/QUEST.md "A course from a geocaching GPX").
#include <libxml/xmlreader.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

// xmlFree is a global function pointer, or a macro in builds with thread-local allocators: one function either way.
static inline void chest_xmlFree(void *pointer) { xmlFree(pointer); }
