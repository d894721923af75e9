#include "BuildVersion.h"

#if __has_include("version.generated.h")
#include "version.generated.h"
#endif

#ifndef JOURNAL_VERSION
#define JOURNAL_VERSION "0.0.0-unknown"
#endif
#ifndef JOURNAL_COMMIT
#define JOURNAL_COMMIT "unknown"
#endif

const char *journal_version(void) { return JOURNAL_VERSION; }
const char *journal_commit(void) { return JOURNAL_COMMIT; }
