// What journal-syncd would otherwise need of a glibc newer than 2.34 (see GlibcBaseline.h). The
// linker takes a definition in the program before the shared libc's, so the references of the static
// libraries linked in (libstdc++'s std::random_device, swift-numerics' hypot) bind to these.
#include "GlibcBaseline.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

// arc4random came with glibc 2.36: the kernel's random bytes, through getrandom (glibc 2.25), waiting
// for the pool at boot as glibc's does; where the kernel has no getrandom (before Linux 3.17, which
// glibc 2.34 still runs on) or a sandbox refuses it (ENOSYS), from /dev/urandom, as glibc falls back.
// There is no way to fail: with neither, the program stops rather than use bytes that are not random.
static void journal_urandom(unsigned char *bytes, size_t count) {
    int descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) abort();
    size_t filled = 0;
    while (filled < count) {
        ssize_t got = read(descriptor, bytes + filled, count - filled);
        if (got > 0) {
            filled += (size_t)got;
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            abort();
        }
    }
    close(descriptor);
}

uint32_t journal_arc4random(void) {
    uint32_t value;
    unsigned char *bytes = (unsigned char *)&value;
    size_t filled = 0;
    while (filled < sizeof value) {
        ssize_t got = getrandom(bytes + filled, sizeof value - filled, 0);
        if (got > 0) {
            filled += (size_t)got;
        } else if (got < 0 && errno == ENOSYS) {
            journal_urandom(bytes + filled, sizeof value - filled);
            filled = sizeof value;
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

// In release builds only, which `make dist` packs and checks: a test build runs where it was built,
// and its daemon keeps glibc's (exported from the program, these would also replace glibc's for every
// shared library it loads).
#ifdef JOURNAL_GLIBC_BASELINE
uint32_t arc4random(void) { return journal_arc4random(); }
double hypot(double x, double y) { return journal_hypot(x, y); }
float hypotf(float x, float y) { return journal_hypotf(x, y); }
#endif
