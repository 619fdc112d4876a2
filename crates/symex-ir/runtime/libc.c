/* C library functions that call back into the program or follow C's text rules closely enough that
 * they are best run as C: linked into a program that calls them and executed like its own code, so
 * every domain (concrete, symbolic, concolic, merged) runs them with the interpreter's one semantics.
 * Each definition is weak: a program's own definition of the name wins. */

typedef unsigned long size_t;

static int symex_errno;

/* glibc's `errno` is `(*__errno_location())`. */
__attribute__((weak)) int *__errno_location(void) { return &symex_errno; }

#define SYMEX_ERANGE 34
#define SYMEX_EINVAL 22

static void swap_bytes(char *a, char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

/* C11 7.22.5.2: sorts `n` elements of `size` bytes by `cmp`. Insertion sort: every comparison is a
 * call of the program's `cmp`, and the order of equal elements is one C allows. */
__attribute__((weak)) void qsort(void *base, size_t n, size_t size,
                                 int (*cmp)(const void *, const void *)) {
  char *a = base;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; j--)
      swap_bytes(a + (j - 1) * size, a + j * size, size);
}

/* C11 7.22.5.1: binary search of a sorted array; a matching element or null. */
__attribute__((weak)) void *bsearch(const void *key, const void *base, size_t n, size_t size,
                                    int (*cmp)(const void *, const void *)) {
  const char *a = base;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp(key, a + mid * size);
    if (c == 0)
      return (void *)(a + mid * size);
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return 0;
}

static int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

static int digit_value(int c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

/* C11 7.22.1.4 for an unsigned magnitude of at most `limit`: white space, an optional sign, the base's
 * prefix, digits. Returns the magnitude (saturated at `limit + 1` when it does not fit, for the caller
 * to clamp), sets `*neg`, `*end` (the string itself when no digit was read) and `*overflow`. */
static unsigned long long parse_integer(const char *s, char **end, int base, int *neg,
                                        int *overflow, unsigned long long limit) {
  const char *p = s;
  *neg = 0;
  *overflow = 0;
  if (base < 0 || base == 1 || base > 36) {
    /* glibc leaves `*end` as it was. */
    *__errno_location() = SYMEX_EINVAL;
    return 0;
  }
  while (is_space(*p))
    p++;
  if (*p == '+' || *p == '-')
    *neg = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
      digit_value(p[2]) < 16) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = p[0] == '0' ? 8 : 10;
  }
  const char *digits = p;
  unsigned long long v = 0;
  for (int d; (d = digit_value(*p)) < base; p++) {
    if (v > (limit - (unsigned)d) / (unsigned)base)
      *overflow = 1;
    else
      v = v * (unsigned)base + (unsigned)d;
  }
  if (end)
    *end = (char *)(p == digits ? s : p);
  if (*overflow)
    *__errno_location() = SYMEX_ERANGE;
  return v;
}

static long long to_signed(unsigned long long v, int neg, int overflow, long long max) {
  unsigned long long min_magnitude = (unsigned long long)max + 1;
  if (overflow || (!neg && v > (unsigned long long)max) || (neg && v > min_magnitude)) {
    *__errno_location() = SYMEX_ERANGE;
    return neg ? -max - 1 : max;
  }
  return neg ? (long long)(0 - v) : (long long)v;
}

static unsigned long long to_unsigned(unsigned long long v, int neg, int overflow,
                                      unsigned long long max) {
  if (overflow)
    return max;
  return neg ? 0 - v : v;
}

__attribute__((weak)) long strtol(const char *s, char **end, int base) {
  int neg, overflow;
  unsigned long long v = parse_integer(s, end, base, &neg, &overflow, ~0ULL);
  return (long)to_signed(v, neg, overflow, (long long)(~0UL >> 1));
}

__attribute__((weak)) long long strtoll(const char *s, char **end, int base) {
  int neg, overflow;
  unsigned long long v = parse_integer(s, end, base, &neg, &overflow, ~0ULL);
  return to_signed(v, neg, overflow, (long long)(~0ULL >> 1));
}

__attribute__((weak)) unsigned long strtoul(const char *s, char **end, int base) {
  int neg, overflow;
  unsigned long long v = parse_integer(s, end, base, &neg, &overflow, ~0UL);
  return (unsigned long)to_unsigned(v, neg, overflow, ~0UL);
}

__attribute__((weak)) unsigned long long strtoull(const char *s, char **end, int base) {
  int neg, overflow;
  unsigned long long v = parse_integer(s, end, base, &neg, &overflow, ~0ULL);
  return to_unsigned(v, neg, overflow, ~0ULL);
}

__attribute__((weak)) long atol(const char *s) { return strtol(s, 0, 10); }

__attribute__((weak)) long long atoll(const char *s) { return strtoll(s, 0, 10); }
