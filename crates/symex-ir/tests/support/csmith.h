/* A minimal, UB-free csmith runtime used only to compile csmith programs in symex-ir's lowering
 * tests (the differential-testing runtime lives with the engine). */
#ifndef SYMEX_IR_TEST_CSMITH_H
#define SYMEX_IR_TEST_CSMITH_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>

static uint32_t crc32_tab[256];
static uint32_t crc32_context = 0xFFFFFFFFUL;

static void crc32_gentab(void) {
  for (int i = 0; i < 256; i++) {
    uint32_t crc = i;
    for (int j = 8; j > 0; j--) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320UL : crc >> 1;
    crc32_tab[i] = crc;
  }
}
static void crc32_byte(uint8_t b) {
  crc32_context = ((crc32_context >> 8) & 0x00FFFFFF) ^ crc32_tab[(crc32_context ^ b) & 0xFF];
}
static void transparent_crc(uint64_t val, char *vname, int flag) {
  for (int i = 0; i < 8; i++) crc32_byte((uint8_t)(val >> (8 * i)));
  if (flag) printf("...checksum after hashing %s : %X\n", vname, crc32_context ^ 0xFFFFFFFFU);
}
static void transparent_crc_bytes(char *ptr, int nbytes, char *vname, int flag) {
  for (int i = 0; i < nbytes; i++) crc32_byte((uint8_t)ptr[i]);
  if (flag) printf("...checksum after hashing %s : %X\n", vname, crc32_context ^ 0xFFFFFFFFU);
}
static void platform_main_begin(void) {}
static void platform_main_end(uint32_t crc, int flag) { printf("checksum = %X\n", crc); }

#define SHIFT_LIMIT(T) (sizeof(T) * 8 < 32 ? 32 : (int)sizeof(T) * 8)

#define SIGNED_OPS(T, MIN, MAX)                                                                    \
  static T safe_unary_minus_func_##T##_s(T a) { return a == MIN ? a : -a; }                       \
  static T safe_add_func_##T##_s_s(T a, T b) { T r; return __builtin_add_overflow(a, b, &r) ? a : r; } \
  static T safe_sub_func_##T##_s_s(T a, T b) { T r; return __builtin_sub_overflow(a, b, &r) ? a : r; } \
  static T safe_mul_func_##T##_s_s(T a, T b) { T r; return __builtin_mul_overflow(a, b, &r) ? a : r; } \
  static T safe_div_func_##T##_s_s(T a, T b) { return (b == 0 || (a == MIN && b == -1)) ? a : a / b; } \
  static T safe_mod_func_##T##_s_s(T a, T b) { return (b == 0 || (a == MIN && b == -1)) ? a : a % b; } \
  static T safe_lshift_func_##T##_s_s(T a, int b) {                                               \
    return (a < 0 || b < 0 || b >= SHIFT_LIMIT(T) || a > (MAX >> b)) ? a : (T)(a << b); }         \
  static T safe_lshift_func_##T##_s_u(T a, unsigned b) {                                          \
    return (a < 0 || b >= (unsigned)SHIFT_LIMIT(T) || a > (MAX >> b)) ? a : (T)(a << b); }        \
  static T safe_rshift_func_##T##_s_s(T a, int b) {                                               \
    return (a < 0 || b < 0 || b >= SHIFT_LIMIT(T)) ? a : a >> b; }                                \
  static T safe_rshift_func_##T##_s_u(T a, unsigned b) {                                          \
    return (a < 0 || b >= (unsigned)SHIFT_LIMIT(T)) ? a : a >> b; }

#define UNSIGNED_OPS(T, MAX)                                                                       \
  static T safe_unary_minus_func_##T##_u(T a) { return (T)(0u - (uint64_t)a); }                   \
  static T safe_add_func_##T##_u_u(T a, T b) { return (T)((uint64_t)a + b); }                     \
  static T safe_sub_func_##T##_u_u(T a, T b) { return (T)((uint64_t)a - b); }                     \
  static T safe_mul_func_##T##_u_u(T a, T b) { return (T)((uint64_t)a * b); }                     \
  static T safe_div_func_##T##_u_u(T a, T b) { return b == 0 ? a : a / b; }                       \
  static T safe_mod_func_##T##_u_u(T a, T b) { return b == 0 ? a : a % b; }                       \
  static T safe_lshift_func_##T##_u_s(T a, int b) {                                               \
    return (b < 0 || b >= SHIFT_LIMIT(T) || a > (MAX >> b)) ? a : (T)(a << b); }                  \
  static T safe_lshift_func_##T##_u_u(T a, unsigned b) {                                          \
    return (b >= (unsigned)SHIFT_LIMIT(T) || a > (MAX >> b)) ? a : (T)(a << b); }                 \
  static T safe_rshift_func_##T##_u_s(T a, int b) {                                               \
    return (b < 0 || b >= SHIFT_LIMIT(T)) ? a : a >> b; }                                         \
  static T safe_rshift_func_##T##_u_u(T a, unsigned b) {                                          \
    return (b >= (unsigned)SHIFT_LIMIT(T)) ? a : a >> b; }

SIGNED_OPS(int8_t, INT8_MIN, INT8_MAX)
SIGNED_OPS(int16_t, INT16_MIN, INT16_MAX)
SIGNED_OPS(int32_t, INT32_MIN, INT32_MAX)
SIGNED_OPS(int64_t, INT64_MIN, INT64_MAX)
UNSIGNED_OPS(uint8_t, UINT8_MAX)
UNSIGNED_OPS(uint16_t, UINT16_MAX)
UNSIGNED_OPS(uint32_t, UINT32_MAX)
UNSIGNED_OPS(uint64_t, UINT64_MAX)
#endif
