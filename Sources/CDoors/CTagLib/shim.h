#pragma once
#include <tag_c.h>
