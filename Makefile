# Build as a user, install as root, the way a distribution would:
#   make && sudo make install            (or: make install DESTDIR=/tmp/root)
#   make dist                            (dist/lensd-VERSION.tar.gz and dist/SHA256SUMS)
SHELL := /bin/bash
PREFIX ?= /usr
SYSCONFDIR ?= /etc
LIBEXECDIR ?= $(PREFIX)/libexec
# Debian 12's debhelper and dpkg keep units in /lib/systemd/system (debian/rules sets it).
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
DESTDIR ?=
DISTDIR ?= dist
SWIFT_BUILD ?= swift build -c release --static-swift-stdlib
BIN = .build/release
# One version for the daemon, the clients and the tarball.
VERSION := $(shell sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/LensBus/ProjectVersion.swift)

# gettext catalogs: po/LL.po compiled by msgfmt into $(LOCALE_BUILD)/LL/LC_MESSAGES/lensd.mo.
LANGUAGES := $(shell cat po/LINGUAS)
LOCALE_BUILD = .build/locale
CATALOGS = $(foreach lang,$(LANGUAGES),$(LOCALE_BUILD)/$(lang)/LC_MESSAGES/lensd.mo)

# Every file `install` puts in place (and `uninstall` removes), as SOURCE:DESTINATION:MODE.
FILES = \
	$(BIN)/lensd:$(LIBEXECDIR)/lensd:0755 \
	$(BIN)/lensctl:$(PREFIX)/bin/lensctl:0755 \
	systemd/lensd.service:$(SYSTEMDUNITDIR)/lensd.service:0644 \
	systemd/lensd.sysusers:$(PREFIX)/lib/sysusers.d/lensd.conf:0644 \
	systemd/lensd.tmpfiles:$(PREFIX)/lib/tmpfiles.d/lensd.conf:0644 \
	dbus/org.lensd.Lens1.conf:$(PREFIX)/share/dbus-1/system.d/org.lensd.Lens1.conf:0644 \
	dbus/org.lensd.Lens1.service:$(PREFIX)/share/dbus-1/system-services/org.lensd.Lens1.service:0644 \
	dbus/org.lensd.Lens1.xml:$(PREFIX)/share/dbus-1/interfaces/org.lensd.Lens1.xml:0644 \
	config/lensd.conf:$(SYSCONFDIR)/lensd/lensd.conf.default:0644 \
	docs/man/lensd.8:$(PREFIX)/share/man/man8/lensd.8:0644 \
	docs/man/lensctl.1:$(PREFIX)/share/man/man1/lensctl.1:0644 \
	clients/completion/lensctl.bash:$(PREFIX)/share/bash-completion/completions/lensctl:0644 \
	$(foreach lang,$(LANGUAGES),$(LOCALE_BUILD)/$(lang)/LC_MESSAGES/lensd.mo:$(PREFIX)/share/locale/$(lang)/LC_MESSAGES/lensd.mo:0644)

# lens-camera, the GTK 4 desktop app: its own package, built and installed only on request
# (`make app && sudo make install-app`), so the daemon never needs GTK.
APP_DIR = clients/lens-camera
# It builds into the root's .build, so the lensd modules it imports (LensClient, C2PA…) are the
# ones `make` built, not compiled again.
APP_BIN ?= $(BIN)
# Its texts: clients/lens-camera/po/LL.po, text domain lens-camera.
APP_LANGUAGES := $(shell cat $(APP_DIR)/po/LINGUAS)
APP_LOCALE_BUILD = $(APP_DIR)/.build/locale
APP_CATALOGS = $(foreach lang,$(APP_LANGUAGES),$(APP_LOCALE_BUILD)/$(lang)/LC_MESSAGES/lens-camera.mo)
APP_FILES = \
	$(APP_BIN)/lens-camera:$(PREFIX)/bin/lens-camera:0755 \
	docs/man/lens-camera.1:$(PREFIX)/share/man/man1/lens-camera.1:0644 \
	$(foreach lang,$(APP_LANGUAGES),$(APP_LOCALE_BUILD)/$(lang)/LC_MESSAGES/lens-camera.mo:$(PREFIX)/share/locale/$(lang)/LC_MESSAGES/lens-camera.mo:0644) \
	$(APP_DIR)/data/org.lensd.LensCamera.desktop:$(PREFIX)/share/applications/org.lensd.LensCamera.desktop:0644 \
	$(APP_DIR)/data/org.lensd.LensCamera.svg:$(PREFIX)/share/icons/hicolor/scalable/apps/org.lensd.LensCamera.svg:0644 \
	$(APP_DIR)/data/org.lensd.LensCamera-flash-symbolic.svg:$(PREFIX)/share/icons/hicolor/scalable/actions/org.lensd.LensCamera-flash-symbolic.svg:0644 \
	$(APP_DIR)/data/org.lensd.LensCamera.metainfo.xml:$(PREFIX)/share/metainfo/org.lensd.LensCamera.metainfo.xml:0644

.PHONY: all build catalogs install uninstall dist test demo clean app app-catalogs install-app uninstall-app

all: build

build: catalogs
	$(SWIFT_BUILD) --product lensd
	$(SWIFT_BUILD) --product lensctl

catalogs: $(CATALOGS)

# A catalog is remade only when its .po changed, so `make install` after `make` writes nothing here.
$(LOCALE_BUILD)/%/LC_MESSAGES/lensd.mo: po/%.po
	@mkdir -p $(@D)
	msgfmt --check -o $@.tmp $< && mv $@.tmp $@

# Installs what `make` built; it never builds Swift (so it can run as root after a user's build),
# only catalogs that are missing or older than their .po.
install: catalogs
	@for bin in $(BIN)/lensd $(BIN)/lensctl; do \
	  [ -x "$$bin" ] || { echo "make install: $$bin is missing: run 'make' first" >&2; exit 1; }; done
	@for entry in $(FILES); do \
	  IFS=: read -r src dst mode <<<"$$entry"; \
	  install -D -m "$$mode" "$$src" "$(DESTDIR)$$dst" || exit 1; done
	@# An administrator's configuration is never overwritten: lensd.conf only when absent.
	@[ -e "$(DESTDIR)$(SYSCONFDIR)/lensd/lensd.conf" ] || \
	  install -m 0644 config/lensd.conf "$(DESTDIR)$(SYSCONFDIR)/lensd/lensd.conf"

# Removes what `install` put in place; lensd.conf stays when it differs from the shipped default.
uninstall:
	@for entry in $(FILES); do \
	  IFS=: read -r src dst mode <<<"$$entry"; rm -f "$(DESTDIR)$$dst"; done
	@conf="$(DESTDIR)$(SYSCONFDIR)/lensd/lensd.conf"; \
	  if [ -e "$$conf" ] && ! cmp -s "$$conf" config/lensd.conf; then echo "make uninstall: kept $$conf (changed)"; \
	  else rm -f "$$conf"; fi
	@rmdir "$(DESTDIR)$(SYSCONFDIR)/lensd" 2>/dev/null || true

app: app-catalogs
	cd $(APP_DIR) && $(SWIFT_BUILD) --scratch-path $(CURDIR)/.build --product lens-camera

app-catalogs: $(APP_CATALOGS)

$(APP_LOCALE_BUILD)/%/LC_MESSAGES/lens-camera.mo: $(APP_DIR)/po/%.po
	@mkdir -p $(@D)
	msgfmt --check -o $@.tmp $< && mv $@.tmp $@

# Like install: never builds Swift (it can run as root after a user's `make app`).
install-app: app-catalogs
	@[ -x "$(APP_BIN)/lens-camera" ] || { echo "make install-app: $(APP_BIN)/lens-camera is missing: run 'make app' first" >&2; exit 1; }
	@for entry in $(APP_FILES); do \
	  IFS=: read -r src dst mode <<<"$$entry"; \
	  install -D -m "$$mode" "$$src" "$(DESTDIR)$$dst" || exit 1; done

uninstall-app:
	@for entry in $(APP_FILES); do \
	  IFS=: read -r src dst mode <<<"$$entry"; rm -f "$(DESTDIR)$$dst"; done

# The committed tree as a source tarball, and its checksum for `sha256sum -c SHA256SUMS`.
dist:
	@git rev-parse --git-dir >/dev/null 2>&1 || { echo "make dist: needs a git checkout" >&2; exit 1; }
	@mkdir -p $(DISTDIR)
	git archive --format=tar.gz --prefix=lensd-$(VERSION)/ -o $(DISTDIR)/lensd-$(VERSION).tar.gz HEAD
	cd $(DISTDIR) && sha256sum lensd-$(VERSION).tar.gz > SHA256SUMS
	@echo "$(DISTDIR)/lensd-$(VERSION).tar.gz and $(DISTDIR)/SHA256SUMS"

test:
	scripts/test

demo:
	scripts/demo

clean:
	rm -rf .build .build-fuzz $(APP_DIR)/.build $(DISTDIR)
