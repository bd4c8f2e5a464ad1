#include "ch264.h"

#include <stdlib.h>
#include <string.h>

struct ch264_encoder {
    ISVCEncoder *svc;
    int width, height;
    SFrameBSInfo output;
};

int ch264_open(int width, int height, float frame_rate, int bitrate, int max_bitrate, int idr_interval,
               ch264_encoder **out) {
    ch264_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) return cmMallocMemeError;
    int status = WelsCreateSVCEncoder(&encoder->svc);
    if (status != 0 || !encoder->svc) {
        free(encoder);
        return status ? status : cmInitParaError;
    }
    ISVCEncoder *svc = encoder->svc;
    int log_level = WELS_LOG_ERROR;
    (*svc)->SetOption(svc, ENCODER_OPTION_TRACE_LEVEL, &log_level);

    SEncParamExt p;
    (*svc)->GetDefaultParams(svc, &p);
    p.iUsageType = CAMERA_VIDEO_REAL_TIME;
    p.iPicWidth = width;
    p.iPicHeight = height;
    p.fMaxFrameRate = frame_rate;
    p.iRCMode = RC_BITRATE_MODE;
    p.iTargetBitrate = bitrate;
    p.iMaxBitrate = max_bitrate;
    p.bEnableFrameSkip = false;
    p.iComplexityMode = LOW_COMPLEXITY;
    p.uiIntraPeriod = (unsigned int)idr_interval;
    p.eSpsPpsIdStrategy = CONSTANT_ID;
    p.bEnableSceneChangeDetect = false;
    p.iMultipleThreadIdc = 1;
    p.iEntropyCodingModeFlag = 0;
    p.iTemporalLayerNum = 1;
    p.iSpatialLayerNum = 1;
    SSpatialLayerConfig *layer = &p.sSpatialLayers[0];
    layer->iVideoWidth = width;
    layer->iVideoHeight = height;
    layer->fFrameRate = frame_rate;
    layer->iSpatialBitrate = bitrate;
    layer->iMaxSpatialBitrate = max_bitrate;
    layer->uiProfileIdc = PRO_BASELINE;
    layer->sSliceArgument.uiSliceMode = SM_SINGLE_SLICE;
    layer->bVideoSignalTypePresent = true;
    layer->uiVideoFormat = VF_UNDEF;
    layer->bFullRange = false;
    layer->bColorDescriptionPresent = true;
    layer->uiColorPrimaries = CP_BT709;
    layer->uiTransferCharacteristics = TRC_IEC61966_2_1;
    layer->uiColorMatrix = CM_SMPTE170M;

    status = (*svc)->InitializeExt(svc, &p);
    if (status == 0) {
        int format = videoFormatI420;
        status = (*svc)->SetOption(svc, ENCODER_OPTION_DATAFORMAT, &format);
    }
    if (status != 0) {
        ch264_close(encoder);
        return status;
    }
    encoder->width = width;
    encoder->height = height;
    *out = encoder;
    return 0;
}

int ch264_encode(ch264_encoder *encoder, const unsigned char *const planes[3], const int strides[3],
                 long long timestamp_ms, bool force_idr) {
    ISVCEncoder *svc = encoder->svc;
    SSourcePicture picture;
    memset(&picture, 0, sizeof picture);
    picture.iColorFormat = videoFormatI420;
    picture.iPicWidth = encoder->width;
    picture.iPicHeight = encoder->height;
    picture.uiTimeStamp = timestamp_ms;
    for (int plane = 0; plane < 3; plane++) {
        // OpenH264 only reads the source picture; its struct just is not const-qualified.
        picture.pData[plane] = (unsigned char *)planes[plane];
        picture.iStride[plane] = strides[plane];
    }
    memset(&encoder->output, 0, sizeof encoder->output);
    if (force_idr) {
        int status = (*svc)->ForceIntraFrame(svc, true);
        if (status != 0) return status;
    }
    return (*svc)->EncodeFrame(svc, &picture, &encoder->output);
}

EVideoFrameType ch264_frame_type(const ch264_encoder *encoder) {
    return encoder->output.eFrameType;
}

int ch264_layer_count(const ch264_encoder *encoder) {
    return encoder->output.iLayerNum;
}

int ch264_layer_nals(const ch264_encoder *encoder, int index, const unsigned char **bytes, const int **lengths) {
    if (index < 0 || index >= encoder->output.iLayerNum) return 0;
    const SLayerBSInfo *layer = &encoder->output.sLayerInfo[index];
    *bytes = layer->pBsBuf;
    *lengths = layer->pNalLengthInByte;
    return layer->iNalCount;
}

void ch264_close(ch264_encoder *encoder) {
    if (!encoder) return;
    if (encoder->svc) {
        (*encoder->svc)->Uninitialize(encoder->svc);
        WelsDestroySVCEncoder(encoder->svc);
    }
    free(encoder);
}
