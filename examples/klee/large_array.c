// A 64 KiB symbolic array read at a symbolic index. KLEE reads it with the theory of arrays: each
// read is one expression, and only the program's own branches fork. So KLEE writes 3 tests: the
// byte at `i` is 'x' (line 18); it is not, and the aligned word holding it is 0x11223344 or not
// (line 23). Neither assertion can fail: buf[0] was overwritten with 'y' before the first read, and
// the word's lowest-addressed byte is its least significant one (little-endian).
#include <assert.h>
#include <klee/klee.h>

#define N 65536
static unsigned char buf[N];

int main(void) {
  unsigned i;
  klee_make_symbolic(buf, sizeof buf, "buf");
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < N);
  buf[0] = 'y';
  if (buf[i] == 'x') {
    assert(i != 0);
    return 1;
  }
  unsigned *words = (unsigned *)buf;
  if (words[i / 4] == 0x11223344u)
    assert(buf[i & ~3u] == 0x44);
  return 0;
}
