// libxml2, for GPX and KML files and the HTML of cache descriptions: the commands that read them alone.
#include "Library.h"

#include "../CLibXML2/shim.h"

#define LIBRARY chest_xml2_library
#define FUNCTIONS(F, V, L)                                                                                            \
    V(xmlInitParser, (void), ())                                                                                      \
    F(xmlTextReaderPtr, xmlReaderForMemory, (const char *buffer, int size, const char *url, const char *encoding,     \
          int options), (buffer, size, url, encoding, options))                                                       \
    V(xmlFreeTextReader, (xmlTextReaderPtr reader), (reader))                                                         \
    V(xmlTextReaderSetStructuredErrorHandler, (xmlTextReaderPtr reader, xmlStructuredErrorFunc handler, void          \
          *context), (reader, handler, context))                                                                      \
    F(int, xmlTextReaderRead, (xmlTextReaderPtr reader), (reader))                                                    \
    F(int, xmlTextReaderNext, (xmlTextReaderPtr reader), (reader))                                                    \
    F(int, xmlTextReaderNodeType, (xmlTextReaderPtr reader), (reader))                                                \
    F(int, xmlTextReaderDepth, (xmlTextReaderPtr reader), (reader))                                                   \
    F(int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr reader), (reader))                                          \
    F(int, xmlTextReaderGetParserLineNumber, (xmlTextReaderPtr reader), (reader))                                     \
    F(const xmlChar *, xmlTextReaderConstLocalName, (xmlTextReaderPtr reader), (reader))                              \
    F(const xmlChar *, xmlTextReaderConstNamespaceUri, (xmlTextReaderPtr reader), (reader))                           \
    F(const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr reader), (reader))                                  \
    F(xmlChar *, xmlTextReaderGetAttribute, (xmlTextReaderPtr reader, const xmlChar *name), (reader, name))           \
    F(xmlNodePtr, xmlTextReaderExpand, (xmlTextReaderPtr reader), (reader))                                           \
    F(xmlEntityPtr, xmlGetDocEntity, (const xmlDoc *document, const xmlChar *name), (document, name))                 \
    F(xmlNodePtr, xmlTextReaderCurrentNode, (xmlTextReaderPtr reader), (reader))                                      \
    F(htmlDocPtr, htmlReadMemory, (const char *buffer, int size, const char *url, const char *encoding, int           \
          options), (buffer, size, url, encoding, options))                                                           \
    V(xmlFreeDoc, (xmlDocPtr document), (document))                                                                   \
    F(xmlChar *, xmlGetProp, (const xmlNode *node, const xmlChar *name), (node, name))                                \
    F(long, xmlGetLineNo, (const xmlNode *node), (node))                                                              \
    L(xmlFree)

CHEST_LIBRARY(.soname = "libxml2.so.2")

// xmlFree is not a function but libxml2's variable holding its deallocator: the variable's address is looked up,
// and its value called.
void chest_xmlFree(void *pointer) {
    xmlFreeFunc deallocator = *CHEST_FUNCTION(xmlFreeFunc *, xmlFree);
    deallocator(pointer);
}
