/* hp-stats.c - the distributions and tests a comparison of captures needs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Just enough statistics for hp-compare.c, without a numerics library:
 * Student's t distribution for any positive (fractional, as Welch gives)
 * degrees of freedom, through the regularized incomplete beta function
 * (its continued fraction, evaluated with the modified Lentz method, as in
 * Numerical Recipes §6.4), the normal distribution through erfc(), and the
 * Benjamini–Hochberg step-up adjustment. tests/unit/test-stats.c holds
 * reference values computed once with an independent arbitrary-precision
 * implementation (mpmath) and R.
 *
 * The test of two means is Welch's t on their difference. Its interval for
 * the ratio new/base is Fieller's, which uses the same t quantile and the
 * same standard errors, so the ratio's interval excludes 1 exactly when the
 * difference is significant at that level: the change in percent and the
 * verdict can never disagree.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/hp-stats.h"

/* Beyond this many degrees of freedom t is the normal to double precision
 * for every quantile we use, and the continued fraction would be slow. */
#define DF_NORMAL 1e7

/* The continued fraction of I_x(a, b), converging fast for x < (a+1)/(a+b+2). */
static double
beta_continued_fraction (double a,
                         double b,
                         double x)
{
  const double tiny = 1e-300;
  const double eps = 1e-16;
  double qab = a + b, qap = a + 1.0, qam = a - 1.0;
  double c = 1.0, d = 1.0 - qab * x / qap, h;

  if (fabs (d) < tiny)
    d = tiny;
  d = 1.0 / d;
  h = d;
  for (int m = 1; m <= 100000; m++)
    {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
      double del;

      d = 1.0 + aa * d;
      if (fabs (d) < tiny)
        d = tiny;
      c = 1.0 + aa / c;
      if (fabs (c) < tiny)
        c = tiny;
      d = 1.0 / d;
      h *= d * c;
      aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
      d = 1.0 + aa * d;
      if (fabs (d) < tiny)
        d = tiny;
      c = 1.0 + aa / c;
      if (fabs (c) < tiny)
        c = tiny;
      d = 1.0 / d;
      del = d * c;
      h *= del;
      if (fabs (del - 1.0) < eps)
        break;
    }
  return h;
}

/* I_x(a, b) with y = 1 - x given separately, so that a y near 0 (a t
 * near 0) keeps its precision. */
static double
incomplete_beta (double a,
                 double b,
                 double x,
                 double y)
{
  double front;

  if (x <= 0.0)
    return 0.0;
  if (y <= 0.0)
    return 1.0;
  front = exp (lgamma (a + b) - lgamma (a) - lgamma (b) + a * log (x) + b * log (y));
  if (x < (a + 1.0) / (a + b + 2.0))
    return front * beta_continued_fraction (a, b, x) / a;
  return 1.0 - front * beta_continued_fraction (b, a, y) / b;
}

double
hp_stats_incomplete_beta (double a,
                          double b,
                          double x)
{
  g_return_val_if_fail (a > 0 && b > 0, NAN);
  g_return_val_if_fail (x >= 0 && x <= 1, NAN);

  return incomplete_beta (a, b, x, 1.0 - x);
}

double
hp_stats_normal_cdf (double z)
{
  return 0.5 * erfc (-z / G_SQRT2);
}

/* Acklam's rational approximation (relative error 1.15e-9), then one
 * step of Halley's method on erfc, which brings it to full precision. */
double
hp_stats_normal_quantile (double p)
{
  static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                              1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00 };
  static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                              6.680131188771972e+01, -1.328068155288572e+01 };
  static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                              -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00 };
  static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                              3.754408661907416e+00 };
  const double p_low = 0.02425;
  double q, r, x, e, u;

  if (isnan (p) || p < 0 || p > 1)
    return NAN;
  if (p == 0)
    return -INFINITY;
  if (p == 1)
    return INFINITY;

  if (p < p_low)
    {
      q = sqrt (-2 * log (p));
      x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
          ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
  else if (p <= 1 - p_low)
    {
      q = p - 0.5;
      r = q * q;
      x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
          (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
  else
    {
      q = sqrt (-2 * log (1 - p));
      x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }

  e = hp_stats_normal_cdf (x) - p;
  u = e * sqrt (2 * G_PI) * exp (x * x / 2);
  return x - u / (1 + x * u / 2);
}

double
hp_stats_t_cdf (double t,
                double df)
{
  double tail;

  g_return_val_if_fail (df > 0, NAN);

  if (isnan (t))
    return NAN;
  if (isinf (t))
    return t > 0 ? 1.0 : 0.0;
  if (df > DF_NORMAL)
    return hp_stats_normal_cdf (t);

  /* P(T > |t|) = I_x(df/2, 1/2) / 2 with x = df / (df + t^2) */
  tail = 0.5 * incomplete_beta (df / 2, 0.5, df / (df + t * t), t * t / (df + t * t));
  return t > 0 ? 1.0 - tail : tail;
}

static double
t_density (double t,
           double df)
{
  return exp (lgamma ((df + 1) / 2) - lgamma (df / 2) - 0.5 * log (df * G_PI)
              - (df + 1) / 2 * log1p (t * t / df));
}

double
hp_stats_t_quantile (double p,
                     double df)
{
  double x, lo, hi;

  g_return_val_if_fail (df > 0, NAN);

  if (isnan (p) || p < 0 || p > 1)
    return NAN;
  if (p == 0)
    return -INFINITY;
  if (p == 1)
    return INFINITY;
  if (p == 0.5)
    return 0.0;
  if (df > DF_NORMAL)
    return hp_stats_normal_quantile (p);
  /* closed forms */
  if (df == 1)
    return tan (G_PI * (p - 0.5));
  if (df == 2)
    return (2 * p - 1) / sqrt (2 * p * (1 - p));

  /* By symmetry work on the upper half, then Newton's method from the
   * normal quantile (which is below the t quantile), kept inside a
   * bracket that bisection narrows when a step leaves it. */
  if (p < 0.5)
    return -hp_stats_t_quantile (1 - p, df);

  lo = 0;
  hi = 1;
  while (hp_stats_t_cdf (hi, df) < p)
    {
      lo = hi;
      hi *= 2;
      if (hi > 1e300)
        return INFINITY;
    }
  x = CLAMP (hp_stats_normal_quantile (p), lo, hi);
  for (int i = 0; i < 200; i++)
    {
      double f = hp_stats_t_cdf (x, df) - p;
      double step, next;

      if (f == 0)
        break;
      if (f < 0)
        lo = x;
      else
        hi = x;
      step = f / t_density (x, df);
      next = x - step;
      if (!(next > lo && next < hi))
        next = (lo + hi) / 2;
      if (fabs (next - x) <= 1e-14 * MAX (1.0, fabs (x)))
        {
          x = next;
          break;
        }
      x = next;
    }
  return x;
}

typedef struct {
  double p;
  gsize  index;
} Ranked;

static int
compare_ranked (const void *a,
                const void *b)
{
  const Ranked *ra = a, *rb = b;

  if (ra->p != rb->p)
    return ra->p < rb->p ? -1 : 1;
  return ra->index < rb->index ? -1 : ra->index > rb->index;
}

void
hp_stats_bh_adjust (const double *p,
                    double       *q,
                    gsize         n)
{
  g_autofree Ranked *ranked = g_new (Ranked, MAX (n, 1));
  gsize m = 0;
  double running = 1.0;

  for (gsize i = 0; i < n; i++)
    if (!isnan (p[i]))
      ranked[m++] = (Ranked) { p[i], i };
  qsort (ranked, m, sizeof (Ranked), compare_ranked);

  /* q_(i) = min over j >= i of p_(j) m / j: one pass from the largest */
  for (gsize k = m; k > 0; k--)
    {
      double adjusted = ranked[k - 1].p * (double) m / (double) k;

      running = MIN (running, adjusted);
      ranked[k - 1].p = running;
    }
  for (gsize i = 0; i < n; i++)
    if (isnan (p[i]))
      q[i] = NAN;
  for (gsize k = 0; k < m; k++)
    q[ranked[k].index] = ranked[k].p;
}

void
hp_stats_mean_var (const double *x,
                   gsize         n,
                   double       *mean,
                   double       *var)
{
  double m = 0, ss = 0;

  /* Welford: no cancellation with large costs (ns) of similar size */
  for (gsize i = 0; i < n; i++)
    {
      double delta = x[i] - m;

      m += delta / (double) (i + 1);
      ss += delta * (x[i] - m);
    }
  *mean = m;
  *var = n > 1 ? ss / (double) (n - 1) : 0.0;
}

double
hp_stats_welch_df (double v_base,
                   guint  n_base,
                   double v_new,
                   guint  n_new)
{
  double denom = 0;

  g_return_val_if_fail (n_base >= 2 && n_new >= 2, NAN);

  denom = v_base * v_base / (n_base - 1) + v_new * v_new / (n_new - 1);
  if (denom <= 0)
    return INFINITY;
  return (v_base + v_new) * (v_base + v_new) / denom;
}

void
hp_stats_test_means (double       mean_base,
                     double       v_base,
                     double       mean_new,
                     double       v_new,
                     double       df,
                     double       alpha,
                     double       power,
                     HpStatsTest *out)
{
  double t_crit, t_power, a;

  g_return_if_fail (out != NULL);
  g_return_if_fail (alpha > 0 && alpha < 1);
  g_return_if_fail (power > 0 && power < 1);

  t_crit = hp_stats_t_quantile (1 - alpha / 2, df);
  t_power = hp_stats_t_quantile (power, df);

  out->diff = mean_new - mean_base;
  out->se = sqrt (MAX (v_base, 0) + MAX (v_new, 0));
  out->df = df;
  if (out->se > 0)
    out->p = 2 * hp_stats_t_cdf (-fabs (out->diff) / out->se, df);
  else
    out->p = out->diff == 0 ? 1.0 : 0.0;
  out->diff_low = out->diff - t_crit * out->se;
  out->diff_high = out->diff + t_crit * out->se;
  out->mde = (t_crit + t_power) * out->se;

  /* Fieller: the R with (new - R base)^2 <= t^2 (v_new + R^2 v_base),
   * bounded only when base is significantly above 0. */
  a = mean_base * mean_base - t_crit * t_crit * v_base;
  if (mean_base > 0 && a > 0)
    {
      double root = t_crit * sqrt (MAX (mean_new * mean_new * v_base + v_new * a, 0));

      /* costs are never negative, so neither is their ratio: the part
       * of the set below -100 % holds no possible value (a small new
       * cost with a large spread reached -139 %) */
      out->ratio_low = MAX ((mean_new * mean_base - root) / a - 1, -1);
      out->ratio_high = (mean_new * mean_base + root) / a - 1;
    }
  else
    {
      out->ratio_low = NAN;
      out->ratio_high = NAN;
    }
}
