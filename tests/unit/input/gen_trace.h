/* gen_trace.h — a generated Kineto-like trace for the unit tests of the pieced parses
 * (test_parallel.c, test_stream.c): events with every kind of cross-event state, made
 * to straddle any split; bad = 1 adds a syntax error, 2 cuts the file short. */
#ifndef TSQL_TEST_GEN_TRACE_H
#define TSQL_TEST_GEN_TRACE_H

#include <stdint.h>
#include <stdio.h>

/* Writes the generated trace: events straddling any split with cross-event state. */
static void write_generated(const char *path, int nev, int bad)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU A\"}, "
               "{\"id\": 1, \"name\": \"GPU B\"}],\n \"traceEvents\": [\n");
    for (int k = 0; k < nev; k++) {
        int64_t ts = 1000 + 10 * (int64_t)k;
        const char *sep = k + 1 < nev ? "," : "";
        if (bad == 1 && k == nev * 3 / 4) fprintf(f, "  {\"ph\": \"X\",, \"name\": \"oops\"},\n");
        if (bad == 2 && k == nev * 3 / 4) {
            fprintf(f, "  {\"ph\": \"X\", \"name\": \"cut");
            break;
        }
        switch (k % 10) {
        case 0: /* cpu_op with nested args arrays of objects (a false boundary) */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op_%d\", \"pid\": 1, "
                    "\"tid\": 1, \"ts\": %lld, \"dur\": 9, \"args\": {\"External id\": %d, "
                    "\"Ev Idx\": %d, \"list\": [{\"id\": 1}, {\"id\": 2},\n {\"name\": \"x\"}], "
                    "\"Input Dims\": [[1, 2], [3]]}}%s\n",
                    k % 7, (long long)ts, k, k, sep);
            break;
        case 1: /* runtime launch with a huge correlation (icol overflow) */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": 2, \"args\": {\"External id\": "
                    "%d, \"correlation\": %lld}}%s\n",
                    (long long)ts + 1, k - 1, (k % 20 == 1 ? 5000000000LL : 0) + k, sep);
            break;
        case 2: /* its kernel, an ac2g flow pair, old spellings now and then */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"kern_%d\", \"pid\": 0, "
                    "\"tid\": \"stream 7\", \"ts\": %lld, \"dur\": 3, \"args\": {\"correlation\": "
                    "%lld, \"stream\": 7, \"device\": 0}}%s\n",
                    k % 30 == 2 ? "Kernel" : "kernel", k % 5, (long long)ts + 5,
                    (k % 20 == 2 ? 5000000000LL : 0) + k - 1, sep);
            break;
        case 3:
            fprintf(f,
                    "  {\"ph\": \"s\", \"id\": %lld, \"pid\": 1, \"tid\": 1, \"ts\": %lld, "
                    "\"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
                    "  {\"ph\": \"f\", \"id\": %lld, \"pid\": 0, \"tid\": \"stream 7\", \"ts\": "
                    "%lld, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}%s\n",
                    (k % 20 == 3 ? 5000000000LL : 0) + k - 2, (long long)ts - 20,
                    (k % 20 == 3 ? 5000000000LL : 0) + k - 2, (long long)ts - 15, sep);
            break;
        case 4: /* B/E pairs that may straddle the split; escapes; a late new name */
            fprintf(f,
                    "  {\"ph\": \"B\", \"cat\": \"user_annotation\", \"name\": \"sp\\\"an\\u00e9 "
                    "%d\", \"pid\": 1, \"tid\": 2, \"ts\": %lld},\n"
                    "  {\"ph\": \"i\", \"name\": \"late_%d\", \"pid\": 1, \"tid\": 2, \"ts\": "
                    "%lld, \"s\": \"t\"},\n"
                    "  {\"ph\": \"E\", \"pid\": 1, \"tid\": 2, \"ts\": %lld}%s\n",
                    k % 3, (long long)ts, k / 40, (long long)ts + 1, (long long)ts + 4, sep);
            break;
        case 5: /* sub-ns fractions (exact doubles), a string ts, a bad ph (warnings) */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"py_%d\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": %lld.0004, \"dur\": \"1.5\", \"args\": "
                    "{\"Python id\": %d, \"Python parent id\": %d}},\n"
                    "  {\"ph\": \"XX\", \"name\": 7, \"pid\": 1, \"tid\": 3, \"ts\": 1e3, "
                    "\"args\": [1]}%s\n",
                    k % 4, (long long)ts, k, k - 10, sep);
            break;
        case 6: /* counters and metadata events, other keys first */
            fprintf(f,
                    "  {\"name\": \"mem\", \"ph\": \"C\", \"ts\": %lld, \"pid\": 1, \"args\": "
                    "{\"Total Allocated\": %d, \"Addr\": %d}},\n"
                    "  {\"args\": {\"name\": \"thread %d\"}, \"ph\": \"M\", \"name\": "
                    "\"thread_name\", \"pid\": 1, \"tid\": %d}%s\n",
                    (long long)ts, k * 1000, k * 7, k % 3, k % 3, sep);
            break;
        case 7: /* gpu memcpy by correlation only, negative and huge ids */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
                    "\"pid\": 0, \"tid\": 8, \"ts\": %lld, \"dur\": 1, \"args\": {\"correlation\": "
                    "%d, \"Sequence number\": -%d, \"Record function id\": 9007199254740993}}%s\n",
                    (long long)ts, k - 6, k, sep);
            break;
        default: /* async b/e and whitespace of all kinds */
            fprintf(f,
                    "\t{ \"ph\" : \"b\" , \"id\" : \"0x%x\" , \"cat\" : \"async\" , \"name\" : "
                    "\"a\" , \"pid\" : 1 , \"tid\" : 1 , \"ts\" : %lld } ,\r\n"
                    "  {\"ph\": \"e\", \"id\": \"0x%x\", \"cat\": \"async\", \"name\": \"a\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": %lld}%s\n",
                    k, (long long)ts, k, (long long)ts + 3, sep);
        }
    }
    if (bad != 2) fprintf(f, " ],\n \"traceName\": \"gen\", \"distributedInfo\": {\"rank\": 1, "
                             "\"world_size\": 2}, \"list\": [{\"id\": 1}, {\"id\": 2}]}\n");
    fclose(f);
}

#endif
