#pragma once
#include <qpdf/qpdf-c.h>
