#pragma once
#include <magic.h>
