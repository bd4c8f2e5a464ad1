#ifndef COPUS_H
#define COPUS_H

// libopus's settings go through opus_encoder_ctl, a variadic function with macro requests Swift
// cannot call; this shim creates an encoder with lensd's settings and reads its look-ahead.
#include <stdint.h>

typedef struct OpusEncoder copus_encoder;

/// An OPUS_APPLICATION_AUDIO encoder at 48 kHz, `channels` (1 or 2), `bitrate` bits/s (VBR,
/// complexity 10 by default). Returns OPUS_OK (0) and sets *out, or libopus's (negative) error.
int copus_create(int channels, int bitrate, copus_encoder **out);

/// The encoder's look-ahead in 48 kHz samples: the Opus pre-skip a decoder drops.
int copus_lookahead(copus_encoder *encoder);

/// Encodes one frame of `frame_size` samples per channel (960 = 20 ms), interleaved S16.
/// Returns the packet's length or libopus's (negative) error.
int copus_encode(copus_encoder *encoder, const int16_t *pcm, int frame_size, unsigned char *packet, int capacity);

/// opus_strerror.
const char *copus_strerror(int error);

/// NULL is allowed.
void copus_destroy(copus_encoder *encoder);

#endif
