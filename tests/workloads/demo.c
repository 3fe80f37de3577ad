/* demo.c - the demo program of the README's quick start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A small word-frequency indexer with a realistic mix of hot paths:
 * generating text, tokenizing it, hashing words into a table, sorting the
 * counts and formatting a report. Runs about two seconds.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BUCKETS 4096
#define NOINLINE __attribute__((noinline))

typedef struct Entry {
  struct Entry *next;
  char          word[24];
  unsigned      count;
} Entry;

static Entry *buckets[N_BUCKETS];
static uint64_t rng = 88172645463325252ull;

static NOINLINE unsigned
next_random (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned) rng;
}

static NOINLINE size_t
generate_text (char *buf, size_t size)
{
  static const char *syllables[] = { "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo" };
  size_t n = 0;

  while (n + 16 < size)
    {
      unsigned len = 1 + next_random () % 3;

      for (unsigned i = 0; i < len; i++)
        {
          const char *s = syllables[next_random () % 8];
          buf[n++] = s[0];
          buf[n++] = s[1];
        }
      buf[n++] = (next_random () % 11 == 0) ? '\n' : ' ';
    }
  buf[n] = '\0';
  return n;
}

static NOINLINE unsigned
hash_word (const char *w, size_t len)
{
  unsigned h = 2166136261u;

  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) w[i]) * 16777619u;
  return h;
}

static NOINLINE void
count_word (const char *w, size_t len)
{
  unsigned b = hash_word (w, len) % N_BUCKETS;
  Entry *e;

  for (e = buckets[b]; e != NULL; e = e->next)
    if (strncmp (e->word, w, len) == 0 && e->word[len] == '\0')
      {
        e->count++;
        return;
      }
  e = calloc (1, sizeof *e);
  memcpy (e->word, w, len < 23 ? len : 23);
  e->count = 1;
  e->next = buckets[b];
  buckets[b] = e;
}

static NOINLINE void
tokenize (const char *text, size_t n)
{
  size_t start = 0;

  for (size_t i = 0; i <= n; i++)
    if (i == n || text[i] == ' ' || text[i] == '\n')
      {
        if (i > start)
          count_word (text + start, i - start);
        start = i + 1;
      }
}

static int
compare_entries (const void *a, const void *b)
{
  const Entry *ea = *(Entry * const *) a, *eb = *(Entry * const *) b;

  if (ea->count != eb->count)
    return ea->count < eb->count ? 1 : -1;
  return strcmp (ea->word, eb->word);
}

static NOINLINE size_t
sort_entries (Entry **out)
{
  size_t n = 0;

  for (unsigned b = 0; b < N_BUCKETS; b++)
    for (Entry *e = buckets[b]; e != NULL; e = e->next)
      out[n++] = e;
  qsort (out, n, sizeof *out, compare_entries);
  return n;
}

static NOINLINE unsigned long
format_report (Entry **entries, size_t n, int rounds)
{
  char line[128];
  unsigned long checksum = 0;

  for (int r = 0; r < rounds; r++)
    for (size_t i = 0; i < n && i < 2000; i++)
      {
        int len = snprintf (line, sizeof line, "%6zu %-24s %u\n", i + 1, entries[i]->word, entries[i]->count);
        checksum += (unsigned long) len + (unsigned char) line[len / 2];
      }
  return checksum;
}

int
main (int argc, char **argv)
{
  size_t size = 4 << 20;
  int rounds = argc > 1 ? atoi (argv[1]) : 50;
  char *text = malloc (size);
  Entry **entries = malloc (sizeof *entries * 200000);
  unsigned long checksum = 0;
  size_t n = 0;

  for (int r = 0; r < rounds; r++)
    {
      size_t len = generate_text (text, size);

      tokenize (text, len);
      n = sort_entries (entries);
      checksum += format_report (entries, n, 4);
    }

  printf ("%zu distinct words, checksum %lu\n", n, checksum);
  free (entries);
  free (text);
  return 0;
}
