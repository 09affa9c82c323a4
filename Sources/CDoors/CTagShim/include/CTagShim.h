#pragma once
#ifdef __cplusplus
extern "C" {
#endif
/// TagLib 1.13's C API has no property map (composer, disc number, dates…). Returns every
/// property of the file as "KEY=value\n" lines (malloc'd, free with free()), or NULL.
char *ctagshim_properties(const char *path);
#ifdef __cplusplus
}
#endif
