#ifndef CH264_H
#define CH264_H

// OpenH264's encoder is a C vtable ((*encoder)->EncodeFrame(encoder, …)) configured through a
// large parameter struct; this shim turns it into plain functions with lensd's fixed settings.
// No logic beyond adapting: the Swift side (H264Encoder) reads the NAL units and frame types.
#include <stdbool.h>
#include <wels/codec_api.h>

typedef struct ch264_encoder ch264_encoder;

/// Opens an encoder for I420 pictures of width×height (even) with lensd's settings:
/// CAMERA_VIDEO_REAL_TIME, LOW_COMPLEXITY, one thread, one slice, Baseline profile (CAVLC, no
/// B-frames), RC_BITRATE_MODE at `bitrate` capped at `max_bitrate` (bits/s), frame skip off,
/// scene-change IDRs off (IDRs only every `idr_interval` frames or when forced), SPS/PPS ids
/// constant (CONSTANT_ID, so one avcC describes the whole stream), and a VUI that says what
/// lensd feeds it: limited range, BT.601 matrix, sRGB primaries and transfer.
/// Returns 0 (cmResultSuccess) and sets *out, or OpenH264's error code.
int ch264_open(int width, int height, float frame_rate, int bitrate, int max_bitrate, int idr_interval,
               ch264_encoder **out);

/// Encodes one picture (planes Y, U, V with their strides; timestamp in milliseconds), as an IDR
/// when `force_idr`. Returns 0 or OpenH264's error code. The output stays readable through
/// the accessors below until the next call.
int ch264_encode(ch264_encoder *encoder, const unsigned char *const planes[3], const int strides[3],
                 long long timestamp_ms, bool force_idr);

/// The last output's frame type (videoFrameTypeIDR, …, videoFrameTypeSkip when nothing came out).
EVideoFrameType ch264_frame_type(const ch264_encoder *encoder);
/// The last output's layers (the parameter-set layer first on an IDR, then the picture).
int ch264_layer_count(const ch264_encoder *encoder);
/// Layer `index`: its NAL units back to back at *bytes, each Annex B (with its start code),
/// their lengths (start code included) at *lengths. Returns the number of NAL units.
int ch264_layer_nals(const ch264_encoder *encoder, int index, const unsigned char **bytes, const int **lengths);

/// Uninitializes and frees the encoder; NULL is allowed.
void ch264_close(ch264_encoder *encoder);

#endif
