#!/usr/bin/env bash
# scripts/vm/run-in-vivid-vm.sh - run a command as root in a throw-away qemu VM (TCG; KVM on
# these machines cannot boot a stock kernel) with the kernel's `vivid` V4L2 test driver loaded.
# The VM boots Debian's own kernel (downloaded with apt-get download, cached) and sees the host:
# / read-only over 9p under a tmpfs overlay (writes vanish), the cwd and --rw dirs read-write.
# So host-built binaries and test bundles run unchanged; nothing is compiled in the VM.
#
# Usage: run-in-vivid-vm.sh [options] [--] COMMAND [ARGS...]
#   --vivid-opts STR  vivid module options (default: two cameras, the first with a metadata
#                     node, so the second camera is /dev/video2)
#   --rw DIR          mount host DIR read-write at the same path (repeatable)
#   --env NAME=VALUE  set a variable inside the VM (repeatable)
#   --loopback OPTS   also load v4l2loopback with OPTS (e.g. "video_nr=10 exclusive_caps=1"),
#                     built once per kernel from Debian's v4l2loopback-dkms source against
#                     linux-headers-<the VM kernel> (installed on first use), and provide
#                     $VIVID_VM_LOOPBACK_WRITER (loopback-writer.c, built on the host)
#   --mem MB (1024)   --smp N (1)   --timeout SEC (600 -> exit 124)
#   --setup-only      build the cached kernel and initramfs, then exit
#   -v, --verbose     timings and the guest console on stderr
# Exit status: the command's; 124 timeout; 125 the VM could not run (missing packages,
# no kernel package, qemu failure) - callers may skip on 125.
# Inside: $VIVID_VM=1, $VIVID_VM_OPTS, vivid.ko at $VIVID_VM_KO (reload it with
# `busybox rmmod vivid; busybox insmod "$VIVID_VM_KO" $VIVID_VM_OPTS`), no udev, no D-Bus
# daemon, nodes root-only, snd-aloop's sound card (hw:Loopback: what is played into
# hw:Loopback,0,N is captured from hw:Loopback,1,N); with --loopback, v4l2loopback loaded after
# vivid and $VIVID_VM_LOOPBACK_WRITER (usage in loopback-writer.c). Needs root and qemu-system-x86
# busybox-static kmod cpio xz-utils, and for --loopback make and gcc (scripts/setup installs
# them all). Cache: $LENSD_VM_CACHE (default ~/.cache/lensd-vm).
set -euo pipefail

die() { echo "run-in-vivid-vm: $*" >&2; exit 125; }
vlog() { [ "$VERBOSE" = 1 ] && echo "run-in-vivid-vm: [$(date +%T.%N | cut -c1-12)] $*" >&2 || true; }

VIVID_OPTS="n_devs=2 node_types=0x20001,0x1 num_inputs=1,1 input_types=0x0,0x0"
RW_DIRS=(); ENVS=(); MEM=1024; SMP=1; TIMEOUT=600
SETUP_ONLY=0; VERBOSE=0; LOOPBACK=0; LOOPBACK_OPTS=
while [ $# -gt 0 ]; do
  case "$1" in
    --vivid-opts) VIVID_OPTS=$2; shift 2 ;;
    --rw) RW_DIRS+=("$(realpath -e "$2")") || die "no such dir: $2"; shift 2 ;;
    --env) ENVS+=("$2"); shift 2 ;;
    --loopback) LOOPBACK=1; LOOPBACK_OPTS=$2; shift 2 ;;
    --mem) MEM=$2; shift 2 ;;
    --smp) SMP=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    --setup-only) SETUP_ONLY=1; shift ;;
    -v|--verbose) VERBOSE=1; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1" ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || [ "$SETUP_ONLY" = 1 ] || die "no command given (see --help)"
[ "$(id -u)" = 0 ] || die "must run as root (apt-get, 9p passthrough)"
T0=$(date +%s%N)

# ---------------------------------------------------------------- packages
missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
{ [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; } || missing+=(busybox-static)
[ -x /sbin/depmod ] || missing+=(kmod)
command -v cpio >/dev/null || missing+=(cpio)
command -v xz >/dev/null || missing+=(xz-utils)
[ ${#missing[@]} -eq 0 ] || die "missing packages: ${missing[*]} (run scripts/setup)"
CACHE=${LENSD_VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/lensd-vm}
mkdir -p "$CACHE" || die "cannot create the cache $CACHE"

# ------------------------------------------------------- kernel + modules
# Modules needed in the initramfs (dependencies are resolved with modprobe); all but vivid are
# loaded at boot. snd-aloop is the sound card: what is played into hw:Loopback,0,N is captured
# from hw:Loopback,1,N.
WANT_MODS="vivid 9p 9pnet_virtio virtio_pci overlay snd-aloop"
# The kernel directory is named by the module list too, so a cache made for another list (an
# older checkout's, which other runs may be using) is neither reused nor replaced.
kernel_dir() { echo "$CACHE/k-$1-$(printf %s "$WANT_MODS" | sha256sum | cut -c1-8)"; }
build_kernel() {  # $1 = package name -> $(kernel_dir <pkg>)/{vmlinux,modules/}
  local pkg=$1 out; out=$(kernel_dir "$1"); local tmp
  [ -s "$out/vmlinux" ] && [ -s "$out/modules/order" ] && return 0
  tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
  vlog "downloading $pkg"
  ( cd "$tmp" && apt-get download -qq "$pkg" 2>/dev/null ) \
    || { apt-get update -qq >&2; ( cd "$tmp" && apt-get download -qq "$pkg" ); } \
    || { rm -rf "$tmp"; die "apt-get download $pkg failed"; }
  dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -x -C "$tmp" --wildcards \
    './boot/vmlinuz-*' './lib/modules/*/modules.*' './lib/modules/*/kernel/drivers/media/*' \
    './lib/modules/*/kernel/drivers/virtio/*' './lib/modules/*/kernel/fs/9p/*' \
    './lib/modules/*/kernel/net/9p/*' './lib/modules/*/kernel/fs/netfs/*' \
    './lib/modules/*/kernel/fs/fscache/*' './lib/modules/*/kernel/fs/overlayfs/*' \
    './lib/modules/*/kernel/sound/*' \
    || { rm -rf "$tmp"; die "extracting $pkg failed"; }
  local kver; kver=$(ls "$tmp/lib/modules")
  /sbin/depmod -b "$tmp" "$kver"
  mkdir -p "$tmp/out/modules"
  local m
  for m in $WANT_MODS; do
    /sbin/modprobe -d "$tmp" -S "$kver" --show-depends "$m" | awk '$1=="insmod"{print $2}'
  done | awk '!seen[$0]++' | while read -r m; do
    cp "$m" "$tmp/out/modules/"; basename "$m" >> "$tmp/out/modules/order"
  done
  # PVH boot of the uncompressed ELF skips firmware real mode + xz decompression
  # (3-4x faster under TCG than booting the bzImage).
  local vmlinuz off; vmlinuz=$(ls "$tmp"/boot/vmlinuz-*)
  off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$vmlinuz" | head -1 | cut -d: -f1)
  [ -n "$off" ] || { rm -rf "$tmp"; die "no xz payload in $vmlinuz"; }
  tail -c +$((off + 1)) "$vmlinuz" | xz -dcq > "$tmp/out/vmlinux" 2>/dev/null || true
  [ "$(head -c4 "$tmp/out/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ] \
    || { rm -rf "$tmp"; die "vmlinux extraction failed"; }
  echo "$kver" > "$tmp/out/kver"
  rm -rf "$out"; mv "$tmp/out" "$out"; rm -rf "$tmp"
}

INIT_SCRIPT='#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
con() { echo "vivid-vm-init: $*" > /dev/console; }
fail() { con "FATAL: $*"; echo "init: $*" > /vmrun/init-error 2>/dev/null; sync; reboot -f; }
for m in $(cat /modules/order); do
  [ "$m" = vivid.ko ] || insmod /modules/$m || con "insmod $m failed"
done
O9=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o $O9 vmrun /vmrun || fail "mount vmrun"
. /vmrun/config
insmod /modules/vivid.ko $VIVID_OPTS || fail "insmod vivid $VIVID_OPTS"
# After vivid, so that vivid keeps the low node numbers its tests expect.
if [ "${LOOPBACK:-0}" = 1 ]; then
  insmod /vmrun/v4l2loopback.ko $LOOPBACK_OPTS || fail "insmod v4l2loopback $LOOPBACK_OPTS"
fi
# host / (read-only 9p) + tmpfs upper layer = writable root whose changes are discarded
mount -t 9p -o $O9,ro,cache=loose hostroot /lower || fail "mount hostroot"
mount -t tmpfs -o mode=755 tmpfs /upper; mkdir -p /upper/u /upper/w
R=/newroot
if ! mount -t overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w overlay $R; then
  con "overlay failed, using read-only root with tmpfs /tmp"
  mount --bind /lower $R
  mount -t tmpfs -o mode=1777 tmpfs $R/tmp; mount -t tmpfs -o mode=1777 tmpfs $R/var/tmp
fi
mount -t proc proc $R/proc; mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts $R/dev/pts; mount -t tmpfs tmpfs $R/dev/shm
mount -t tmpfs -o mode=755 tmpfs $R/run
mkdir -p $R/run/vivid-vm $R/run/vivid-vm-modules; mount --bind /vmrun $R/run/vivid-vm
mount --bind /modules $R/run/vivid-vm-modules
i=0; while [ $i -lt $N_RW ]; do
  eval p=\$RW_$i
  mkdir -p "$R$p" 2>/dev/null
  mount -t 9p -o $O9,cache=mmap rw$i "$R$p" || fail "mount rw$i at $p"
  i=$((i+1))
done
ip link set lo up 2>/dev/null
stty -F /dev/ttyS1 raw -echo; stty -F /dev/ttyS2 raw -echo
con "running command at $(cut -d" " -f1 /proc/uptime)s"
chroot $R /bin/sh /run/vivid-vm/cmd.sh </dev/null >/dev/ttyS1 2>/dev/ttyS2
echo $? > /vmrun/rc
con "command exited at $(cut -d" " -f1 /proc/uptime)s"
sync; reboot -f   # with -no-reboot, a guest reset makes qemu exit (works without ACPI)
'
build_initrd() {  # $1 = kernel dir -> $1/initrd-<hash>.img
  local kd=$1 h out tmp
  h=$( { printf %s "$INIT_SCRIPT"; cat "$kd/modules/order"; } | sha256sum | cut -c1-12)
  out="$kd/initrd-$h.img"
  [ -s "$out" ] && { echo "$out"; return 0; }
  tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
  mkdir -p "$tmp"/{bin,dev,proc,sys,vmrun,newroot,lower,upper}
  cp /bin/busybox "$tmp/bin/"; cp -r "$kd/modules" "$tmp/"
  printf %s "$INIT_SCRIPT" > "$tmp/init"; chmod 755 "$tmp/init"
  ( cd "$tmp" && find . | cpio -o -H newc --quiet | gzip -1 ) > "$tmp.img"
  rm -f "$kd"/initrd-*.img; mv "$tmp.img" "$out"; rm -rf "$tmp"; echo "$out"
}

# v4l2loopback is not in Debian's kernel: build it from the dkms package's source with the
# headers of exactly the VM's kernel (a module built for another version will not load).
# The headers (~90 MB) are installed here, on first use, rather than by scripts/setup.
build_loopback() {  # $1 = kernel dir -> $1/v4l2loopback.ko
  local kd=$1 kver tmp src; kver=$(cat "$kd/kver")
  [ -s "$kd/v4l2loopback.ko" ] && return 0
  command -v make >/dev/null && command -v gcc >/dev/null || die "building v4l2loopback needs make and gcc"
  if [ ! -d "/usr/src/linux-headers-$kver" ]; then
    vlog "installing linux-headers-$kver"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "linux-headers-$kver" \
      </dev/null >&2 || die "cannot install linux-headers-$kver"
  fi
  tmp=$(mktemp -d "$CACHE/tmp.XXXXXX")
  vlog "building v4l2loopback for $kver"
  ( cd "$tmp" && apt-get download -qq v4l2loopback-dkms 2>/dev/null ) && dpkg-deb -x "$tmp"/*.deb "$tmp/x" \
    || { rm -rf "$tmp"; die "cannot fetch v4l2loopback-dkms"; }
  src=$(ls -d "$tmp"/x/usr/src/v4l2loopback-*)
  make -s -C "/usr/src/linux-headers-$kver" M="$src" modules >&2 \
    || { rm -rf "$tmp"; die "building v4l2loopback failed"; }
  cp "$src/v4l2loopback.ko" "$kd/v4l2loopback.ko"; rm -rf "$tmp"
}

exec 9>"$CACHE/.lock"; flock 9
if [ -n "${VIVID_VM_KERNEL_PKG:-}" ]; then KPKG=$VIVID_VM_KERNEL_PKG
elif [ -s "$CACHE/kernel-pkg" ]; then KPKG=$(cat "$CACHE/kernel-pkg")
else
  KPKG=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
  [ -n "$KPKG" ] || { apt-get update -qq >&2; KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}'); }
  [ -n "$KPKG" ] || die "cannot resolve linux-image-amd64"
fi
build_kernel "$KPKG"; echo "$KPKG" > "$CACHE/kernel-pkg"
KDIR=$(kernel_dir "$KPKG"); INITRD=$(build_initrd "$KDIR")
if [ "$LOOPBACK" = 1 ]; then build_loopback "$KDIR"; fi
flock -u 9
vlog "cache ready: $KDIR ($(cat "$KDIR/kver"))"
[ "$SETUP_ONLY" = 1 ] && exit 0

# ------------------------------------------------------------------ run
RUN=$(mktemp -d /tmp/vivid-vm.XXXXXX)
QPID=; OPID=; EPID=
cleanup() {
  local p; for p in $QPID $OPID $EPID; do kill "$p" 2>/dev/null || true; done
  rm -rf "$RUN"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$RUN/share"
if [ "$LOOPBACK" = 1 ]; then
  cp "$KDIR/v4l2loopback.ko" "$RUN/share/"
  # Built per run (a fraction of a second): no compiler in the VM, no stale cached copy.
  gcc -O2 -Wall -o "$RUN/share/loopback-writer" "$(dirname "$(realpath "$0")")/loopback-writer.c" \
    || die "building loopback-writer failed"
fi
q() { printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")"; }

CWD=$(pwd -P)
[ "$CWD" != / ] && RW_DIRS=("$CWD" "${RW_DIRS[@]}")
{
  echo "VIVID_OPTS=$(q "$VIVID_OPTS")"
  echo "N_RW=${#RW_DIRS[@]}"
  echo "LOOPBACK=$LOOPBACK LOOPBACK_OPTS=$(q "$LOOPBACK_OPTS")"
  for i in "${!RW_DIRS[@]}"; do echo "RW_$i=$(q "${RW_DIRS[$i]}")"; done
} > "$RUN/share/config"
{
  echo 'export VIVID_VM=1 VIVID_VM_KO=/run/vivid-vm-modules/vivid.ko'
  echo "export VIVID_VM_OPTS=$(q "$VIVID_OPTS")"
  if [ "$LOOPBACK" = 1 ]; then echo 'export VIVID_VM_LOOPBACK_WRITER=/run/vivid-vm/loopback-writer'; fi
  for v in PATH HOME USER LANG LC_ALL TZ TERM; do
    [ -n "${!v:-}" ] && echo "export $v=$(q "${!v}")"
  done
  for e in "${ENVS[@]}"; do echo "export ${e%%=*}=$(q "${e#*=}")"; done
  echo "cd $(q "$CWD") || exit 125"
  printf 'exec'; for a in "$@"; do printf ' %s' "$(q "$a")"; done; echo
} > "$RUN/share/cmd.sh"

ACC=(-accel tcg,thread=multi -cpu max)
for f in out err; do mkfifo "$RUN/$f.in" "$RUN/$f.out"; done
cat "$RUN/out.out" & OPID=$!
cat "$RUN/err.out" >&2 & EPID=$!
VIRTFS=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
        -virtfs "local,path=$RUN/share,mount_tag=vmrun,security_model=none")
for i in "${!RW_DIRS[@]}"; do
  VIRTFS+=(-virtfs "local,path=${RW_DIRS[$i]},mount_tag=rw$i,security_model=none,multidevs=remap")
done
vlog "booting (tcg, ${MEM}M, smp $SMP)"
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -nodefaults -no-user-config -M pc "${ACC[@]}" \
  -smp "$SMP" -m "$MEM" -display none -no-reboot -nic none \
  -kernel "$KDIR/vmlinux" -initrd "$INITRD" \
  -append "console=ttyS0 quiet panic=-1 mitigations=off" \
  -chardev "file,id=con,path=$RUN/console.log" -serial chardev:con \
  -chardev "pipe,id=out,path=$RUN/out" -serial chardev:out \
  -chardev "pipe,id=err,path=$RUN/err" -serial chardev:err \
  "${VIRTFS[@]}" </dev/null >"$RUN/qemu.log" 2>&1 & QPID=$!
QRC=0; wait $QPID || QRC=$?; QPID=
for p in $OPID $EPID; do  # readers see EOF once qemu is gone; don't hang if it never opened the fifos
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true
done
OPID=; EPID=
vlog "vm exited (qemu rc $QRC), $(( ($(date +%s%N) - T0) / 1000000 )) ms after start"
if [ "$VERBOSE" = 1 ]; then sed 's/^/  console| /' "$RUN/console.log" >&2; fi
if [ -s "$RUN/share/rc" ]; then exit "$(cat "$RUN/share/rc")"; fi
[ "$QRC" = 124 ] && { echo "run-in-vivid-vm: timed out after ${TIMEOUT}s" >&2; exit 124; }
{ echo "run-in-vivid-vm: VM failed (qemu rc $QRC)"; cat "$RUN/share/init-error" 2>/dev/null || true
  tail -n 20 "$RUN/qemu.log"; tail -n 40 "$RUN/console.log"; } >&2
exit 125
