#pragma once
// Debian builds libxml2 with ICU; its ICU headers clash with Foundation's bundled ICU in any
// module that imports both. We never allocate xmlCharEncodingHandler, so hiding the ICU-only
// trailing fields is safe.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
// xmlFree is a global function pointer: Swift 6 refuses to touch it directly.
static inline void cxml2_free(void *p) { xmlFree(p); }
