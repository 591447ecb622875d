/*
 * test_source.c — unit test for core/input/source.c: plain, gzip and zip inputs, their
 * failure modes, and closing a source mid-stream.
 *
 * Build: cc -std=c11 -D_GNU_SOURCE -pthread -Icore tests/unit/test_source.c \
 *           core/input/source.c core/util/error.c -lz
 * Temp files go under $TSQL_TMPDIR (default build/tmp).
 */
#include "input/source.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#define ZLIB_CONST /* next_in is const: the input is read, never written */
#include <zlib.h>

#define MIB (1024u * 1024u)

static int g_pass, g_fail;

/* Counts a boolean check; prints file:line and the expression when it fails. */
#define CHECK(cond) \
    do { \
        if (cond) g_pass++; \
        else { g_fail++; fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } \
    } while (0)

/* Counts an integer equality check; prints got vs expected when it fails. */
#define CHECK_EQ(got, exp) \
    do { \
        long long g_ = (long long)(got), e_ = (long long)(exp); \
        if (g_ == e_) g_pass++; \
        else { \
            g_fail++; \
            fprintf(stderr, "%s:%d: %s: got %lld, expected %lld\n", __FILE__, __LINE__, #got, g_, e_); \
        } \
    } while (0)

/* Counts a substring check on a message; prints the message when it fails. */
#define CHECK_HAS(str, sub) \
    do { \
        const char *s_ = (str); \
        if (s_ && strstr(s_, (sub))) g_pass++; \
        else { \
            g_fail++; \
            fprintf(stderr, "%s:%d: %s: got \"%s\", expected it to contain \"%s\"\n", __FILE__, \
                    __LINE__, #str, s_ ? s_ : "(null)", (sub)); \
        } \
    } while (0)

/* Counts a byte-for-byte comparison; prints lengths and the first difference. */
#define CHECK_MEM(got, glen, exp, elen) check_mem_(__FILE__, __LINE__, #got, (got), (glen), (exp), (elen))

/* Compares two buffers for CHECK_MEM. Returns nothing; counts the outcome. */
static void check_mem_(const char *file, int line, const char *what, const unsigned char *got,
                       size_t glen, const unsigned char *exp, size_t elen)
{
    size_t n = glen < elen ? glen : elen, i = 0;
    while (i < n && got[i] == exp[i]) i++;
    if (glen == elen && i == n) {
        g_pass++;
        return;
    }
    g_fail++;
    fprintf(stderr, "%s:%d: %s: got %zu bytes, expected %zu; first difference at byte %zu\n", file,
            line, what, glen, elen, i);
}

/* ---- helpers ---- */

static char g_dir[4096];

/* Aborts the test run on a setup failure (not a failure of the code under test).
 * Does not return. */
static void die(const char *what)
{
    fprintf(stderr, "test_source: setup failed: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* Creates dir and its parents. Returns nothing; dies on failure. */
static void mkdir_p(const char *dir)
{
    char tmp[sizeof g_dir];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) die(tmp);
            *p = c;
            if (c == '\0') break;
        }
    }
}

/* Builds a path in the temp directory. Returns a static buffer (one of a few). */
static const char *tmp_path(const char *name)
{
    static char bufs[4][sizeof g_dir + 64];
    static int next;
    char *b = bufs[next++ % 4];
    snprintf(b, sizeof bufs[0], "%s/%s", g_dir, name);
    return b;
}

/* Writes len bytes to a temp file. Returns its path (see tmp_path); dies on failure. */
static const char *write_file(const char *name, const void *data, size_t len)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "wb");
    if (!f) die(path);
    if (len && fwrite(data, 1, len, f) != len) die(path);
    if (fclose(f) != 0) die(path);
    return path;
}

/* Trace-like text: varied but compressible, exactly len bytes. Returns a malloc'd
 * buffer (never NULL for len 0). */
static unsigned char *make_text(size_t len, unsigned seed)
{
    unsigned char *t = malloc(len + 128);
    if (!t) die("malloc");
    size_t n = 0;
    unsigned x = seed * 2654435761u + 1;
    while (n < len) {
        x = x * 1103515245u + 12345u;
        n += (size_t)sprintf((char *)t + n, "{\"name\":\"aten::op_%u\",\"ts\":%u,\"dur\":%u},\n",
                             (x >> 24) % 37, x >> 4, (x >> 12) % 1000);
    }
    return t;
}

/* gzip-compresses data as one member. Returns a malloc'd buffer, length in *out_len. */
static unsigned char *gzip_mem(const unsigned char *data, size_t len, int level, size_t *out_len)
{
    z_stream z = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) die("deflateInit2");
    size_t cap = deflateBound(&z, len) + 64;
    unsigned char *out = malloc(cap);
    if (!out) die("malloc");
    z.next_in = (const unsigned char *)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) die("deflate");
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* Raw-deflates data (zip method 8). Returns a malloc'd buffer, length in *out_len. */
static unsigned char *raw_deflate(const unsigned char *data, size_t len, size_t *out_len)
{
    z_stream z = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
    if (deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) die("deflateInit2");
    size_t cap = deflateBound(&z, len) + 64;
    unsigned char *out = malloc(cap);
    if (!out) die("malloc");
    z.next_in = (const unsigned char *)data;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) die("deflate");
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* A growing byte buffer for building archives. */
struct buf {
    unsigned char *p;
    size_t n, cap;
};

/* Appends len bytes. Returns nothing; dies on allocation failure. */
static void put(struct buf *b, const void *data, size_t len)
{
    if (b->n + len > b->cap) {
        b->cap = (b->n + len) * 2 + 64;
        if (!(b->p = realloc(b->p, b->cap))) die("realloc");
    }
    if (len) memcpy(b->p + b->n, data, len);
    b->n += len;
}

/* Appends little-endian integers. Return nothing. */
static void put16(struct buf *b, unsigned v) { unsigned char c[2] = {(unsigned char)v, (unsigned char)(v >> 8)}; put(b, c, 2); }
static void put32(struct buf *b, uint32_t v) { put16(b, v & 0xffff); put16(b, v >> 16); }
static void put64(struct buf *b, uint64_t v) { put32(b, (uint32_t)v); put32(b, (uint32_t)(v >> 32)); }

struct zip_opts {
    int method;       /* 0 stored, 8 deflate, anything else written as-is */
    int descriptor;   /* flag bit 3: zero CRC/sizes in the local header, descriptor after data */
    int zip64;        /* sizes and offsets through zip64 extra fields and end records */
    int entries;      /* number of (identical) members; 0 means 1 */
    int bad_crc;      /* directory CRC off by one bit */
    int flip_data;    /* flip a byte in the middle of the member data */
    const char *comment;
};

/* Writes a zip archive with the given members of data. Returns a malloc'd archive,
 * length in *out_len. */
static unsigned char *zip_mem(const unsigned char *data, size_t len, struct zip_opts o, size_t *out_len)
{
    struct buf b = {0};
    int entries = o.entries ? o.entries : 1;
    uint32_t crc = (uint32_t)crc32(0L, data, (uInt)len) ^ (o.bad_crc ? 1u : 0u);
    size_t clen = len;
    unsigned char *comp = NULL;
    if (o.method == 8) comp = raw_deflate(data, len, &clen);
    const unsigned char *cdata = comp ? comp : data;
    uint64_t lho[8];
    unsigned need = o.zip64 ? 45 : 20;

    for (int e = 0; e < entries && e < 8; e++) {
        char name[32];
        snprintf(name, sizeof name, "trace%d.json", e);
        lho[e] = b.n;
        put32(&b, 0x04034b50);
        put16(&b, need);
        put16(&b, o.descriptor ? 8 : 0);
        put16(&b, (unsigned)o.method);
        put16(&b, 0);
        put16(&b, 0x21);
        put32(&b, o.descriptor ? 0 : crc);
        put32(&b, o.zip64 ? 0xffffffffu : o.descriptor ? 0 : (uint32_t)clen);
        put32(&b, o.zip64 ? 0xffffffffu : o.descriptor ? 0 : (uint32_t)len);
        put16(&b, (unsigned)strlen(name));
        put16(&b, o.zip64 ? 20 : 0);
        put(&b, name, strlen(name));
        if (o.zip64) {
            put16(&b, 1);
            put16(&b, 16);
            put64(&b, o.descriptor ? 0 : len);
            put64(&b, o.descriptor ? 0 : clen);
        }
        size_t at = b.n;
        put(&b, cdata, clen);
        if (o.flip_data && clen) b.p[at + clen / 2] ^= 0x55;
        if (o.descriptor) {
            put32(&b, 0x08074b50);
            put32(&b, crc);
            if (o.zip64) { put64(&b, clen); put64(&b, len); }
            else { put32(&b, (uint32_t)clen); put32(&b, (uint32_t)len); }
        }
    }
    uint64_t cd_off = b.n;
    for (int e = 0; e < entries && e < 8; e++) {
        char name[32];
        snprintf(name, sizeof name, "trace%d.json", e);
        put32(&b, 0x02014b50);
        put16(&b, need);
        put16(&b, need);
        put16(&b, o.descriptor ? 8 : 0);
        put16(&b, (unsigned)o.method);
        put16(&b, 0);
        put16(&b, 0x21);
        put32(&b, crc);
        put32(&b, o.zip64 ? 0xffffffffu : (uint32_t)clen);
        put32(&b, o.zip64 ? 0xffffffffu : (uint32_t)len);
        put16(&b, (unsigned)strlen(name));
        put16(&b, o.zip64 ? 28 : 0);
        put16(&b, 0);
        put16(&b, 0);
        put16(&b, 0);
        put32(&b, 0);
        put32(&b, o.zip64 ? 0xffffffffu : (uint32_t)lho[e]);
        put(&b, name, strlen(name));
        if (o.zip64) {
            put16(&b, 1);
            put16(&b, 24);
            put64(&b, len);
            put64(&b, clen);
            put64(&b, lho[e]);
        }
    }
    uint64_t cd_size = b.n - cd_off;
    if (o.zip64) {
        uint64_t z64 = b.n;
        put32(&b, 0x06064b50);
        put64(&b, 44);
        put16(&b, 45);
        put16(&b, 45);
        put32(&b, 0);
        put32(&b, 0);
        put64(&b, (uint64_t)entries);
        put64(&b, (uint64_t)entries);
        put64(&b, cd_size);
        put64(&b, cd_off);
        put32(&b, 0x07064b50);
        put32(&b, 0);
        put64(&b, z64);
        put32(&b, 1);
    }
    const char *comment = o.comment ? o.comment : "";
    put32(&b, 0x06054b50);
    put16(&b, 0);
    put16(&b, 0);
    put16(&b, o.zip64 ? 0xffff : (unsigned)entries);
    put16(&b, o.zip64 ? 0xffff : (unsigned)entries);
    put32(&b, o.zip64 ? 0xffffffffu : (uint32_t)cd_size);
    put32(&b, o.zip64 ? 0xffffffffu : (uint32_t)cd_off);
    put16(&b, (unsigned)strlen(comment));
    put(&b, comment, strlen(comment));
    free(comp);
    *out_len = b.n;
    return b.p;
}

/* Everything one pass over a source produced. */
struct drained {
    int rc;               /* last tsql_source_next result, or -2 when open failed */
    unsigned char *data;  /* concatenated chunks (malloc'd) */
    size_t len;
    int chunks;
    int kind;
    int64_t file_bytes;
    int64_t offset;       /* tsql_source_offset at the end */
    int offsets_ok;       /* offset tracked the chunks and every chunk had len > 0 */
    tsql_error err;       /* from open or the failing next */
    int again_rc;         /* one more next after the end */
    tsql_error again_err; /* ... and the error it reported */
};

/* Opens path and reads it to the end or the first error. Returns the record;
 * free .data with free(). */
static struct drained drain(const char *path)
{
    struct drained d = {.rc = -2, .offsets_ok = 1, .again_rc = -3};
    tsql_source *src = tsql_source_open(path, &d.err);
    if (!src) return d;
    d.kind = tsql_source_kind(src);
    d.file_bytes = tsql_source_file_bytes(src);
    struct buf b = {0};
    const char *p;
    size_t n;
    while ((d.rc = tsql_source_next(src, &p, &n, &d.err)) == 1) {
        if (n == 0) d.offsets_ok = 0;
        put(&b, p, n);
        d.chunks++;
        if (tsql_source_offset(src) != (int64_t)b.n) d.offsets_ok = 0;
    }
    d.offset = tsql_source_offset(src);
    d.again_rc = tsql_source_next(src, &p, &n, &d.again_err);
    tsql_source_close(src);
    d.data = b.p;
    d.len = b.n;
    return d;
}

/* ---- tests ---- */

/* Plain files of awkward sizes round-trip exactly. Returns nothing. */
static void test_plain(void)
{
    const size_t sizes[] = {0, 1, 4 * MIB - 1, 4 * MIB, 4 * MIB + 1, 13 * MIB};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t len = sizes[i];
        unsigned char *t = make_text(len, (unsigned)i);
        const char *path = write_file("plain.json", t, len);
        struct drained d = drain(path);
        CHECK_EQ(d.rc, 0);
        CHECK_EQ(d.kind, TSQL_SOURCE_PLAIN);
        CHECK_EQ(d.file_bytes, len);
        CHECK_EQ(d.offset, len);
        CHECK(d.offsets_ok);
        CHECK_MEM(d.data, d.len, t, len);
        CHECK_EQ(d.again_rc, 0);
        if (len == 0) CHECK_EQ(d.chunks, 0);
        free(d.data);
        free(t);
    }
    /* Text that starts like a magic number but is not one stays plain. */
    const char *fake[] = {"\x1f", "PK\x03", "PK\x05\x06 not a zip", "\x1f\x8a"};
    for (size_t i = 0; i < sizeof fake / sizeof fake[0]; i++) {
        const char *path = write_file("fake.json", fake[i], strlen(fake[i]));
        struct drained d = drain(path);
        CHECK_EQ(d.rc, 0);
        CHECK_EQ(d.kind, TSQL_SOURCE_PLAIN);
        CHECK_MEM(d.data, d.len, (const unsigned char *)fake[i], strlen(fake[i]));
        free(d.data);
    }
}

/* gzip: one member, several members, empty members, trailing garbage. Returns nothing. */
static void test_gzip(void)
{
    size_t alen = 13 * MIB, blen = 5 * MIB + 7;
    unsigned char *a = make_text(alen, 11), *b = make_text(blen, 12);
    size_t ga_len, gb_len, ge_len;
    unsigned char *ga = gzip_mem(a, alen, 6, &ga_len);
    unsigned char *gb = gzip_mem(b, blen, 1, &gb_len);
    unsigned char *ge = gzip_mem(a, 0, 6, &ge_len);

    struct drained d = drain(write_file("a.json.gz", ga, ga_len));
    CHECK_EQ(d.rc, 0);
    CHECK_EQ(d.kind, TSQL_SOURCE_GZIP);
    CHECK_EQ(d.file_bytes, ga_len);
    CHECK_EQ(d.offset, alen);
    CHECK(d.offsets_ok);
    CHECK_MEM(d.data, d.len, a, alen);
    CHECK(d.chunks >= 4);
    CHECK_EQ(d.again_rc, 0);
    free(d.data);

    /* An empty member alone: a valid stream with no text. */
    d = drain(write_file("empty.json.gz", ge, ge_len));
    CHECK_EQ(d.rc, 0);
    CHECK_EQ(d.kind, TSQL_SOURCE_GZIP);
    CHECK_EQ(d.chunks, 0);
    free(d.data);

    /* Members a, empty, b: the text is a then b. */
    struct buf m = {0};
    put(&m, ga, ga_len);
    put(&m, ge, ge_len);
    put(&m, gb, gb_len);
    d = drain(write_file("multi.json.gz", m.p, m.n));
    unsigned char *ab = malloc(alen + blen);
    if (!ab) die("malloc");
    memcpy(ab, a, alen);
    memcpy(ab + alen, b, blen);
    CHECK_EQ(d.rc, 0);
    CHECK_EQ(d.offset, alen + blen);
    CHECK(d.offsets_ok);
    CHECK_MEM(d.data, d.len, ab, alen + blen);
    free(d.data);

    /* Trailing garbage (several shapes) after complete members. */
    const char *junk[] = {"xyz", "\0", "\x1f", "\x1f\x8b"};
    const size_t junk_len[] = {3, 1, 1, 2};
    for (size_t i = 0; i < 4; i++) {
        struct buf g = {0};
        put(&g, ga, ga_len);
        put(&g, junk[i], junk_len[i]);
        d = drain(write_file("junk.json.gz", g.p, g.n));
        CHECK_EQ(d.rc, -1);
        CHECK_EQ(d.err.code, TSQL_EFORMAT);
        CHECK_EQ(d.err.compressed, 1);
        CHECK_EQ(d.err.offset, alen);
        CHECK_MEM(d.data, d.len, a, alen);
        if (i < 3) CHECK_HAS(d.err.msg, "trailing");
        else CHECK_HAS(d.err.msg, "truncated"); /* a member header cut short */
        CHECK_EQ(d.again_rc, -1);
        CHECK_EQ(d.again_err.code, TSQL_EFORMAT);
        CHECK_EQ(d.again_err.offset, alen);
        free(d.data);
        free(g.p);
    }
    free(m.p);
    free(ab);
    free(a);
    free(b);
    free(ga);
    free(gb);
    free(ge);
}

/* gzip cut short or with a flipped byte fails with EFORMAT at a sensible offset, after
 * handing out the good text before it. Returns nothing. */
static void test_gzip_damaged(void)
{
    size_t len = 13 * MIB;
    unsigned char *t = make_text(len, 21);
    size_t glen;
    unsigned char *g = gzip_mem(t, len, 6, &glen);

    const size_t cuts[] = {3, 10, 11, 1000, glen / 2, glen - 9, glen - 8, glen - 4, glen - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        struct drained d = drain(write_file("cut.json.gz", g, cuts[i]));
        CHECK_EQ(d.rc, -1);
        CHECK_EQ(d.err.code, TSQL_EFORMAT);
        CHECK_EQ(d.err.compressed, 1);
        CHECK_HAS(d.err.msg, "gzip stream is truncated");
        CHECK_EQ(d.err.offset, d.offset);   /* everything before the cut was handed out */
        CHECK(d.err.offset <= (int64_t)len);
        CHECK_MEM(d.data, d.len, t, d.len < len ? d.len : len); /* and it is the right text */
        if (cuts[i] <= 11) CHECK_EQ(d.err.offset, 0);
        if (cuts[i] == glen / 2) CHECK(d.err.offset > (int64_t)len / 4 && d.err.offset < (int64_t)len);
        if (cuts[i] >= glen - 8) CHECK_EQ(d.err.offset, len); /* only the trailer is missing */
        CHECK_EQ(d.again_rc, -1);
        free(d.data);
    }

    /* A flipped byte in the deflate data: an inflate error or a CRC mismatch. */
    const size_t flips[] = {100, glen / 3, glen - 12};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        unsigned char *c = malloc(glen);
        if (!c) die("malloc");
        memcpy(c, g, glen);
        c[flips[i]] ^= 0x10;
        struct drained d = drain(write_file("flip.json.gz", c, glen));
        CHECK_EQ(d.rc, -1);
        CHECK_EQ(d.err.code, TSQL_EFORMAT);
        CHECK_EQ(d.err.compressed, 1);
        CHECK_HAS(d.err.msg, "gzip stream is corrupt (");
        CHECK_EQ(d.err.offset, d.offset); /* may pass len: damaged codes can expand */
        free(d.data);
        free(c);
    }

    /* Damage in the trailer: CRC and length checks are done by zlib. */
    const size_t trailer[] = {glen - 6, glen - 2};
    const char *why[] = {"incorrect data check", "incorrect length check"};
    for (size_t i = 0; i < 2; i++) {
        unsigned char *c = malloc(glen);
        if (!c) die("malloc");
        memcpy(c, g, glen);
        c[trailer[i]] ^= 0x01;
        struct drained d = drain(write_file("trailer.json.gz", c, glen));
        CHECK_EQ(d.rc, -1);
        CHECK_EQ(d.err.code, TSQL_EFORMAT);
        CHECK_HAS(d.err.msg, why[i]);
        CHECK_EQ(d.err.offset, len);
        CHECK_MEM(d.data, d.len, t, len);
        free(d.data);
        free(c);
    }
    free(g);
    free(t);
}

/* What zlib alone makes of a gzip file, the way the zlib producer reads it: member
 * after member, then nothing or another member. Returns NULL (clean) or the message
 * tail the source must report; *out / *out_len get the text zlib inflated (malloc'd). */
static const char *zlib_reference(const unsigned char *g, size_t glen, unsigned char **out,
                                  size_t *out_len)
{
    static char why[128];
    struct buf b = {0};
    unsigned char tmp[65536];
    size_t at = 0;
    const char *res = NULL;
    for (int member = 0;; member++) {
        if (member > 0 && at == glen) break;
        if (member > 0 && (glen - at < 2 || g[at] != 0x1f || g[at + 1] != 0x8b)) {
            res = "gzip stream has trailing data that is not a gzip member";
            break;
        }
        z_stream z = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
        if (inflateInit2(&z, 15 + 16) != Z_OK) die("inflateInit2");
        z.next_in = (const unsigned char *)g + at;
        z.avail_in = (uInt)(glen - at);
        int rc;
        do {
            z.next_out = tmp;
            z.avail_out = sizeof tmp;
            rc = inflate(&z, Z_NO_FLUSH);
            put(&b, tmp, sizeof tmp - z.avail_out);
        } while (rc == Z_OK && (z.avail_in > 0 || z.avail_out == 0));
        at = glen - z.avail_in;
        if (rc == Z_OK || rc == Z_BUF_ERROR) res = "gzip stream is truncated";
        else if (rc != Z_STREAM_END) {
            snprintf(why, sizeof why, "gzip stream is corrupt (%s)", z.msg ? z.msg : "?");
            res = why;
        }
        inflateEnd(&z);
        if (res) break;
    }
    *out = b.p;
    *out_len = b.n;
    return res;
}

/* Damaged gzip files (flipped bytes anywhere past the magic, cuts, damage in a second
 * member) give exactly zlib's outcome: the same message, the same byte offset and the
 * same text handed out before it, whichever inflater the build uses. Returns nothing. */
static void test_gzip_like_zlib(void)
{
    size_t len = 9 * MIB + 333;
    unsigned char *t = make_text(len, 31);
    size_t glen, g2len;
    unsigned char *g = gzip_mem(t, len, 6, &glen);
    unsigned char *g2 = gzip_mem(t, MIB, 1, &g2len);
    size_t cap = glen + g2len;
    unsigned char *c = malloc(cap);
    if (!c) die("malloc");
    unsigned x = 12345;
    int same = 0, cases = 0;
    for (int i = 0; i < 100; i++) {
        size_t n;
        x = x * 1103515245u + 12345u;
        int kind = i % 4;                /* 0-1 flips, 2 a cut, 3 damage in a second member */
        if (kind == 3) {
            memcpy(c, g2, g2len);
            memcpy(c + g2len, g, glen);
            n = g2len + glen;
        } else {
            memcpy(c, g, glen);
            n = glen;
        }
        size_t first = kind == 3 ? g2len : 2;   /* never the first magic: it stays gzip */
        size_t pos = first + (x >> 3) % (n - first);
        if (i < 8) pos = n - 1 - (size_t)i;      /* the trailers */
        if (kind == 2) n = pos;
        else c[pos] ^= (unsigned char)(1u << (x % 8));
        const char *path = write_file("flip.json.gz", c, n);
        unsigned char *ref;
        size_t ref_len;
        const char *want = zlib_reference(c, n, &ref, &ref_len);
        struct drained d = drain(path);
        cases++;
        int ok = want ? d.rc == -1 && d.err.code == TSQL_EFORMAT && strstr(d.err.msg, want) &&
                            d.err.offset == (int64_t)ref_len
                      : d.rc == 0;
        ok = ok && d.len == ref_len && memcmp(d.data, ref, ref_len) == 0;
        if (!ok)
            fprintf(stderr, "gzip case %d (byte %zu of %zu): zlib says %s at %zu; got rc %d \"%s\" at %lld, %zu bytes\n",
                    i, pos, n, want ? want : "ok", ref_len, d.rc, d.err.msg, (long long)d.err.offset, d.len);
        same += ok;
        free(ref);
        free(d.data);
    }
    CHECK_EQ(same, cases);
    free(c);
    free(g);
    free(g2);
    free(t);
}

/* Zip archives: stored and deflated, with and without data descriptors, zip64,
 * a comment; wrong entry counts and damage are rejected. Returns nothing. */
static void test_zip(void)
{
    size_t len = 9 * MIB + 3;
    unsigned char *t = make_text(len, 31);
    const struct zip_opts good[] = {
        {.method = 8},
        {.method = 0},
        {.method = 8, .descriptor = 1},
        {.method = 0, .descriptor = 1},
        {.method = 8, .zip64 = 1},
        {.method = 0, .zip64 = 1, .descriptor = 1},
        {.method = 8, .comment = "made by test_source"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t zlen;
        unsigned char *z = zip_mem(t, len, good[i], &zlen);
        struct drained d = drain(write_file("one.zip", z, zlen));
        if (d.rc != 0) fprintf(stderr, "  zip case %zu: %s\n", i, d.err.msg);
        CHECK_EQ(d.rc, 0);
        CHECK_EQ(d.kind, TSQL_SOURCE_ZIP);
        CHECK_EQ(d.file_bytes, zlen);
        CHECK_EQ(d.offset, len);
        CHECK(d.offsets_ok);
        CHECK_MEM(d.data, d.len, t, len);
        CHECK_EQ(d.again_rc, 0);
        free(d.data);
        free(z);
    }

    /* An empty member. */
    size_t zlen;
    unsigned char *z = zip_mem(t, 0, (struct zip_opts){.method = 8}, &zlen);
    struct drained d = drain(write_file("empty.zip", z, zlen));
    CHECK_EQ(d.rc, 0);
    CHECK_EQ(d.chunks, 0);
    free(d.data);
    free(z);

    /* Two entries (plain and zip64 end records) are refused at open. */
    for (int z64 = 0; z64 <= 1; z64++) {
        z = zip_mem(t, 1000, (struct zip_opts){.method = 8, .entries = 2, .zip64 = z64}, &zlen);
        d = drain(write_file("two.zip", z, zlen));
        CHECK_EQ(d.rc, -2);
        CHECK_EQ(d.err.code, TSQL_EFORMAT);
        CHECK_HAS(d.err.msg, "zip archive has 2 entries; expected one trace");
        CHECK_EQ(d.err.offset, (long long)zlen - 22); /* at the end of central directory record */
        free(z);
    }

    /* Unsupported compression method. */
    z = zip_mem(t, 1000, (struct zip_opts){.method = 12}, &zlen);
    d = drain(write_file("bzip2.zip", z, zlen));
    CHECK_EQ(d.rc, -2);
    CHECK_EQ(d.err.code, TSQL_EFORMAT);
    CHECK_HAS(d.err.msg, "compression method 12");
    free(z);

    /* Cut anywhere, the end record is gone: refused at open. */
    z = zip_mem(t, len, (struct zip_opts){.method = 8}, &zlen);
    d = drain(write_file("cut.zip", z, zlen / 2));
    CHECK_EQ(d.rc, -2);
    CHECK_EQ(d.err.code, TSQL_EFORMAT);
    CHECK_HAS(d.err.msg, "end of central directory");
    free(z);

    /* Wrong CRC: all text is handed out, then the check fails at the end. */
    for (int method = 0; method <= 8; method += 8) {
        z = zip_mem(t, len, (struct zip_opts){.method = method, .bad_crc = 1}, &zlen);
        d = drain(write_file("crc.zip", z, zlen));
        CHECK_EQ(d.rc, -1);
        CHECK_EQ(d.err.code, TSQL_EFORMAT);
        CHECK_EQ(d.err.compressed, 1);
        CHECK_HAS(d.err.msg, "CRC mismatch");
        CHECK_EQ(d.err.offset, len);
        CHECK_MEM(d.data, d.len, t, len);
        CHECK_EQ(d.again_rc, -1);
        free(d.data);
        free(z);
    }

    /* A flipped byte in deflate data: inflate error or CRC mismatch, mid-stream. */
    z = zip_mem(t, len, (struct zip_opts){.method = 8, .flip_data = 1}, &zlen);
    d = drain(write_file("flip.zip", z, zlen));
    CHECK_EQ(d.rc, -1);
    CHECK_EQ(d.err.code, TSQL_EFORMAT);
    CHECK_EQ(d.err.compressed, 1);
    CHECK(strstr(d.err.msg, "zip member is corrupt (") || strstr(d.err.msg, "CRC mismatch") ||
          strstr(d.err.msg, "directory says"));
    CHECK_EQ(d.err.offset, d.offset);
    free(d.data);
    free(z);
    free(t);
}

/* Files that cannot be read are TSQL_EIO with the system's reason. Returns nothing. */
static void test_io_errors(void)
{
    struct drained d = drain(tmp_path("does-not-exist.json"));
    CHECK_EQ(d.rc, -2);
    CHECK_EQ(d.err.code, TSQL_EIO);
    CHECK_HAS(d.err.msg, strerror(ENOENT));
    CHECK_EQ(d.err.offset, -1);

    d = drain(g_dir); /* a directory opens but cannot be read */
    CHECK_EQ(d.rc, -2);
    CHECK_EQ(d.err.code, TSQL_EIO);
    CHECK_HAS(d.err.msg, strerror(EISDIR));

    tsql_error err = {0};
    CHECK(tsql_source_open(NULL, &err) == NULL);
    CHECK_EQ(err.code, TSQL_EIO);
}

/* What the FIFO writer thread writes, and whether it managed to. */
struct fifo_job {
    const char *path;
    const unsigned char *data;
    size_t len;
    int copies;
    int ok;
};

/* Thread body: writes the job's data copies times into the FIFO. Returns NULL. */
static void *fifo_writer(void *arg)
{
    struct fifo_job *job = arg;
    FILE *f = fopen(job->path, "wb");
    job->ok = f != NULL;
    for (int i = 0; f && i < job->copies; i++)
        if (fwrite(job->data, 1, job->len, f) != job->len) job->ok = 0;
    if (f && fclose(f) != 0) job->ok = 0;
    return NULL;
}

/* gzip and plain text through a FIFO: the sniffed bytes are not lost.
 * Returns nothing. */
static void test_fifo(void)
{
    size_t alen = 2 * MIB + 5, ga_len;
    unsigned char *a = make_text(alen, 41);
    unsigned char *ga = gzip_mem(a, alen, 6, &ga_len);
    const char *path = tmp_path("pipe.json");
    for (int gz = 0; gz <= 1; gz++) {
        unlink(path);
        if (mkfifo(path, 0600) != 0) die("mkfifo");
        struct fifo_job job = {.path = path, .data = gz ? ga : a, .len = gz ? ga_len : alen, .copies = 2};
        pthread_t th;
        if (pthread_create(&th, NULL, fifo_writer, &job) != 0) die("pthread_create");
        struct drained d = drain(path);
        pthread_join(th, NULL);
        CHECK(job.ok);
        CHECK_EQ(d.rc, 0);
        CHECK_EQ(d.kind, gz ? TSQL_SOURCE_GZIP : TSQL_SOURCE_PLAIN);
        CHECK_EQ(d.offset, 2 * alen);
        CHECK(d.len == 2 * alen && memcmp(d.data, a, alen) == 0 && memcmp(d.data + alen, a, alen) == 0);
        free(d.data);
    }
    unlink(path);
    free(ga);
    free(a);
}

/* Monotonic seconds. Returns the time. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Closing mid-stream (the producer blocked on a full ring, or busy inflating) returns
 * promptly and frees everything. Returns nothing. */
static void test_close_early(void)
{
    size_t len = 40 * MIB, glen;
    unsigned char *t = make_text(len, 51);
    unsigned char *g = gzip_mem(t, len, 1, &glen);
    const char *path = write_file("big.json.gz", g, glen);

    for (int reads = 0; reads <= 2; reads++) {
        tsql_error err = {0};
        tsql_source *src = tsql_source_open(path, &err);
        CHECK(src != NULL);
        if (!src) continue;
        const char *p;
        size_t n;
        for (int i = 0; i < reads; i++) {
            CHECK_EQ(tsql_source_next(src, &p, &n, &err), 1);
            CHECK_EQ(n, 4 * MIB);
            CHECK_EQ(memcmp(p, t + (size_t)i * 4 * MIB, n), 0);
        }
        if (reads == 2) usleep(200 * 1000); /* let the producer fill the ring and block */
        double t0 = now();
        tsql_source_close(src);
        double dt = now() - t0;
        if (dt > 2.0) fprintf(stderr, "  close took %.3f s\n", dt);
        CHECK(dt < 2.0);
        CHECK_EQ(err.code, TSQL_OK);
    }

    /* Close after an error mid-file, as a parser would. */
    const char *cut = write_file("bigcut.json.gz", g, glen / 2);
    tsql_error err = {0};
    tsql_source *src = tsql_source_open(cut, &err);
    CHECK(src != NULL);
    const char *p;
    size_t n;
    while (src && tsql_source_next(src, &p, &n, &err) == 1) {}
    CHECK_EQ(err.code, TSQL_EFORMAT);
    tsql_source_close(src);
    tsql_source_close(NULL);
    free(g);
    free(t);
}

int main(void)
{
    const char *dir = getenv("TSQL_TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s", dir && *dir ? dir : "build/tmp");
    mkdir_p(g_dir);

    test_plain();
    test_gzip();
    test_gzip_damaged();
    test_gzip_like_zlib();
    test_zip();
    test_io_errors();
    test_fifo();
    test_close_early();

    const char *names[] = {"plain.json", "fake.json", "a.json.gz", "empty.json.gz", "multi.json.gz",
                           "junk.json.gz", "cut.json.gz", "flip.json.gz", "trailer.json.gz",
                           "one.zip", "empty.zip", "two.zip", "bzip2.zip", "cut.zip", "crc.zip",
                           "flip.zip", "big.json.gz", "bigcut.json.gz"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(tmp_path(names[i]));

    printf("test_source: %d passed, %d failed\n", g_pass, g_fail);
    return g_fail > 0;
}
