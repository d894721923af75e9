// What journal-syncd would otherwise need of a glibc newer than 2.34 (see GlibcBaseline.h). The
// linker takes a definition in the program before the shared libc's, so the references of the static
// libraries linked in (libstdc++'s std::random_device, swift-numerics' hypot) bind to these.
#include "GlibcBaseline.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

// arc4random came with glibc 2.36: the kernel's random bytes, through getrandom (glibc 2.25), waiting
// for the pool at boot as glibc's does. It has no way to fail: a kernel without getrandom (before
// 3.17) is older than any glibc 2.34 runs on.
uint32_t journal_arc4random(void) {
    uint32_t value;
    unsigned char *bytes = (unsigned char *)&value;
    size_t filled = 0;
    while (filled < sizeof value) {
        ssize_t got = getrandom(bytes + filled, sizeof value - filled, 0);
        if (got > 0) {
            filled += (size_t)got;
        } else if (got < 0 && errno != EINTR) {
            abort();
        }
    }
    return value;
}

// hypot and hypotf got a new version in glibc 2.35 (the old one kept the SVID error handling). The
// sum of the squares in a wider type neither overflows nor underflows for any finite argument:
// long double (x87, 15-bit exponent) for double, double for float. An infinite argument gives
// infinity even beside a NaN, as C's Annex F asks.
double journal_hypot(double x, double y) {
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return x + y;
    long double wide_x = x, wide_y = y;
    return (double)sqrtl(wide_x * wide_x + wide_y * wide_y);
}

float journal_hypotf(float x, float y) {
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return x + y;
    double wide_x = x, wide_y = y;
    return (float)sqrt(wide_x * wide_x + wide_y * wide_y);
}

uint32_t arc4random(void) { return journal_arc4random(); }
double hypot(double x, double y) { return journal_hypot(x, y); }
float hypotf(float x, float y) { return journal_hypotf(x, y); }
