/* klee/klee.h as symex provides it: the declarations of KLEE's intrinsics, so that a program written
 * for KLEE compiles unchanged. symex puts this directory last on the include path (-idirafter): a
 * KLEE checkout's own include/ given with -I takes precedence. What each call does under symex is
 * listed in the manual (for-klee-users.md); a declared intrinsic symex does not model ends its path
 * as unsupported, naming it. Licence: MIT OR Apache-2.0 (symex). */
#ifndef KLEE_H
#define KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Inputs. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);
int klee_range(int begin, int end, const char *name);
int klee_int(const char *name);
uintptr_t klee_choose(uintptr_t n);
void klee_assume(uintptr_t condition);
void klee_prefer_cex(void *object, uintptr_t condition);
void klee_posix_prefer_cex(void *object, uintptr_t condition);

/* Ends of a path. */
__attribute__((noreturn)) void klee_silent_exit(int status);
__attribute__((noreturn)) void klee_abort(void);
__attribute__((noreturn)) void klee_report_error(const char *file, int line,
                                                 const char *message,
                                                 const char *suffix);
__attribute__((noreturn)) void klee_assert_fail(const char *expr,
                                                const char *file,
                                                unsigned line,
                                                const char *function);
#define klee_assert(expr)                                                      \
  ((expr) ? (void)0                                                            \
          : klee_assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))

/* Questions about values and memory. */
unsigned klee_is_symbolic(uintptr_t n);
unsigned klee_is_replay(void);
size_t klee_get_obj_size(void *ptr);
void klee_check_memory_access(const void *address, size_t size);
void klee_define_fixed_object(void *addr, size_t nbytes);
void klee_mark_global(void *object);
long klee_get_valuel(long expr);
long long klee_get_valuell(long long expr);
int32_t klee_get_value_i32(int32_t expr);
int64_t klee_get_value_i64(int64_t expr);
float klee_get_valuef(float expr);
double klee_get_valued(double expr);
int klee_get_errno(void);

/* Messages and exploration control. */
void klee_warning(const char *message);
void klee_warning_once(const char *message);
void klee_print_expr(const char *msg, ...);
void klee_print_range(const char *name, int arg);
void klee_stack_trace(void);
void klee_set_forking(unsigned enable);
void klee_open_merge(void);
void klee_close_merge(void);

#ifdef __cplusplus
}
#endif

#endif /* KLEE_H */
