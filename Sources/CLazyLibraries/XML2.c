// libxml2, for GPX and KML files and the HTML of cache descriptions: the commands that read them alone.
#include "Library.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

static struct chest_library xml2 = {.soname = "libxml2.so.2", .package = "libxml2"};

CHEST_ON_DEMAND_VOID(xml2, xmlInitParser, (void), ())
CHEST_ON_DEMAND(xml2, xmlTextReaderPtr, xmlReaderForMemory,
                (const char *buffer, int size, const char *url, const char *encoding, int options),
                (buffer, size, url, encoding, options))
CHEST_ON_DEMAND_VOID(xml2, xmlFreeTextReader, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND_VOID(xml2, xmlTextReaderSetStructuredErrorHandler,
                     (xmlTextReaderPtr reader, xmlStructuredErrorFunc handler, void *context),
                     (reader, handler, context))
CHEST_ON_DEMAND(xml2, int, xmlTextReaderRead, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, int, xmlTextReaderNext, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, int, xmlTextReaderNodeType, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, int, xmlTextReaderDepth, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, int, xmlTextReaderGetParserLineNumber, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, const xmlChar *, xmlTextReaderConstLocalName, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, const xmlChar *, xmlTextReaderConstNamespaceUri, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, xmlChar *, xmlTextReaderGetAttribute, (xmlTextReaderPtr reader, const xmlChar *name),
                (reader, name))
CHEST_ON_DEMAND(xml2, xmlNodePtr, xmlTextReaderExpand, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, xmlEntityPtr, xmlGetDocEntity, (const xmlDoc *document, const xmlChar *name), (document, name))
CHEST_ON_DEMAND(xml2, xmlNodePtr, xmlTextReaderCurrentNode, (xmlTextReaderPtr reader), (reader))
CHEST_ON_DEMAND(xml2, htmlDocPtr, htmlReadMemory,
                (const char *buffer, int size, const char *url, const char *encoding, int options),
                (buffer, size, url, encoding, options))
CHEST_ON_DEMAND_VOID(xml2, xmlFreeDoc, (xmlDocPtr document), (document))
CHEST_ON_DEMAND(xml2, xmlChar *, xmlGetProp, (const xmlNode *node, const xmlChar *name), (node, name))
CHEST_ON_DEMAND(xml2, long, xmlGetLineNo, (const xmlNode *node), (node))

// xmlFree is not a function but libxml2's variable holding its deallocator: the variable's address is looked up,
// and its value called.
void chest_xmlFree(void *pointer) {
    static void *_Atomic bound;
    xmlFreeFunc *deallocator = chest_library_bind(&xml2, "xmlFree", &bound);
    (*deallocator)(pointer);
}
