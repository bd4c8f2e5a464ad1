#include "calsa.h"

#include <alsa/asoundlib.h>

static void calsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

int calsa_open_capture(const char *device, unsigned rate, unsigned channels, unsigned long period_frames,
                       unsigned long buffer_frames, calsa_pcm **out) {
    snd_lib_error_set_handler(calsa_silent);
    snd_pcm_t *pcm = NULL;
    int status = snd_pcm_open(&pcm, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK);
    if (status < 0) return status;
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_uframes_t period = period_frames, buffer = buffer_frames;
    if ((status = snd_pcm_hw_params_any(pcm, hw)) < 0
        || (status = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0
        || (status = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0
        || (status = snd_pcm_hw_params_set_channels(pcm, hw, channels)) < 0
        || (status = snd_pcm_hw_params_set_rate(pcm, hw, rate, 0)) < 0
        || (status = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, NULL)) < 0
        || (status = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer)) < 0
        || (status = snd_pcm_hw_params(pcm, hw)) < 0
        || (status = snd_pcm_prepare(pcm)) < 0
        || (status = snd_pcm_start(pcm)) < 0) {
        snd_pcm_close(pcm);
        return status;
    }
    *out = pcm;
    return 0;
}

int calsa_wait(calsa_pcm *pcm, int timeout_ms) { return snd_pcm_wait(pcm, timeout_ms); }

long calsa_read(calsa_pcm *pcm, int16_t *samples, unsigned long frames) {
    return snd_pcm_readi(pcm, samples, frames);
}

int calsa_recover(calsa_pcm *pcm, int error) {
    // A prepared capture PCM starts again with the next read.
    return snd_pcm_recover(pcm, error, 1);
}

long calsa_delay(calsa_pcm *pcm) {
    snd_pcm_sframes_t delay = 0;
    return snd_pcm_delay(pcm, &delay) < 0 || delay < 0 ? 0 : delay;
}

const char *calsa_strerror(int error) { return snd_strerror(error); }

void calsa_close(calsa_pcm *pcm) {
    if (!pcm) return;
    snd_pcm_drop(pcm);
    snd_pcm_close(pcm);
}
