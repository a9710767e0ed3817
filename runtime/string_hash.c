/*
** string_hash.c: StringToHashBucketFast: y[i] = Fingerprint64(x[i]) modulo
** buckets, as TensorFlow (tensorflow::Fingerprint64 is farmhash's
** Fingerprint64, farmhashna::Hash64: bit-exact, little-endian loads whatever
** the host).  Reads exactly [data, data + len) of each string.
*/
#include <stddef.h>
#include <stdint.h>

#include "sm2c_rt.h"

#define K0 0xc3a5c85c97cb3127ULL
#define K1 0xb492b66fbe98f273ULL
#define K2 0x9ae16a3b2f90404fULL

typedef struct fh_pair {
    uint64_t first, second;
} fh_pair;

static uint64_t fetch64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t fetch32(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

static uint64_t rotate(uint64_t v, int shift)
{
    return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}

static uint64_t shift_mix(uint64_t v)
{
    return v ^ (v >> 47);
}

static uint64_t hash_len16(uint64_t u, uint64_t v, uint64_t mul)
{
    uint64_t a = (u ^ v) * mul, b;
    a ^= a >> 47;
    b = (v ^ a) * mul;
    b ^= b >> 47;
    return b * mul;
}

static uint64_t hash_len0to16(const uint8_t *s, uint64_t len)
{
    if (len >= 8) {
        uint64_t mul = K2 + len * 2, a = fetch64(s) + K2, b = fetch64(s + len - 8);
        uint64_t c = rotate(b, 37) * mul + a, d = (rotate(a, 25) + b) * mul;
        return hash_len16(c, d, mul);
    }
    if (len >= 4) {
        uint64_t mul = K2 + len * 2, a = fetch32(s);
        return hash_len16(len + (a << 3), fetch32(s + len - 4), mul);
    }
    if (len > 0) {
        uint32_t y = (uint32_t)s[0] + ((uint32_t)s[len >> 1] << 8);
        uint32_t z = (uint32_t)len + ((uint32_t)s[len - 1] << 2);
        return shift_mix((uint64_t)y * K2 ^ (uint64_t)z * K0) * K2;
    }
    return K2;
}

static uint64_t hash_len17to32(const uint8_t *s, uint64_t len)
{
    uint64_t mul = K2 + len * 2, a = fetch64(s) * K1, b = fetch64(s + 8);
    uint64_t c = fetch64(s + len - 8) * mul, d = fetch64(s + len - 16) * K2;
    return hash_len16(rotate(a + b, 43) + rotate(c, 30) + d, a + rotate(b + K2, 18) + c, mul);
}

static uint64_t hash_len33to64(const uint8_t *s, uint64_t len)
{
    uint64_t mul = K2 + len * 2, a = fetch64(s) * K2, b = fetch64(s + 8);
    uint64_t c = fetch64(s + len - 8) * mul, d = fetch64(s + len - 16) * K2;
    uint64_t y = rotate(a + b, 43) + rotate(c, 30) + d;
    uint64_t z = hash_len16(y, a + rotate(b + K2, 18) + c, mul);
    uint64_t e = fetch64(s + 16) * mul, f = fetch64(s + 24);
    uint64_t g = (y + fetch64(s + len - 32)) * mul, h = (z + fetch64(s + len - 24)) * mul;
    return hash_len16(rotate(e + f, 43) + rotate(g, 30) + h, e + rotate(f + a, 18) + g, mul);
}

/* farmhash's WeakHashLen32WithSeeds of the 32 bytes at s. */
static fh_pair weak_hash32(const uint8_t *s, uint64_t a, uint64_t b)
{
    uint64_t w = fetch64(s), x = fetch64(s + 8), y = fetch64(s + 16), z = fetch64(s + 24), c;
    fh_pair r;
    a += w;
    b = rotate(b + a + z, 21);
    c = a;
    a += x;
    a += y;
    b += rotate(a, 44);
    r.first = a + z;
    r.second = b + c;
    return r;
}

static uint64_t fingerprint64(const uint8_t *s, uint64_t len)
{
    uint64_t x = 81, y = 81 * K1 + 113, z = shift_mix(y * K2 + 113) * K2, mul, t;
    fh_pair v = { 0, 0 }, w = { 0, 0 };
    const uint8_t *end, *last64;
    if (len <= 16)
        return hash_len0to16(s, len);
    if (len <= 32)
        return hash_len17to32(s, len);
    if (len <= 64)
        return hash_len33to64(s, len);
    x = x * K2 + fetch64(s);
    end = s + ((len - 1) / 64) * 64;
    last64 = end + ((len - 1) & 63) - 63;
    do {
        x = rotate(x + y + v.first + fetch64(s + 8), 37) * K1;
        y = rotate(y + v.second + fetch64(s + 48), 42) * K1;
        x ^= w.second;
        y += v.first + fetch64(s + 40);
        z = rotate(z + w.first, 33) * K1;
        v = weak_hash32(s, v.second * K1, x + w.first);
        w = weak_hash32(s + 32, z + w.second, y + fetch64(s + 16));
        t = z;
        z = x;
        x = t;
        s += 64;
    } while (s != end);
    mul = K1 + ((z & 0xff) << 1);
    s = last64;
    w.first += (len - 1) & 63;
    v.first += w.first;
    w.first += v.first;
    x = rotate(x + y + v.first + fetch64(s + 8), 37) * mul;
    y = rotate(y + v.second + fetch64(s + 48), 42) * mul;
    x ^= w.second * 9;
    y += v.first * 9 + fetch64(s + 40);
    z = rotate(z + w.first, 33) * mul;
    v = weak_hash32(s, v.second * mul, x + w.first);
    w = weak_hash32(s + 32, z + w.second, y + fetch64(s + 16));
    t = z;
    z = x;
    x = t;
    return hash_len16(hash_len16(v.first, w.first, mul) + shift_mix(y) * K0 + z,
                      hash_len16(v.second, w.second, mul) + x, mul);
}

void sm2c_rt_string_to_hash_bucket(const sm2c_string *x, int64_t *y, int32_t n, int32_t hi, int32_t lo)
{
    uint64_t buckets = (uint64_t)(uint32_t)hi << 32 | (uint32_t)lo;
    int32_t i;
    for (i = 0; i < n; i++) {
        uint64_t h = x[i].len > 0 && x[i].data ? fingerprint64(x[i].data, (uint64_t)x[i].len) : K2;
        y[i] = buckets ? (int64_t)(h % buckets) : 0;
    }
}
