# Build and install lensd the way a distribution would: `make install DESTDIR=/tmp/root`.
PREFIX ?= /usr
SYSCONFDIR ?= /etc
LIBEXECDIR ?= $(PREFIX)/libexec
DESTDIR ?=
SWIFT_BUILD ?= swift build -c release --static-swift-stdlib
BIN = .build/release

.PHONY: all build install test demo clean

all: build

build:
	$(SWIFT_BUILD) --product lensd
	$(SWIFT_BUILD) --product lensctl

install: build
	install -D -m 0755 $(BIN)/lensd $(DESTDIR)$(LIBEXECDIR)/lensd
	install -D -m 0755 $(BIN)/lensctl $(DESTDIR)$(PREFIX)/bin/lensctl
	install -D -m 0644 systemd/lensd.service $(DESTDIR)$(PREFIX)/lib/systemd/system/lensd.service
	install -D -m 0644 systemd/lensd.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/lensd.conf
	install -D -m 0644 systemd/lensd.tmpfiles $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/lensd.conf
	install -D -m 0644 dbus/org.lensd.Lens1.conf $(DESTDIR)$(PREFIX)/share/dbus-1/system.d/org.lensd.Lens1.conf
	install -D -m 0644 dbus/org.lensd.Lens1.service $(DESTDIR)$(PREFIX)/share/dbus-1/system-services/org.lensd.Lens1.service
	install -D -m 0644 dbus/org.lensd.Lens1.xml $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/org.lensd.Lens1.xml
	install -D -m 0644 config/lensd.conf $(DESTDIR)$(SYSCONFDIR)/lensd/lensd.conf
	install -D -m 0644 docs/man/lensd.8 $(DESTDIR)$(PREFIX)/share/man/man8/lensd.8
	install -D -m 0644 docs/man/lensctl.1 $(DESTDIR)$(PREFIX)/share/man/man1/lensctl.1
	install -D -m 0644 clients/completion/lensctl.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/lensctl

test:
	scripts/test

demo:
	scripts/demo

clean:
	rm -rf .build .build-fuzz
