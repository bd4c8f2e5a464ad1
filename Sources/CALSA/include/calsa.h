#ifndef CALSA_H
#define CALSA_H

// ALSA capture for lensd's audio: opening a PCM takes a dozen hw_params calls and ALSA reports
// errors through a variadic handler Swift cannot set; this shim does both with lensd's fixed
// format (interleaved S16 little-endian). Errors are negative errno values, as ALSA returns them.
#include <stddef.h>
#include <stdint.h>

typedef struct _snd_pcm calsa_pcm;

/// Opens `device` (an ALSA PCM name) for non-blocking capture at `rate` Hz with `channels` channels,
/// interleaved S16_LE, periods of about `period_frames`, a buffer of about `buffer_frames`, and
/// starts it. ALSA's own messages on stderr are silenced (lensd reports the error it returns).
/// Returns 0 and sets *out, or a negative errno (-ENOENT: no such device, -EACCES/-EPERM: refused).
int calsa_open_capture(const char *device, unsigned rate, unsigned channels, unsigned long period_frames,
                       unsigned long buffer_frames, calsa_pcm **out);

/// Waits up to `timeout_ms` for frames to read (snd_pcm_wait): 1 ready, 0 timed out, or a negative errno.
int calsa_wait(calsa_pcm *pcm, int timeout_ms);

/// Reads up to `frames` frames into `samples` without blocking. Returns the number read or a
/// negative errno (-EAGAIN: none yet, -EPIPE: overrun, -ESTRPIPE: suspended, -ENODEV: device gone).
long calsa_read(calsa_pcm *pcm, int16_t *samples, unsigned long frames);

/// snd_pcm_recover (silently): after -EPIPE or -ESTRPIPE, makes the PCM capture again. 0 or a negative errno.
int calsa_recover(calsa_pcm *pcm, int error);

/// Frames captured but not read yet (snd_pcm_delay), or 0 when ALSA cannot say.
long calsa_delay(calsa_pcm *pcm);

/// snd_strerror.
const char *calsa_strerror(int error);

/// Stops (drops pending frames) and closes; NULL is allowed.
void calsa_close(calsa_pcm *pcm);

#endif
