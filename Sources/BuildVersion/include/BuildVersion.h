#ifndef JOURNAL_BUILD_VERSION_H
#define JOURNAL_BUILD_VERSION_H

// The version and the commit this build was made from, for `--version`. `make` writes them (the
// VERSION file's release number, and `git rev-parse`) into version.generated.h beside BuildVersion.c
// before it builds; a build made without make says "0.0.0-unknown".
const char *journal_version(void);
const char *journal_commit(void);

#endif
