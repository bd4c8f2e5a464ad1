// loopback-writer - feed frames into a v4l2loopback node, over and over, until killed.
// Built on the host by run-in-vivid-vm.sh --loopback (the VM has no compiler) and run in the VM.
//
// Usage: loopback-writer DEVICE WIDTHxHEIGHT FORMAT [BUFFER] -- FILE...
//   FORMAT  MJPG (each FILE one JPEG) or YUYV (each FILE one raw frame of WIDTH*HEIGHT*2 bytes)
//   BUFFER  the buffer size readers get (default: the largest FILE); a shorter frame arrives
//           zero-padded, so one JPEG alone is handed over exactly as it is
// The FILEs are written in order at 25 fps, looping: v4l2loopback hands a reader only frames
// written after it queued its buffers, so a photo needs a writer that keeps going. A line on
// standard input naming other files (separated by spaces) replaces the playlist from its first
// file on, so a test can change what the camera sees at a moment it knows. With exclusive_caps=1
// the node advertises VIDEO_CAPTURE from STREAMON until every opener has closed it.
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FRAMES 256

struct frame { char *bytes; size_t size; };
static struct frame playlist[MAX_FRAMES];
static int frames;

static int load(const char *path, struct frame *frame) {
  int in = open(path, O_RDONLY);
  struct stat st;
  if (in < 0 || fstat(in, &st) < 0) { perror(path); return -1; }
  frame->size = st.st_size;
  frame->bytes = malloc(frame->size);
  if (!frame->bytes || read(in, frame->bytes, frame->size) != (ssize_t)frame->size) { perror(path); return -1; }
  close(in);
  return 0;
}

// Replaces the playlist with the files named in `line` (spaces between them).
static int replace(char *line, size_t limit) {
  struct frame next[MAX_FRAMES];
  int count = 0;
  for (char *path = strtok(line, " \t\n"); path; path = strtok(NULL, " \t\n")) {
    if (count == MAX_FRAMES || load(path, &next[count]) < 0) return -1;
    if (next[count].size > limit) { fprintf(stderr, "%s is larger than the buffer (%zu)\n", path, limit); return -1; }
    count++;
  }
  if (count == 0) return 0;
  for (int i = 0; i < frames; i++) free(playlist[i].bytes);
  memcpy(playlist, next, sizeof(struct frame) * count);
  frames = count;
  return 1;
}

int main(int argc, char **argv) {
  unsigned width, height;
  size_t buffer = 0;
  int files = 4;
  if (argc > 5 && strcmp(argv[4], "--") != 0) { buffer = strtoul(argv[4], NULL, 10); files = 5; }
  if (argc <= files + 1 || strcmp(argv[files], "--") != 0 || sscanf(argv[2], "%ux%u", &width, &height) != 2
      || (strcmp(argv[3], "MJPG") != 0 && strcmp(argv[3], "YUYV") != 0) || argc - files - 1 > MAX_FRAMES) {
    fprintf(stderr, "usage: %s DEVICE WIDTHxHEIGHT MJPG|YUYV [BUFFER] -- FILE...\n", argv[0]);
    return 2;
  }
  int yuyv = strcmp(argv[3], "YUYV") == 0;
  for (int i = files + 1; i < argc; i++) {
    if (load(argv[i], &playlist[frames]) < 0) return 1;
    if (yuyv && playlist[frames].size != (size_t)width * height * 2) {
      fprintf(stderr, "%s is not one %ux%u YUYV frame\n", argv[i], width, height);
      return 1;
    }
    if (playlist[frames].size > buffer) buffer = playlist[frames].size;
    frames++;
  }

  int fd = open(argv[1], O_RDWR);
  if (fd < 0) { perror(argv[1]); return 1; }
  // v4l2loopback 0.12 checks S_FMT against the caps its last QUERYCAP computed: ask again, so a
  // node whose previous writer and readers have all gone offers OUTPUT once more.
  struct v4l2_capability caps;
  if (ioctl(fd, VIDIOC_QUERYCAP, &caps) < 0) { perror("VIDIOC_QUERYCAP"); return 1; }
  struct v4l2_format format = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
  format.fmt.pix.width = width;
  format.fmt.pix.height = height;
  format.fmt.pix.pixelformat = yuyv ? V4L2_PIX_FMT_YUYV : V4L2_PIX_FMT_MJPEG;
  format.fmt.pix.field = V4L2_FIELD_NONE;
  format.fmt.pix.bytesperline = yuyv ? width * 2 : 0;
  format.fmt.pix.sizeimage = buffer;
  if (ioctl(fd, VIDIOC_S_FMT, &format) < 0) { perror("VIDIOC_S_FMT"); return 1; }
  if (format.fmt.pix.sizeimage < buffer) { fprintf(stderr, "the node took %u-byte buffers\n", format.fmt.pix.sizeimage); return 1; }
  // Marks this opener as the writer (write() alone does not): only a writer's close makes the
  // node accept the next writer, so another loopback-writer can feed it later in the same boot.
  int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  if (ioctl(fd, VIDIOC_STREAMON, &type) < 0) { perror("VIDIOC_STREAMON"); return 1; }
  char line[16384];
  size_t used = 0;
  int stdinOpen = 1;
  for (int next = 0;; next = (next + 1) % frames) {
    if (write(fd, playlist[next].bytes, playlist[next].size) != (ssize_t)playlist[next].size) { perror("write"); return 1; }
    // The 40 ms between frames is spent waiting for a new playlist (or sleeping, once stdin is closed).
    struct pollfd input = {.fd = 0, .events = POLLIN};
    if (poll(&input, stdinOpen, 40) > 0) {
      ssize_t n = read(0, line + used, sizeof line - 1 - used);
      if (n <= 0) { stdinOpen = 0; continue; }
      used += n;
      line[used] = 0;
      char *end = strchr(line, '\n');
      if (!end) continue;
      *end = 0;
      int replaced = replace(line, buffer);
      if (replaced < 0) return 1;
      if (replaced > 0) next = -1;
      used = 0;
    }
  }
}
