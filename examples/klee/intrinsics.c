// KLEE's intrinsics from klee/klee.h (shipped by symex, on the include path). What KLEE does with
// this program (KLEE 3.x, no flags): x == 7 ends silently (klee_silent_exit writes no test); x == 8
// is an error of the program's own kind (klee_report_error: file test000N.my.err, message "eight",
// at the call's line); x == 9 forks on y == 3, failing klee_assert when y != 3 ("ASSERTION FAIL:
// y == 3", assert.err); the NULL name is renamed "unnamed" with a warning; klee_warning_once prints
// once; klee_get_value_i32 of x on the path x == 10 is 10; klee_print_expr prints "msg:expr" on each
// path reaching it (x == 9 with y == 3, and the other values). Tests: three exits (x == 9 with
// y == 3, x == 10, the other values) and the two errors (generated tests = 5).
#include <klee/klee.h>

int main(void) {
  int x, y;
  char buf[4];
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, NULL);
  if (klee_is_symbolic(x) != 1 || klee_is_symbolic(3) != 0)
    return 99;
  klee_warning_once("hello");
  klee_warning_once("hello");
  if (x == 7)
    klee_silent_exit(0);
  if (x == 8)
    klee_report_error(__FILE__, __LINE__, "eight", "my.err");
  if (x == 9)
    klee_assert(y == 3);
  if (klee_get_obj_size(buf) != 4)
    return 98;
  klee_check_memory_access(buf, 4);
  if (x == 10)
    return klee_get_value_i32(x) == 10 ? 0 : 97;
  klee_print_expr("five", 5);
  return 0;
}
