// symex-flags: --env
// main's third parameter and getenv see the environment the tool runs in, as KLEE passes its own
// (test/Feature/Envp.c asserts PWD is there). klee_cli.rs runs this with EXAMPLE_ENV=42 set: it
// is among envp's strings and getenv finds its value; an unset name is NULL. One path, exiting 0:
// one test and no error.
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv, char **envp) {
  int seen = 0;
  for (char **e = envp; *e; e++)
    if (strcmp(*e, "EXAMPLE_ENV=42") == 0)
      seen = 1;
  const char *v = getenv("EXAMPLE_ENV");
  if (!seen || !v || strcmp(v, "42") != 0 || getenv("EXAMPLE_ENV_UNSET") != NULL)
    abort();
  return 0;
}
