// Prints what the stream and descriptor functions return on the file "input.bin" (`--file input.bin`):
// the test compares symex's models (symex replay) with the native program run beside that file, over
// files of several lengths and contents.
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    printf("other %d\n", fopen("missing.txt", "r") == NULL);
    printf("other fd %d\n", open("missing.txt", O_RDONLY));
    FILE *f = fopen("input.bin", "r");
    if (!f)
        return 1;
    printf("tell %ld\n", ftell(f));
    int c = fgetc(f);
    printf("c %d tell %ld eof %d\n", c, ftell(f), feof(f) != 0);
    if (c != EOF)
        printf("unget %d tell %ld\n", ungetc(c, f), ftell(f));
    char line[6];
    while (fgets(line, sizeof line, f))
        printf("line [%s] tell %ld\n", line, ftell(f));
    printf("eof %d\n", feof(f) != 0);
    printf("seek end %d tell %ld\n", fseek(f, 0, SEEK_END), ftell(f));
    printf("seek before %d tell %ld\n", fseek(f, -100, SEEK_CUR), ftell(f));
    printf("seek past %d tell %ld getc %d\n", fseek(f, 3, SEEK_END), ftell(f), getc(f));
    rewind(f);
    char buf[4];
    size_t n = fread(buf, 2, 2, f);
    printf("fread %zu tell %ld eof %d\n", n, ftell(f), feof(f) != 0);
    fseek(f, -1, SEEK_CUR);
    printf("back tell %ld getc %d\n", ftell(f), getc(f));
    FILE *g = fopen("input.bin", "r");
    printf("second %d tell %ld\n", fgetc(g), ftell(g));
    printf("close %d %d\n", fclose(g), fclose(f));
    int fd = open("input.bin", O_RDONLY);
    char r[3];
    ssize_t k = read(fd, r, 3);
    printf("read %zd", k);
    for (ssize_t i = 0; i < k; i++)
        printf(" %d", r[i]);
    printf("\nclose %d\n", close(fd));
    return 0;
}
