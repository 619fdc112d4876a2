// symex-flags: --sym-files 1 4 --validate-tests
// KLEE's `--sym-files 1 4`: one symbolic file named "A" of 4 bytes. Reading it, the program branches on
// its first byte: 2 paths, 2 tests, one error (line 17). Opening another name fails, as under KLEE's
// runtime with no such file.
#include <fcntl.h>
#include <klee/klee.h>
#include <unistd.h>

int main(void) {
  if (open("B", O_RDONLY) >= 0)
    klee_report_error(__FILE__, __LINE__, "B", "b.err");
  int fd = open("A", O_RDONLY);
  char buf[4];
  if (fd < 0 || read(fd, buf, 4) != 4)
    klee_report_error(__FILE__, __LINE__, "A", "a.err");
  if (buf[0] == '!')
    klee_report_error(__FILE__, __LINE__, "bang", "bang.err");
  close(fd);
  return 0;
}
