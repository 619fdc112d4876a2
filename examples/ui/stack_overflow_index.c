// Reading past a local array is caught even though another local follows it in the frame.
int main(void) {
    int a[3] = {1, 2, 3};
    int b[3] = {4, 5, 6};
    int s = 0;
    for (int i = 0; i < 4; i++)
        s += a[i];
    return s + b[0];
}
