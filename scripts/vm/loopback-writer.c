// loopback-writer - feed one JPEG into a v4l2loopback node as MJPG, over and over, until killed.
// Built on the host by run-in-vivid-vm.sh --loopback (the VM has no compiler) and run in the VM.
//
// Usage: loopback-writer DEVICE JPEG WIDTHxHEIGHT
// The frame is write()n at 25 fps: v4l2loopback hands a reader only frames written after it
// queued its buffers, so a photo needs a writer that keeps going. With exclusive_caps=1 the node
// advertises VIDEO_CAPTURE from STREAMON until every opener has closed it.
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  unsigned width, height;
  if (argc != 4 || sscanf(argv[3], "%ux%u", &width, &height) != 2) {
    fprintf(stderr, "usage: %s DEVICE JPEG WIDTHxHEIGHT\n", argv[0]);
    return 2;
  }
  int in = open(argv[2], O_RDONLY);
  struct stat st;
  if (in < 0 || fstat(in, &st) < 0) { perror(argv[2]); return 1; }
  char *jpeg = malloc(st.st_size);
  if (!jpeg || read(in, jpeg, st.st_size) != st.st_size) { perror(argv[2]); return 1; }
  close(in);

  int fd = open(argv[1], O_RDWR);
  if (fd < 0) { perror(argv[1]); return 1; }
  // v4l2loopback 0.12 checks S_FMT against the caps its last QUERYCAP computed: ask again, so a
  // node whose previous writer and readers have all gone offers OUTPUT once more.
  struct v4l2_capability caps;
  if (ioctl(fd, VIDIOC_QUERYCAP, &caps) < 0) { perror("VIDIOC_QUERYCAP"); return 1; }
  struct v4l2_format format = {.type = V4L2_BUF_TYPE_VIDEO_OUTPUT};
  format.fmt.pix.width = width;
  format.fmt.pix.height = height;
  format.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
  format.fmt.pix.field = V4L2_FIELD_NONE;
  // The buffer size readers get: the JPEG exactly (a larger one arrives zero-padded).
  format.fmt.pix.sizeimage = st.st_size;
  if (ioctl(fd, VIDIOC_S_FMT, &format) < 0) { perror("VIDIOC_S_FMT"); return 1; }
  // Marks this opener as the writer (write() alone does not): only a writer's close makes the
  // node accept the next writer, so another loopback-writer can feed it later in the same boot.
  int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
  if (ioctl(fd, VIDIOC_STREAMON, &type) < 0) { perror("VIDIOC_STREAMON"); return 1; }
  for (;;) {
    if (write(fd, jpeg, st.st_size) != st.st_size) { perror("write"); return 1; }
    usleep(40000);
  }
}
