/*
 * The runtime csmith-generated programs include (Debian's csmith package ships the generator only).
 * Written for symex's differential tests: the same header is compiled natively (gcc) and by symex.
 *
 * - The safe_* arithmetic wrappers follow csmith's safe_math semantics and are free of undefined
 *   behaviour: an operation that would overflow, divide by zero or shift out of range returns its
 *   first operand instead.
 * - transparent_crc hashes every global into a CRC-32; unlike the original it always prints the
 *   running checksum after each variable (define CSMITH_QUIET to print only the final one), which
 *   makes a mismatch visible at the first global that differs.
 */
#ifndef SYMEX_CSMITH_H
#define SYMEX_CSMITH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>

#define SAFE_SIGNED(T, MIN, MAX, BITS)                                                              \
    static inline T safe_unary_minus_func_##T##_s(T si) { return (si == MIN) ? si : -si; }         \
    static inline T safe_add_func_##T##_s_s(T a, T b) {                                             \
        return ((a > 0 && b > 0 && a > MAX - b) || (a < 0 && b < 0 && a < MIN - b)) ? a : (T)(a + b); \
    }                                                                                               \
    static inline T safe_sub_func_##T##_s_s(T a, T b) {                                             \
        return ((b < 0 && a > MAX + b) || (b > 0 && a < MIN + b)) ? a : (T)(a - b);                 \
    }                                                                                               \
    static inline T safe_mul_func_##T##_s_s(T a, T b) {                                             \
        return ((a > 0 && b > 0 && a > MAX / b) || (a > 0 && b <= 0 && b < MIN / a) ||              \
                (a <= 0 && b > 0 && a < MIN / b) || (a <= 0 && b <= 0 && a != 0 && b < MAX / a))    \
                   ? a                                                                              \
                   : (T)(a * b);                                                                    \
    }                                                                                               \
    static inline T safe_mod_func_##T##_s_s(T a, T b) {                                             \
        return (b == 0 || (a == MIN && b == -1)) ? a : (T)(a % b);                                  \
    }                                                                                               \
    static inline T safe_div_func_##T##_s_s(T a, T b) {                                             \
        return (b == 0 || (a == MIN && b == -1)) ? a : (T)(a / b);                                  \
    }                                                                                               \
    static inline T safe_lshift_func_##T##_s_s(T a, int b) {                                        \
        return (a < 0 || b < 0 || b >= BITS || a > (MAX >> b)) ? a : (T)(a << b);                  \
    }                                                                                               \
    static inline T safe_lshift_func_##T##_s_u(T a, unsigned int b) {                               \
        return (a < 0 || b >= BITS || a > (MAX >> b)) ? a : (T)(a << b);                            \
    }                                                                                               \
    static inline T safe_rshift_func_##T##_s_s(T a, int b) {                                        \
        return (a < 0 || b < 0 || b >= BITS) ? a : (T)(a >> b);                                     \
    }                                                                                               \
    static inline T safe_rshift_func_##T##_s_u(T a, unsigned int b) {                               \
        return (a < 0 || b >= BITS) ? a : (T)(a >> b);                                              \
    }

/* Unsigned arithmetic wraps; operands narrower than int are widened to unsigned int first so that
 * the promotion to (signed) int cannot overflow in a multiplication. */
#define SAFE_UNSIGNED(T, MAX, BITS, W)                                                              \
    static inline T safe_unary_minus_func_##T##_u(T a) { return (T)(-(W)a); }                      \
    static inline T safe_add_func_##T##_u_u(T a, T b) { return (T)((W)a + (W)b); }                 \
    static inline T safe_sub_func_##T##_u_u(T a, T b) { return (T)((W)a - (W)b); }                 \
    static inline T safe_mul_func_##T##_u_u(T a, T b) { return (T)((W)a * (W)b); }                 \
    static inline T safe_mod_func_##T##_u_u(T a, T b) { return b == 0 ? a : (T)(a % b); }          \
    static inline T safe_div_func_##T##_u_u(T a, T b) { return b == 0 ? a : (T)(a / b); }          \
    static inline T safe_lshift_func_##T##_u_s(T a, int b) {                                        \
        return (b < 0 || b >= BITS || a > (MAX >> b)) ? a : (T)((W)a << b);                         \
    }                                                                                               \
    static inline T safe_lshift_func_##T##_u_u(T a, unsigned int b) {                               \
        return (b >= BITS || a > (MAX >> b)) ? a : (T)((W)a << b);                                  \
    }                                                                                               \
    static inline T safe_rshift_func_##T##_u_s(T a, int b) { return (b < 0 || b >= BITS) ? a : (T)(a >> b); } \
    static inline T safe_rshift_func_##T##_u_u(T a, unsigned int b) { return (b >= BITS) ? a : (T)(a >> b); }

SAFE_SIGNED(int8_t, INT8_MIN, INT8_MAX, 32)
SAFE_SIGNED(int16_t, INT16_MIN, INT16_MAX, 32)
SAFE_SIGNED(int32_t, INT32_MIN, INT32_MAX, 32)
SAFE_SIGNED(int64_t, INT64_MIN, INT64_MAX, 64)
SAFE_UNSIGNED(uint8_t, UINT8_MAX, 32, unsigned int)
SAFE_UNSIGNED(uint16_t, UINT16_MAX, 32, unsigned int)
SAFE_UNSIGNED(uint32_t, UINT32_MAX, 32, uint32_t)
SAFE_UNSIGNED(uint64_t, UINT64_MAX, 64, uint64_t)

static uint32_t crc32_tab[256];
static uint32_t crc32_context = 0xFFFFFFFFUL;

static void crc32_gentab(void) {
    const uint32_t poly = 0xEDB88320UL;
    for (int i = 0; i < 256; i++) {
        uint32_t crc = (uint32_t)i;
        for (int j = 8; j > 0; j--)
            crc = (crc & 1) ? (crc >> 1) ^ poly : crc >> 1;
        crc32_tab[i] = crc;
    }
}

static void crc32_byte(uint8_t b) {
    crc32_context = ((crc32_context >> 8) & 0x00FFFFFF) ^ crc32_tab[(crc32_context ^ b) & 0xFF];
}

static void crc32_8bytes(uint64_t val) {
    for (int i = 0; i < 8; i++)
        crc32_byte((uint8_t)(val >> (8 * i)));
}

static void transparent_crc(uint64_t val, const char *vname, int flag) {
    crc32_8bytes(val);
#ifndef CSMITH_QUIET
    flag = 1;
#endif
    if (flag)
        printf("...checksum after hashing %s : %X\n", vname, crc32_context ^ 0xFFFFFFFFU);
}

static void transparent_crc_bytes(const char *ptr, int nbytes, const char *vname, int flag) {
    for (int i = 0; i < nbytes; i++)
        crc32_byte((uint8_t)ptr[i]);
#ifndef CSMITH_QUIET
    flag = 1;
#endif
    if (flag)
        printf("...checksum after hashing %s : %X\n", vname, crc32_context ^ 0xFFFFFFFFU);
}

static void platform_main_begin(void) {}

static void platform_main_end(uint32_t crc, int flag) {
    (void)flag;
    printf("checksum = %X\n", crc);
}

#endif
