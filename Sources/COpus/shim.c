#include "copus.h"

#include <opus/opus.h>

int copus_create(int channels, int bitrate, copus_encoder **out) {
    int status = OPUS_OK;
    OpusEncoder *encoder = opus_encoder_create(48000, channels, OPUS_APPLICATION_AUDIO, &status);
    if (status != OPUS_OK) return status;
    if ((status = opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate))) != OPUS_OK) {
        opus_encoder_destroy(encoder);
        return status;
    }
    *out = encoder;
    return OPUS_OK;
}

int copus_lookahead(copus_encoder *encoder) {
    opus_int32 lookahead = 0;
    return opus_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(&lookahead)) == OPUS_OK ? lookahead : 0;
}

int copus_encode(copus_encoder *encoder, const int16_t *pcm, int frame_size, unsigned char *packet, int capacity) {
    return opus_encode(encoder, pcm, frame_size, packet, capacity);
}

const char *copus_strerror(int error) { return opus_strerror(error); }

void copus_destroy(copus_encoder *encoder) {
    if (encoder) opus_encoder_destroy(encoder);
}
