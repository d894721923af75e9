#ifndef JOURNAL_GLIBC_BASELINE_H
#define JOURNAL_GLIBC_BASELINE_H

// journal-syncd runs on glibc 2.34 or later (RHEL 9, Ubuntu 22.04, Debian 12), while it is built on a
// newer one: the functions a newer glibc gave a new version, which the libraries linked into it call,
// are defined here, in the program, so that it asks the system's glibc for no symbol newer than
// GLIBC_2.34 (`make dist` checks). arc4random, hypot and hypotf are these, under the names below,
// which the tests call.
#include <stdint.h>

uint32_t journal_arc4random(void);
double journal_hypot(double x, double y);
float journal_hypotf(float x, float y);

#endif
