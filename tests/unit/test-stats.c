/* test-stats.c - the distributions and tests of hp-stats against reference values
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Every expected value below was computed once with an independent
 * implementation and stored: the incomplete beta and t distribution with
 * mpmath 1.3 at 30 digits (betainc(a, b, 0, x, regularized=True); the t
 * CDF as 1 - I_{df/(df+t²)}(df/2, 1/2)/2 and its quantile by findroot),
 * agreeing with R's pt()/qt() where R's values are well known
 * (pt(2, 5) = 0.94903026, qt(0.975, 4) = 2.7764451, qt(0.975, 10) =
 * 2.2281389); the Benjamini–Hochberg q-values as R's p.adjust(p, "BH").
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <math.h>

#include "analysis/hp-stats.h"

#define assert_close(actual, expected, tolerance)                               \
  G_STMT_START {                                                                \
    double a_ = (actual), e_ = (expected);                                      \
    if (!(fabs (a_ - e_) <= (tolerance) * MAX (1.0, fabs (e_))))                \
      g_error ("%s = %.17g, expected %.17g (± %g)", #actual, a_, e_, (double) (tolerance)); \
  } G_STMT_END

static void
test_incomplete_beta (void)
{
  static const struct { double a, b, x, expected; } cases[] = {
    { 2, 3, 0.3, 0.3483 },                    /* a polynomial: exact */
    { 0.5, 0.5, 0.2, 0.29516723530086656 },   /* (2/π) asin √x */
    { 5, 2.5, 0.9, 0.94466618139149019 },
    { 10, 10, 0.4, 0.18609202141541177 },
    { 1.5, 0.5, 0.999, 0.9597433418849682 },
    { 30, 0.5, 0.95, 0.080629426906430629 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_close (hp_stats_incomplete_beta (cases[i].a, cases[i].b, cases[i].x), cases[i].expected, 1e-12);
  assert_close (hp_stats_incomplete_beta (3, 4, 0), 0, 0);
  assert_close (hp_stats_incomplete_beta (3, 4, 1), 1, 0);
  assert_close (hp_stats_incomplete_beta (7, 7, 0.5), 0.5, 1e-14);
}

static void
test_t_cdf (void)
{
  static const struct { double t, df, expected; } cases[] = {
    { 2.0, 5, 0.94903026058507082 },
    { -1.5, 3, 0.11529193262241153 },
    { 0.1, 1, 0.53172551743055357 },
    { 2.5, 7.5, 0.98058987086318722 },        /* fractional df, as Welch gives */
    { 3.3, 12.34, 0.99693746977572818 },
    { -4.0, 2.5, 0.019506487920659123 },
    { 1.0, 200, 0.84074057604512667 },
    { 6.0, 4, 0.99805873147651974 },
    { 0, 3, 0.5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_close (hp_stats_t_cdf (cases[i].t, cases[i].df), cases[i].expected, 1e-12);
  /* the normal, for infinite degrees of freedom */
  assert_close (hp_stats_t_cdf (1.96, INFINITY), 0.97500210485177957, 1e-14);
  assert_close (hp_stats_normal_cdf (1.96), 0.97500210485177957, 1e-14);
  assert_close (hp_stats_t_cdf (INFINITY, 5), 1, 0);
}

static void
test_t_quantile (void)
{
  static const struct { double p, df, expected; } cases[] = {
    { 0.975, 4, 2.7764451051977935 },
    { 0.975, 10, 2.2281388519862742 },
    { 0.975, 1, 12.706204736174693 },
    { 0.975, 30, 2.0422724563012379 },
    { 0.95, 5, 2.0150483733330235 },
    { 0.8, 7.3, 0.89367135718022714 },
    { 0.999, 3, 10.214531852407383 },
    { 0.025, 8.5, -2.2826048933924526 },
    { 0.975, 2.2, 3.9487207497127231 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_close (hp_stats_t_quantile (cases[i].p, cases[i].df), cases[i].expected, 1e-10);
  assert_close (hp_stats_normal_quantile (0.975), 1.9599639845400542, 1e-13);
  assert_close (hp_stats_normal_quantile (1e-10), -6.3613409024040562, 1e-12);
  assert_close (hp_stats_t_quantile (0.975, INFINITY), 1.9599639845400542, 1e-13);
  assert_close (hp_stats_t_quantile (0.5, 6), 0, 0);
  /* the quantile inverts the CDF */
  for (double df = 1.5; df < 100; df *= 1.7)
    for (double p = 0.001; p < 1; p += 0.0999)
      assert_close (hp_stats_t_cdf (hp_stats_t_quantile (p, df), df), p, 1e-12);
}

static void
test_bh (void)
{
  /* p.adjust(c(0.01, 0.04, 0.03, 0.2), "BH") */
  const double p1[] = { 0.01, 0.04, 0.03, 0.2 };
  const double q1[] = { 0.04, 0.053333333333333337, 0.053333333333333337, 0.2 };
  /* p.adjust(c(0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205), "BH") */
  const double p2[] = { 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205 };
  const double q2[] = { 0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.084571428571428575, 0.205 };
  /* NAN is left out of the family: the others as p.adjust(c(0.02, 0.5), "BH") */
  const double p3[] = { 0.02, NAN, 0.5 };
  const double q3[] = { 0.04, NAN, 0.5 };
  double q[8];

  hp_stats_bh_adjust (p1, q, G_N_ELEMENTS (p1));
  for (guint i = 0; i < G_N_ELEMENTS (p1); i++)
    assert_close (q[i], q1[i], 1e-15);
  hp_stats_bh_adjust (p2, q, G_N_ELEMENTS (p2));
  for (guint i = 0; i < G_N_ELEMENTS (p2); i++)
    assert_close (q[i], q2[i], 1e-15);
  hp_stats_bh_adjust (p3, q, G_N_ELEMENTS (p3));
  assert_close (q[0], q3[0], 1e-15);
  g_assert_true (isnan (q[1]));
  assert_close (q[2], q3[2], 1e-15);
}

/* Welch's test on two samples of five, recomputed in mpmath at 30 digits
 * from the definitions (means, unbiased variances, Welch–Satterthwaite
 * degrees of freedom, 2 P(T < -|t|), the 0.975 quantile). */
static void
test_welch (void)
{
  const double base[] = { 10.1, 9.8, 10.4, 10.0, 9.9 };
  const double new_values[] = { 11.0, 10.6, 11.3, 10.9, 10.7 };
  double mb, vb, mn, vn, df;
  HpStatsTest t;

  hp_stats_mean_var (base, 5, &mb, &vb);
  hp_stats_mean_var (new_values, 5, &mn, &vn);
  assert_close (mb, 10.04, 1e-14);
  assert_close (vb, 0.053, 1e-13);
  assert_close (mn, 10.9, 1e-14);
  assert_close (vn, 0.075, 1e-13);
  df = hp_stats_welch_df (vb / 5, 5, vn / 5, 5);
  assert_close (df, 7.7704529286222433, 1e-12);
  hp_stats_test_means (mb, vb / 5, mn, vn / 5, df, 0.05, 0.8, &t);
  assert_close (t.diff, 0.86, 1e-13);
  assert_close (t.diff / t.se, 5.375, 1e-12);
  assert_close (t.p, 0.00073357731564120378, 1e-10);
  assert_close (t.diff_low, 0.48913350065937929, 1e-10);
  assert_close (t.diff_high, 1.2308664993406207, 1e-10);
  /* Fieller's interval of the ratio excludes 1 as the difference's excludes 0 */
  g_assert_cmpfloat (t.ratio_low, >, 0);
  g_assert_cmpfloat (t.ratio_low, <, 0.086);
  g_assert_cmpfloat (t.ratio_high, >, 0.086);

  /* a small new cost with a large spread: Fieller's set reaches below a
   * ratio of 0 ((1 - 44.9) / 94.7 = -136.9 %), which no cost can have; it
   * stops at -100 % */
  hp_stats_test_means (10, 1, 1, 4, 8, 0.05, 0.8, &t);
  assert_close (t.ratio_low, -1, 0);
  g_assert_cmpfloat (t.ratio_high, >, -0.5);

  /* equal samples: nothing changed, and nothing can be said to */
  hp_stats_test_means (5, 0, 5, 0, INFINITY, 0.05, 0.8, &t);
  assert_close (t.p, 1, 0);
  assert_close (t.ratio_low, 0, 1e-15);
  assert_close (t.ratio_high, 0, 1e-15);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/incomplete-beta", test_incomplete_beta);
  g_test_add_func ("/stats/t-cdf", test_t_cdf);
  g_test_add_func ("/stats/t-quantile", test_t_quantile);
  g_test_add_func ("/stats/benjamini-hochberg", test_bh);
  g_test_add_func ("/stats/welch", test_welch);
  return g_test_run ();
}
