/* hp-stats.h - the distributions and tests a comparison of captures needs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double hp_stats_incomplete_beta (double a,
                                 double b,
                                 double x);

/* The standard normal distribution: P(Z <= z), and z with P(Z <= z) = p. */
double hp_stats_normal_cdf      (double z);
double hp_stats_normal_quantile (double p);

/* Student's t distribution with @df degrees of freedom (df > 0, not
 * necessarily whole, as Welch's test gives; INFINITY is the normal):
 * P(T <= t), and t with P(T <= t) = p. */
double hp_stats_t_cdf           (double t,
                                 double df);
double hp_stats_t_quantile      (double p,
                                 double df);

/* Benjamini–Hochberg adjusted p-values (q-values) of @p[0..n-1] into
 * @q[0..n-1] (which may be @p). NAN entries are left out of the family and
 * stay NAN. */
void   hp_stats_bh_adjust       (const double *p,
                                 double       *q,
                                 gsize         n);

/* Mean and unbiased variance of @x[0..n-1] (variance 0 when n < 2). */
void   hp_stats_mean_var        (const double *x,
                                 gsize         n,
                                 double       *mean,
                                 double       *var);

/* A two-sample comparison of means, base against new. */
typedef struct {
  double diff;      /* new mean - base mean */
  double se;        /* standard error of diff */
  double df;        /* degrees of freedom (INFINITY: normal) */
  double p;         /* two-sided p-value of diff = 0 */
  /* the 1 - alpha interval of new/base - 1 (Fieller), NAN when the
   * interval is unbounded (base mean not significantly above 0) */
  double ratio_low;
  double ratio_high;
  double diff_low;  /* the 1 - alpha interval of diff */
  double diff_high;
  double mde;       /* smallest |diff| found with the given power */
} HpStatsTest;

/* Welch's t test on two means with their squared standard errors
 * @v_base = s_base^2 / n_base and @v_new, and the degrees of freedom
 * @df (hp_stats_welch_df(), or n - 1 when one variance comes from one
 * side only, or INFINITY for counts). @alpha is the two-sided level of
 * the intervals and of the minimum detectable effect, found with
 * probability @power. */
void   hp_stats_test_means      (double       mean_base,
                                 double       v_base,
                                 double       mean_new,
                                 double       v_new,
                                 double       df,
                                 double       alpha,
                                 double       power,
                                 HpStatsTest *out);

/* The Welch–Satterthwaite degrees of freedom of v_base + v_new, each the
 * squared standard error of a mean of n_base (n_new) values. */
double hp_stats_welch_df        (double v_base,
                                 guint  n_base,
                                 double v_new,
                                 guint  n_new);

G_END_DECLS
