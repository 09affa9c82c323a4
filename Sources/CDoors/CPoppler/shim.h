#pragma once
// poppler-glib: used only for page text (qpdf reads the rest of a PDF faster). Its headers live
// under /usr/include/poppler/glib and pull in glib and cairo, hence pkg-config in Package.swift.
#include <poppler.h>
