#ifndef CV4L2_H
#define CV4L2_H

// libv4l2, the V4L2 UAPI and the media controller UAPI for Swift. Swift imports neither
// variadic functions (v4l2_open, v4l2_ioctl, ioctl) nor function-like macros (VIDIOC_* are
// _IOWR(), V4L2_PIX_FMT_* are v4l2_fourcc()), so this header re-exports them as plain
// functions and constants.
#include <fcntl.h>
#include <libv4l2.h>
#include <linux/media.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>

static inline int cv4l2_open(const char *path, int flags) { return v4l2_open(path, flags); }
static inline int cv4l2_ioctl(int fd, unsigned long request, void *argument) {
    return v4l2_ioctl(fd, request, argument);
}

static const unsigned long CV4L2_MEDIA_IOC_G_TOPOLOGY = MEDIA_IOC_G_TOPOLOGY;
static const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long CV4L2_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long CV4L2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long CV4L2_VIDIOC_G_EXT_CTRLS = VIDIOC_G_EXT_CTRLS;
static const unsigned long CV4L2_VIDIOC_S_EXT_CTRLS = VIDIOC_S_EXT_CTRLS;

// Region-of-interest controls (Linux 6.3, UVC): older UAPI headers lack them; the values are the kernel's.
#ifndef V4L2_CID_REGION_OF_INTEREST_RECT
#define V4L2_CID_REGION_OF_INTEREST_RECT (V4L2_CID_CAMERA_CLASS_BASE + 36)
#endif
#ifndef V4L2_CID_REGION_OF_INTEREST_AUTO
#define V4L2_CID_REGION_OF_INTEREST_AUTO (V4L2_CID_CAMERA_CLASS_BASE + 37)
#define V4L2_CID_REGION_OF_INTEREST_AUTO_EXPOSURE (1 << 0)
#define V4L2_CID_REGION_OF_INTEREST_AUTO_FOCUS (1 << 3)
#endif
static const unsigned int CV4L2_CID_REGION_OF_INTEREST_RECT = V4L2_CID_REGION_OF_INTEREST_RECT;
static const unsigned int CV4L2_CID_REGION_OF_INTEREST_AUTO = V4L2_CID_REGION_OF_INTEREST_AUTO;
static const int CV4L2_REGION_OF_INTEREST_AUTO_EXPOSURE = V4L2_CID_REGION_OF_INTEREST_AUTO_EXPOSURE;
static const int CV4L2_REGION_OF_INTEREST_AUTO_FOCUS = V4L2_CID_REGION_OF_INTEREST_AUTO_FOCUS;

static const unsigned int CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const unsigned int CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;
static const unsigned int CV4L2_PIX_FMT_RGB24 = V4L2_PIX_FMT_RGB24;

#endif
