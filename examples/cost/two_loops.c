// The shape of [B] §5's SV-COMP program with two subtraction loops, the inputs read with
// the complexity benchmarks' external nondet() (treated as an input function).
int nondet();
int main(void) {
  int x = nondet();
  int y = nondet();
  while (x > 0) x = x - 1;
  while (y > 0) y = y - 2;
  return 0;
}
