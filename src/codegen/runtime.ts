// The runtime header every emitted translation unit starts with (spec/codegen.md, "Runtime"):
// the ABI structs, the status codes of abi.ts, failure reporting, overflow-checked and total
// (Euclidean) arithmetic, allocation, and the SIMD helper sets. It is C11 plus GCC/Clang builtins;
// nothing in it relies on undefined behaviour.
import { MAX_DIMS, STATUS } from './abi.js';

const statusDefines = Object.entries(STATUS)
  .map(([k, v]) => `#define RS_${k.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()} ${v}`)
  .join('\n');

export const RUNTIME_SCALAR = String.raw`
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdatomic.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* [${'C-STATUS'}] how a run ends */
${statusDefines}
/* [${'C-VALUE'}] a value is an int64 payload with a tag; the tag's bits make | the max of def. 2.6 */
#define RS_MAXDIM ${MAX_DIMS}
#define RS_TAG_INT 0
#define RS_TAG_RDOM 1
#define RS_TAG_MEM 3
#define RS_LIKELY(x) __builtin_expect(!!(x), 1)
#define RS_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* a name the program binds (parameter, loop variable, let) that its body may never read: no warning under -Wall */
#define RS_BOUND __attribute__((unused))
/* [C-VARIANT] which variants of the code ran since the driver cleared it: bit k for marker k */
static uint64_t rs_ran __attribute__((unused));
#define RS_RAN(k) ((void)__atomic_fetch_or(&rs_ran, (uint64_t)1 << (k), __ATOMIC_RELAXED))

/* ABI: the result of one run (spec/codegen.md, "ABI"). */
typedef struct refsem_result {
  int status;                         /* RS_OK or a failure status */
  int ndims;                          /* dimensions of the output buffer */
  int64_t min[RS_MAXDIM], len[RS_MAXDIM]; /* its allocation bounds */
  int64_t *data;                      /* points, first dimension fastest (malloc; caller frees) */
  uint8_t *tag;                       /* per point: 0 written integer, 1 err.rdom, 3 err.mem; NULL = all 0 */
  char op;                            /* RS_OVERFLOW: the operator ('+', '-', '*', '/', 'c' constant) */
  int64_t a, b;                       /* RS_OVERFLOW: its operands */
  char message[512];                  /* a failure, in words */
} refsem_result;

typedef struct rs_alloc {
  void *data;                         /* payloads: int64_t, or int32_t under [C-STORAGE] */
  uint8_t *tag;
  int ndims;
  int64_t min[RS_MAXDIM], len[RS_MAXDIM];
  int64_t points;                     /* product of len */
  int clean;                          /* [C-CLEAN]: 1 only if every tag is known to be 0 */
  size_t cap;                         /* bytes of the block at data */
} rs_alloc;

/* Failure: the first failure of a run is recorded, then control unwinds to the innermost
   recovery point (the pipeline entry, or one iteration of a parallel loop). */
static refsem_result *rs_res;
static atomic_int rs_failed;
static _Thread_local jmp_buf *rs_jb;

__attribute__((noreturn, cold, noinline)) static void rs_unwind(void) { longjmp(*rs_jb, 1); }

__attribute__((cold, noinline, format(printf, 2, 3))) static void rs_record(int status, const char *fmt, ...) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&rs_failed, &expected, 1)) {
    va_list ap;
    va_start(ap, fmt);
    rs_res->status = status;
    vsnprintf(rs_res->message, sizeof rs_res->message, fmt, ap);
    va_end(ap);
  }
}

#define rs_fail(...) (rs_record(__VA_ARGS__), rs_unwind())

__attribute__((noreturn, cold, noinline)) static void rs_overflow(char op, int64_t a, int64_t b) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&rs_failed, &expected, 1)) {
    rs_res->status = RS_OVERFLOW;
    rs_res->op = op;
    rs_res->a = a;
    rs_res->b = b;
    snprintf(rs_res->message, sizeof rs_res->message, "integer overflow: %lld %c %lld does not fit in 64 bits",
             (long long)a, op, (long long)b);
  }
  rs_unwind();
}

/* [${'C-ARITH'}] overflow-checked arithmetic; Euclidean div and mod, total on 0 */
static inline int64_t rs_add(int64_t a, int64_t b) {
  int64_t r;
  if (RS_UNLIKELY(__builtin_add_overflow(a, b, &r))) rs_overflow('+', a, b);
  return r;
}
static inline int64_t rs_sub(int64_t a, int64_t b) {
  int64_t r;
  if (RS_UNLIKELY(__builtin_sub_overflow(a, b, &r))) rs_overflow('-', a, b);
  return r;
}
static inline int64_t rs_mul(int64_t a, int64_t b) {
  int64_t r;
  if (RS_UNLIKELY(__builtin_mul_overflow(a, b, &r))) rs_overflow('*', a, b);
  return r;
}
/* [C-PROVED] operations whose ranges were proved at loop entry: two's complement, never UB. */
static inline int64_t rs_wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t rs_wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t rs_wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
/* Euclidean quotient and remainder, total on 0 (x div 0 = x mod 0 = 0). The remainder lies in
   [0, |b|); r - b and r + b below never overflow because |r| < |b|. */
static inline int64_t rs_mod(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  int64_t r = a % b;
  if (r < 0) r = b < 0 ? r - b : r + b;
  return r;
}
static inline int64_t rs_div(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (RS_UNLIKELY(a == INT64_MIN && b == -1)) rs_overflow('/', a, b);
  int64_t q = a / b, r = a % b;
  if (r < 0) q = b > 0 ? q - 1 : q + 1;
  return q;
}
/* C's truncating division, total on 0: only the planted fault truncatingDiv uses these. */
static inline int64_t rs_tdiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (RS_UNLIKELY(a == INT64_MIN && b == -1)) rs_overflow('/', a, b);
  return a / b;
}
static inline int64_t rs_tmod(int64_t a, int64_t b) { return (b == 0 || b == -1) ? 0 : a % b; }
static inline int64_t rs_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t rs_max(int64_t a, int64_t b) { return a > b ? a : b; }

/* [ALLOC]: every point starts as err.mem. Sizes are checked so that no offset computation of an
   in-bounds point can overflow. */
static int64_t rs_alloc_limit = INT64_C(1) << 28; /* points; the driver may lower it */

static void rs_free(rs_alloc *b) {
  free(b->data);
  b->data = NULL;
  b->tag = NULL;
  b->clean = 0;
  b->cap = 0;
}

/* payload: the bytes of one point's payload, 8 or 4 ([C-STORAGE]) */
static void rs_allocate(rs_alloc *b, const char *func, int n, const int64_t *min, const int64_t *len, size_t payload) {
  /* An extent of 0 makes the buffer empty whatever the other extents are, as in the reference. */
  int64_t size = 1;
  for (int i = 0; i < n; i++)
    if (len[i] == 0) size = 0;
  for (int i = 0; i < n && size > 0; i++)
    if (__builtin_mul_overflow(size, len[i], &size) || size > rs_alloc_limit)
      rs_fail(RS_ALLOC_FAILED, "allocation of '%s' is larger than the limit of %lld points", func, (long long)rs_alloc_limit);
  size_t points = (size_t)(size > 0 ? size : 1);
  /* Payloads of unwritten points are never used (their tag is err.mem), so they stay uninitialized,
     and a block that is large enough is kept from the buffer's last allocation: a buffer allocated
     per tile of a compute-at is allocated thousands of times at about the same size. One block
     holds the payloads, then the tags. */
  size_t bytes = points * (payload + 1);
  if (!b->data || b->cap < bytes) {
    rs_free(b);
    b->data = malloc(bytes);
    if (!b->data) rs_fail(RS_ALLOC_FAILED, "out of memory allocating '%s' (%lld points)", func, (long long)size);
    b->cap = bytes;
  }
  b->clean = 0;
  b->ndims = n;
  for (int i = 0; i < n; i++) {
    b->min[i] = min[i];
    b->len[i] = len[i];
  }
  b->tag = (uint8_t *)b->data + points * payload;
  memset(b->tag, RS_TAG_MEM, points);
  b->points = size;
}

/* The caller frees the result's payloads and tags separately (spec/codegen.md, [C-ABI]);
   the output's tags share its payloads' block, so they leave in a block of their own. */
static uint8_t *rs_tags_out(const rs_alloc *b, const char *func) {
  size_t n = (size_t)(b->points > 0 ? b->points : 1);
  uint8_t *t = malloc(n);
  if (!t) rs_fail(RS_ALLOC_FAILED, "out of memory returning the tags of '%s' (%lld points)", func, (long long)b->points);
  memcpy(t, b->tag, n);
  return t;
}

/* [C-CLEAN]: whether every point of the buffer holds an integer, by its flag or else by reading
   all its tags (eight at a time, without branches); a scan that finds none sets the flag, which
   stays set until a store writes an error tag or the buffer is allocated again. */
__attribute__((unused)) static int rs_clean(rs_alloc *b) {
  if (__atomic_load_n(&b->clean, __ATOMIC_RELAXED)) return 1;
  if (!b->tag) return 0;
  uint64_t any = 0;
  int64_t k = 0;
  for (; k + 8 <= b->points; k += 8) {
    uint64_t w;
    memcpy(&w, b->tag + k, sizeof w);
    any |= w;
  }
  for (; k < b->points; k++) any |= b->tag[k];
  if (any) return 0;
  __atomic_store_n(&b->clean, 1, __ATOMIC_RELAXED);
  return 1;
}

/* The text of a point for messages: "(3, -1)". */
static const char *rs_point(char *buf, size_t cap, int n, const int64_t *p) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, cap - k, "(");
  for (int i = 0; i < n && k < cap; i++) k += (size_t)snprintf(buf + k, cap - k, i ? ", %lld" : "%lld", (long long)p[i]);
  if (k < cap) snprintf(buf + k, cap - k, ")");
  return buf;
}

/* Unused by unchecked builds, which must still compile warning-free under -Wall -Wextra. */
__attribute__((noreturn, cold, noinline, unused)) static void rs_oob(int status, const char *func, const char *site, int n, const int64_t *p,
                                                             const uint8_t *ptag, const rs_alloc *b) {
  char pt[256], lo[256], ln[256];
  int err = 0;
  for (int i = 0; i < n; i++) err |= ptag ? ptag[i] : 0;
  if (err) snprintf(pt, sizeof pt, "a point with an error value");
  else rs_point(pt, sizeof pt, n, p);
  rs_fail(status, "%s of '%s' at %s outside its allocation min %s len %s (%s)", status == RS_OOB_READ ? "read" : "write", func, pt,
          b->data ? rs_point(lo, sizeof lo, b->ndims, b->min) : "-", b->data ? rs_point(ln, sizeof ln, b->ndims, b->len) : "-", site);
}

/* InBounds (def. 2.13): every coordinate inside the allocation. */
static inline int rs_inbounds(const rs_alloc *b, int n, const int64_t *p) {
  for (int i = 0; i < n; i++)
    if ((uint64_t)(p[i] - (uint64_t)b->min[i]) >= (uint64_t)b->len[i]) return 0;
  return 1;
}

/* [C-NARROW], [C-PROVED]: range ends evaluated exactly at loop entry, in 128 bits; an end beyond
   2^62 proves nothing. */
typedef __int128 rs_q;
#define RS_Q_LIM ((rs_q)1 << 62)
static inline rs_q rs_q_chk(rs_q v, int *bad) {
  if (v > RS_Q_LIM || v < -RS_Q_LIM) { *bad = 1; return 0; }
  return v;
}
static inline rs_q rs_q_div(rs_q a, rs_q b) {
  if (b == 0) return 0;
  rs_q q = a / b, r = a % b;
  return r < 0 ? (b > 0 ? q - 1 : q + 1) : q;
}
static inline rs_q rs_q_mod(rs_q a, rs_q b) {
  if (b == 0) return 0;
  rs_q r = a % b;
  return r < 0 ? (b > 0 ? r + b : r - b) : r;
}
static inline rs_q rs_q_min(rs_q a, rs_q b) { return a < b ? a : b; }
static inline rs_q rs_q_max(rs_q a, rs_q b) { return a > b ? a : b; }
static inline rs_q rs_q_sel(rs_q c, rs_q t, rs_q f) { return c != 0 ? t : f; }
static inline int rs_q_fits32(rs_q v) { return v >= INT32_MIN && v <= INT32_MAX; }
static inline int rs_q_fits64(rs_q v) { return v >= INT64_MIN && v <= INT64_MAX; }
`;
