/*
** sm2c_rt.h: the sm2c runtime, portable C99 kernels that generated code calls.
**
** No heap, no stdio, no threads.  Every kernel is a plain function of typed
** pointers and int32_t sizes; the compiler has proved that every size and
** index fits in int32_t and that buffers do not alias unless a kernel says it
** allows it.  Tensors are dense, row-major, little-endian.  Shapes and strides
** that a kernel needs arrive as `const int32_t *` arrays the generated code
** keeps as static constants.
**
** Names: sm2c_rt_<op>_<dtype>, dtype one of f32 f64 i32 i64 (u8 i8 i16 u16
** u32 u64 b (bool as uint8_t 0/1) for casts).  Private helpers: sm2c_rt__.
*/
#ifndef SM2C_RT_H
#define SM2C_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SM2C_RT_MAX_RANK 8

/* "MAJOR.MINOR.PATCH" of the runtime the generated code was made for.  0.2:
** the float conv, depthwise, matmul and matvec kernels take the fused
** activation as (act, act_a, act_b). */
#define SM2C_RT_VERSION "0.2.0"
const char *sm2c_rt_version(void);

/* Status codes.  Kernels that read data-dependent indices (Gather, OneHot,
** ...) check them and return one of these; the generated entry point returns
** it unchanged.  Everything else cannot fail at run time. */
#define SM2C_RT_OK 0
#define SM2C_RT_ERR_INDEX (-1)  /* an index input is out of range */
#define SM2C_RT_ERR_VALUE (-2)  /* an input value has no defined result (integer division by zero) */
#define SM2C_RT_ERR_BATCH (-3)  /* --max-batch entry: the batch is below 1 or above the maximum */
#define SM2C_RT_ERR_ITERATIONS (-4) /* a loop ran more times than its compile-time cap
                                     ** (sm2c --limit loop-iterations=N) */
#define SM2C_RT_ERR_NUMERICS (-5) /* CheckNumerics found a NaN or an infinity */
#define SM2C_RT_ERR_ASSERT (-6)   /* an Assert's condition was false */
#define SM2C_RT_ERR_EXAMPLE (-7)  /* ParseExample: a serialized tf.Example is malformed, lacks a
                                   ** required feature, or has one of the wrong kind or count */
#define SM2C_RT_ERR_STRING (-8)   /* a string is longer than a text op's compile-time bound
                                   ** (sm2c --limit string-bytes=N) */

/* A string tensor element (TensorFlow DT_STRING, dtype 7): `len` bytes at
** `data`, any bytes, not NUL-terminated (data may be NULL when len is 0).  A
** string input is an array of these, 16 bytes each on every target sm2c
** supports (checked here).  Generated headers that take strings
** declare the same type under the same guard, so models and the runtime link
** together. */
#ifndef SM2C_STRING_DEFINED
#define SM2C_STRING_DEFINED
typedef struct sm2c_string {
    const uint8_t *data;
    int64_t len;
} sm2c_string;
typedef char sm2c_string_is_16_bytes[sizeof(sm2c_string) == 16 ? 1 : -1];
#endif

/* Upper bound, in bytes, of the stack any entry point and the kernels it calls
** use: no recursion, no VLAs, scratch in the arena; checked against
** -fcallgraph-info at -O0 and -O2 by tests/cli/stack_budget.sh (library calls
** counted 2 KB each).  Generated headers state a tighter bound per program
** (NAME_STACK_SIZE, codegen/footprint.c); this is its fallback.  8 KB: at -O0
** the AVX-512 convolution kernels keep their accumulators in memory (7 KB);
** optimised, and on a Cortex-M, an entry point needs a few hundred bytes. */
#define SM2C_RT_STACK_BYTES 8192

/* Fused activations (MatMul, Conv2D, DepthwiseConv2d, BiasAdd): a float32
** kernel takes `int32_t act, float act_a, float act_b`, the kind and its
** parameters: LeakyRelu's alpha in act_a; clip's lo and hi in act_a and
** act_b (lo <= hi, neither NaN; ClipByValue's min-then-max); the others
** ignore them (pass 0).  Why two scalars rather than a parameter array or a
** struct: every kernel and backend already passes float32 literals by value
** (no new argument kind, no static array to plan or fold), the codes
** 0..2 keep their meaning, and any later activation of at most two
** parameters (hard sigmoid's slope and offset, ELU's alpha) fits without
** another signature change.  Sigmoid is Sigmoid's (unary_f32.c); hard-swish
** is x * (relu6(x + 3) / 6) as Keras writes it.  The float64 MatMul and
** Conv3D take only NONE, RELU and RELU6 and no parameters. */
enum { SM2C_RT_ACT_NONE = 0, SM2C_RT_ACT_RELU = 1, SM2C_RT_ACT_RELU6 = 2,
       SM2C_RT_ACT_LEAKY_RELU = 3, SM2C_RT_ACT_CLIP = 4, SM2C_RT_ACT_SIGMOID = 5,
       SM2C_RT_ACT_HARD_SWISH = 6 };

/* ---- data movement (movement.c) -------------------------------------------
** One kernel moves data for Transpose, Slice, StridedSlice, Concat, Pack, Pad,
** Tile, BroadcastTo, ReverseV2 and copies: for every index i of the `rank`-D
** box `dims`, y[y_off + sum(i[k]*y_strides[k])] = x[x_off + sum(i[k]*x_strides[k])].
** Offsets and strides are in elements and may be negative or zero (broadcast).
** x and y must not overlap. */
void sm2c_rt_copy_strided(const void *x, int32_t x_off, const int32_t *x_strides,
                          void *y, int32_t y_off, const int32_t *y_strides,
                          int32_t rank, const int32_t *dims, int32_t elem_size);
/* A float convolution's zero-padded input (pad_copy_f32.c): x [N, H, W, C]
** into y [N, HP, WP, C], x's pixel (h, w) at (h + PT, w + PL), zeros
** elsewhere; x's columns past WP - PL are left out (a VALID window's unread
** ones); d = {N, H, W, C, HP, WP, PT, PL}. */
void sm2c_rt_pad_copy_f32(const float *x, float *y, const int32_t *d);
/* check_indices.c: SM2C_RT_OK when lo <= idx[i] < hi for all i < n, else
** SM2C_RT_ERR_INDEX.  Called before kernels that index with run-time data. */
int32_t sm2c_rt_check_indices_i32(const int32_t *idx, int32_t n, int32_t lo, int32_t hi);
int32_t sm2c_rt_check_indices_i64(const int64_t *idx, int32_t n, int32_t lo, int32_t hi);
/* The same for the first *n_count (or n) indices against [0, *hi): a
** GatherV2 along a dim whose size is a run-time count. */
int32_t sm2c_rt_check_indices_dyn_i32(const int32_t *idx, int32_t n, const int64_t *n_count, const int64_t *hi);
int32_t sm2c_rt_check_indices_dyn_i64(const int64_t *idx, int32_t n, const int64_t *n_count, const int64_t *hi);
/* check.c: CheckNumerics (SM2C_RT_ERR_NUMERICS on a NaN or an infinity; f16
** and bf16 as their uint16_t bits) and Assert (SM2C_RT_ERR_ASSERT on a false
** element of the condition). */
int32_t sm2c_rt_check_finite_f32(const float *x, int32_t n);
int32_t sm2c_rt_check_finite_f64(const double *x, int32_t n);
int32_t sm2c_rt_check_finite_f16(const uint16_t *x, int32_t n);
int32_t sm2c_rt_check_finite_bf16(const uint16_t *x, int32_t n);
int32_t sm2c_rt_check_true_b(const uint8_t *cond, int32_t n);
/* parse_example.c: one dense feature of ParseExample / ParseExampleV2 from n
** serialized tf.Example protos: out[i * count, (i + 1) * count) gets example
** i's values of the feature whose key is the key_len bytes key[0..key_len)
** (one byte per int32_t), of TF dtype 1 (float) or 9 (int64), or the count
** values at deflt when the example lacks it (deflt NULL: the feature is
** required).  SM2C_RT_ERR_EXAMPLE on malformed wire data, a missing required
** feature, a kind other than dtype or a value count other than count. */
int32_t sm2c_rt_parse_example_dense(const sm2c_string *serialized, int32_t n, const int32_t *key,
                                    int32_t key_len, int32_t dtype, int32_t count,
                                    const void *deflt, void *out);
/* parse_example_sparse.c: one sparse feature (float, dtype 1, int64, 9, or
** string, 7: sm2c_string values pointing into serialized) of
** ParseExample / ParseExampleV2 from n serialized protos (rank 1; rank 0: one
** scalar proto), at most max_per values per example: indices
** [n * max_per][rank + 1], values [n * max_per], *count the number there (rows
** past it zero), dense_shape [rank + 1].  SM2C_RT_ERR_EXAMPLE on malformed
** wire data, a kind other than dtype or more than max_per values. */
int32_t sm2c_rt_parse_example_sparse(const sm2c_string *serialized, int32_t n, int32_t rank,
                                     const int32_t *key, int32_t key_len, int32_t dtype, int32_t max_per,
                                     int64_t *indices, void *values, int64_t *count, int64_t *dense_shape);
/* search_sorted.c: UpperBound (upper) / LowerBound: y[b][i] = where
** std::upper_bound / std::lower_bound puts values[b][i] in sorted[b][0..n). */
#define SM2C_RT_SEARCH_SORTED(sfx, T, ox, O)                                               \
    void sm2c_rt_search_sorted_##sfx##_##ox(const T *sorted, const T *values, O *y, int32_t batch, \
                                            int32_t n, int32_t m, int32_t upper);
SM2C_RT_SEARCH_SORTED(f32, float, i32, int32_t)
SM2C_RT_SEARCH_SORTED(f32, float, i64, int64_t)
SM2C_RT_SEARCH_SORTED(i32, int32_t, i32, int32_t)
SM2C_RT_SEARCH_SORTED(i32, int32_t, i64, int64_t)
SM2C_RT_SEARCH_SORTED(i64, int64_t, i32, int32_t)
SM2C_RT_SEARCH_SORTED(i64, int64_t, i64, int64_t)
/* string_hash.c: StringToHashBucketFast, y[i] = farmhash Fingerprint64(x[i])
** modulo buckets (as TensorFlow, bit-exact): the uint64 whose high 32 bits are
** hi's and low 32 bits lo's (0 buckets: y = 0). */
void sm2c_rt_string_to_hash_bucket(const sm2c_string *x, int64_t *y, int32_t n, int32_t hi, int32_t lo);
/* string_const.c: y[i] = bytes [ends[i - 1], ends[i]) of a packed string
** constant (ends[-1] taken as 0): the compiler's string constants, which hold
** no pointers, as sm2c_string elements. */
void sm2c_rt_string_const(sm2c_string *y, const uint8_t *bytes, const int64_t *ends, int32_t n);
/* lookup_table.c: LookupTableFindV2 on a table baked in at compile time, its
** keys sorted (strings: memcmp order, a prefix first; packed like
** string_const's), values[k] the value of key k: y[i] is the value of x[i],
** or *dflt when the table has no such key. */
void sm2c_rt_lookup_table_str_i64(const sm2c_string *x, int64_t *y, int32_t n, const uint8_t *bytes,
                                  const int64_t *ends, const int64_t *values, int32_t n_keys,
                                  const int64_t *dflt);
void sm2c_rt_lookup_table_i64_i64(const int64_t *x, int64_t *y, int32_t n, const int64_t *keys,
                                  const int64_t *values, int32_t n_keys, const int64_t *dflt);
/* Text preprocessing (compiler/ops/ops_text.c).  string_lower.c: StringLower
** (ASCII letters, other bytes kept) into slots of `slot` bytes of text;
** regex_replace.c: StaticRegexReplace of a byte-set pattern (set: 256 bits in
** 8 words, plus: runs) into slots of in_max * max(1, rewrite_len) bytes;
** string_split.c: StringSplitV2 / StringSplit (mode 0-4, string_split.c) into
** at most bound tokens; all SM2C_RT_ERR_STRING for an element longer than
** their bound.  ragged_rowids.c: RaggedTensorToTensor from FIRST_DIM_SIZE and
** VALUE_ROWIDS (SM2C_RT_ERR_INDEX on bad row ids).  compare_str.c: Equal and
** NotEqual of strings, broadcasting as SM2C_RT_BINARY. */
int32_t sm2c_rt_string_lower(const sm2c_string *x, sm2c_string *y, uint8_t *text, int32_t n, int32_t slot);
/* string_lower_utf8.c: StringLower with encoding "utf-8" (ICU's toLower as
** TensorFlow runs it) by the compiler's tables (map runs first, last, delta,
** stride; cased and case-ignorable ranges), elements of at most in_max
** bytes into slots of 3 * in_max bytes of text. */
int32_t sm2c_rt_string_lower_utf8(const sm2c_string *x, sm2c_string *y, uint8_t *text, int32_t n, int32_t in_max,
                                  const int32_t *map, int32_t map_len, const int32_t *cased, int32_t cased_len,
                                  const int32_t *ign, int32_t ign_len);
int32_t sm2c_rt_regex_replace(const sm2c_string *x, sm2c_string *y, uint8_t *text, int32_t n, int32_t in_max,
                              const int32_t *set, int32_t plus, int32_t global, const int32_t *rewrite,
                              int32_t rewrite_len);
int32_t sm2c_rt_string_split(const sm2c_string *x, int32_t n, int32_t in_max, const int32_t *sep, int32_t sep_len,
                             int32_t mode, int32_t bound, int64_t *indices, sm2c_string *values, int64_t *count,
                             int64_t *shape);
#define SM2C_RT_RAGGED_ROWIDS(T, sfx)                                                          \
    int32_t sm2c_rt_ragged_rowids_to_tensor_##sfx(const T *values, const int64_t *rowids,      \
                                                 int32_t n, const int64_t *count,              \
                                                 int32_t nrows, const T *dflt, T *y,           \
                                                 int32_t rows, int32_t cols);
SM2C_RT_RAGGED_ROWIDS(int64_t, i64)
SM2C_RT_RAGGED_ROWIDS(int32_t, i32)
SM2C_RT_RAGGED_ROWIDS(float, f32)
void sm2c_rt_equal_str(const sm2c_string *a, const sm2c_string *b, uint8_t *y, int32_t rank, const int32_t *dims,
                       const int32_t *sa, const int32_t *sb);
void sm2c_rt_not_equal_str(const sm2c_string *a, const sm2c_string *b, uint8_t *y, int32_t rank,
                           const int32_t *dims, const int32_t *sa, const int32_t *sb);
/* concat_str.c: Add of strings (concatenation), broadcasting as
** SM2C_RT_BINARY, each result in its slot of text (SM2C_RT_ERR_STRING when
** longer than slot). */
int32_t sm2c_rt_concat_str(const sm2c_string *a, const sm2c_string *b, sm2c_string *y, int32_t rank,
                           const int32_t *dims, const int32_t *sa, const int32_t *sb, uint8_t *text, int32_t slot);
/* reduce_join.c: ReduceJoin of all strings (the first *count) into y[0], in
** a slot of text (SM2C_RT_ERR_STRING when longer). */
int32_t sm2c_rt_reduce_join(const sm2c_string *x, int32_t n, const int64_t *count, const int32_t *sep,
                            int32_t sep_len, sm2c_string *y, uint8_t *text, int32_t slot);
/* text_bincount.c: TextVectorization's bincounts into int64 counts (negative
** values, bad splits: SM2C_RT_ERR_INDEX).  dyn_fill.c: rows past a count set
** to the lowest / highest integer before a Max / Min over them. */
int32_t sm2c_rt_text_bincount_i32(const int32_t *x, int32_t n, const int64_t *count, int64_t *y, int32_t size,
                                  int32_t binary);
int32_t sm2c_rt_text_bincount_i64(const int64_t *x, int32_t n, const int64_t *count, int64_t *y, int32_t size,
                                  int32_t binary);
int32_t sm2c_rt_ragged_bincount_i64(const int64_t *splits, int32_t rows, const int64_t *values, int32_t n,
                                    const int64_t *count, int64_t *y, int32_t size, int32_t binary);
void sm2c_rt_dyn_fill_extreme_i32(int32_t *x, const int64_t *count, int32_t outer, int32_t bound, int32_t inner,
                                  int32_t lowest);
void sm2c_rt_dyn_fill_extreme_i64(int64_t *x, const int64_t *count, int32_t outer, int32_t bound, int32_t inner,
                                  int32_t lowest);
/* as_string.c: AsString with the default attributes (TensorFlow's "%d",
** "%lld" and "%f"): element i's text goes to buf + i * SLOT bytes and y[i]
** points at it, so the strings live as long as buf (the lowering keeps it to
** the end of the entry).  SLOT is the longest text: "-2147483648",
** "-9223372036854775808", -FLT_MAX with 6 decimals. */
#define SM2C_RT_AS_STRING_I32_SLOT 11
#define SM2C_RT_AS_STRING_I64_SLOT 20
#define SM2C_RT_AS_STRING_F32_SLOT 48
void sm2c_rt_as_string_i32(const int32_t *x, sm2c_string *y, uint8_t *buf, int32_t n);
void sm2c_rt_as_string_i64(const int64_t *x, sm2c_string *y, uint8_t *buf, int32_t n);
void sm2c_rt_as_string_f32(const float *x, sm2c_string *y, uint8_t *buf, int32_t n);
/* y[0..n) = *value (elem_size bytes), for Fill, Pad and ZerosLike. */
void sm2c_rt_fill(void *y, const void *value, int32_t elem_size, int32_t n);
/* memcpy of n bytes; x == y is allowed (does nothing). */
void sm2c_rt_copy(void *y, const void *x, int32_t n_bytes);
/* widen_f16.c: y[i] = x[i], float16 bits widened to float32 (exact), for the
** float16 weights of --quantize float16. */
void sm2c_rt_widen_f16_f32(const uint16_t *x, float *y, int32_t n);
/* widen_s4.c: int4 values packed two to a byte as TFLite's INT4 tensors are
** (element 2i in the low nibble of x[i], 2i+1 in the high one, two's
** complement; an odd n leaves the last high nibble unread) widened to int8
** y[0..n), for the int4 weights of --weights-bits 4. */
void sm2c_rt_widen_s4_s8(const uint8_t *x, int8_t *y, int32_t n);

/* ---- movement family: gathers, scatters, selections, sequences -------------
** Kernels that index with run-time data return SM2C_RT_OK or
** SM2C_RT_ERR_INDEX and check every index before they read or write: an
** out-of-range index touches no memory (reliability.md section 6, rule 4).
** The suffix <ix> is the index type (i32, i64).  Elements move by memcpy of
** elem_size bytes, so one kernel serves every element type.
**
** gather.c, GatherV2 and ResourceGather.  p = {batch, outer, axis, inner, n}:
**   y[b][o][i][:] = params[b][o][idx[b*n + i]][:] (inner elements each), for
**   i < n; every index in [0, axis).
** gather_nd.c, GatherNd: n index tuples of depth k into params whose first k
**   dims are dims[0..k); each picks a slice of `slice` elements.
** one_hot.c, OneHot: y[o][d][i] = idx[o*inner + i] == d ? *on : *off; an index
**   outside [0, depth) gives an all-off row, as TensorFlow does.  Never fails.
** sequence.c, InvertPermutation: y[x[i]] = i; an x that is not a permutation
**   of [0, n) is an error, as in TensorFlow.
** sequence.c, ReverseSequence: x is viewed as [p0, p1, p2, p3, p4] with the
**   batch dim at 1 and the sequence dim at 3 (p5 = 0), or the other way round
**   (p5 = 1); the first lens[b] elements along the sequence dim are reversed,
**   each lens[b] in [0, sequence dim]. */
#define SM2C_RT_INDEXED(ix, I)                                                             \
    int32_t sm2c_rt_gather_##ix(const void *params, const I *idx, void *y, const int32_t *p, \
                                int32_t elem_size);                                         \
    int32_t sm2c_rt_gather_nd_##ix(const void *params, const I *idx, void *y, int32_t n,      \
                                   int32_t k, const int32_t *dims, int32_t slice,           \
                                   int32_t elem_size);                                      \
    void sm2c_rt_one_hot_##ix(const I *idx, const void *on, const void *off, void *y,        \
                              int32_t outer, int32_t depth, int32_t inner, int32_t elem_size); \
    int32_t sm2c_rt_invert_permutation_##ix(const I *x, I *y, int32_t n);                   \
    int32_t sm2c_rt_reverse_sequence_##ix(const void *x, const I *lens, void *y,            \
                                          const int32_t *p, int32_t elem_size);
SM2C_RT_INDEXED(i32, int32_t)
SM2C_RT_INDEXED(i64, int64_t)
/* segment.c, UnsortedSegment{Sum,Prod,Max,Min} (sorted 0) and
** Segment{Sum,Max,Min,Mean} (sorted 1): row i of x (n_ids rows of `row`
** elements) folds into row ids[i] of y (n_seg rows).  An id >= n_seg, or a
** negative id when sorted, is SM2C_RT_ERR_INDEX before anything is written; a
** negative id drops its row when unsorted.  Empty segments hold the fold's
** identity (sum 0, prod 1, max lowest, min highest) unsorted, 0 sorted.
** counts: n_seg int32_t of scratch. */
#define SM2C_RT_SEGMENT(op, T, sfx, ix, I)                                                  \
    int32_t sm2c_rt_segment_##op##_##sfx##_##ix(const T *x, const I *ids, T *y, int32_t n_ids, \
                                                int32_t row, int32_t n_seg, int32_t sorted, \
                                                int32_t *counts);
#define SM2C_RT_SEGMENTS(T, sfx, ix, I)                                                     \
    SM2C_RT_SEGMENT(sum, T, sfx, ix, I) SM2C_RT_SEGMENT(prod, T, sfx, ix, I)                \
    SM2C_RT_SEGMENT(max, T, sfx, ix, I) SM2C_RT_SEGMENT(min, T, sfx, ix, I)                 \
    SM2C_RT_SEGMENT(mean, T, sfx, ix, I)
SM2C_RT_SEGMENTS(float, f32, i32, int32_t)
SM2C_RT_SEGMENTS(float, f32, i64, int64_t)
#define SM2C_RT_SEGMENTS_BY(T, sfx) SM2C_RT_SEGMENTS(T, sfx, i32, int32_t) SM2C_RT_SEGMENTS(T, sfx, i64, int64_t)
SM2C_RT_SEGMENTS_BY(double, f64) SM2C_RT_SEGMENTS_BY(int32_t, i32) SM2C_RT_SEGMENTS_BY(int64_t, i64)
SM2C_RT_SEGMENTS_BY(int8_t, i8) SM2C_RT_SEGMENTS_BY(int16_t, i16)
SM2C_RT_SEGMENTS_BY(uint8_t, u8) SM2C_RT_SEGMENTS_BY(uint16_t, u16)
SM2C_RT_SEGMENTS_BY(uint32_t, u32) SM2C_RT_SEGMENTS_BY(uint64_t, u64)
/* float16 and bfloat16 as their bits, folded and divided in the half type. */
SM2C_RT_SEGMENTS_BY(uint16_t, f16) SM2C_RT_SEGMENTS_BY(uint16_t, bf16)
/* scatter_nd.c, ScatterNd: y (dims[0..k), then `slice` elements) is zeroed,
** then each of the n updates is added at its index tuple, in order (duplicates
** sum; integers wrap around; bool ors).  Named by data type, then index type.
** The _str kernels start each output string empty in its slot of text (slot
** bytes) and append the updates aimed at it, in order, as TensorFlow
** concatenates them (SM2C_RT_ERR_STRING when longer than slot). */
#define SM2C_RT_SCATTER_ND(sfx, T, ix, I)                                                  \
    int32_t sm2c_rt_scatter_nd_##sfx##_##ix(const I *idx, const T *updates, T *y, int32_t n, \
                                            int32_t k, const int32_t *dims, int32_t slice);
#define SM2C_RT_SCATTER_ND_ALL(ix, I)                                                      \
    SM2C_RT_SCATTER_ND(f32, float, ix, I) SM2C_RT_SCATTER_ND(f64, double, ix, I)            \
    SM2C_RT_SCATTER_ND(i32, int32_t, ix, I)                                                \
    SM2C_RT_SCATTER_ND(i64, int64_t, ix, I) SM2C_RT_SCATTER_ND(i8, int8_t, ix, I)           \
    SM2C_RT_SCATTER_ND(i16, int16_t, ix, I) SM2C_RT_SCATTER_ND(u8, uint8_t, ix, I)          \
    SM2C_RT_SCATTER_ND(u16, uint16_t, ix, I) SM2C_RT_SCATTER_ND(u32, uint32_t, ix, I)       \
    SM2C_RT_SCATTER_ND(u64, uint64_t, ix, I) SM2C_RT_SCATTER_ND(b, uint8_t, ix, I)          \
    int32_t sm2c_rt_scatter_nd_str_##ix(const I *idx, const sm2c_string *updates, sm2c_string *y, int32_t n, \
                                        int32_t k, const int32_t *dims, int32_t slice, uint8_t *text, int32_t slot);
SM2C_RT_SCATTER_ND_ALL(i32, int32_t)
SM2C_RT_SCATTER_ND_ALL(i64, int64_t)
/* scatter_update.c, TensorScatterUpdate: y holds the tensor (dims[0..k), then
** `slice` elements of elem_size bytes); each of the n updates' slices is
** written at its index tuple, in order (the last of repeated tuples wins).
** A tuple out of range is SM2C_RT_ERR_INDEX before anything is written.
** update_slice.c, XlaDynamicUpdateSlice: y (ydims) holds the operand; the
** update box (udims, each <= ydims) is written at start, each start clamped
** into [0, ydims[d] - udims[d]] as XLA does.  Never fails. */
#define SM2C_RT_SCATTER_UPDATE(ix, I)                                                      \
    int32_t sm2c_rt_scatter_update_##ix(const I *idx, const void *updates, void *y, int32_t n, \
                                        int32_t k, const int32_t *dims, int32_t slice,     \
                                        int32_t elem_size);                                \
    void sm2c_rt_update_slice_##ix(void *y, const void *update, const I *start, int32_t rank, \
                                   const int32_t *ydims, const int32_t *udims, int32_t elem_size);
SM2C_RT_SCATTER_UPDATE(i32, int32_t)
SM2C_RT_SCATTER_UPDATE(i64, int64_t)
/* bincount.c, DenseBincount: `rows` rows of n values x into rows of `size`
** bins y: each value's count, the sum of its weights w (x's layout; NULL for
** none) in order, or 1 when binary.  Values >= size are dropped; a negative
** one is SM2C_RT_ERR_INDEX before anything is written.  Named by the bins'
** type, then the values'. */
#define SM2C_RT_BINCOUNT(sfx, T, ix, I)                                                    \
    int32_t sm2c_rt_bincount_##sfx##_##ix(const I *x, const T *w, T *y, int32_t rows,       \
                                          int32_t n, int32_t size, int32_t binary);
#define SM2C_RT_BINCOUNT_ALL(ix, I)                                                        \
    SM2C_RT_BINCOUNT(f32, float, ix, I) SM2C_RT_BINCOUNT(f64, double, ix, I)                \
    SM2C_RT_BINCOUNT(i32, int32_t, ix, I) SM2C_RT_BINCOUNT(i64, int64_t, ix, I)
SM2C_RT_BINCOUNT_ALL(i32, int32_t)
SM2C_RT_BINCOUNT_ALL(i64, int64_t)
/* ragged_to_tensor.c, RaggedTensorToTensor of one ragged dim: nvals values
** (cells of `inner` elements of elem_size bytes) partitioned into rows by
** part, n_part row splits (by_rowids 0) or nvals value row ids of a tensor of
** n_part rows (by_rowids 1), into y, nrows x ncols cells: value c of row r at
** (r, c) where both fit, the default (dflt_n elements: 1, or inner)
** elsewhere; values past the last split are dropped.  A partition that is not
** well formed (splits from 0, ids in [0, n_part), never decreasing) is
** SM2C_RT_ERR_INDEX before anything is written.  With count (else NULL),
** ncols is a bound: the columns are the longest row's (written to *count; a
** row over the bound is SM2C_RT_ERR_INDEX) and the cells past them zero. */
#define SM2C_RT_RAGGED_TO_TENSOR(ix, I)                                                    \
    int32_t sm2c_rt_ragged_to_tensor_##ix(const void *values, const void *dflt, int32_t dflt_n, \
                                          const I *part, int32_t n_part, int32_t by_rowids, \
                                          void *y, int32_t nrows, int32_t ncols, int32_t nvals, \
                                          int32_t inner, int32_t elem_size, int64_t *count);
SM2C_RT_RAGGED_TO_TENSOR(i32, int32_t)
SM2C_RT_RAGGED_TO_TENSOR(i64, int64_t)
/* top_k.c, TopKV2 (sorted): per row of `cols`, the k largest values in
** descending order with their column indices; equal values keep the lower
** index first.  k <= cols. */
#define SM2C_RT_TOP_K(sfx, T)                                                              \
    void sm2c_rt_top_k_##sfx(const T *x, T *values, int32_t *indices, int32_t rows,          \
                             int32_t cols, int32_t k);
SM2C_RT_TOP_K(f32, float) SM2C_RT_TOP_K(f64, double) SM2C_RT_TOP_K(i32, int32_t) SM2C_RT_TOP_K(i64, int64_t)
SM2C_RT_TOP_K(i8, int8_t) SM2C_RT_TOP_K(i16, int16_t) SM2C_RT_TOP_K(u8, uint8_t)
SM2C_RT_TOP_K(u16, uint16_t) SM2C_RT_TOP_K(u32, uint32_t) SM2C_RT_TOP_K(u64, uint64_t)
/* sequence.c, Range: y[i] = *start + i * *delta in the element type, as
** TensorFlow computes it (the compiler sized n, so integers cannot overflow). */
#define SM2C_RT_RANGE(sfx, T) void sm2c_rt_range_##sfx(const T *start, const T *delta, T *y, int32_t n);
SM2C_RT_RANGE(f32, float) SM2C_RT_RANGE(f64, double) SM2C_RT_RANGE(i32, int32_t)
SM2C_RT_RANGE(i64, int64_t)
/* band_part.c, MatrixBandPart over `batch` [m, n] matrices: y keeps x where
** (lower < 0 || i - j <= lower) && (upper < 0 || j - i <= upper), else zero bits. */
void sm2c_rt_band_part(const void *x, void *y, int32_t batch, int32_t m, int32_t n,
                       int32_t lower, int32_t upper, int32_t elem_size);
/* ---- end of the movement family ------------------------------------------- */

/* ---- elementwise binary with broadcasting (binary_<dtype>.c) ---------------
** y has `rank` dims `dims`; a is read at sum(i[k]*sa[k]), b at sum(i[k]*sb[k])
** (stride 0 broadcasts).  rank 1 with unit strides is the fast path.  y may
** alias a or b when it has the same shape as that operand.
** Float semantics follow TensorFlow's CPU kernels: Maximum/Minimum propagate
** NaN; RealDiv is IEEE division.  Integer add/sub/mul wrap around (two's
** complement), as TensorFlow does, without undefined behaviour. */
#define SM2C_RT_BINARY(op, T, sfx)                                                     \
    void sm2c_rt_##op##_##sfx(const T *a, const T *b, T *y, int32_t rank,              \
                              const int32_t *dims, const int32_t *sa, const int32_t *sb);
#define SM2C_RT_BINARY_ALL(T, sfx)                                                     \
    SM2C_RT_BINARY(add, T, sfx) SM2C_RT_BINARY(sub, T, sfx) SM2C_RT_BINARY(mul, T, sfx) \
    SM2C_RT_BINARY(maximum, T, sfx) SM2C_RT_BINARY(minimum, T, sfx)
SM2C_RT_BINARY_ALL(float, f32)
SM2C_RT_BINARY_ALL(double, f64)
SM2C_RT_BINARY_ALL(int32_t, i32)
SM2C_RT_BINARY_ALL(int64_t, i64)
/* The other integer widths (binary_i8.c ... binary_u64.c; issue 33's dtype audit). */
SM2C_RT_BINARY_ALL(int8_t, i8)
SM2C_RT_BINARY_ALL(int16_t, i16)
SM2C_RT_BINARY_ALL(uint8_t, u8)
SM2C_RT_BINARY_ALL(uint16_t, u16)
SM2C_RT_BINARY_ALL(uint32_t, u32)
SM2C_RT_BINARY_ALL(uint64_t, u64)
SM2C_RT_BINARY(div, float, f32)
SM2C_RT_BINARY(div, double, f64)
SM2C_RT_BINARY(squared_difference, float, f32)
/* binary_math_f32.c, TF CPU semantics: Pow is powf; FloorDiv floor(a / b);
** TruncateDiv trunc(a / b);
** FloorMod takes the divisor's sign (fmod, then + b if the signs differ);
** Atan2 is atan2f(a, b); Xdivy gives 0 where a == 0, DivNoNan 0 where b == 0. */
SM2C_RT_BINARY(pow, float, f32)
SM2C_RT_BINARY(floor_div, float, f32)
SM2C_RT_BINARY(truncate_div, float, f32)
SM2C_RT_BINARY(floor_mod, float, f32)
SM2C_RT_BINARY(atan2, float, f32)
SM2C_RT_BINARY(xdivy, float, f32)
SM2C_RT_BINARY(div_no_nan, float, f32)
/* binary_math_f64.c: the same in double, and TruncateDiv (trunc(a / b));
** Xlogy, Xlog1py and Mod/TruncateMod as their float forms below. */
SM2C_RT_BINARY(pow, double, f64) SM2C_RT_BINARY(floor_div, double, f64)
SM2C_RT_BINARY(floor_mod, double, f64) SM2C_RT_BINARY(atan2, double, f64)
SM2C_RT_BINARY(xdivy, double, f64) SM2C_RT_BINARY(div_no_nan, double, f64)
SM2C_RT_BINARY(truncate_div, double, f64) SM2C_RT_BINARY(xlogy, double, f64)
SM2C_RT_BINARY(xlog1py, double, f64) SM2C_RT_BINARY(truncate_mod, double, f64)

/* ---- elementwise unary (unary_f32.c); y may equal x ------------------------ */
void sm2c_rt_relu_f32(const float *x, float *y, int32_t n);
void sm2c_rt_relu6_f32(const float *x, float *y, int32_t n);
void sm2c_rt_sigmoid_f32(const float *x, float *y, int32_t n);
void sm2c_rt_tanh_f32(const float *x, float *y, int32_t n);
void sm2c_rt_neg_f32(const float *x, float *y, int32_t n);
void sm2c_rt_abs_f32(const float *x, float *y, int32_t n);
void sm2c_rt_square_f32(const float *x, float *y, int32_t n);
void sm2c_rt_sqrt_f32(const float *x, float *y, int32_t n);
void sm2c_rt_rsqrt_f32(const float *x, float *y, int32_t n);
void sm2c_rt_exp_f32(const float *x, float *y, int32_t n);
void sm2c_rt_log_f32(const float *x, float *y, int32_t n);

/* ---- elementwise unary math (unary_math_f32.c; erf in unary_f32.c); y may equal x
** TF CPU semantics: Round and Rint are half to even; Sign keeps NaN and +-0;
** Softplus uses TF's log(FLT_EPSILON) + 2 thresholds; Elu/Selu use expm1 below
** 0 with TF's Selu constants; LeakyRelu is x > 0 ? x : alpha * x. */
#define SM2C_RT_UNARY(op) void sm2c_rt_##op##_f32(const float *x, float *y, int32_t n);
SM2C_RT_UNARY(floor) SM2C_RT_UNARY(ceil) SM2C_RT_UNARY(round) SM2C_RT_UNARY(rint)
SM2C_RT_UNARY(sin) SM2C_RT_UNARY(cos) SM2C_RT_UNARY(tan) SM2C_RT_UNARY(asin)
SM2C_RT_UNARY(acos) SM2C_RT_UNARY(atan) SM2C_RT_UNARY(sinh) SM2C_RT_UNARY(cosh)
SM2C_RT_UNARY(asinh) SM2C_RT_UNARY(acosh) SM2C_RT_UNARY(atanh) SM2C_RT_UNARY(erf)
SM2C_RT_UNARY(erfc) SM2C_RT_UNARY(expm1) SM2C_RT_UNARY(log1p) SM2C_RT_UNARY(sign)
SM2C_RT_UNARY(reciprocal) SM2C_RT_UNARY(softplus) SM2C_RT_UNARY(softsign)
SM2C_RT_UNARY(elu) SM2C_RT_UNARY(selu)
/* Erfinv: erf's inverse, +-Inf at +-1 and NaN beyond (TF's erfinv). */
SM2C_RT_UNARY(erfinv)
void sm2c_rt_leaky_relu_f32(const float *x, float *y, int32_t n, float alpha);

/* ---- the same in double (unary_f64.c) -------------------------------------- */
#define SM2C_RT_UNARY_F64(op) void sm2c_rt_##op##_f64(const double *x, double *y, int32_t n);
SM2C_RT_UNARY_F64(relu) SM2C_RT_UNARY_F64(relu6) SM2C_RT_UNARY_F64(tanh) SM2C_RT_UNARY_F64(neg)
SM2C_RT_UNARY_F64(abs) SM2C_RT_UNARY_F64(square) SM2C_RT_UNARY_F64(sqrt) SM2C_RT_UNARY_F64(rsqrt)
SM2C_RT_UNARY_F64(exp) SM2C_RT_UNARY_F64(log) SM2C_RT_UNARY_F64(floor) SM2C_RT_UNARY_F64(ceil)
SM2C_RT_UNARY_F64(round) SM2C_RT_UNARY_F64(rint) SM2C_RT_UNARY_F64(sin) SM2C_RT_UNARY_F64(cos)
SM2C_RT_UNARY_F64(tan) SM2C_RT_UNARY_F64(asin) SM2C_RT_UNARY_F64(acos) SM2C_RT_UNARY_F64(atan)
SM2C_RT_UNARY_F64(sinh) SM2C_RT_UNARY_F64(cosh) SM2C_RT_UNARY_F64(asinh) SM2C_RT_UNARY_F64(acosh)
SM2C_RT_UNARY_F64(atanh) SM2C_RT_UNARY_F64(erf) SM2C_RT_UNARY_F64(erfc) SM2C_RT_UNARY_F64(expm1)
SM2C_RT_UNARY_F64(log1p) SM2C_RT_UNARY_F64(sign) SM2C_RT_UNARY_F64(reciprocal)
SM2C_RT_UNARY_F64(softsign) SM2C_RT_UNARY_F64(elu) SM2C_RT_UNARY_F64(selu)
/* Sigmoid, Softplus (log(DBL_EPSILON) + 2 thresholds), Lgamma (libm), Erfinv
** (to double's rounding), LeakyRelu (the float alpha widened); Digamma
** (gamma_f64.c: Eigen's algorithm in double). */
SM2C_RT_UNARY_F64(sigmoid) SM2C_RT_UNARY_F64(softplus) SM2C_RT_UNARY_F64(lgamma)
SM2C_RT_UNARY_F64(erfinv) SM2C_RT_UNARY_F64(digamma)
void sm2c_rt_leaky_relu_f64(const double *x, double *y, int32_t n, float alpha);

/* ---- casts (cast.c): sm2c_rt_cast_<from>_<to>(x, y, n) ---------------------
** Every pair among f16 bf16 f32 f64 i8 i16 i32 i64 u8 u16 u32 u64 b.  float16
** and bfloat16 are uint16_t bit patterns; bool is uint8_t.  Float to integer
** follows TensorFlow on x86-64 CPU (NaN and out-of-range included; cast.c
** says where TF disagrees with itself) with no undefined behaviour; to bool
** is x != 0; to float16/bfloat16 rounds to nearest even through float32. */
#define SM2C_RT_CAST(F, TF, T, TT) void sm2c_rt_cast_##F##_##T(const TF *x, TT *y, int32_t n);
#define SM2C_RT_CAST_FROM(F, TF)                                                       \
    SM2C_RT_CAST(F, TF, f16, uint16_t) SM2C_RT_CAST(F, TF, bf16, uint16_t)              \
    SM2C_RT_CAST(F, TF, f32, float) SM2C_RT_CAST(F, TF, f64, double)                    \
    SM2C_RT_CAST(F, TF, i8, int8_t) SM2C_RT_CAST(F, TF, i16, int16_t)                   \
    SM2C_RT_CAST(F, TF, i32, int32_t) SM2C_RT_CAST(F, TF, i64, int64_t)                  \
    SM2C_RT_CAST(F, TF, u8, uint8_t) SM2C_RT_CAST(F, TF, u16, uint16_t)                 \
    SM2C_RT_CAST(F, TF, u32, uint32_t) SM2C_RT_CAST(F, TF, u64, uint64_t)               \
    SM2C_RT_CAST(F, TF, b, uint8_t)
SM2C_RT_CAST_FROM(f16, uint16_t)
SM2C_RT_CAST_FROM(bf16, uint16_t)
SM2C_RT_CAST_FROM(f32, float)
SM2C_RT_CAST_FROM(f64, double)
SM2C_RT_CAST_FROM(i8, int8_t)
SM2C_RT_CAST_FROM(i16, int16_t)
SM2C_RT_CAST_FROM(i32, int32_t)
SM2C_RT_CAST_FROM(i64, int64_t)
SM2C_RT_CAST_FROM(u8, uint8_t)
SM2C_RT_CAST_FROM(u16, uint16_t)
SM2C_RT_CAST_FROM(u32, uint32_t)
SM2C_RT_CAST_FROM(u64, uint64_t)
SM2C_RT_CAST_FROM(b, uint8_t)

/* ---- reductions (reduce_<dtype>.c) -----------------------------------------
** x is viewed as [outer, reduce, inner]; y[o*inner + i] = op over r of
** x[(o*reduce + r)*inner + i].  Mean divides the sum by `reduce` (integer
** division for integers, as TensorFlow).  reduce == 0 gives 0 for sum, NaN for
** float mean. */
#define SM2C_RT_REDUCE(op, T, sfx)                                                      \
    void sm2c_rt_reduce_##op##_##sfx(const T *x, T *y, int32_t outer, int32_t reduce,    \
                                     int32_t inner);
SM2C_RT_REDUCE(sum, float, f32) SM2C_RT_REDUCE(mean, float, f32)
SM2C_RT_REDUCE(max, float, f32) SM2C_RT_REDUCE(min, float, f32)
SM2C_RT_REDUCE(sum, int32_t, i32) SM2C_RT_REDUCE(mean, int32_t, i32)
SM2C_RT_REDUCE(sum, int64_t, i64) SM2C_RT_REDUCE(mean, int64_t, i64)

/* ---- linear algebra (matmul_f32.c, matvec_f32.c) ----------------------------
** y[m,n] = act(sum_k A[m,k] * B[k,n] + bias[n]); A is a[m*k] or, transposed,
** a[k*m]; likewise B.  bias may be NULL.  Blocked so the compiler vectorises.
** pack is scratch of SM2C_RT_MATMUL_PACK_F32 floats for a transposed B (the
** compiler plans it in the arena); NULL reads a transposed B in place. */
#define SM2C_RT_MATMUL_PACK_F32 2048
void sm2c_rt_matmul_f32(const float *a, const float *b, const float *bias, float *y, int32_t m,
                        int32_t k, int32_t n, int32_t transpose_a, int32_t transpose_b,
                        int32_t act, float act_a, float act_b, float *pack);
/* Batched: for each batch index j, a matmul of a + a_off[j] and b + b_off[j]
** into y + j*m*n; a_off/b_off (batch entries, in elements) express broadcasting.
** pack as for sm2c_rt_matmul_f32. */
void sm2c_rt_batch_matmul_f32(const float *a, const float *b, float *y, int32_t batch,
                              const int32_t *a_off, const int32_t *b_off, int32_t m, int32_t k,
                              int32_t n, int32_t adj_a, int32_t adj_b, float *pack);
/* Batched with strides, no copies (an Einsum's operands where they are): for
** each batch index j, y(i, c) = sum over kk < k (in increasing kk) of
** A(i, kk) * B(kk, c), where A(i, kk) = a[a_off[j] + i*a_rs + kk*a_cs],
** B(kk, c) = b[b_off[j] + kk*b_rs + c*b_cs] and y(i, c) = y[y_off[j] + i*y_rs
** + c].  The same sums, bit for bit, as sm2c_rt_batch_matmul_f32 on copies.
** B is read in place when b_cs == 1; else pack (as for sm2c_rt_matmul_f32)
** holds one tile of it at a time, or, NULL, B is read as dot products. */
void sm2c_rt_batch_matmul_strided_f32(const float *a, const float *b, float *y, int32_t batch,
                                      const int32_t *a_off, const int32_t *b_off,
                                      const int32_t *y_off, int32_t m, int32_t k, int32_t n,
                                      int32_t a_rs, int32_t a_cs, int32_t b_rs, int32_t b_cs,
                                      int32_t y_rs, float *pack);
/* One row: y[n] = act(x[k] . W + bias[n]), W is w[k*n] (matvec) or, transposed,
** w[n*k] (matvec_t); bias may be NULL.  Same sums as sm2c_rt_matmul_f32, m = 1. */
void sm2c_rt_matvec_f32(const float *x, const float *w, const float *bias, float *y, int32_t k,
                        int32_t n, int32_t act, float act_a, float act_b);
void sm2c_rt_matvec_t_f32(const float *x, const float *w, const float *bias, float *y,
                          int32_t k, int32_t n, int32_t act, float act_a, float act_b);
/* The same for layers of few multiply-adds: the least code on a scalar FPU. */
void sm2c_rt_matvec_small_f32(const float *x, const float *w, const float *bias, float *y,
                              int32_t k, int32_t n, int32_t act, float act_a, float act_b);
void sm2c_rt_matvec_t_small_f32(const float *x, const float *w, const float *bias, float *y,
                                int32_t k, int32_t n, int32_t act, float act_a, float act_b);

/* ---- neural network (nn_f32.c, conv_f32.c, pool_f32.c) ----------------------- */
/* y[o, c, i] = act(x[o, c, i] + bias[c]); NHWC is inner = 1. y may equal x. */
void sm2c_rt_bias_add_f32(const float *x, const float *bias, float *y, int32_t outer,
                          int32_t channels, int32_t inner, int32_t act, float act_a,
                          float act_b);
/* Over the last axis of [rows, cols]. */
void sm2c_rt_softmax_f32(const float *x, float *y, int32_t rows, int32_t cols);
/* Softmax of x * scale, each product rounded as a Mul's: a constant Mul
** before a Softmax (attention's 1/sqrt(d)) without its pass over memory. */
void sm2c_rt_softmax_scaled_f32(const float *x, float scale, float *y, int32_t rows, int32_t cols);
void sm2c_rt_log_softmax_f32(const float *x, float *y, int32_t rows, int32_t cols);
/* xent_f32.c: (Sparse)SoftmaxCrossEntropyWithLogits over rows x cols logits:
** loss[rows] and backprop[rows x cols]; sparse labels are class indices, one
** outside [0, cols) is SM2C_RT_ERR_INDEX before anything is written. */
void sm2c_rt_softmax_xent_f32(const float *logits, const float *labels, float *loss, float *backprop,
                              int32_t rows, int32_t cols);
int32_t sm2c_rt_sparse_softmax_xent_f32_i32(const float *logits, const int32_t *labels, float *loss,
                                            float *backprop, int32_t rows, int32_t cols);
int32_t sm2c_rt_sparse_softmax_xent_f32_i64(const float *logits, const int64_t *labels, float *loss,
                                            float *backprop, int32_t rows, int32_t cols);
/* Training-mode batch norm (batch_norm_train_f32.c): mean and biased variance
** per channel of x [outer, channels, inner] over the other two axes, then
** y = (x - mean) * (rsqrt(var + eps) * scale) + offset.  y may equal x. */
void sm2c_rt_batch_norm_train_f32(const float *x, const float *scale, const float *offset,
                                  float epsilon, float *y, int32_t outer, int32_t channels,
                                  int32_t inner);
/* Layer normalization over the last axis of [rows, cols] (layer_norm_f32.c),
** as Keras 3 writes it: mean and variance of each row, inv = rsqrt(var +
** epsilon) * gamma, y = x * inv + (-mean * inv + beta).  y may equal x. */
void sm2c_rt_layer_norm_f32(const float *x, const float *gamma, const float *beta, float epsilon,
                            float *y, int32_t rows, int32_t cols);
/* The elementwise half of an LSTM cell (lstm_cell_f32.c): z is [rows, 4 *
** units], the gates i, f, g, o side by side; c, c_out and h are [rows, units].
** lstm_state: c_out = sigmoid(f) * c + sigmoid(i) * tanh(g); lstm_output:
** h = sigmoid(o) * tanh(c).  c_out and h may equal c. */
void sm2c_rt_lstm_state_f32(const float *z, const float *c, float *c_out, int32_t rows, int32_t units);
void sm2c_rt_lstm_output_f32(const float *z, const float *c, float *h, int32_t rows, int32_t units);
/* Inference batch norm, channels last: y = (x - mean) * scale / sqrt(var + eps) + offset. */
void sm2c_rt_batch_norm_f32(const float *x, const float *scale, const float *offset,
                            const float *mean, const float *var, float epsilon, float *y,
                            int32_t outer, int32_t channels);

/* Window parameters shared by convolutions and pools (NHWC), an int32 array:
**  [0] N  [1] H  [2] W  [3] C        input
**  [4] KH [5] KW                      window / filter spatial size
**  [6] OH [7] OW [8] OC               output (OC = C for pools)
**  [9] stride_h [10] stride_w [11] dilation_h [12] dilation_w
**  [13] pad_top [14] pad_left         (padding before; after is implied by OH/OW)
**  [15] filter input channels (conv: C / groups; depthwise: channel multiplier) */
enum { SM2C_RT_WIN_N, SM2C_RT_WIN_H, SM2C_RT_WIN_W, SM2C_RT_WIN_C, SM2C_RT_WIN_KH, SM2C_RT_WIN_KW,
       SM2C_RT_WIN_OH, SM2C_RT_WIN_OW, SM2C_RT_WIN_OC, SM2C_RT_WIN_SH, SM2C_RT_WIN_SW,
       SM2C_RT_WIN_DH, SM2C_RT_WIN_DW, SM2C_RT_WIN_PT, SM2C_RT_WIN_PL, SM2C_RT_WIN_FC,
       SM2C_RT_WIN_PARAMS };
/* Filter HWIO [KH, KW, FC, OC]; grouped when C != FC.  bias may be NULL. */
void sm2c_rt_conv2d_f32(const float *x, const float *w, const float *bias, float *y,
                        const int32_t *p, int32_t act, float act_a, float act_b);
/* The same plus a residual r of y's shape: y = act(conv + bias + r), summed in
** that order (Conv2D, BiasAdd, Add, then the activation).  r and y must not
** overlap. */
void sm2c_rt_conv2d_add_f32(const float *x, const float *w, const float *bias, const float *r,
                            float *y, const int32_t *p, int32_t act, float act_a, float act_b);
/* Conv2D and its residual form on a packed filter: OC / 16 panels of 16
** output channels, panel b holding w[kh, kw, ic, 16*b + j] at
** ((kh*KW + kw)*FC + ic)*16 + j, each panel contiguous (OC a multiple of 16).
** The compiler lays a constant filter out so where the vector kernels take
** the layer (sm2c_rt_conv2d_f32_packs); the sums are the HWIO kernel's. */
void sm2c_rt_conv2d_packed_f32(const float *x, const float *w, const float *bias, float *y,
                               const int32_t *p, int32_t act, float act_a, float act_b);
void sm2c_rt_conv2d_add_packed_f32(const float *x, const float *w, const float *bias, const float *r,
                                   float *y, const int32_t *p, int32_t act, float act_a, float act_b);
/* 1 when sm2c_rt_conv2d_f32 (or, when residual, its residual form) runs the
** layer p through the vector conv blocks, which read a packed filter as fast
** or faster: not a 1x1 layer it runs as a matmul, not on a scalar FPU. */
int32_t sm2c_rt_conv2d_f32_packs(const int32_t *p, int32_t residual);
/* Filter [KH, KW, C, multiplier]; OC = C * multiplier. */
void sm2c_rt_depthwise_conv2d_f32(const float *x, const float *w, const float *bias, float *y,
                                  const int32_t *p, int32_t act, float act_a, float act_b);
/* Padding cells are ignored: max over valid cells, average divided by the
** number of valid cells (TensorFlow's SAME semantics). */
void sm2c_rt_max_pool_f32(const float *x, float *y, const int32_t *p);
void sm2c_rt_avg_pool_f32(const float *x, float *y, const int32_t *p);

/* ---- neural network, second slice (issue 4 "nn2": matmul_f64.c, conv3d_f32.c,
** pool3d_f32.c, lrn_f32.c, resize_f32.c, nn_f32.c) ---------------------------- */
/* float64 versions of the float32 matmuls above (plain loops, same contract). */
void sm2c_rt_matmul_f64(const double *a, const double *b, const double *bias, double *y,
                        int32_t m, int32_t k, int32_t n, int32_t transpose_a,
                        int32_t transpose_b, int32_t act);
void sm2c_rt_batch_matmul_f64(const double *a, const double *b, double *y, int32_t batch,
                              const int32_t *a_off, const int32_t *b_off, int32_t m, int32_t k,
                              int32_t n, int32_t adj_a, int32_t adj_b);
/* Inference batch norm, channels first: x viewed as [outer, channels, inner]. */
void sm2c_rt_batch_norm_nchw_f32(const float *x, const float *scale, const float *offset,
                                 const float *mean, const float *var, float epsilon, float *y,
                                 int32_t outer, int32_t channels, int32_t inner);
/* Volume parameters of 3-D windows (NDHWC; 2-D ops use D = KD = OD = 1), an
** int32 array in this order: input N D H W C; window KD KH KW; output OD OH
** OW OC; strides SD SH SW; dilations DD DH DW; padding before PF PT PL; FC
** (filter input channels: C / groups, 1 for depthwise). */
enum { SM2C_RT_VOL_N, SM2C_RT_VOL_D, SM2C_RT_VOL_H, SM2C_RT_VOL_W, SM2C_RT_VOL_C,
       SM2C_RT_VOL_KD, SM2C_RT_VOL_KH, SM2C_RT_VOL_KW, SM2C_RT_VOL_OD, SM2C_RT_VOL_OH,
       SM2C_RT_VOL_OW, SM2C_RT_VOL_OC, SM2C_RT_VOL_SD, SM2C_RT_VOL_SH, SM2C_RT_VOL_SW,
       SM2C_RT_VOL_DD, SM2C_RT_VOL_DH, SM2C_RT_VOL_DW, SM2C_RT_VOL_PF, SM2C_RT_VOL_PT,
       SM2C_RT_VOL_PL, SM2C_RT_VOL_FC, SM2C_RT_VOL_PARAMS };
/* Conv3D, filter [KD, KH, KW, FC, OC]; grouped when C != FC; bias may be NULL. */
void sm2c_rt_conv3d_f32(const float *x, const float *w, const float *bias, float *y,
                        const int32_t *p, int32_t act);
/* The input gradient of that convolution (transposed convolution): dx (input
** shaped) from dy (output shaped).  Depthwise filters are FC = 1, G = C. */
void sm2c_rt_conv3d_transpose_f32(const float *dy, const float *w, float *dx, const int32_t *p);
/* MaxPool3D / AvgPool3D (OC = C), padding ignored as in the 2-D pools. */
void sm2c_rt_max_pool3d_f32(const float *x, float *y, const int32_t *p);
void sm2c_rt_avg_pool3d_f32(const float *x, float *y, const int32_t *p);
/* LRN over the last axis of [rows, depth]. */
void sm2c_rt_lrn_f32(const float *x, float *y, int32_t rows, int32_t depth, int32_t radius,
                     float bias, float alpha, float beta);
/* FakeQuantWithMinMaxArgs over n values, and FakeQuantWithMinMaxVars(PerChannel)
** over x viewed as [outer, channels] with `channels` bounds (1 per-tensor); mode 0
** multiplies by 1/scale (per channel), 1 divides (per tensor) (fake_quant_f32.c). */
void sm2c_rt_fake_quant_args_f32(const float *x, float *y, int32_t n, float min, float max, int32_t num_bits,
                                 int32_t narrow_range);
void sm2c_rt_fake_quant_vars_f32(const float *x, const float *min, const float *max, float *y, int32_t outer,
                                 int32_t channels, int32_t num_bits, int32_t narrow_range, int32_t mode);
/* QuantizeAndDequantizeV2/V3/V4 per tensor; the range is the input's own
** unless range_given; half_up 0 rounds half to even (fake_quant_f32.c). */
void sm2c_rt_quantize_dequantize_f32(const float *x, const float *min_in, const float *max_in, float *y,
                                     int32_t n, int32_t num_bits, int32_t signed_input, int32_t narrow_range,
                                     int32_t range_given, int32_t half_up);
/* ---- int8 (--quantize int8): TFLite's full-integer scheme, bit-exact with its
** reference kernels.  Values are real = scale * (q - zero_point); requantization
** takes a Q31 multiplier and a shift per output channel (q8_math.h). */
/* Float to int8 at the quantized region's inputs, int8 to float at its outputs (quantize_s8.c). */
void sm2c_rt_quantize_f32_s8(const float *x, int8_t *y, int32_t n, float scale, int32_t zero_point);
void sm2c_rt_dequantize_s8_f32(const int8_t *x, float *y, int32_t n, float scale, int32_t zero_point);
/* --quantize dynamic (TFLite's hybrid kernels): float rows quantized per call,
** asymmetric int8, each row its scale and zero point as TFLite's x86-64 build
** computes them (quantize_s8.c); the contractions then sum int8 products and
** scale them back to float (fc_s8.c, conv_s8.c).  FullyConnected's filter is
** [N, K] with each row's sum; the convolutions' keep TensorFlow's layout and
** quantize each image of the batch as a whole. */
void sm2c_rt_quantize_rows_s8(const float *x, int8_t *q, float *scale, int32_t *zero_point, int32_t rows,
                              int32_t cols);
void sm2c_rt_fully_connected_hybrid(const int8_t *x, const float *scale, const int32_t *zero_point,
                                    const int8_t *w, const int32_t *w_sum, const float *w_scale,
                                    const float *bias, float *y, int32_t rows, int32_t k, int32_t n,
                                    int32_t act, float act_a, float act_b);
/* The same, the form for vector cores (fc_hybrid_s8.c): K a multiple of 4, the
** filter in blocks of 16 outputs, each [K/4][16][4], outputs past N zero. */
void sm2c_rt_fully_connected_hybrid_packed(const int8_t *x, const float *scale, const int32_t *zero_point,
                                           const int8_t *w, const int32_t *w_sum, const float *w_scale,
                                           const float *bias, float *y, int32_t rows, int32_t k, int32_t n,
                                           int32_t act, float act_a, float act_b);
/* A 1x1 Conv2D (stride 1, no padding) of `images` images of `pixels` pixels
** by the filter laid out as the packed FullyConnected's (fc_hybrid_s8.c). */
void sm2c_rt_conv2d_1x1_hybrid_packed(const int8_t *x, const float *scale, const int32_t *zero_point,
                                      const int8_t *w, const int32_t *w_sum, const float *w_scale,
                                      const float *bias, float *y, int32_t images, int32_t pixels, int32_t k,
                                      int32_t n, int32_t act, float act_a, float act_b);
void sm2c_rt_conv2d_hybrid(const int8_t *x, const float *scale, const int32_t *zero_point, const int8_t *w,
                           const float *w_scale, const float *bias, float *y, const int32_t *p, int32_t act,
                           float act_a, float act_b);
void sm2c_rt_depthwise_conv2d_hybrid(const int8_t *x, const float *scale, const int32_t *zero_point,
                                     const int8_t *w, const float *w_scale, const float *bias, float *y,
                                     const int32_t *p, int32_t act, float act_a, float act_b);
/* Conv2D with filter [KH, KW, FC, OC] and DepthwiseConv2dNative with filter
** [KH, KW, C, M], int32 bias (may be NULL), window p[] as the float kernels'
** (conv_s8.c). */
void sm2c_rt_conv2d_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                       const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                       int32_t act_min, int32_t act_max);
void sm2c_rt_depthwise_conv2d_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                 const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                 int32_t out_zp, int32_t act_min, int32_t act_max);
/* Conv2D without groups, the form for vector cores (conv_packed_s8.c): the
** filter in sets of up to 4 blocks of 16 output channels, each set
** [KH][ceil(KW*C/4)][its blocks][16][4] (conv_pack_s8.h), and bias[o] (may be
** NULL: 0) less (in_zp + 128) times the sum of filter column o. */
void sm2c_rt_conv2d_packed_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                              const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                              int32_t out_zp, int32_t act_min, int32_t act_max);
/* The same with TFLite FullyConnected's one rounding (sm2c_rt_fully_connected_s8's):
** a quantized MatMul as a 1x1 convolution over its rows. */
void sm2c_rt_conv2d_packed_s8_nearest(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                      const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t in_zp,
                                      int32_t out_zp, int32_t act_min, int32_t act_max);
/* The same three (conv_s8.c, conv_packed_s8.c) and the fully connected below
** (fc_s8.c) requantized in float (--requantize float): scale[o] = in_scale *
** filter_scale[o] / out_scale, y = clamp(round_half_even((float)acc * scale[o]),
** act_min - out_zp, act_max - out_zp) + out_zp, XNNPACK's "fp32" scheme, not
** TFLite's reference bits (q8_vec.h). */
void sm2c_rt_conv2d_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                           const float *scale, int32_t in_zp, int32_t out_zp, int32_t act_min, int32_t act_max);
void sm2c_rt_depthwise_conv2d_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                     const int32_t *p, const float *scale, int32_t in_zp, int32_t out_zp,
                                     int32_t act_min, int32_t act_max);
void sm2c_rt_conv2d_packed_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                  const int32_t *p, const float *scale, int32_t in_zp, int32_t out_zp,
                                  int32_t act_min, int32_t act_max);
void sm2c_rt_fully_connected_s8_frq(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                    int32_t rows, int32_t k, int32_t n, const float *scale, int32_t in_zp,
                                    int32_t out_zp, int32_t act_min, int32_t act_max);
/* The packed Conv2D's padded input (pad_copy_s8.c): x [N, H, W, C] into y
** [N, HP, WP, CP], x's pixel (h, w) at (h + PT, w + PL), fill elsewhere and
** in the channels past C; d = {N, H, W, C, HP, WP, PT, PL, CP}. */
void sm2c_rt_pad_copy_s8(const int8_t *x, int8_t *y, const int32_t *d, int32_t fill);
/* The same copy of a float input quantized on the way, zero_point the fill
** (quantize_s8.c): sm2c_rt_quantize_f32_s8 then sm2c_rt_pad_copy_s8 in one pass. */
void sm2c_rt_quantize_pad_f32_s8(const float *x, int8_t *y, const int32_t *d, float scale, int32_t zero_point);
/* Conv2D without groups, the form for Cortex-M (conv_ohwi_s8.c): K =
** KH*KW*C values per channel in TFLite's [OC, KH, KW, C] order, the channels
** by groups of four, each pair of values (k, k+1) two words (c0 k, c1 k, c0
** k+1, c1 k+1) and the same of c2, c3 (0 past an odd K); then the last OC % 4
** channels' rows of K, the middle two of each four values below K & ~3
** swapped (SMLAD's order); col: scratch of 2*K + 2 int16. */
void sm2c_rt_conv2d_ohwi_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                            const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                            int32_t act_min, int32_t act_max, int16_t *col);
/* Depthwise of multiplier 1, a 3x3 window, dilation 1 and a stride of 1 or 2
** along W, the form for Cortex-M (dw_plane_s8.c): filter [3, 3, C, 1];
** scratch of 4 * pairs + HP * WP int16, pairs = ceil(OW / 2),
** WP = 2 * SW * pairs + 4, HP = (OH - 1) * SH + 3. */
void sm2c_rt_depthwise_plane_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y, const int32_t *p,
                                const int32_t *mult, const int32_t *shift, int32_t in_zp, int32_t out_zp,
                                int32_t act_min, int32_t act_max, int16_t *scratch);
/* y[rows, n] from x[rows, k] and the filter transposed, w[n, k] (fc_s8.c). */
void sm2c_rt_fully_connected_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                int32_t rows, int32_t k, int32_t n, const int32_t *mult,
                                const int32_t *shift, int32_t in_zp, int32_t out_zp, int32_t act_min,
                                int32_t act_max);
/* The same, the form for Cortex-M (fc_m_s8.c): w in groups of four rows, each
** four columns' 16 bytes together, then the group's K % 4 tails; the last
** N % 4 rows as they are. */
void sm2c_rt_fully_connected_m_s8(const int8_t *x, const int8_t *w, const int32_t *bias, int8_t *y,
                                  int32_t rows, int32_t k, int32_t n, const int32_t *mult,
                                  const int32_t *shift, int32_t in_zp, int32_t out_zp, int32_t act_min,
                                  int32_t act_max);
/* MaxPool and AvgPool, output sharing the input's scale and zero point (pool_s8.c). */
void sm2c_rt_max_pool_s8(const int8_t *x, int8_t *y, const int32_t *p);
void sm2c_rt_avg_pool_s8(const int8_t *x, int8_t *y, const int32_t *p);
/* Add of two same-shaped tensors, q[12] TFLite's ArithmeticParams; Relu/Relu6
** as a clamp (eltwise_s8.c). */
void sm2c_rt_add_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q);
/* The same Add for Cortex-M: each input's rescaling looked up, ta and tb of
** 256 int32 (value v at v + 128) made by sm2c_rt_add_table_s8(q, 0 or 1, t). */
void sm2c_rt_add_lut_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *ta,
                        const int32_t *tb, const int32_t *q);
void sm2c_rt_add_table_s8(const int32_t *q, int32_t which, int32_t *t);
void sm2c_rt_mul_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q);
/* Add in float (--requantize float): y = clamp(round_half_even((a + q[0]) * ka +
** (b + q[1]) * kb), q[10] - q[2], q[11] - q[2]) + q[2], q[] as add_s8's; ka and kb
** (in_scale / out_scale) of at most 15 significant bits, so the products are exact. */
void sm2c_rt_add_s8_frq(const int8_t *a, const int8_t *b, int8_t *y, int32_t n, const int32_t *q, float ka,
                        float kb);
void sm2c_rt_clamp_s8(const int8_t *x, int8_t *y, int32_t n, int32_t lo, int32_t hi);
/* Add and Mul broadcasting as the float binary kernels (rank, dims, sa, sb), q[] as above. */
void sm2c_rt_add_bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb, const int32_t *q);
void sm2c_rt_mul_bcast_s8(const int8_t *a, const int8_t *b, int8_t *y, int32_t rank, const int32_t *dims,
                          const int32_t *sa, const int32_t *sb, const int32_t *q);
/* Mean of x viewed as [outer, r, inner] over r, requantized by (mult, shift),
** 1 / r folded in (mean_s8.c). */
void sm2c_rt_mean_s8(const int8_t *x, int8_t *y, int32_t outer, int32_t r, int32_t inner, int32_t in_zp,
                     int32_t out_zp, int32_t mult, int32_t shift);
/* Softmax along rows of depth values (depth < 512), output scale 1/256 zero
** point -128; mult, left_shift, diff_min as TFLite's Prepare (softmax_s8.c). */
void sm2c_rt_softmax_s8(const int8_t *x, int8_t *y, int32_t rows, int32_t depth, int32_t mult,
                        int32_t left_shift, int32_t diff_min);
/* x under other parameters: in_scale / out_scale as (mult, shift) (requantize_s8.c). */
void sm2c_rt_requantize_s8(const int8_t *x, int8_t *y, int32_t n, int32_t in_zp, int32_t out_zp, int32_t mult,
                           int32_t shift);
/* y = table[x + 128]: Logistic, Tanh (lut_s8.c). */
void sm2c_rt_lut_s8(const int8_t *x, const int8_t *table, int8_t *y, int32_t n);
/* ---- TFLite's 16x8 scheme (--quantize int16x8): int16 activations with zero
** point 0, int8 filters per output channel, int64 biases.  The contractions
** take the int8 forms' arguments without zero points (conv_s16.c); the
** elementwise steps (eltwise_s16.c), pools and Mean (pool_s16.c) and Softmax
** (softmax_s16.c) the int8 forms' too. */
void sm2c_rt_conv2d_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y, const int32_t *p,
                        const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max);
void sm2c_rt_depthwise_conv2d_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                  const int32_t *p, const int32_t *mult, const int32_t *shift, int32_t act_min,
                                  int32_t act_max);
/* FullyConnected scales in double: scale[o] = in_scale * w_scale[o] / out_scale. */
void sm2c_rt_fully_connected_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                 int32_t rows, int32_t k, int32_t n, const double *scale, int32_t act_min,
                                 int32_t act_max);
void sm2c_rt_quantize_f32_s16(const float *x, int16_t *y, int32_t n, float scale, int32_t zero_point);
void sm2c_rt_dequantize_s16_f32(const int16_t *x, float *y, int32_t n, float scale, int32_t zero_point);
void sm2c_rt_add_s16(const int16_t *a, const int16_t *b, int16_t *y, int32_t n, const int32_t *q);
void sm2c_rt_add_bcast_s16(const int16_t *a, const int16_t *b, int16_t *y, int32_t rank, const int32_t *dims,
                           const int32_t *sa, const int32_t *sb, const int32_t *q);
void sm2c_rt_requantize_s16(const int16_t *x, int16_t *y, int32_t n, int32_t mult, int32_t shift);
void sm2c_rt_clamp_s16(const int16_t *x, int16_t *y, int32_t n, int32_t lo, int32_t hi);
void sm2c_rt_max_pool_s16(const int16_t *x, int16_t *y, const int32_t *p);
void sm2c_rt_avg_pool_s16(const int16_t *x, int16_t *y, const int32_t *p);
void sm2c_rt_mean_s16(const int16_t *x, int16_t *y, int32_t outer, int32_t r, int32_t inner, int32_t mult,
                      int32_t shift);
/* The Cortex-M forms (conv_ohwi_s16.c): filters as sm2c_rt_conv2d_ohwi_s8's rows
** (a FullyConnected's [N, K] likewise), col arena scratch of KH*KW*C + 2 int16. */
void sm2c_rt_conv2d_ohwi_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y, const int32_t *p,
                             const int32_t *mult, const int32_t *shift, int32_t act_min, int32_t act_max,
                             int16_t *col);
void sm2c_rt_fully_connected_m_s16(const int16_t *x, const int8_t *w, const int64_t *bias, int16_t *y,
                                   int32_t rows, int32_t k, int32_t n, const double *scale, int32_t act_min,
                                   int32_t act_max);
/* Rows of depth values; exp_lut and recip_lut 513 values each (TFLite's Prepare). */
void sm2c_rt_softmax_s16(const int16_t *x, int16_t *y, int32_t rows, int32_t depth, int32_t mult, int32_t shift,
                         const int16_t *exp_lut, const int16_t *recip_lut);
/* Image resizing, NHWC, p = [N, H, W, C, OH, OW, align_corners, half_pixel_centers]. */
void sm2c_rt_resize_bilinear_f32(const float *x, float *y, const int32_t *p);
void sm2c_rt_resize_nearest_f32(const float *x, float *y, const int32_t *p);
/* ---- random.c: TensorFlow's Philox stream (random ops) ----------------------
** key is uint64[1] and counter uint64[2] (StatelessRandomGetKeyCounter's
** outputs); key_counter turns a seed pair into them.  Each fill writes n values
** of one distribution exactly as TensorFlow's CPU kernels order them.  The
** uniform_int kernels return SM2C_RT_ERR_VALUE, writing nothing, unless lo < hi. */
void sm2c_rt_random_key_counter_i32(const int32_t *seed, uint64_t *key, uint64_t *counter);
void sm2c_rt_random_key_counter_i64(const int64_t *seed, uint64_t *key, uint64_t *counter);
void sm2c_rt_random_uniform_f32(const uint64_t *key, const uint64_t *counter, float *y, int32_t n);
void sm2c_rt_random_uniform_f64(const uint64_t *key, const uint64_t *counter, double *y, int32_t n);
void sm2c_rt_random_normal_f32(const uint64_t *key, const uint64_t *counter, float *y, int32_t n);
void sm2c_rt_random_normal_f64(const uint64_t *key, const uint64_t *counter, double *y, int32_t n);
void sm2c_rt_random_truncated_normal_f32(const uint64_t *key, const uint64_t *counter, float *y,
                                         int32_t n);
void sm2c_rt_random_truncated_normal_f64(const uint64_t *key, const uint64_t *counter, double *y,
                                         int32_t n);
/* float16 outputs as uint16_t bits (uniform: TF's 10 random mantissa bits). */
void sm2c_rt_random_uniform_f16(const uint64_t *key, const uint64_t *counter, uint16_t *y, int32_t n);
void sm2c_rt_random_normal_f16(const uint64_t *key, const uint64_t *counter, uint16_t *y, int32_t n);
void sm2c_rt_random_truncated_normal_f16(const uint64_t *key, const uint64_t *counter, uint16_t *y,
                                         int32_t n);
int32_t sm2c_rt_random_uniform_int_i32(const uint64_t *key, const uint64_t *counter,
                                       const int32_t *lo, const int32_t *hi, int32_t *y, int32_t n);
int32_t sm2c_rt_random_uniform_int_i64(const uint64_t *key, const uint64_t *counter,
                                       const int64_t *lo, const int64_t *hi, int64_t *y, int32_t n);
void sm2c_rt_random_full_int_i32(const uint64_t *key, const uint64_t *counter, int32_t *y, int32_t n);
void sm2c_rt_random_full_int_i64(const uint64_t *key, const uint64_t *counter, int64_t *y, int32_t n);
/* A stateful op's generator state = uint64[3]: key, counter (low, high).  Copies
** it out to key and counter and moves it on by TF's reservation for n outputs. */
void sm2c_rt_random_reserve(uint64_t *state, uint64_t *key, uint64_t *counter, int32_t n);
/* ---- resize_cubic_area_f32.c: ResizeBicubic and ResizeArea, NHWC float32,
** p as the resizes above (ResizeArea's half_pixel_centers is 0). */
void sm2c_rt_resize_bicubic_f32(const float *x, float *y, const int32_t *p);
void sm2c_rt_resize_area_f32(const float *x, float *y, const int32_t *p);
/* ---- scale_translate_f32.c: ScaleAndTranslate, NHWC float32, p = [N, H, W, C,
** OH, OW, kernel (0 lanczos1, 1 lanczos3, 2 lanczos5, 3 gaussian, 4 box,
** 5 triangle, 6 keyscubic, 7 mitchellcubic), antialias]; scale and translation
** float[2] (rows, columns); scratch: starts int32[OH + OW], weights
** float[OH * H + OW * W], tmp float[OH * W * C]. */
void sm2c_rt_scale_translate_f32(const float *x, const float *scale, const float *translation, float *y,
                                 int32_t *starts, float *weights, float *tmp, const int32_t *p);

/* ==== logic family: comparison, logic, selection, integer arithmetic,
** reductions and scans (compare.c select.c clip.c int_div.c int_pow.c bits.c gamma_f32.c
** reduce_prod.c reduce_bool.c reduce_int_widths.c arg_extremum.c scan.c
** l2_loss.c, and additions to binary_*.c) ==================================== */

/* Comparisons, broadcasting like SM2C_RT_BINARY, into bool (uint8_t 0/1);
** IEEE semantics (NaN compares false, NotEqual true).  Equal and NotEqual
** also take bool (b). */
#define SM2C_RT_COMPARE(op, T, sfx)                                                    \
    void sm2c_rt_##op##_##sfx(const T *a, const T *b, uint8_t *y, int32_t rank,        \
                              const int32_t *dims, const int32_t *sa, const int32_t *sb);
#define SM2C_RT_COMPARE_ALL(T, sfx)                                                    \
    SM2C_RT_COMPARE(equal, T, sfx) SM2C_RT_COMPARE(not_equal, T, sfx)                   \
    SM2C_RT_COMPARE(less, T, sfx) SM2C_RT_COMPARE(less_equal, T, sfx)                   \
    SM2C_RT_COMPARE(greater, T, sfx) SM2C_RT_COMPARE(greater_equal, T, sfx)
SM2C_RT_COMPARE_ALL(float, f32)
SM2C_RT_COMPARE_ALL(double, f64)
SM2C_RT_COMPARE_ALL(int32_t, i32)
SM2C_RT_COMPARE_ALL(int64_t, i64)
SM2C_RT_COMPARE_ALL(int8_t, i8)
SM2C_RT_COMPARE_ALL(int16_t, i16)
SM2C_RT_COMPARE_ALL(uint8_t, u8)
SM2C_RT_COMPARE_ALL(uint16_t, u16)
SM2C_RT_COMPARE_ALL(uint32_t, u32)
SM2C_RT_COMPARE_ALL(uint64_t, u64)
SM2C_RT_COMPARE(equal, uint8_t, b)
SM2C_RT_COMPARE(not_equal, uint8_t, b)
SM2C_RT_BINARY(logical_and, uint8_t, b)
SM2C_RT_BINARY(logical_or, uint8_t, b)
void sm2c_rt_logical_not_b(const uint8_t *x, uint8_t *y, int32_t n);
/* |a - b| < tolerance, same shapes. */
void sm2c_rt_approximate_equal_f32(const float *a, const float *b, uint8_t *y, int32_t n,
                                   float tolerance);
void sm2c_rt_approximate_equal_f64(const double *a, const double *b, uint8_t *y, int32_t n,
                                   float tolerance);
/* IsNan, IsInf, IsFinite into bool. */
#define SM2C_RT_CLASSIFY(T, sfx)                                                       \
    void sm2c_rt_is_nan_##sfx(const T *x, uint8_t *y, int32_t n);                      \
    void sm2c_rt_is_inf_##sfx(const T *x, uint8_t *y, int32_t n);                      \
    void sm2c_rt_is_finite_##sfx(const T *x, uint8_t *y, int32_t n);
SM2C_RT_CLASSIFY(float, f32)
SM2C_RT_CLASSIFY(double, f64)

/* Select/SelectV2: y = cond ? a : b over the dense box dims, each operand read
** at its own strides in elements (0 broadcasts); elem_size bytes per element. */
void sm2c_rt_select(const uint8_t *cond, const void *a, const void *b, void *y,
                    int32_t elem_size, int32_t rank, const int32_t *dims, const int32_t *sc,
                    const int32_t *sa, const int32_t *sb);
/* ---- integer Neg, Abs, Sign (signed), Square, Relu, Relu6 and sqrt (unary_int.c);
** y may equal x.  Two's complement wrapping, as TensorFlow: -INT_MIN and |INT_MIN|
** are INT_MIN.  sqrt is EuclideanNorm's root of its sum of squares, TensorFlow's
** (T)std::sqrt(double) (a negative wrapped sum as TensorFlow on x86-64). */
#define SM2C_RT_UNARY_INT(op, T, sfx) void sm2c_rt_##op##_##sfx(const T *x, T *y, int32_t n);
#define SM2C_RT_UNARY_ANYINT(T, sfx) SM2C_RT_UNARY_INT(square, T, sfx) SM2C_RT_UNARY_INT(relu, T, sfx) \
    SM2C_RT_UNARY_INT(relu6, T, sfx) SM2C_RT_UNARY_INT(sqrt, T, sfx)
#define SM2C_RT_UNARY_SINT(T, sfx) SM2C_RT_UNARY_INT(neg, T, sfx) SM2C_RT_UNARY_INT(abs, T, sfx) \
    SM2C_RT_UNARY_INT(sign, T, sfx) SM2C_RT_UNARY_ANYINT(T, sfx)
SM2C_RT_UNARY_SINT(int8_t, i8) SM2C_RT_UNARY_SINT(int16_t, i16)
SM2C_RT_UNARY_SINT(int32_t, i32) SM2C_RT_UNARY_SINT(int64_t, i64)
SM2C_RT_UNARY_ANYINT(uint8_t, u8) SM2C_RT_UNARY_ANYINT(uint16_t, u16)
SM2C_RT_UNARY_ANYINT(uint32_t, u32) SM2C_RT_UNARY_ANYINT(uint64_t, u64)

/* ClipByValue: y = max(min(x, hi), lo), std::min/max semantics (a NaN bound
** is ignored); lo/hi scalar (step 0) or x's shape (step 1). */
#define SM2C_RT_CLIP(T, sfx)                                                           \
    void sm2c_rt_clip_by_value_##sfx(const T *x, const T *lo, const T *hi, T *y,       \
                                     int32_t n, int32_t lo_step, int32_t hi_step);
SM2C_RT_CLIP(float, f32) SM2C_RT_CLIP(double, f64) SM2C_RT_CLIP(int32_t, i32)
SM2C_RT_CLIP(int64_t, i64) SM2C_RT_CLIP(int8_t, i8) SM2C_RT_CLIP(int16_t, i16)
SM2C_RT_CLIP(uint8_t, u8) SM2C_RT_CLIP(uint16_t, u16)

/* SquaredDifference beyond float32 (integers wrap). */
SM2C_RT_BINARY(squared_difference, double, f64)
SM2C_RT_BINARY(squared_difference, int32_t, i32)
SM2C_RT_BINARY(squared_difference, int64_t, i64)
/* Integer FloorDiv, FloorMod, TruncateDiv, TruncateMod (= Mod), broadcasting:
** checked, SM2C_RT_ERR_VALUE on a zero divisor; INT_MIN / -1 wraps. */
#define SM2C_RT_BINARY_CHECKED(op, T, sfx)                                             \
    int32_t sm2c_rt_##op##_##sfx(const T *a, const T *b, T *y, int32_t rank,           \
                                 const int32_t *dims, const int32_t *sa, const int32_t *sb);
#define SM2C_RT_INT_DIV(T, sfx)                                                        \
    SM2C_RT_BINARY_CHECKED(floor_div, T, sfx) SM2C_RT_BINARY_CHECKED(floor_mod, T, sfx) \
    SM2C_RT_BINARY_CHECKED(truncate_div, T, sfx) SM2C_RT_BINARY_CHECKED(truncate_mod, T, sfx)
SM2C_RT_INT_DIV(int32_t, i32)
SM2C_RT_INT_DIV(int64_t, i64)
SM2C_RT_INT_DIV(int8_t, i8)
SM2C_RT_INT_DIV(int16_t, i16)
SM2C_RT_INT_DIV(uint8_t, u8)
SM2C_RT_INT_DIV(uint16_t, u16)
SM2C_RT_INT_DIV(uint32_t, u32)
SM2C_RT_INT_DIV(uint64_t, u64)
/* Integer Pow (int_pow.c), broadcasting: checked, SM2C_RT_ERR_VALUE on a
** negative exponent (TensorFlow: "Integers to negative integer powers are not
** allowed"); the power wraps in the type. */
SM2C_RT_BINARY_CHECKED(pow, int8_t, i8) SM2C_RT_BINARY_CHECKED(pow, int16_t, i16)
SM2C_RT_BINARY_CHECKED(pow, int32_t, i32) SM2C_RT_BINARY_CHECKED(pow, int64_t, i64)
/* Bitwise ops and shifts (count clamped to [0, bits - 1], as TensorFlow). */
#define SM2C_RT_BITS(T, sfx)                                                           \
    SM2C_RT_BINARY(bitwise_and, T, sfx) SM2C_RT_BINARY(bitwise_or, T, sfx)              \
    SM2C_RT_BINARY(bitwise_xor, T, sfx) SM2C_RT_BINARY(left_shift, T, sfx)              \
    SM2C_RT_BINARY(right_shift, T, sfx)                                                \
    void sm2c_rt_invert_##sfx(const T *x, T *y, int32_t n);
SM2C_RT_BITS(int32_t, i32)
SM2C_RT_BITS(int64_t, i64)
SM2C_RT_BITS(int8_t, i8) SM2C_RT_BITS(int16_t, i16) SM2C_RT_BITS(uint8_t, u8) SM2C_RT_BITS(uint16_t, u16)
SM2C_RT_BITS(uint32_t, u32) SM2C_RT_BITS(uint64_t, u64)
/* Xlogy (x == 0 gives x), Xlog1py, and float Mod/TruncateMod (fmodf). */
/* Training gradients (grad_f32.c) in TensorFlow's input order: TanhGrad and
** SigmoidGrad (y, dy), ReluGrad and Relu6Grad (gradients, features). */
SM2C_RT_BINARY(tanh_grad, float, f32)
SM2C_RT_BINARY(sigmoid_grad, float, f32)
SM2C_RT_BINARY(relu_grad, float, f32)
SM2C_RT_BINARY(relu6_grad, float, f32)
SM2C_RT_BINARY(xlogy, float, f32)
SM2C_RT_BINARY(xlog1py, float, f32)
SM2C_RT_BINARY(truncate_mod, float, f32)
/* Lgamma (lgammaf) and Digamma (Eigen's algorithm); y may equal x. */
SM2C_RT_UNARY(lgamma) SM2C_RT_UNARY(digamma)

/* Reductions, [outer, reduce, inner] like SM2C_RT_REDUCE: Prod (1 when
** empty), integer Max/Min, bool All/Any. */
SM2C_RT_REDUCE(prod, float, f32) SM2C_RT_REDUCE(prod, int32_t, i32)
SM2C_RT_REDUCE(prod, int64_t, i64)
SM2C_RT_REDUCE(max, int32_t, i32) SM2C_RT_REDUCE(min, int32_t, i32)
SM2C_RT_REDUCE(max, int64_t, i64) SM2C_RT_REDUCE(min, int64_t, i64)
/* Sum, Prod, Max, Min and Mean of the other integer widths (reduce_int_widths.c):
** Sum and Prod wrap; Mean sums in int64/uint64, as TensorFlow. */
#define SM2C_RT_REDUCE_INT(T, sfx) SM2C_RT_REDUCE(sum, T, sfx) SM2C_RT_REDUCE(prod, T, sfx) \
    SM2C_RT_REDUCE(max, T, sfx) SM2C_RT_REDUCE(min, T, sfx) SM2C_RT_REDUCE(mean, T, sfx)
SM2C_RT_REDUCE_INT(int8_t, i8) SM2C_RT_REDUCE_INT(int16_t, i16) SM2C_RT_REDUCE_INT(uint8_t, u8)
SM2C_RT_REDUCE_INT(uint16_t, u16) SM2C_RT_REDUCE_INT(uint32_t, u32) SM2C_RT_REDUCE_INT(uint64_t, u64)
/* The same in double (reduce_f64.c), NaN and empty axes as the float ones. */
SM2C_RT_REDUCE_INT(double, f64)
SM2C_RT_REDUCE(all, uint8_t, b) SM2C_RT_REDUCE(any, uint8_t, b)
/* ArgMax/ArgMin: sm2c_rt_arg_max_<x>_<index>(x, y, outer, reduce, inner):
** the first index of the extremum; NaN never wins; 0 when nothing beats the
** lowest (highest) finite value, as Eigen's reducer in TensorFlow. */
#define SM2C_RT_ARG(T, sfx)                                                            \
    void sm2c_rt_arg_max_##sfx##_i32(const T *x, int32_t *y, int32_t outer, int32_t reduce, int32_t inner); \
    void sm2c_rt_arg_max_##sfx##_i64(const T *x, int64_t *y, int32_t outer, int32_t reduce, int32_t inner); \
    void sm2c_rt_arg_min_##sfx##_i32(const T *x, int32_t *y, int32_t outer, int32_t reduce, int32_t inner); \
    void sm2c_rt_arg_min_##sfx##_i64(const T *x, int64_t *y, int32_t outer, int32_t reduce, int32_t inner);
SM2C_RT_ARG(float, f32) SM2C_RT_ARG(double, f64) SM2C_RT_ARG(int32_t, i32)
SM2C_RT_ARG(int64_t, i64)
SM2C_RT_ARG(int8_t, i8) SM2C_RT_ARG(int16_t, i16) SM2C_RT_ARG(uint8_t, u8) SM2C_RT_ARG(uint16_t, u16)
SM2C_RT_ARG(uint32_t, u32) SM2C_RT_ARG(uint64_t, u64)
SM2C_RT_ARG(uint8_t, b)
/* Cumsum/Cumprod along the middle axis of [outer, len, inner]; exclusive and
** reverse are 0/1; y may equal x. */
#define SM2C_RT_SCAN(T, sfx)                                                           \
    void sm2c_rt_cumsum_##sfx(const T *x, T *y, int32_t outer, int32_t len, int32_t inner, \
                              int32_t exclusive, int32_t reverse);                     \
    void sm2c_rt_cumprod_##sfx(const T *x, T *y, int32_t outer, int32_t len, int32_t inner, \
                               int32_t exclusive, int32_t reverse);
SM2C_RT_SCAN(float, f32) SM2C_RT_SCAN(double, f64) SM2C_RT_SCAN(int32_t, i32)
SM2C_RT_SCAN(int64_t, i64) SM2C_RT_SCAN(int8_t, i8) SM2C_RT_SCAN(int16_t, i16)
SM2C_RT_SCAN(uint8_t, u8) SM2C_RT_SCAN(uint16_t, u16) SM2C_RT_SCAN(uint32_t, u32)
SM2C_RT_SCAN(uint64_t, u64)
/* float16 and bfloat16 as their bits, each partial result rounded to the type. */
SM2C_RT_SCAN(uint16_t, f16) SM2C_RT_SCAN(uint16_t, bf16)
/* L2Loss: y[0] = sum(x^2 / 2). */
void sm2c_rt_l2_loss_f32(const float *x, float *y, int32_t n);
void sm2c_rt_l2_loss_f64(const double *x, double *y, int32_t n);
/* ==== end of the logic family ==== */

/* ==== state: writes to variables (training_f32.c) ====
** Optimizer updates as TensorFlow's CPU functors compute them, in place on
** var (and its slots); scalars are pointers to one element. */
void sm2c_rt_apply_gradient_descent_f32(float *var, const float *lr, const float *grad, int32_t n);
void sm2c_rt_apply_momentum_f32(float *var, float *accum, const float *lr, const float *grad,
                                const float *momentum, int32_t n, int32_t use_nesterov);
void sm2c_rt_apply_adam_f32(float *var, float *m, float *v, const float *beta1_power,
                            const float *beta2_power, const float *lr, const float *beta1,
                            const float *beta2, const float *epsilon, const float *grad, int32_t n,
                            int32_t use_nesterov);
/* ResourceScatterUpdate (any element type, by bytes) and ResourceScatterAdd
** (float32) on the rows of var: SM2C_RT_ERR_INDEX, with var unchanged, when an
** index is outside [0, rows). */
#define SM2C_RT_SCATTER_ROWS(ix, I)                                                          \
    int32_t sm2c_rt_scatter_update_rows_##ix(void *var, int32_t rows, int32_t row_bytes,     \
                                             const I *idx, int32_t n, const void *updates); \
    int32_t sm2c_rt_scatter_add_rows_f32_##ix(float *var, int32_t rows, int32_t row,         \
                                              const I *idx, int32_t n, const float *updates);
SM2C_RT_SCATTER_ROWS(i32, int32_t)
SM2C_RT_SCATTER_ROWS(i64, int64_t)
/* ==== end of state ==== */

/* slice_dynamic.c: StridedSlice at run-time indices.  For each k < n_begin
** with sel_dims[k] > 0, begin[k] (negative from the end) must lie in
** [0, sel_dims[k]) else SM2C_RT_ERR_INDEX; x advances begin[k] *
** sel_strides[k] elements; then the box dims[rank] at x_strides is copied
** densely into y. */
int32_t sm2c_rt_slice_at(const void *x, const int32_t *begin, int32_t n_begin, const int32_t *sel_dims,
                         const int32_t *sel_strides, void *y, int32_t rank, const int32_t *dims,
                         const int32_t *x_strides, int32_t elem_size);

/* ---- tlist.c: TensorLists, lowered to a buffer [max_len, element] and an
** int32 length.  Every kernel checks the index or the length against the
** bounds first and returns SM2C_RT_ERR_INDEX without writing when it is out
** of range.  `out` may equal `data` (in place); otherwise data is copied. */
int32_t sm2c_rt_list_get(void *item, const void *data, const int32_t *len, const int32_t *index,
                         int32_t item_bytes);
int32_t sm2c_rt_list_set(void *out, const void *data, const int32_t *len, const int32_t *index,
                         const void *item, int32_t item_bytes, int32_t data_bytes);
int32_t sm2c_rt_list_push(void *out, int32_t *out_len, const void *data, const int32_t *len,
                          const void *item, int32_t item_bytes, int32_t max_len);
/* SetItem that grows the list to index + 1 when needed (elements between the
** old length and index become zeros), up to max_len. */
int32_t sm2c_rt_list_set_grow(void *out, int32_t *out_len, const void *data, const int32_t *len,
                              const int32_t *index, const void *item, int32_t item_bytes, int32_t max_len);
int32_t sm2c_rt_list_pop(void *item, int32_t *out_len, const void *data, const int32_t *len,
                         int32_t item_bytes);
/* The whole list as one tensor: its length must be max_len (the static shape). */
int32_t sm2c_rt_list_stack(void *y, const void *data, const int32_t *len, int32_t max_len,
                           int32_t data_bytes);

/* ---- data-dependent sizes (dyn.c, nms.c, sparse.c) ----------------------------
** An op whose output size depends on the data writes at most its static bound
** of rows, the actual number to *count (int64), and zeroes the rows past it.
** dyn_clear sets every byte of rows [*count, bound) of each of `outer` blocks
** of `bound` rows of inner_bytes to `fill`: 0 before a data-dependent value is
** used as indices or summed over, 1 (bool true) before an All over it. */
void sm2c_rt_dyn_clear(void *x, const int64_t *count, int32_t outer, int32_t bound, int32_t inner_bytes,
                       int32_t fill);
/* Shape (size 0: y[rank]) or Size (size 1: y[0]) of a value of static shape
** dims whose dim `dim` holds *count rows at run time. */
void sm2c_rt_dyn_shape_i32(int32_t *y, const int64_t *count, const int32_t *dims, int32_t rank, int32_t dim,
                           int32_t size);
void sm2c_rt_dyn_shape_i64(int64_t *y, const int64_t *count, const int32_t *dims, int32_t rank, int32_t dim,
                           int32_t size);
/* Where(x): y[count][rank] int64 coordinates of the nonzero elements of x (n
** elements of shape dims), row-major order; y holds n rows. */
void sm2c_rt_where_f32(const float *x, int64_t *y, int64_t *count, int32_t n, int32_t rank, const int32_t *dims);
void sm2c_rt_where_f64(const double *x, int64_t *y, int64_t *count, int32_t n, int32_t rank, const int32_t *dims);
void sm2c_rt_where_i32(const int32_t *x, int64_t *y, int64_t *count, int32_t n, int32_t rank, const int32_t *dims);
void sm2c_rt_where_i64(const int64_t *x, int64_t *y, int64_t *count, int32_t n, int32_t rank, const int32_t *dims);
void sm2c_rt_where_b(const uint8_t *x, int64_t *y, int64_t *count, int32_t n, int32_t rank, const int32_t *dims);
/* Unique(x): y the distinct values of x[n] in order of first occurrence
** (compared with ==; strings by length and bytes), idx[i] the position of x[i] in y; only the first
** *x_count elements when x_count is not NULL (idx past them 0). */
void sm2c_rt_unique_f32_i32(const float *x, float *y, int32_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_f32_i64(const float *x, float *y, int64_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_i32_i32(const int32_t *x, int32_t *y, int32_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_i32_i64(const int32_t *x, int32_t *y, int64_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_i64_i32(const int64_t *x, int64_t *y, int32_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_i64_i64(const int64_t *x, int64_t *y, int64_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_str_i32(const sm2c_string *x, sm2c_string *y, int32_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
void sm2c_rt_unique_str_i64(const sm2c_string *x, sm2c_string *y, int64_t *idx, int64_t *count, int32_t n,
                            const int64_t *x_count);
/* NonMaxSuppression V2-V5 (nms.c): boxes [n][4], scores [n]; score_threshold
** and soft_nms_sigma may be NULL (-inf, 0).  selected (and selected_scores,
** may be NULL) get at most min(*max_output_size, bound) entries in TensorFlow's
** order, zeros up to bound; *valid (int32) and *count (int64), either may be
** NULL, the number selected.  Scratch: cand_score, cand_begin of n each.
** SM2C_RT_ERR_VALUE when max_output_size < 0, iou_threshold is outside [0, 1]
** or soft_nms_sigma < 0 (TensorFlow's errors). */
int32_t sm2c_rt_nms_f32(const float *boxes, const float *scores, const int32_t *max_output_size,
                        const float *iou_threshold, const float *score_threshold, const float *soft_nms_sigma,
                        int32_t *selected, float *selected_scores, int32_t *valid, int64_t *count,
                        float *cand_score, int32_t *cand_begin, int32_t n, int32_t bound);
/* SparseToDense (sparse.c): y (total elements of elem_size bytes, shape dims
** of rank ndims) set to *dflt, then to values (one if values_scalar, else n)
** at the n index rows of idx [n][ndims] (the first *count when count is not
** NULL: indices with a data-dependent size).  SM2C_RT_ERR_INDEX, before writing,
** for an index out of range or, with validate, not strictly after the one
** before it. */
int32_t sm2c_rt_sparse_to_dense_i32(const int32_t *idx, const void *values, int32_t values_scalar,
                                    const void *dflt, void *y, int32_t n, const int64_t *count, int32_t ndims,
                                    const int32_t *dims, int32_t total, int32_t elem_size, int32_t validate);
int32_t sm2c_rt_sparse_to_dense_i64(const int64_t *idx, const void *values, int32_t values_scalar,
                                    const void *dflt, void *y, int32_t n, const int64_t *count, int32_t ndims,
                                    const int32_t *dims, int32_t total, int32_t elem_size, int32_t validate);
/* SparseToDense whose output_shape is known at run time only (shape, ndims
** values), within the bound dims (a static dim equal, dim `dim` at most):
** y laid out at the bound, *out_count = shape[dim]; as above otherwise, the
** indices checked against shape.  SM2C_RT_ERR_INDEX, before writing, for a
** shape outside the bound. */
int32_t sm2c_rt_sparse_to_dense_bounded_i32(const int32_t *idx, const void *values, int32_t values_scalar,
                                            const void *dflt, void *y, int32_t n, const int64_t *count,
                                            int32_t ndims, const int32_t *shape, const int32_t *dims, int32_t dim,
                                            int64_t *out_count, int32_t total, int32_t elem_size, int32_t validate);
int32_t sm2c_rt_sparse_to_dense_bounded_i64(const int64_t *idx, const void *values, int32_t values_scalar,
                                            const void *dflt, void *y, int32_t n, const int64_t *count,
                                            int32_t ndims, const int64_t *shape, const int32_t *dims, int32_t dim,
                                            int64_t *out_count, int32_t total, int32_t elem_size, int32_t validate);
/* SparseReshape (sparse_reshape.c): the first *count (or n) index rows of in
** [n][r_in] (in in_dims) as rows of out [n][r_out] (in out_dims, of the same
** element count), the rest zeroed.  SM2C_RT_ERR_INDEX, before writing, for a
** coordinate outside in_dims. */
int32_t sm2c_rt_sparse_reshape(const int64_t *in, int64_t *out, int32_t n, const int64_t *count, int32_t r_in,
                               const int32_t *in_dims, int32_t r_out, const int32_t *out_dims);
/* SparseFillEmptyRows (sparse_fill_rows.c): the first *count (or n) entries
** (idx [n][ndims], values of elem_size bytes) grouped by row, each empty row
** of dense_rows given (row, 0, ...) and *dflt; out_idx, out_values hold the
** bound n + dense_rows, *out_count used; empty[dense_rows] bool, reverse[n]
** where each entry went.  scratch: 2 * dense_rows int64.  SM2C_RT_ERR_INDEX,
** before writing, for a row outside [0, dense_rows). */
int32_t sm2c_rt_sparse_fill_empty_rows(const int64_t *idx, const void *values, int32_t n, const int64_t *count,
                                       int32_t ndims, int32_t dense_rows, const void *dflt, int32_t elem_size,
                                       int64_t *out_idx, void *out_values, int64_t *out_count, uint8_t *empty,
                                       int64_t *reverse, int64_t *scratch);
/* SparseSegmentSum/Mean/SqrtN (sparse_segment.c, mode 0/1/2): y[n_seg][row]
** gets rows idx[i] of x (x_rows rows, *x_count there when not NULL) summed
** into rows ids[i], for the first *count (or n) entries; ids non-negative
** and non-decreasing.  With y_count, n_seg is a bound and *y_count = last id
** + 1; without, the last id + 1 must equal n_seg.  SM2C_RT_ERR_INDEX, before
** writing, for an index out of range or ids that break the rules. */
#define SM2C_RT_SPARSE_SEGMENT(ix, I, sx, S)                                                              \
    int32_t sm2c_rt_sparse_segment_f32_##ix##_##sx(const float *x, int32_t x_rows, const int64_t *x_count, \
                                                   const I *idx, const S *ids, int32_t n, const int64_t *count, \
                                                   float *y, int32_t n_seg, int64_t *y_count, int32_t row, \
                                                   int32_t mode);
SM2C_RT_SPARSE_SEGMENT(i32, int32_t, i32, int32_t)
SM2C_RT_SPARSE_SEGMENT(i32, int32_t, i64, int64_t)
SM2C_RT_SPARSE_SEGMENT(i64, int64_t, i32, int32_t)
SM2C_RT_SPARSE_SEGMENT(i64, int64_t, i64, int64_t)
/* ==== complex64 and signal processing (complex.c, fft.c) ====
** A complex64 tensor is float pairs (re, im), interleaved; its kernels take
** float pointers, and n, dims and strides count complex elements.
** complex.c: Complex(re, im), complex Add/Sub/Mul with SM2C_RT_BINARY's
** broadcasting arguments; Real, Imag, ComplexAbs, Angle -> float; Conj and
** Exp -> complex (y may equal x); Cast float -> complex. */
#define SM2C_RT_CBINARY(name)                                                            \
    void sm2c_rt_##name(const float *a, const float *b, float *y, int32_t rank,         \
                        const int32_t *dims, const int32_t *sa, const int32_t *sb);
SM2C_RT_CBINARY(complex_f32) SM2C_RT_CBINARY(add_c64) SM2C_RT_CBINARY(sub_c64)
SM2C_RT_CBINARY(mul_c64)
void sm2c_rt_real_c64(const float *x, float *y, int32_t n);
void sm2c_rt_imag_c64(const float *x, float *y, int32_t n);
void sm2c_rt_abs_c64(const float *x, float *y, int32_t n);
void sm2c_rt_angle_c64(const float *x, float *y, int32_t n);
void sm2c_rt_conj_c64(const float *x, float *y, int32_t n);
void sm2c_rt_exp_c64(const float *x, float *y, int32_t n);
void sm2c_rt_cast_f32_c64(const float *x, float *y, int32_t n);
/* fft.c: DFTs of any length (mixed radix, Bluestein for prime factors over
** 13).  plan and table come from the compiler (fft.c's header comment says
** their layout); scratch holds 4 * plan[1] floats.
** fft_c64: along the middle axis of x [outer, n_in, inner] complex into y
** [outer, n, inner], each line cropped or zero-padded to n; inverse != 0
** gives IFFT, scaled by 1/n.  rfft_f32: x [outer, n_in] float, cropped or
** padded to n, into y [outer, n/2+1] complex.  irfft_c64: x [outer, n_in]
** complex (the first n/2+1 values, zeros past n_in) into y [outer, n] float,
** scaled by 1/n.  y may equal x where the layouts agree. */
void sm2c_rt_fft_c64(const float *x, float *y, float *scratch, int32_t outer, int32_t n_in,
                     int32_t n, int32_t inner, int32_t inverse, const int32_t *plan,
                     const float *table);
void sm2c_rt_rfft_f32(const float *x, float *y, float *scratch, int32_t outer, int32_t n_in,
                      int32_t n, const int32_t *plan, const float *table);
void sm2c_rt_irfft_c64(const float *x, float *y, float *scratch, int32_t outer, int32_t n_in,
                       int32_t n, const int32_t *plan, const float *table);
/* ==== end of complex64 and signal processing ==== */

/* ---- steps split into tasks (par_f32.c; pool_pthread.c) ---------------------
** A step the compiler splits runs as tasks through the caller's parallel-for,
** in the style of pthreadpool: parallel_for(pool, n, fn, arg) calls fn(arg, t)
** once for every t < n, on any threads, and returns when all have returned.
** The _par kernels take the plain kernel's arguments after (par, max_tasks):
** the step is split into min(max_tasks (the compiler's choice for its work),
** par->threads, the rows there are) tasks; with one, the plain kernel runs
** as it is.  par == NULL is one task; a NULL parallel_for runs the tasks in
** order on the calling thread.  Each task computes a disjoint part of the
** output with the ordinary kernel and no sum is split, so every number of
** tasks and threads gives the kernel's bits.  What each splits:
**  - conv2d, conv2d_add (their packed forms too), depthwise_conv2d, max_pool,
**    avg_pool: bands of the N*OH output rows; a pointwise conv2d or
**    conv2d_add (1x1, stride 1, no padding, N*H*W <= INT32_MAX) ranges of
**    its N*OH*OW output pixels; a packed conv2d whose filter outweighs its
**    input, its rows times its slices of 32 output channels, slice-major, so
**    that a task reads its channels' panels only (ResNet50's 7x7 layers); a
**    depthwise_conv2d with multiplier 1 and over 32 channels, on a vector
**    unit, its rows times its slices of 32 channels (depthwise_conv2d_f32_
**    channels), slice-major, when row bands would cut its column tiles.
**  - matmul: rows of A and y (A untransposed only).
**  - batch_matmul: batch entries x rows of A (A untransposed; else entries).
**  - batch_matmul_strided: batch entries x rows of A.
**  - matvec: blocks of 16 output columns (each task reads a band of W's
**    columns at W's full row stride); matvec_t: rows of W, one per column.
**  - softmax, log_softmax, layer_norm: rows.
**  - add, sub, mul: the first dimension above 1 (rank 1: blocks of 16
**    elements; else as many whole rows as hold 16 elements of y).
**  - copy_strided: the first dimension above 1 (none when a dimension above
**    1 has a y stride of 0).
**  - pad_copy_f32: the N * HP rows of the copy.
**  - relu, sigmoid, tanh, erf, exp: blocks of 16 elements.
**  - bias_add: outer rows, or channels when outer is 1 (in blocks that hold
**    16 elements of y).
** matmul_f32_par and the batch_matmul_f32_par forms run as one task when given pack
** (one task's scratch; the compiler splits only steps without it). */
#ifndef SM2C_RT_PAR_DEFINED   /* a generated header declares it too, under this guard */
#define SM2C_RT_PAR_DEFINED
typedef void (*sm2c_rt_task_fn)(void *arg, int32_t task);
typedef void (*sm2c_rt_parallel_for_fn)(void *pool, int32_t n_tasks, sm2c_rt_task_fn task, void *arg);
typedef struct sm2c_rt_par {
    sm2c_rt_parallel_for_fn parallel_for;
    void *pool;
    int32_t threads;    /* the most tasks a step is split into: the pool's threads */
} sm2c_rt_par;
#endif
void sm2c_rt_conv2d_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *w,
                            const float *bias, float *y, const int32_t *p, int32_t act, float act_a,
                            float act_b);
void sm2c_rt_conv2d_add_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                const float *w, const float *bias, const float *r, float *y,
                                const int32_t *p, int32_t act, float act_a, float act_b);
void sm2c_rt_conv2d_packed_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                   const float *w, const float *bias, float *y, const int32_t *p,
                                   int32_t act, float act_a, float act_b);
void sm2c_rt_conv2d_add_packed_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                       const float *w, const float *bias, const float *r, float *y,
                                       const int32_t *p, int32_t act, float act_a, float act_b);
/* For conv2d_packed_f32_par and its residual form (r, or NULL): output
** channels [c0, c1), c0 a multiple of 32 (c1 too, or OC), with the whole
** kernel's bits; 0 and nothing written where it cannot (a scalar FPU). */
int32_t sm2c_rt_conv2d_packed_f32_channels(const float *x, const float *w, const float *bias, const float *r,
                                           float *y, const int32_t *p, int32_t act, float act_a, float act_b,
                                           int32_t c0, int32_t c1);
void sm2c_rt_depthwise_conv2d_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                      const float *w, const float *bias, float *y, const int32_t *p,
                                      int32_t act, float act_a, float act_b);
/* For depthwise_conv2d_f32_par: output channels [c0, c1) of a multiplier-1
** layer, multiples of 32 (c1 may be C), with the whole kernel's bits; 0 and
** nothing written where it cannot (a scalar FPU, a multiplier above 1). */
int32_t sm2c_rt_depthwise_conv2d_f32_channels(const float *x, const float *w, const float *bias, float *y,
                                              const int32_t *p, int32_t act, float act_a, float act_b,
                                              int32_t c0, int32_t c1);
/* For depthwise_conv2d_f32_par: the rows the kernel takes at once from row
** *first on (1 where it takes them one by one), for bands that keep its tiles. */
int32_t sm2c_rt_depthwise_conv2d_f32_row_tile(const int32_t *p, int32_t *first);
void sm2c_rt_max_pool_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                              const int32_t *p);
void sm2c_rt_avg_pool_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                              const int32_t *p);
void sm2c_rt_matmul_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a, const float *b,
                            const float *bias, float *y, int32_t m, int32_t k, int32_t n, int32_t transpose_a,
                            int32_t transpose_b, int32_t act, float act_a, float act_b, float *pack);
void sm2c_rt_batch_matmul_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a, const float *b,
                                  float *y, int32_t batch, const int32_t *a_off, const int32_t *b_off,
                                  int32_t m, int32_t k, int32_t n, int32_t adj_a, int32_t adj_b, float *pack);
void sm2c_rt_batch_matmul_strided_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a,
                                          const float *b, float *y, int32_t batch, const int32_t *a_off,
                                          const int32_t *b_off, const int32_t *y_off, int32_t m, int32_t k,
                                          int32_t n, int32_t a_rs, int32_t a_cs, int32_t b_rs, int32_t b_cs,
                                          int32_t y_rs, float *pack);
void sm2c_rt_matvec_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *w,
                            const float *bias, float *y, int32_t k, int32_t n, int32_t act, float act_a,
                            float act_b);
void sm2c_rt_matvec_t_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *w,
                              const float *bias, float *y, int32_t k, int32_t n, int32_t act,
                              float act_a, float act_b);
void sm2c_rt_softmax_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                             int32_t rows, int32_t cols);
void sm2c_rt_softmax_scaled_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float scale,
                                    float *y, int32_t rows, int32_t cols);
void sm2c_rt_log_softmax_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                                 int32_t rows, int32_t cols);
void sm2c_rt_layer_norm_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x,
                                const float *gamma, const float *beta, float epsilon, float *y,
                                int32_t rows, int32_t cols);
#define SM2C_RT_BINARY_PAR(op)                                                                    \
    void sm2c_rt_##op##_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *a,         \
                                const float *b, float *y, int32_t rank, const int32_t *dims,       \
                                const int32_t *sa, const int32_t *sb);
SM2C_RT_BINARY_PAR(add) SM2C_RT_BINARY_PAR(sub) SM2C_RT_BINARY_PAR(mul)
#define SM2C_RT_UNARY_PAR(op)                                                                     \
    void sm2c_rt_##op##_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y, \
                                int32_t n);
SM2C_RT_UNARY_PAR(relu) SM2C_RT_UNARY_PAR(sigmoid) SM2C_RT_UNARY_PAR(tanh) SM2C_RT_UNARY_PAR(erf)
SM2C_RT_UNARY_PAR(exp)
void sm2c_rt_bias_add_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, const float *bias,
                              float *y, int32_t outer, int32_t channels, int32_t inner, int32_t act,
                              float act_a, float act_b);
void sm2c_rt_copy_strided_par(const sm2c_rt_par *par, int32_t max_tasks, const void *x, int32_t x_off,
                              const int32_t *x_strides, void *y, int32_t y_off, const int32_t *y_strides,
                              int32_t rank, const int32_t *dims, int32_t elem_size);
void sm2c_rt_pad_copy_f32_par(const sm2c_rt_par *par, int32_t max_tasks, const float *x, float *y,
                              const int32_t *d);

/* A portable pthread pool for sm2c_rt_par (pool_pthread.c, POSIX hosts only;
** a firmware image never links it): sm2c_rt_pool_create(threads) starts
** threads - 1 workers (the caller is the last thread) and returns NULL when it
** cannot; its parallel_for spreads the tasks over the threads, which spin a
** little between steps before they sleep.  One pool serves one caller at a
** time; give each concurrent context its own.  destroy joins the workers.
** Use it as (sm2c_rt_par){ sm2c_rt_pool_parallel_for, pool, threads }. */
#ifndef SM2C_RT_POOL_DEFINED   /* a generated header declares it too, under this guard */
#define SM2C_RT_POOL_DEFINED
typedef struct sm2c_rt_pool sm2c_rt_pool;
sm2c_rt_pool *sm2c_rt_pool_create(int32_t threads);
void sm2c_rt_pool_parallel_for(void *pool, int32_t n_tasks, sm2c_rt_task_fn task, void *arg);
void sm2c_rt_pool_destroy(sm2c_rt_pool *pool);
#endif

#ifdef __cplusplus
}
#endif

#endif
