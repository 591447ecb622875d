/*
 * check.h — the assertions every C unit test uses. Each check counts a pass or prints
 * file:line with what it got and what it wanted; check_report() prints the totals and
 * gives main()'s exit status.
 */
#ifndef TSQL_CHECK_H
#define TSQL_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_pass_, check_fail_;

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (cond) check_pass_++;                                                          \
        else {                                                                            \
            check_fail_++;                                                                \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);      \
        }                                                                                 \
    } while (0)

/* integer equality */
#define CHECK_EQ(got, want)                                                               \
    do {                                                                                  \
        long long g_ = (long long)(got), w_ = (long long)(want);                          \
        if (g_ == w_) check_pass_++;                                                      \
        else {                                                                            \
            check_fail_++;                                                                \
            fprintf(stderr, "%s:%d: %s: got %lld, want %lld\n", __FILE__, __LINE__, #got, \
                    g_, w_);                                                              \
        }                                                                                 \
    } while (0)

/* string equality (NULL equals only NULL) */
#define CHECK_STR(got, want)                                                              \
    do {                                                                                  \
        const char *g_ = (got), *w_ = (want);                                             \
        if ((!g_ && !w_) || (g_ && w_ && strcmp(g_, w_) == 0)) check_pass_++;             \
        else {                                                                            \
            check_fail_++;                                                                \
            fprintf(stderr, "%s:%d: %s: got \"%s\", want \"%s\"\n", __FILE__, __LINE__,   \
                    #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");                        \
        }                                                                                 \
    } while (0)

/* substring */
#define CHECK_HAS(got, sub)                                                               \
    do {                                                                                  \
        const char *g_ = (got);                                                           \
        if (g_ && strstr(g_, (sub))) check_pass_++;                                       \
        else {                                                                            \
            check_fail_++;                                                                \
            fprintf(stderr, "%s:%d: %s: got \"%s\", want it to contain \"%s\"\n",         \
                    __FILE__, __LINE__, #got, g_ ? g_ : "(null)", (sub));                 \
        }                                                                                 \
    } while (0)

/* doubles equal within a relative tolerance (NaN equals NaN) */
#define CHECK_NEAR(got, want, rtol)                                                       \
    do {                                                                                  \
        double g_ = (got), w_ = (want);                                                   \
        int ok_ = (isnan(g_) && isnan(w_)) || g_ == w_ ||                                 \
                  fabs(g_ - w_) <= (rtol) * fabs(w_);                                     \
        if (ok_) check_pass_++;                                                           \
        else {                                                                            \
            check_fail_++;                                                                \
            fprintf(stderr, "%s:%d: %s: got %.17g, want %.17g\n", __FILE__, __LINE__,     \
                    #got, g_, w_);                                                        \
        }                                                                                 \
    } while (0)

/* prints "<name>: N passed, M failed"; returns the exit status for main() */
static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_pass_, check_fail_);
    return check_fail_ ? 1 : 0;
}

#endif
