/*
 * cjson_baseline.c — the yardstick of `make bench`: a plain per-event cJSON load of a
 * Chrome-trace JSON file, built and run in the same bench run as tracesql so both
 * meet the same machine.
 *
 *   build/bench/cjson_baseline FILE.json   prints: "<events> <seconds>"
 *
 * What it does is the obvious way to load a trace with cJSON without a DOM of the
 * whole file: read the file in 4 MiB blocks, find each element of "traceEvents" by
 * scanning for its closing brace (strings and escapes respected), cJSON_ParseWithLength
 * that element, read the fields a trace table needs (ph, cat, name, pid, tid, ts, dur,
 * args) and free it. One thread, no tree. The time is the whole run (CLOCK_MONOTONIC).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.json\n", argv[0]);
        return 2;
    }
    double t0 = now();
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t cap = 8u << 20, len = 0, pos = 0;
    char *buf = malloc(cap);
    if (!buf) return 1;
    long events = 0;
    double sink = 0;
    int in_events = 0;       /* past "traceEvents": [ */
    int eof = 0;
    for (;;) {
        /* keep the unread tail, top up */
        if (pos > 0) {
            memmove(buf, buf + pos, len - pos);
            len -= pos;
            pos = 0;
        }
        if (!eof) {
            if (cap - len < (4u << 20)) {
                cap *= 2;
                char *nb = realloc(buf, cap);
                if (!nb) return 1;
                buf = nb;
            }
            size_t n = fread(buf + len, 1, cap - len, f);
            len += n;
            if (n == 0) eof = 1;
        }
        if (!in_events) {
            char *k = memmem(buf, len, "\"traceEvents\"", 13);
            char *b = k ? memchr(k, '[', (size_t)(buf + len - k)) : NULL;
            if (!b) {
                if (eof) break;
                continue;
            }
            pos = (size_t)(b + 1 - buf);
            in_events = 1;
        }
        /* every complete element in buf[pos..len) */
        int progressed = 0;
        for (;;) {
            size_t i = pos;
            while (i < len && buf[i] != '{' && buf[i] != ']') i++;
            if (i >= len) break;
            if (buf[i] == ']') {
                eof = 1;
                in_events = 2;
                break;
            }
            int depth = 0, instr = 0;
            size_t j = i;
            for (; j < len; j++) {
                char c = buf[j];
                if (instr) {
                    if (c == '\\') j++;
                    else if (c == '"') instr = 0;
                } else if (c == '"') {
                    instr = 1;
                } else if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    break;
                }
            }
            if (j >= len) break; /* element continues in the next block */
            cJSON *e = cJSON_ParseWithLength(buf + i, j + 1 - i);
            if (!e) {
                fprintf(stderr, "cjson_baseline: bad event at element %ld\n", events);
                return 1;
            }
            const char *keys[] = {"ph", "cat", "name", "pid", "tid", "ts", "dur", "args"};
            for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, keys[k]);
                if (cJSON_IsNumber(v)) sink += v->valuedouble;
                else if (cJSON_IsString(v)) sink += (double)(unsigned char)v->valuestring[0];
            }
            cJSON_Delete(e);
            events++;
            pos = j + 1;
            progressed = 1;
        }
        if (in_events == 2 || (eof && !progressed)) break;
    }
    fclose(f);
    free(buf);
    printf("%ld %.6f\n", events, now() - t0);
    return sink == -1.0; /* keeps the reads */
}
