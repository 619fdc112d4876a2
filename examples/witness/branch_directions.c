// A violation behind conditions of each kind clang labels: `if` with a negated `&&`, a `for`, a `do`-`while`
// (clang puts its branch at the end of the body, the line before `while`) and an `||`. The witness names the
// way each went; the independent checker compares them with the branch counts of a native coverage run.
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "branch_directions.c", 5, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (!(x > 0 && x < 100))
    return 0;
  int s = 0;
  for (int i = 0; i < 3; i++)
    s += x;
  do
    s--;
  while (s % 7 != 0);
  if (s == 42 || s == 49)
    reach_error();
  return 0;
}
