#include <stdio.h>
struct inner { char tag; long v; };
struct outer { int id; struct inner in[2]; short last; };
static struct outer make(int id) {
    struct outer o = {id, {{'a', 100L * id}, {'b', -5}}, 7};
    return o;
}
static long total(struct outer o) { return o.id + o.in[0].v + o.in[1].v + o.last; }
int main(void) {
    struct outer o = make(3);
    struct outer copy = o;
    copy.in[1].tag = 'z';
    printf("%ld %c %c %zu\n", total(copy), o.in[1].tag, copy.in[1].tag, sizeof(struct outer));
    return 0;
}
