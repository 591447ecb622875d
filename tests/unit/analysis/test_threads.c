/* test_threads.c — core/analysis/threads.c: pid / tid compared as SQL compares the
 * values the events table shows (7 = 7.0, '7' = '\u0037', 7 <> '7'). */
#include <stdio.h>
#include <sys/stat.h>

#include "analysis/threads.h"
#include "check.h"
#include "load/load.h"

int main(void)
{
    const char *path = "build/tmp/test_threads.json";
    mkdir("build", 0777);
    mkdir("build/tmp", 0777);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return check_report("test_threads");
    /* uids 0..5: tids 7, 7.0, "7", "\u0037", 8, and 7.5 (not in the map) */
    fputs("{\"traceEvents\": [\n"
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 7, \"ts\": 1, \"dur\": 1},\n"
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"b\", \"pid\": 1, \"tid\": 7.0, \"ts\": 3, \"dur\": 1},\n"
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"c\", \"pid\": 1, \"tid\": \"7\", \"ts\": 5, \"dur\": 1},\n"
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"d\", \"pid\": 1, \"tid\": \"\\u0037\", \"ts\": 7, \"dur\": 1},\n"
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"e\", \"pid\": 1, \"tid\": 8, \"ts\": 9, \"dur\": 1},\n"
          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"f\", \"pid\": 1, \"tid\": 7.5, \"ts\": 11, \"dur\": 1}\n"
          "]}\n", f);
    fclose(f);
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    CHECK(t != NULL);
    if (!t) return check_report("test_threads");
    static const uint32_t uids[] = {0, 1, 2, 3, 4};
    tsql_threads m;
    CHECK_EQ(tsql_threads_build(t, uids, 5, &m), 0);
    uint64_t k[5];
    for (int i = 0; i < 5; i++) k[i] = tsql_threads_key(&m, t, uids[i]);
    CHECK(k[0] == k[1]); /* 7 = 7.0 */
    CHECK(k[2] == k[3]); /* '7' = '\u0037' */
    CHECK(k[0] != k[2]); /* 7 <> '7' */
    CHECK(k[0] != k[4]);
    uint64_t key = 0;
    CHECK_EQ(tsql_threads_find(&m, t, 1, &key), 0);
    CHECK(key == k[0]);
    CHECK_EQ(tsql_threads_find(&m, t, 5, &key), 1); /* 7.5: on no thread of the map */
    tsql_threads_free(&m);
    /* a map without 7.0 and '\u0037': they are found by value */
    static const uint32_t some[] = {0, 2};
    CHECK_EQ(tsql_threads_build(t, some, 2, &m), 0);
    uint64_t k0 = tsql_threads_key(&m, t, 0), k2 = tsql_threads_key(&m, t, 2);
    CHECK_EQ(tsql_threads_find(&m, t, 1, &key), 0);
    CHECK(key == k0);
    CHECK_EQ(tsql_threads_find(&m, t, 3, &key), 0);
    CHECK(key == k2);
    CHECK_EQ(tsql_threads_find(&m, t, 4, &key), 1);
    tsql_threads_free(&m);
    tsql_trace_free(t);
    remove(path);
    return check_report("test_threads");
}
