/*
** npy.c: NumPy .npy files (format 1.0-3.0).
**
** The header is a Python dict literal; we parse exactly what numpy's
** format.read_array_header accepts for the arrays we handle: the keys 'descr',
** 'fortran_order' and 'shape', each once, in any order, with a string, a bool
** and a tuple of non-negative ints.  Anything else (record dtypes, object
** arrays, big-endian data, Fortran order) is refused with one line naming the
** file.  Writing produces version 1.0 byte for byte as numpy 2.x does.
**
** bfloat16 has no numpy descr of its own: numpy with ml_dtypes (what
** TensorFlow's .numpy() returns) saves a bfloat16 array as '<V2', two opaque
** bytes per element.  We read a 2-byte void array ('<V2' or '|V2') as
** bfloat16 bit patterns and write bfloat16 tensors as '<V2', so files
** round-trip with np.save/np.load(...).view(ml_dtypes.bfloat16).
*/
#define _GNU_SOURCE
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fileio.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
#define NPY_GROWTH_DIGITS 21     /* numpy's GROWTH_AXIS_MAX_DIGITS */
#define NPY_MAX_HEADER 65536     /* numpy itself stops at 10000 by default */

/* ---- dtypes ------------------------------------------------------------------ */

typedef struct npy_dtype {
    const char *descr;   /* without the byte-order character */
    int dtype;
} npy_dtype;

static const npy_dtype npy_dtypes[] = {
    { "f4", SM2C_DT_FLOAT }, { "f8", SM2C_DT_DOUBLE }, { "f2", SM2C_DT_HALF },
    { "i1", SM2C_DT_INT8 },  { "i2", SM2C_DT_INT16 },  { "i4", SM2C_DT_INT32 },
    { "i8", SM2C_DT_INT64 }, { "u1", SM2C_DT_UINT8 },  { "u2", SM2C_DT_UINT16 },
    { "u4", SM2C_DT_UINT32 }, { "u8", SM2C_DT_UINT64 }, { "b1", SM2C_DT_BOOL }, { "c8", SM2C_DT_COMPLEX64 },
};

/* The width w of a fixed-width bytes descr "|Sw" (numpy's np.bytes_ arrays),
** or -1. */
static int64_t bytes_width(const char *d, size_t n)
{
    if (n < 3 || (d[0] != '|' && d[0] != '<' && d[0] != '>' && d[0] != '=') || d[1] != 'S' || n > 12)
        return -1;
    int64_t w = 0;
    for (size_t i = 2; i < n; i++) {
        if (d[i] < '0' || d[i] > '9')
            return -1;
        w = w * 10 + (d[i] - '0');
    }
    return w;
}

/* The tensor dtype for a descr string, or an error naming why not. */
static sm2c_status descr_dtype(sm2c_ctx *c, const char *path, const char *d, size_t n,
                               int *dtype)
{
    char order = n ? d[0] : 0;
    if (bytes_width(d, n) >= 0) {
        *dtype = SM2C_DT_STRING;
        return SM2C_OK;
    }
    if (n >= 2 && d[1] == 'U')
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, NULL,
                          "dtype '%.*s' (unicode strings) is not supported; string inputs are bytes: "
                          "np.array(values, dtype='S')", (int)(n > 64 ? 64 : n), d);
    if ((n == 1 && d[0] == 'O') || (n == 2 && d[1] == 'O')) {
        *dtype = -SM2C_DT_STRING;    /* an object array: read_object_strings */
        return SM2C_OK;
    }
    if (n == 3 && (order == '<' || order == '|') && memcmp(d + 1, "V2", 2) == 0) {
        *dtype = SM2C_DT_BFLOAT16;   /* ml_dtypes' bfloat16, see the top of the file */
        return SM2C_OK;
    }
    if (n == 3 && (order == '<' || order == '|' || order == '>' || order == '=')) {
        for (size_t i = 0; i < sizeof npy_dtypes / sizeof npy_dtypes[0]; i++) {
            const npy_dtype *e = &npy_dtypes[i];
            if (memcmp(d + 1, e->descr, 2) != 0)
                continue;
            size_t size = sm2c_dtype_size(e->dtype);
            if (order == '>' && size > 1)
                return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, NULL,
                                  "big-endian data ('%.*s') is not supported; "
                                  "convert with arr.astype(arr.dtype.newbyteorder('<'))",
                                  (int)n, d);
            if (order == '=' && size > 1)
                break;   /* native order: ambiguous in a file, numpy never writes it */
            if (order == '|' && size > 1)
                break;
            *dtype = e->dtype;
            return SM2C_OK;
        }
    }
    return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, NULL,
                      "dtype '%.*s' is not supported (float16/32/64, bfloat16 as '<V2', "
                      "int8-64, uint8-64, bool, complex64, little-endian; bytes as 'S' or an object array of bytes)",
                      (int)(n > 64 ? 64 : n), d);
}

/* ---- object arrays of bytes --------------------------------------------------- */

/* np.save writes an object array as a pickle of the ndarray.  We never
** unpickle: the stream is read as data, opcode by opcode, from a short list
** (what numpy's pickles of protocols 2 to 5 hold), the only globals allowed
** are numpy's _reconstruct, ndarray and dtype, and the elements are the bytes
** objects appended to the one list in the stream (memo references to bytes
** included).  Anything else (other opcodes or globals, str or int elements, a
** count other than the shape's) is refused with a hint to save an 'S' array. */
typedef struct pk_item {
    int kind;               /* 0 other, 1 bytes, 2 str */
    const uint8_t *p;
    size_t n;
} pk_item;

static sm2c_status pk_refuse(sm2c_ctx *c, const char *path, size_t at, const char *why)
{
    return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, sm2c_arena_printf(c->arena, "pickle @%zu", at),
                      "%s; object arrays are read only when they hold bytes (np.array(list_of_bytes, "
                      "dtype=object)), else save np.array(values, dtype='S')", why);
}

static int pk_global_ok(const uint8_t *m, size_t mn, const uint8_t *g, size_t gn)
{
    static const char *const allowed[][2] = {
        { "numpy._core.multiarray", "_reconstruct" }, { "numpy.core.multiarray", "_reconstruct" },
        { "numpy", "ndarray" }, { "numpy", "dtype" },
    };
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (mn == strlen(allowed[i][0]) && gn == strlen(allowed[i][1]) &&
            !memcmp(m, allowed[i][0], mn) && !memcmp(g, allowed[i][1], gn))
            return 1;
    return 0;
}

static sm2c_status read_object_strings(sm2c_ctx *c, const char *path, const uint8_t *d, size_t len,
                                       int64_t nelem, sm2c_bytes **out)
{
    size_t cap = 64, n_memo = 0, at = 0;
    if (nelem > 0 && (uint64_t)nelem > len)   /* each element takes at least one opcode byte */
        return pk_refuse(c, path, 0, sm2c_arena_printf(c->arena, "%lld elements cannot be in %zu bytes",
                                                       (long long)nelem, len));
    pk_item *memo = sm2c_arena_array(c->arena, cap, sizeof *memo);
    pk_item last = { 0, NULL, 0 }, str1 = { 0, NULL, 0 }, str2 = { 0, NULL, 0 };
    sm2c_bytes *items = sm2c_arena_array(c->arena, nelem > 0 ? (size_t)nelem : 1, sizeof *items);
    int64_t got = 0;
    int in_list = 0, lists = 0, stopped = 0;
    while (at < len && !stopped) {
        size_t op_at = at, k = 0, arg = 0;
        uint8_t op = d[at++];
        pk_item item = { 0, NULL, 0 };
        /* fixed-size little-endian argument widths */
        switch (op) {
        case 0x80: case 'K': case 'h': case 'q': case 'C': case 0x8c: case 'U': k = 1; break;
        case 'M': k = 2; break;
        case 'J': case 'j': case 'r': case 'B': case 'X': case 'T': k = 4; break;
        case 0x95: case 0x8e: case 0x8d: k = 8; break;
        default: k = 0;
        }
        if (k > len - at)
            return pk_refuse(c, path, op_at, "truncated");
        for (size_t i = 0; i < k && i < sizeof arg; i++)
            arg |= (size_t)d[at + i] << (8 * i);
        if (k == 8 && (d[at + 7] || d[at + 6]))
            return pk_refuse(c, path, op_at, "a length too large");
        at += k;
        switch (op) {
        case 0x80: case 0x95: case 'K': case 'M': case 'J': case 'N': case 0x88: case 0x89:
        case '(': case 0x85: case 0x86: case 0x87: case 't': case ')': case 'R': case 'b':
            break;                                   /* PROTO FRAME ints NONE bools MARK tuples REDUCE BUILD */
        case '.':
            stopped = 1;
            break;
        case 'C': case 'B': case 0x8e: case 0x8c: case 'X': case 0x8d: case 'U': case 'T':
            if (arg > len - at)
                return pk_refuse(c, path, op_at, "a string past the end");
            item = (pk_item){ op == 'C' || op == 'B' || op == 0x8e ? 1 : 2, d + at, arg };
            at += arg;
            break;
        case 0x94: case 'q': case 'r':               /* MEMOIZE, BINPUT, LONG_BINPUT */
            if (op != 0x94 && arg != n_memo)
                return pk_refuse(c, path, op_at, "memo slots out of order");
            if (n_memo == cap) {
                pk_item *m = sm2c_arena_array(c->arena, cap * 2, sizeof *m);
                memcpy(m, memo, cap * sizeof *m);
                memo = m;
                cap *= 2;
            }
            memo[n_memo++] = last;
            continue;                                /* `last` stays the memoized item */
        case 'h': case 'j':                          /* BINGET, LONG_BINGET */
            if (arg >= n_memo)
                return pk_refuse(c, path, op_at, "a memo reference to nothing");
            item = memo[arg];
            break;
        case 0x93:                                   /* STACK_GLOBAL: the last two strings */
            if (str1.kind != 2 || str2.kind != 2 || !pk_global_ok(str1.p, str1.n, str2.p, str2.n))
                return pk_refuse(c, path, op_at, "a global other than numpy's array reconstruction");
            break;
        case 'c': {                                  /* GLOBAL "module\nname\n" */
            const uint8_t *m = d + at, *nl = memchr(m, '\n', len - at), *g, *nl2;
            if (!nl || !(nl2 = memchr(g = nl + 1, '\n', (size_t)(d + len - (nl + 1)))) ||
                !pk_global_ok(m, (size_t)(nl - m), g, (size_t)(nl2 - g)))
                return pk_refuse(c, path, op_at, "a global other than numpy's array reconstruction");
            at = (size_t)(nl2 + 1 - d);
            break;
        }
        case ']':                                    /* EMPTY_LIST: the elements follow */
            if (lists++)
                return pk_refuse(c, path, op_at, "more than one list");
            in_list = 1;
            break;
        case 'e': case 'a':                          /* APPENDS, APPEND */
            if (!in_list)
                return pk_refuse(c, path, op_at, "an append outside the element list");
            break;
        default:
            return pk_refuse(c, path, op_at, sm2c_arena_printf(c->arena, "opcode 0x%02x", op));
        }
        if (item.kind || op == 'h' || op == 'j') {
            if (in_list) {
                if (item.kind != 1)
                    return pk_refuse(c, path, op_at, "an element that is not bytes");
                if (got >= nelem)
                    return pk_refuse(c, path, op_at, "more elements than the shape holds");
                items[got++] = (sm2c_bytes){ item.p, item.n };
            }
            if (item.kind == 2) {
                str1 = str2;
                str2 = item;
            }
        }
        if (op == 't' || op == 'b')
            in_list = 0;                             /* the state tuple closes the list */
        last = item;
    }
    if (!stopped || at != len)
        return pk_refuse(c, path, len, !stopped ? "no STOP" : "bytes after STOP");
    if (got != nelem)
        return pk_refuse(c, path, len, sm2c_arena_printf(c->arena, "%lld elements for a shape of %lld",
                                                         (long long)got, (long long)nelem));
    *out = items;
    return SM2C_OK;
}

static const char *dtype_descr(int dtype)
{
    switch (dtype) {
    case SM2C_DT_FLOAT: return "<f4";
    case SM2C_DT_DOUBLE: return "<f8";
    case SM2C_DT_HALF: return "<f2";
    case SM2C_DT_BFLOAT16: return "<V2";
    case SM2C_DT_INT8: return "|i1";
    case SM2C_DT_INT16: return "<i2";
    case SM2C_DT_INT32: return "<i4";
    case SM2C_DT_INT64: return "<i8";
    case SM2C_DT_UINT8: return "|u1";
    case SM2C_DT_UINT16: return "<u2";
    case SM2C_DT_UINT32: return "<u4";
    case SM2C_DT_UINT64: return "<u8";
    case SM2C_DT_BOOL: return "|b1";
    case SM2C_DT_COMPLEX64: return "<c8";
    default: return NULL;
    }
}

/* ---- the header dict ----------------------------------------------------------- */

typedef struct hparser {
    sm2c_ctx *c;
    const char *path;
    const char *p, *end;
} hparser;

static void hspace(hparser *h)
{
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r'))
        h->p++;
}

static int hpeek(hparser *h, char ch)
{
    hspace(h);
    return h->p < h->end && *h->p == ch;
}

static int heat(hparser *h, char ch)
{
    if (!hpeek(h, ch))
        return 0;
    h->p++;
    return 1;
}

/* A Python string literal with ' or " quotes and no escapes (numpy never
** writes any in the keys and descrs we accept). */
static int hstring(hparser *h, const char **s, size_t *n)
{
    hspace(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return 0;
    char q = *h->p++;
    const char *start = h->p;
    while (h->p < h->end && *h->p != q) {
        if (*h->p == '\\' || *h->p == '\n')
            return 0;
        h->p++;
    }
    if (h->p >= h->end)
        return 0;
    *s = start;
    *n = (size_t)(h->p - start);
    h->p++;
    return 1;
}

static int hword(hparser *h, const char *w)
{
    size_t n = strlen(w);
    hspace(h);
    if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0)
        return 0;
    const char *after = h->p + n;
    if (after < h->end && (((*after | 32) >= 'a' && (*after | 32) <= 'z') ||
                           (*after >= '0' && *after <= '9') || *after == '_'))
        return 0;
    h->p = after;
    return 1;
}

static int keyeq(const char *s, size_t n, const char *k)
{
    return n == strlen(k) && memcmp(s, k, n) == 0;
}

/* Parse the header dict into descr, fortran order and shape (dims in the arena). */
static sm2c_status parse_header(sm2c_ctx *c, const char *path, const char *text, size_t len,
                                const char **descr, size_t *descr_len, int *fortran,
                                sm2c_shape *shape)
{
    hparser h = { c, path, text, text + len };
    int have_descr = 0, have_fortran = 0, have_shape = 0;
    int64_t dims[64];
    int32_t rank = 0;
    int64_t max_rank = c->limits->rank < 64 ? c->limits->rank : 64;

    if (!heat(&h, '{'))
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                          "the header is not a Python dict literal");
    while (!hpeek(&h, '}')) {
        const char *k;
        size_t kn;
        if (!hstring(&h, &k, &kn))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                              "expected a quoted key in the header dict");
        if (!heat(&h, ':'))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                              "expected ':' after key '%.*s'", (int)(kn > 64 ? 64 : kn), k);
        if (keyeq(k, kn, "descr")) {
            if (have_descr++)
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                  "key 'descr' appears twice");
            if (hpeek(&h, '['))
                return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, "header",
                                  "structured (record) dtypes are not supported");
            if (!hstring(&h, descr, descr_len))
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                  "'descr' is not a string");
        } else if (keyeq(k, kn, "fortran_order")) {
            if (have_fortran++)
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                  "key 'fortran_order' appears twice");
            if (hword(&h, "True"))
                *fortran = 1;
            else if (hword(&h, "False"))
                *fortran = 0;
            else
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                  "'fortran_order' is not True or False");
        } else if (keyeq(k, kn, "shape")) {
            if (have_shape++)
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                  "key 'shape' appears twice");
            if (!heat(&h, '('))
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                  "'shape' is not a tuple");
            /* (), (n,), (n, m), (n, m,) */
            while (!hpeek(&h, ')')) {
                if (h.p >= h.end || *h.p < '0' || *h.p > '9')
                    return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                      "'shape' holds something other than a non-negative int");
                int64_t v = 0;
                while (h.p < h.end && *h.p >= '0' && *h.p <= '9') {
                    int digit = *h.p++ - '0';
                    if (v > (INT64_MAX - digit) / 10)
                        return sm2c_error(c->diag, SM2C_ERR_LIMIT, path, "header",
                                          "a dimension of 'shape' does not fit in 64 bits");
                    v = v * 10 + digit;
                }
                if (rank >= max_rank)
                    return sm2c_error(c->diag, SM2C_ERR_LIMIT, path, "header",
                                      "'shape' has more than %" PRId64 " dimensions "
                                      "(--limit rank=N raises it up to 64)", max_rank);
                dims[rank++] = v;
                if (heat(&h, ','))
                    continue;
                if (!hpeek(&h, ')'))
                    return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                      "expected ',' or ')' in 'shape'");
                if (rank == 1)   /* (3) is an int in Python, not a tuple */
                    return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                                      "'shape' is not a tuple");
            }
            h.p++;
        } else {
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                              "unexpected key '%.*s' in the header dict",
                              (int)(kn > 64 ? 64 : kn), k);
        }
        if (!heat(&h, ',') && !hpeek(&h, '}'))
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                              "expected ',' or '}' in the header dict");
    }
    h.p++;
    hspace(&h);
    if (h.p != h.end)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                          "text after the header dict");
    if (!have_descr || !have_fortran || !have_shape)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                          "the header dict lacks '%s'",
                          !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");
    shape->rank = rank;
    shape->dims = sm2c_arena_array(c->arena, rank ? (size_t)rank : 1, sizeof(int64_t));
    if (rank)
        memcpy(shape->dims, dims, (size_t)rank * sizeof dims[0]);
    return SM2C_OK;
}

/* ---- reading ------------------------------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

sm2c_status sm2c_npy_read(sm2c_ctx *c, const char *path, sm2c_tensor *out)
{
    sm2c_buf buf;
    memset(out, 0, sizeof *out);
    sm2c_status st = sm2c_read_file(c, AT_FDCWD, path, path, c->limits->file_bytes, &buf);
    return st ? st : sm2c_npy_parse(c, path, buf.data, buf.len, out);
}

sm2c_status sm2c_npy_parse(sm2c_ctx *c, const char *path, const uint8_t *bytes, size_t n_bytes, sm2c_tensor *out)
{
    sm2c_status st;
    const sm2c_buf buf = { (uint8_t *)bytes, n_bytes };   /* only read */
    memset(out, 0, sizeof *out);
    if (buf.len < NPY_MAGIC_LEN + 2 || memcmp(buf.data, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                          "not a .npy file (no \\x93NUMPY magic)");
    unsigned major = buf.data[6], minor = buf.data[7];
    if (major < 1 || major > 3 || minor != 0)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, NULL,
                          ".npy format version %u.%u is not supported (1.0, 2.0, 3.0)",
                          major, minor);
    size_t prefix = major == 1 ? 10 : 12;
    if (buf.len < prefix)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                          "truncated: the file ends inside the header length");
    size_t hlen = major == 1 ? (size_t)buf.data[8] | (size_t)buf.data[9] << 8
                             : (size_t)le32(buf.data + 8);
    if (hlen > NPY_MAX_HEADER)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, path, NULL,
                          "header of %zu bytes is longer than %d", hlen, NPY_MAX_HEADER);
    if (buf.len - prefix < hlen)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                          "truncated: header of %zu bytes, file has %zu after the prefix",
                          hlen, buf.len - prefix);
    const char *text = (const char *)buf.data + prefix;
    for (size_t i = 0; i < hlen; i++)
        if (text[i] == '\0')
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                              "NUL byte in the header");
    if (hlen == 0 || text[hlen - 1] != '\n')
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, "header",
                          "the header does not end with a newline");

    const char *descr = NULL;
    size_t descr_len = 0;
    int fortran = 0;
    sm2c_shape shape;
    st = parse_header(c, path, text, hlen, &descr, &descr_len, &fortran, &shape);
    if (st != SM2C_OK)
        return st;
    int dtype = 0;
    st = descr_dtype(c, path, descr, descr_len, &dtype);
    if (st != SM2C_OK)
        return st;
    if (fortran)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, NULL,
                          "Fortran-order arrays are not supported; save with "
                          "np.save(path, np.ascontiguousarray(arr))");

    int64_t nelem = sm2c_shape_elements(&shape, c->limits->elements);
    if (nelem < 0)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, path, NULL,
                          "shape %s has more than %" PRId64 " elements "
                          "(--limit elements=N raises it)",
                          sm2c_shape_str(c->arena, &shape), c->limits->elements);
    if (dtype == -SM2C_DT_STRING) {
        sm2c_bytes *strs;
        if ((st = read_object_strings(c, path, buf.data + prefix + hlen, buf.len - prefix - hlen, nelem, &strs)))
            return st;
        *out = (sm2c_tensor){ .dtype = SM2C_DT_STRING, .shape = shape, .nelem = nelem, .strings = strs };
        return SM2C_OK;
    }
    int64_t width = dtype == SM2C_DT_STRING ? bytes_width(descr, descr_len) : 0;
    if (dtype == SM2C_DT_STRING && width == 0)   /* numpy itself makes 'S0' 'S1' */
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                          "dtype '%.*s' has elements of no bytes; numpy writes strings at least '|S1'",
                          (int)descr_len, descr);
    size_t size = dtype == SM2C_DT_STRING ? (size_t)width : sm2c_dtype_size(dtype);
    if (size && (uint64_t)nelem > SIZE_MAX / size)
        return sm2c_error(c->diag, SM2C_ERR_LIMIT, path, NULL,
                          "shape %s is too large to address", sm2c_shape_str(c->arena, &shape));
    size_t nbytes = (size_t)nelem * size;
    size_t have = buf.len - prefix - hlen;
    if (have != nbytes)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                          "%s data of shape %s needs %zu bytes, the file has %zu",
                          sm2c_dtype_name(dtype), sm2c_shape_str(c->arena, &shape), nbytes, have);

    uint8_t *data = buf.data + prefix + hlen;
    if (dtype == SM2C_DT_STRING) {
        /* 'S' elements are NUL-padded to the width; as numpy reads them, an
        ** element ends at its last non-NUL byte. */
        sm2c_bytes *strs = sm2c_arena_array(c->arena, nelem > 0 ? (size_t)nelem : 1, sizeof *strs);
        for (int64_t i = 0; i < nelem; i++) {
            const uint8_t *e = data + (size_t)i * size;
            size_t len = size;
            while (len && !e[len - 1])
                len--;
            strs[i] = (sm2c_bytes){ e, len };
        }
        *out = (sm2c_tensor){ .dtype = dtype, .shape = shape, .nelem = nelem, .strings = strs };
        return SM2C_OK;
    }
    if ((uintptr_t)data % 16 != 0) {
        uint8_t *copy = sm2c_arena_alloc(c->arena, nbytes ? nbytes : 1);
        memcpy(copy, data, nbytes);
        data = copy;
    }
    if (dtype == SM2C_DT_BOOL)
        for (size_t i = 0; i < nbytes; i++)
            if (data[i] > 1)
                return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL,
                                  "bool element %zu is %u, not 0 or 1", i, data[i]);
    out->dtype = dtype;
    out->shape = shape;
    out->nelem = nelem;
    out->nbytes = nbytes;
    out->data = data;
    out->strings = NULL;
    return SM2C_OK;
}

/* ---- writing ------------------------------------------------------------------------ */

static sm2c_status write_all(sm2c_ctx *c, const char *path, int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s",
                              w < 0 ? strerror(errno) : "no progress");
        b += w;
        n -= (size_t)w;
    }
    return SM2C_OK;
}

/* A string tensor as numpy's fixed-width bytes ('|S<w>', w the longest
** element, at least 1): each element zero-padded to w, as np.array(values,
** dtype='S') holds it (which is also how the string inputs are read). */
static sm2c_tensor fixed_width(sm2c_ctx *c, const sm2c_tensor *t, size_t *width)
{
    sm2c_tensor f = *t;
    size_t w = 1;
    for (int64_t i = 0; i < t->nelem; i++)
        if (t->strings[i].len > w)
            w = t->strings[i].len;
    f.nbytes = (size_t)t->nelem * w;
    f.data = sm2c_arena_alloc(c->arena, f.nbytes + 1);
    memset(f.data, 0, f.nbytes + 1);
    for (int64_t i = 0; i < t->nelem; i++)
        if (t->strings[i].len)
            memcpy((uint8_t *)f.data + (size_t)i * w, t->strings[i].data, t->strings[i].len);
    *width = w;
    return f;
}

sm2c_status sm2c_npy_encode(sm2c_ctx *c, const char *path, const sm2c_tensor *t, sm2c_buf *out)
{
    const char *descr = dtype_descr(t->dtype);
    size_t size = sm2c_dtype_size(t->dtype);
    sm2c_tensor packed;
    if (t->dtype == SM2C_DT_STRING && t->strings && t->nelem >= 0) {
        packed = fixed_width(c, t, &size);
        descr = sm2c_arena_printf(c->arena, "|S%zu", size);
        t = &packed;
    }
    if (!descr)
        return sm2c_error(c->diag, SM2C_ERR_UNSUPPORTED, path, NULL,
                          "cannot write %s tensors as .npy", sm2c_dtype_name(t->dtype));
    if (t->shape.rank < 0 || t->shape.rank > 64)
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, NULL,
                          "cannot write a tensor of rank %d", (int)t->shape.rank);
    int64_t nelem = sm2c_shape_elements(&t->shape, INT64_MAX);
    if (nelem < 0 || (uint64_t)nelem > SIZE_MAX / size || (size_t)nelem * size != t->nbytes ||
        (t->nbytes && !t->data))
        return sm2c_error(c->diag, SM2C_ERR_INTERNAL, path, NULL,
                          "tensor of shape %s does not hold %zu bytes of %s",
                          sm2c_shape_str(c->arena, &t->shape), t->nbytes,
                          sm2c_dtype_name(t->dtype));

    /* The dict exactly as numpy 2.x writes it: sorted keys, repr() values. */
    size_t cap = 128 + (size_t)t->shape.rank * 24 + NPY_ALIGN;
    char *h = sm2c_arena_alloc(c->arena, cap);
    size_t n = (size_t)snprintf(h, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                                descr);
    for (int32_t i = 0; i < t->shape.rank; i++)
        n += (size_t)snprintf(h + n, cap - n, "%s%" PRId64, i ? ", " : "", t->shape.dims[i]);
    n += (size_t)snprintf(h + n, cap - n, "%s), }", t->shape.rank == 1 ? "," : "");
    if (t->shape.rank > 0) {
        /* Spare room so that the first axis can grow in place. */
        int digits = snprintf(NULL, 0, "%" PRId64, t->shape.dims[0]);
        for (int i = digits; i < NPY_GROWTH_DIGITS; i++)
            h[n++] = ' ';
    }
    size_t hlen = n + 1;
    size_t pad = NPY_ALIGN - (10 + hlen) % NPY_ALIGN;
    memset(h + n, ' ', pad);
    n += pad;
    h[n++] = '\n';
    SM2C_ASSERT(n < cap && n <= 0xffff && (10 + n) % NPY_ALIGN == 0);

    uint8_t prefix[10];
    memcpy(prefix, NPY_MAGIC, NPY_MAGIC_LEN);
    prefix[6] = 1;
    prefix[7] = 0;
    prefix[8] = (uint8_t)(n & 0xff);
    prefix[9] = (uint8_t)(n >> 8);

    out->len = sizeof prefix + n + t->nbytes;
    out->data = sm2c_arena_alloc(c->arena, out->len + 1);
    memcpy(out->data, prefix, sizeof prefix);
    memcpy(out->data + sizeof prefix, h, n);
    if (t->nbytes)
        memcpy(out->data + sizeof prefix + n, t->data, t->nbytes);
    return SM2C_OK;
}

sm2c_status sm2c_npy_write(sm2c_ctx *c, const char *path, const sm2c_tensor *t)
{
    sm2c_buf b;
    sm2c_status st = sm2c_npy_encode(c, path, t, &b);
    if (st)
        return st;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot create: %s",
                          strerror(errno));
    st = write_all(c, path, fd, b.data, b.len);
    if (close(fd) != 0 && st == SM2C_OK)
        st = sm2c_error(c->diag, SM2C_ERR_INVALID, path, NULL, "cannot write: %s",
                        strerror(errno));
    return st;
}
