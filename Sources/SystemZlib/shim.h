#ifndef JOURNAL_SYSTEM_ZLIB_SHIM_H
#define JOURNAL_SYSTEM_ZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro, which Swift cannot import: the function it stands for, with the version
// and size it passes.
static inline int journal_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
