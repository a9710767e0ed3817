"""Conformance cases for complex64 and signal processing (issue 17): Complex,
Real, Imag, ComplexAbs, Angle, Conj, complex Add/Sub/Mul/Exp, the movement ops
on complex64, FFT/IFFT/FFT2D/IFFT2D, RFFT/IRFFT/RFFT2D/IRFFT2D at power-of-two,
odd and prime lengths (Bluestein past radix 13) with fft_length cropping and
padding, and the audio front ends keyword-spotting models use: tf.signal.stft
with a Hann window, its magnitude and log-mel spectrogram, and MFCCs on top.
FFT tolerances are contraction(n) (docs/reliability.md section 9, K = n).
"""
from opcase import EXACT, IEEE, TRANS, contraction, np, rng_for, tf

raw = tf.raw_ops


def cplx(rng, shape, scale=2.0):
    return (rng.uniform(-scale, scale, shape) + 1j * rng.uniform(-scale, scale, shape)).astype(np.complex64)


def real(rng, shape, scale=2.0):
    return rng.uniform(-scale, scale, shape).astype(np.float32)


def elementwise_cases():
    name = "Complex"
    rng = rng_for(name)
    yield (name, lambda x, y: tf.complex(x, y), {"serving_default": {"x": real(rng, (2, 3)), "y": real(rng, (3,))}},
           EXACT, "Complex(re [2, 3], im [3]) with broadcasting -> complex64")
    special = np.array([0, -0.0, 1, -1j, 3 + 4j, -3 - 4j, -2 + 0j, 1e-30 + 1e-30j], np.complex64)
    for op, fn, tol in (("Real", tf.math.real, EXACT), ("Imag", tf.math.imag, EXACT),
                        ("ComplexAbs", tf.abs, IEEE), ("Angle", tf.math.angle, TRANS),
                        ("Conj", tf.math.conj, EXACT)):
        rng = rng_for(op)
        yield (op, (lambda fn: lambda x: fn(x))(fn),
               {"serving_default": {"x": cplx(rng, (3, 4))}, "special": {"x": special}}, tol,
               "complex64 %s on random values and special ones (zeros, axes, a tiny value)" % op)
    for op, fn, tol in (("Add_c64", lambda x, y: raw.Add(x=x, y=y), IEEE), ("AddV2_c64", tf.add, IEEE), ("Sub_c64", tf.subtract, IEEE),
                        ("Mul_c64", tf.multiply, {"rtol": 1e-6, "atol": 1e-6})):
        rng = rng_for(op)
        yield (op, (lambda fn: lambda x, y: {"z": fn(x, y)})(fn),
               {"serving_default": {"x": cplx(rng, (2, 3)), "y": cplx(rng, (3,))}}, tol,
               "complex64 %s with broadcasting ([2, 3] and [3])" % op.split("_")[0])
    rng = rng_for("Cast_f32_c64")
    yield ("Cast_f32_c64", lambda x: tf.cast(x, tf.complex64), {"serving_default": {"x": real(rng, (2, 3))}},
           EXACT, "Cast float32 -> complex64 (imaginary parts zero)")
    rng = rng_for("Exp_c64")
    yield ("Exp_c64", lambda x: tf.exp(x), {"serving_default": {"x": cplx(rng, (2, 5))}}, TRANS,
           "complex64 Exp (e^re (cos im + i sin im))")


def movement_case():
    name = "Movement_c64"
    rng = rng_for(name)

    def fn(x, y):
        return {"reshape": tf.reshape(x, (4, 3)), "transpose": tf.transpose(x, (1, 0, 2)),
                "concat": tf.concat([x, y], axis=2), "stack": tf.stack([x, y]),
                "slice": tf.slice(x, [0, 1, 0], [2, 1, 2]), "strided": x[:, ::-1, 1],
                "pad": tf.pad(x, [[0, 0], [1, 0], [0, 2]]), "expand": tf.expand_dims(x, 1),
                "squeeze": tf.squeeze(x[:, :1, :], axis=1)}
    yield (name, fn, {"serving_default": {"x": cplx(rng, (2, 2, 3)), "y": cplx(rng, (2, 2, 3))}}, EXACT,
           "complex64 through Reshape, Transpose, ConcatV2, Pack, Slice, StridedSlice, Pad, ExpandDims, Squeeze")


def fft_cases():
    # complex FFT/IFFT: a power of two, an odd composite, a prime above 13 (Bluestein)
    for op, fn in (("FFT", tf.signal.fft), ("IFFT", tf.signal.ifft)):
        rng = rng_for(op)
        yield (op, (lambda fn: lambda x: fn(x))(fn),
               {"serving_default": {"x": cplx(rng, (2, 16))}, "n15": {"x": cplx(rng, (3, 15))},
                "n17": {"x": cplx(rng, (2, 17))}, "n97": {"x": cplx(rng, (1, 97))}}, contraction(97),
               "complex64 %s over the last dim at lengths 16, 15, 17 and 97 (prime: Bluestein)" % op)
    for op, fn in (("FFT2D", tf.signal.fft2d), ("IFFT2D", tf.signal.ifft2d)):
        rng = rng_for(op)
        yield (op, (lambda fn: lambda x: fn(x))(fn),
               {"serving_default": {"x": cplx(rng, (2, 4, 8))}, "odd": {"x": cplx(rng, (1, 5, 19))}},
               contraction(95), "complex64 %s over the last two dims ([2, 4, 8] and [1, 5, 19])" % op)
    # RFFT: (input length, fft_length) per signature: equal, padded, cropped, odd, prime
    lens = {"serving_default": (16, 16), "pad": (10, 16), "crop": (20, 16), "odd": (15, 15),
            "prime": (257, 257), "n400": (400, 512)}
    rng = rng_for("RFFT")
    fns = {s: (lambda n: lambda x: tf.signal.rfft(x, [n]))(n) for s, (_, n) in lens.items()}
    yield ("RFFT", None, {s: {"x": real(rng, (1 if k > 100 else 2, k))} for s, (k, _) in lens.items()}, contraction(512),
           "float32 RFFT with fft_length equal to, above (zero padding) and below (cropping) the input "
           "length; odd, prime (257, Bluestein) and 400 padded to 512", {"fns": fns})
    # IRFFT: (input length, fft_length): n/2+1 inputs, fewer (zeros), more (ignored), odd n
    lens = {"serving_default": (9, 16), "short": (5, 16), "long": (12, 16), "odd": (8, 15),
            "prime": (9, 17)}
    rng = rng_for("IRFFT")
    fns = {s: (lambda n: lambda x: tf.signal.irfft(x, [n]))(n) for s, (_, n) in lens.items()}
    yield ("IRFFT", None, {s: {"x": cplx(rng, (2, k))} for s, (k, _) in lens.items()}, contraction(64),
           "complex64 IRFFT with n/2+1 inputs, fewer (zero padded) and more (cropped), even, odd and prime "
           "lengths; the DC and Nyquist imaginary parts are ignored", {"fns": fns})
    lens = {"serving_default": ((4, 8), (4, 8)), "pad_crop": ((3, 10), (4, 8)), "odd": ((5, 7), (5, 7))}
    rng = rng_for("RFFT2D")
    fns = {s: (lambda n: lambda x: tf.signal.rfft2d(x, list(n)))(n) for s, (_, n) in lens.items()}
    yield ("RFFT2D", None, {s: {"x": real(rng, (2,) + k)} for s, (k, _) in lens.items()}, contraction(64),
           "float32 RFFT2D, with fft_length equal to, padding and cropping the input dims", {"fns": fns})
    lens = {"serving_default": ((4, 5), (4, 8)), "pad_crop": ((3, 7), (4, 8)), "odd": ((5, 4), (5, 7))}
    rng = rng_for("IRFFT2D")
    fns = {s: (lambda n: lambda x: tf.signal.irfft2d(x, list(n)))(n) for s, (_, n) in lens.items()}
    yield ("IRFFT2D", None, {s: {"x": cplx(rng, (2,) + k)} for s, (k, _) in lens.items()}, contraction(64),
           "complex64 IRFFT2D, with fft_length equal to, padding and cropping the input dims", {"fns": fns})


def waveform(rng, n):
    t = np.arange(n) / 16000.0
    x = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.2 * np.sin(2 * np.pi * 3100 * t) + 0.05 * rng.standard_normal(n)
    return x.astype(np.float32)[None, :]


def front_end(frame_length, frame_step, fft_length, mfcc):
    def fn(x):
        s = tf.signal.stft(x, frame_length=frame_length, frame_step=frame_step, fft_length=fft_length,
                           window_fn=tf.signal.hann_window)
        mag = tf.abs(s)
        m = tf.signal.linear_to_mel_weight_matrix(40, fft_length // 2 + 1, 16000, 20.0, 7600.0)
        log_mel = tf.math.log(tf.tensordot(mag, m, 1) + 1e-6)
        out = {"log_mel": log_mel}
        if mfcc:
            out["mfcc"] = tf.signal.mfccs_from_log_mel_spectrograms(log_mel)[..., :13]
        else:
            out["magnitude"] = mag
        return out
    return fn


def front_end_cases():
    rng = rng_for("STFT")
    yield ("STFT_logmel", front_end(256, 128, 256, False), {"serving_default": {"x": waveform(rng, 2048)}},
           {"rtol": 2e-4, "atol": 2e-4},
           "tf.signal.stft (Hann window, frame 256, step 128) of a [1, 2048] waveform: |STFT| and the "
           "log-mel spectrogram (40 bands)")
    rng = rng_for("MFCC")
    yield ("MFCC", front_end(400, 160, 512, True), {"serving_default": {"x": waveform(rng, 2400)}},
           {"rtol": 2e-4, "atol": 2e-4},
           "tf.signal.mfccs_from_log_mel_spectrograms (13 coefficients) on the log-mel spectrogram of a "
           "Hann-window STFT (frame 400, step 160, fft_length 512: the keyword-spotting setting) of a "
           "[1, 2400] waveform")


def cases():
    yield from elementwise_cases()
    yield from movement_case()
    yield from fft_cases()
    yield from front_end_cases()
