/* test_crc32.c — tsql_crc32 (core/util/crc32.c) equals zlib's crc32 for every length
 * 0..300, some long buffers, every alignment and chained calls. */
#include <stdlib.h>
#include <zlib.h>

#include "util/crc32.h"
#include "check.h"

int main(void)
{
    enum { N = 1 << 20 };
    unsigned char *buf = malloc(N + 64);
    if (!buf) return 1;
    unsigned x = 2463534242u;
    for (size_t i = 0; i < N + 64; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        buf[i] = (unsigned char)x;
    }
    int bad = 0;
    for (size_t len = 0; len <= 300; len++)
        for (size_t off = 0; off < 16; off++)
            if (tsql_crc32(0, buf + off, len) != crc32(0, buf + off, (uInt)len)) bad++;
    CHECK_EQ(bad, 0);
    const size_t longs[] = {1023, 4096, 65536 + 7, N};
    for (size_t i = 0; i < 4; i++)
        CHECK_EQ(tsql_crc32(0, buf + 3, longs[i]), crc32(0, buf + 3, (uInt)longs[i]));
    /* chained, as the inflater calls it chunk by chunk */
    uint32_t c = 0;
    size_t at = 0, step = 1;
    while (at < N) {
        size_t n = at + step > N ? N - at : step;
        c = tsql_crc32(c, buf + at, n);
        at += n;
        step = step * 3 + 1;
    }
    CHECK_EQ(c, crc32(0, buf, N));
    CHECK_EQ(tsql_crc32(0, (const unsigned char *)"123456789", 9), 0xCBF43926u);
    free(buf);
    return check_report("test_crc32");
}
