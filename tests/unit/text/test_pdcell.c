/* test_pdcell.c — core/text/pdcell.c: read_csv's reading of cells, checked against pandas
 * 1.5 / 2.x (the float values are what pandas prints after reading the cell). */
#include "text/pdcell.h"
#include <string.h>
#include "check.h"

static double f(const char *s)
{
    double x = -12345;
    CHECK(tsql_pd_parse_float(s, strlen(s), &x));
    return x;
}

static int not_float(const char *s)
{
    double x;
    return !tsql_pd_parse_float(s, strlen(s), &x);
}

static void test_float(void)
{
    /* not correctly rounded: these come out one ulp off the nearest double */
    CHECK(f("31.905483154296874") == 31.905483154296878);
    CHECK(f("91.43279886779221") == 91.4327988677922);
    /* leading zeros after the point count towards the 17 digits kept */
    CHECK(f("0.006786344981086816") == 0.0067863449810868);
    CHECK(f("0.125") == 0.125);
    CHECK(f("-2.5e-3") == -0.0025);
    CHECK(f(" 7 ") == 7.0);
    CHECK(f("1e308") == 1e308);
    CHECK(f("-Infinity") < -1e308);
    CHECK(f("inf") > 1e308);
    CHECK(not_float("1e309")); /* out of range: the column stays text */
    CHECK(not_float("1e"));
    CHECK(not_float("."));
    CHECK(not_float("-"));
    CHECK(not_float("1,5"));
    CHECK(not_float("12 a"));
}

static void test_kind(void)
{
    CHECK(tsql_pd_cell_kind("", 0) == TSQL_PD_NA);
    CHECK(tsql_pd_cell_kind("NaN", 3) == TSQL_PD_NA);
    CHECK(tsql_pd_cell_kind("None", 4) == TSQL_PD_NA);
    CHECK(tsql_pd_cell_kind("-12", 3) == TSQL_PD_INT);
    CHECK(tsql_pd_cell_kind("12.0", 4) == TSQL_PD_FLOAT);
    CHECK(tsql_pd_cell_kind("1e5", 3) == TSQL_PD_FLOAT);
    CHECK(tsql_pd_cell_kind("True", 4) == TSQL_PD_BOOL);
    CHECK(tsql_pd_cell_kind("tRue", 4) == TSQL_PD_STR);
    CHECK(tsql_pd_cell_kind("99999999999999999999", 20) == TSQL_PD_STR);
    CHECK(tsql_pd_cell_kind("(1, 2)", 6) == TSQL_PD_STR);
    long long v = 0;
    CHECK(tsql_pd_parse_int("-9223372036854775808", 20, &v) && v == (-9223372036854775807LL - 1));
    CHECK(!tsql_pd_parse_int("9223372036854775808", 19, &v));
    CHECK(tsql_pd_parse_bool("false", 5) == 0 && tsql_pd_parse_bool("TRUE", 4) == 1);
    CHECK(tsql_pd_parse_bool("yes", 3) == -1);
}

int main(void)
{
    test_float();
    test_kind();
    return check_report("test_pdcell");
}
