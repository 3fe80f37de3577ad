/* oracle.c - a small text-and-numbers pipeline to compare Hotpath with perf
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Not tuned for any test: an ordinary C program (word counting with a hash
 * table, sorting, checksums, compression, a matrix product) whose profile
 * has about ten hot functions of different weights.  compare-perf.py records
 * it with perf and with Hotpath and checks that both name the same top ten
 * by self samples.  It uses no libc in its hot paths so that both tools
 * resolve the same symbols from this binary's own symbol table.
 *
 * Stages are called through a table of function pointers, as a plug-in
 * pipeline would be, so GCC keeps them out of line at -O2: perf's
 * --sort sym cannot see inlined functions, and comparing a function perf
 * folds into its caller with one Hotpath resolves as inlined would compare
 * two different questions.
 *
 * Usage: oracle [ROUNDS]   (default 80, about 4 s)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE   (1u << 20)
#define TABLE_SIZE  (1u << 16)  /* > 2x the 22620 possible words */
#define MATRIX_N    160

typedef struct {
  char     word[24];
  uint32_t hash;
  uint32_t count;
  int      used;
} Entry;

typedef uint32_t (*HashFunc) (const char *word, size_t len);
typedef int (*EqualFunc) (const char *a, const char *b, size_t len);
typedef int (*CompareFunc) (const void *a, const void *b);

/* An open-addressing table with caller-supplied hash and equality, in the
 * manner of GHashTable. */
typedef struct {
  Entry     *entries;
  HashFunc   hash;
  EqualFunc  equal;
} Table;

typedef struct {
  char    *text;
  size_t   text_len;
  Table    table;
  Entry  **sorted;
  size_t   n_sorted;
  uint8_t *packed;
  size_t   packed_len;
  char    *encoded;
  double  *a, *b, *c;
  uint32_t crc;
  uint32_t (*checksum) (uint32_t crc, const uint8_t *data, size_t len);
  uint64_t rng;
  uint64_t result;
} Pipeline;

typedef void (*StageFunc) (Pipeline *p);

static uint32_t crc_table[256];

uint32_t
next_random (uint64_t *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (uint32_t) *state;
}

/* Text of pseudo-random words drawn from a skewed syllable distribution. */
void
generate_text (Pipeline *p)
{
  static const char *syllables[] = {
    "ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ve", "zu", "an", "el",
  };
  size_t pos = 0;

  while (pos + 32 < TEXT_SIZE)
    {
      uint32_t r = next_random (&p->rng);
      unsigned n_syl = 1 + (r & 3);
      for (unsigned i = 0; i < n_syl; i++)
        {
          const char *s = syllables[((r >> (4 + 3 * i)) & 0xff) % 12];
          while (*s)
            p->text[pos++] = (r & 0x100000) && i == 0 ? (char) (*s++ - 32) : *s++;
        }
      p->text[pos++] = (r >> 24) % 9 == 0 ? '.' : ' ';
    }
  p->text[pos] = '\0';
  p->text_len = pos;
}

uint32_t
hash_word (const char *word, size_t len)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++)
    {
      h ^= (uint8_t) word[i];
      h *= 16777619u;
    }
  return h;
}

int
words_equal (const char *a, const char *b, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (a[i] != b[i])
      return 0;
  return a[len] == '\0';
}

Entry *
table_lookup (Table *table, const char *word, size_t len)
{
  uint32_t hash = table->hash (word, len);

  for (uint32_t i = hash & (TABLE_SIZE - 1);; i = (i + 1) & (TABLE_SIZE - 1))
    {
      Entry *e = &table->entries[i];
      if (!e->used)
        {
          memcpy (e->word, word, len);
          e->word[len] = '\0';
          e->hash = hash;
          e->used = 1;
          return e;
        }
      if (e->hash == hash && table->equal (e->word, word, len))
        return e;
    }
}

/* Lower-cases and splits the text, counting each word. */
void
count_words (Pipeline *p)
{
  char word[24];
  size_t len = 0;

  for (size_t i = 0; i <= p->text_len; i++)
    {
      char c = p->text[i];
      if (c >= 'A' && c <= 'Z')
        c += 32;
      if (c >= 'a' && c <= 'z' && len < sizeof word - 1)
        {
          word[len++] = c;
          continue;
        }
      if (len > 0)
        {
          Entry *e = table_lookup (&p->table, word, len);
          e->count++;
          len = 0;
        }
    }
}

int
compare_entries (const void *pa, const void *pb)
{
  const Entry *a = *(const Entry *const *) pa;
  const Entry *b = *(const Entry *const *) pb;

  if (a->count != b->count)
    return a->count > b->count ? -1 : 1;
  for (size_t i = 0; i < sizeof a->word; i++)
    {
      if (a->word[i] != b->word[i])
        return (unsigned char) a->word[i] < (unsigned char) b->word[i] ? -1 : 1;
      if (a->word[i] == '\0')
        break;
    }
  return 0;
}

/* Quicksort of pointers with a comparison function, like qsort(3). */
void
sort_pointers (void **v, long lo, long hi, CompareFunc compare)
{
  while (lo < hi)
    {
      void *pivot = v[lo + (hi - lo) / 2];
      long i = lo, j = hi;
      while (i <= j)
        {
          while (compare (&v[i], &pivot) < 0)
            i++;
          while (compare (&v[j], &pivot) > 0)
            j--;
          if (i <= j)
            {
              void *t = v[i];
              v[i++] = v[j];
              v[j--] = t;
            }
        }
      if (j - lo < hi - i)
        {
          sort_pointers (v, lo, j, compare);
          lo = i;
        }
      else
        {
          sort_pointers (v, i, hi, compare);
          hi = j;
        }
    }
}

/* Sorts the words by count, several times over shuffled input, the way a
 * report would be re-sorted by different keys. */
void
sort_words (Pipeline *p)
{
  p->n_sorted = 0;
  for (size_t i = 0; i < TABLE_SIZE; i++)
    if (p->table.entries[i].used)
      p->sorted[p->n_sorted++] = &p->table.entries[i];
  for (int pass = 0; pass < 3; pass++)
    {
      for (size_t i = p->n_sorted - 1; i > 0; i--)
        {
          size_t j = next_random (&p->rng) % (i + 1);
          Entry *t = p->sorted[i];
          p->sorted[i] = p->sorted[j];
          p->sorted[j] = t;
        }
      sort_pointers ((void **) p->sorted, 0, (long) p->n_sorted - 1,
                     compare_entries);
    }
  p->result += p->sorted[0]->count;
}

uint32_t
crc32_update (uint32_t crc, const uint8_t *data, size_t len)
{
  crc = ~crc;
  for (size_t i = 0; i < len; i++)
    crc = crc_table[(crc ^ data[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

void
checksum_text (Pipeline *p)
{
  p->crc = p->checksum (p->crc, (const uint8_t *) p->text, p->text_len);
  p->crc = p->checksum (p->crc, p->packed, p->packed_len);
  p->crc = p->checksum (p->crc, (const uint8_t *) p->encoded,
                        strlen (p->encoded));
}

/* Run-length encoding of the text with the vowels dropped. */
void
compress_text (Pipeline *p)
{
  size_t out = 0;
  for (size_t i = 0; i < p->text_len;)
    {
      char c = p->text[i];
      size_t run = 1;
      while (i + run < p->text_len && p->text[i + run] == c && run < 255)
        run++;
      if (c != 'a' && c != 'e' && c != 'i' && c != 'o' && c != 'u')
        {
          p->packed[out++] = (uint8_t) run;
          p->packed[out++] = (uint8_t) c;
        }
      i += run;
    }
  p->packed_len = out;
}

void
encode_base64 (Pipeline *p)
{
  static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t out = 0;

  for (int pass = 0; pass < 3; pass++)
    {
      out = 0;
      for (size_t i = 0; i + 2 < p->packed_len; i += 3)
        {
          uint32_t v = (uint32_t) p->packed[i] << 16 |
                       (uint32_t) p->packed[i + 1] << 8 | p->packed[i + 2];
          p->encoded[out++] = alphabet[(v >> 18) & 63];
          p->encoded[out++] = alphabet[(v >> 12) & 63];
          p->encoded[out++] = alphabet[(v >> 6) & 63];
          p->encoded[out++] = alphabet[v & 63];
        }
    }
  p->encoded[out] = '\0';
  p->result += out;
}

void
multiply_matrices (Pipeline *p)
{
  for (int i = 0; i < MATRIX_N; i++)
    for (int j = 0; j < MATRIX_N; j++)
      {
        double sum = 0;
        for (int k = 0; k < MATRIX_N; k++)
          sum += p->a[i * MATRIX_N + k] * p->b[k * MATRIX_N + j];
        p->c[i * MATRIX_N + j] = sum;
      }
  for (int i = 0; i < MATRIX_N * MATRIX_N; i++)
    p->a[i] = p->c[i] * 1e-3 + 0.5;
  p->result += (uint64_t) p->c[0];
}

static const StageFunc stages[] = {
  generate_text,
  count_words,
  sort_words,
  compress_text,
  encode_base64,
  checksum_text,
  multiply_matrices,
};

int
main (int argc, char **argv)
{
  unsigned long rounds = argc > 1 ? strtoul (argv[1], NULL, 10) : 80;
  Pipeline p = { 0 };

  for (uint32_t i = 0; i < 256; i++)
    {
      uint32_t c = i;
      for (int k = 0; k < 8; k++)
        c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      crc_table[i] = c;
    }

  p.text = malloc (TEXT_SIZE);
  p.table.entries = calloc (TABLE_SIZE, sizeof (Entry));
  p.table.hash = hash_word;
  p.table.equal = words_equal;
  p.sorted = malloc (TABLE_SIZE * sizeof *p.sorted);
  p.packed = malloc (2 * TEXT_SIZE);
  p.encoded = malloc (3 * TEXT_SIZE);
  p.a = malloc (MATRIX_N * MATRIX_N * sizeof (double));
  p.b = malloc (MATRIX_N * MATRIX_N * sizeof (double));
  p.c = malloc (MATRIX_N * MATRIX_N * sizeof (double));
  p.rng = 0x2545f4914f6cdd1dull;
  p.checksum = crc32_update;
  if (!p.text || !p.table.entries || !p.sorted || !p.packed || !p.encoded ||
      !p.a || !p.b || !p.c)
    {
      fprintf (stderr, "oracle: out of memory\n");
      return 1;
    }
  for (int i = 0; i < MATRIX_N * MATRIX_N; i++)
    {
      p.a[i] = (double) (i % 17) / 17.0;
      p.b[i] = (double) (i % 13) / 13.0;
    }

  for (unsigned long r = 0; r < rounds; r++)
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++)
      stages[s] (&p);

  printf ("oracle: %lu rounds, %zu words, crc %08x, result %llu\n", rounds,
          p.n_sorted, p.crc, (unsigned long long) p.result);
  return 0;
}
