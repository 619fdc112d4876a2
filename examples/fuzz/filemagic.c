// A file parser reading its input from the file "input.bin" (`symex fuzz --file input.bin`): a 4-byte
// magic "SYMF" read with fgetc, the file's size from fseek/ftell, a 2-byte version and a record count
// read with fread after a seek, the records one by one until feof, and the first byte read again through
// open/read. Another path ("options.cfg") is opened too and is absent. Version 2 with a record 'X' as
// the third record aborts.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
    FILE *opt = fopen("options.cfg", "r");
    if (opt)
        return 2;
    FILE *f = fopen("input.bin", "rb");
    if (!f)
        return 1;
    const char magic[4] = {'S', 'Y', 'M', 'F'};
    for (int i = 0; i < 4; i++)
        if (fgetc(f) != magic[i])
            return 1;
    if (fseek(f, 0, SEEK_END) != 0)
        return 1;
    long size = ftell(f);
    if (size < 8)
        return 1;
    fseek(f, 4, SEEK_SET);
    unsigned char hdr[2];
    if (fread(hdr, 1, 2, f) != 2 || hdr[0] != 2)
        return 1;
    int records = 0, c;
    char rec[8];
    while ((c = getc(f)) != EOF && records < 8)
        rec[records++] = (char)c;
    if (!feof(f) && records < 8)
        return 1;
    fclose(f);
    int fd = open("input.bin", O_RDONLY);
    if (fd < 0)
        return 1;
    char first;
    if (read(fd, &first, 1) != 1 || first != 'S')
        return 1;
    close(fd);
    if (records >= 3 && rec[2] == 'X' && hdr[1] == records)
        abort();
    return 0;
}
