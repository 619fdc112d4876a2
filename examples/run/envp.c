// `main`'s third parameter is the environment, a NULL-terminated list (C11 J.5.1; POSIX): never NULL.
// symex runs the program in the empty environment (as `env -i` would): envp = {NULL}. Natively under
// `env -i`: exit status 0.
int main(int argc, char **argv, char **envp) {
    if (envp == 0)
        return 1;
    return envp[0] != 0;
}
