# Lumen's everyday tasks. `make help` lists them. The package list for `deps` lives in
# scripts/apt-packages.txt, shared with ./scripts/demo and .ci/run.

SHELL := /bin/bash
.DEFAULT_GOAL := build

# Swift is not a Debian package; the swift.org toolchain is usually unpacked in /opt/swift.
ifeq ($(shell command -v swift 2>/dev/null),)
export PATH := $(PATH):/opt/swift/usr/bin
endif
SWIFT ?= swift

# Root runs apt directly; anyone else goes through sudo.
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
RULESDIR ?= $(DATADIR)/lumen/rules
BASH_COMPLETIONS_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETIONS_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETIONS_DIR ?= $(DATADIR)/fish/vendor_completions.d
# systemd looks for user units in /usr/lib/systemd/user and /usr/local/lib/systemd/user, and in
# ~/.local/share/systemd/user for a per-user install (PREFIX=~/.local).
ifeq ($(notdir $(PREFIX)),.local)
SYSTEMD_USER_DIR ?= $(DATADIR)/systemd/user
else
SYSTEMD_USER_DIR ?= $(PREFIX)/lib/systemd/user
endif

RELEASE_BIN := .build/release/lumen
MAN_PAGES := $(wildcard man/*.[1-9])

ARGS ?=
BENCH_ARGS ?=
TEST_ARGS ?=

.PHONY: help deps build debug test run demo install uninstall man-check format lint \
	bench-query bench-crawl bench-extract bench-faults fuzz bench-watch

help:
	@echo "make deps           install the apt packages in scripts/apt-packages.txt that are missing"
	@echo "make build          release build of lumen (.build/release/lumen)"
	@echo "make test           build everything with tests and run the whole test suite"
	@echo "make run ARGS='…'   run the release lumen with ARGS, e.g. ARGS='find budget'"
	@echo "make demo           deps, build, index a folder and search it (./scripts/demo)"
	@echo "make install        binary, man pages, rules, completions, systemd unit under PREFIX"
	@echo "make uninstall      remove what install put there"
	@echo "make man-check      render every man page with warnings on"
	@echo "make format / lint  swift format Sources and Tests in place / report what it would change"
	@echo "make bench-query | bench-crawl | bench-extract   run bench/query, bench/crawl, bench/extract"
	@echo "make bench-watch    change-to-visible latency of lumen watch (bench/watch)"
	@echo "make bench-faults   SIGKILLs, hostile files and isolation overhead (bench/faults)"
	@echo "make fuzz           libFuzzer on every extractor and the query language (bench/fuzz)"

deps:
	./scripts/install-deps

build:
	$(SWIFT) build -c release --product lumen

debug:
	$(SWIFT) build

# One binary holds every test target on Linux, so the whole package is built first; the tests
# then run without rebuilding (swift-testing runs them in parallel inside that process).
#
# One malloc arena for the test process: Foundation's Process.run() (swift-corelibs-foundation
# up to 6.3.1) copies 256 bytes of each /proc/self/fd entry's name, reading past glibc's
# readdir buffer, and when the test process has some hundreds of descriptors open and that
# buffer ends a thread arena's heap, the read faults (upstream fix: swift-corelibs-foundation
# pull request 5472). The tests start hundreds of processes; this crashed one whole suite run
# here, and a reproducer (8 threads, 200 launches each, ~200 descriptors open) 5 times in 12,
# and never in 20 with one arena, whose heap keeps 128 KiB of slack past its top. Lumen itself
# starts its workers with posix_spawn and is not affected.
TEST_MALLOC := GLIBC_TUNABLES=glibc.malloc.arena_max=1

test:
	$(SWIFT) build --build-tests
	$(TEST_MALLOC) $(SWIFT) test --skip-build $(TEST_ARGS)

run: build
	$(RELEASE_BIN) $(ARGS)

demo:
	./scripts/demo

# Copying goes through sudo only when the destination is not writable (PREFIX=/usr/local as a
# user); the build and the generated files stay the user's.
INSTALL_SUDO = $(shell d='$(DESTDIR)$(PREFIX)'; while [ ! -e "$$d" ]; do d=$$(dirname "$$d"); done; \
	[ -w "$$d" ] || echo '$(SUDO)')
STAGE := .build/dist

# Completions come from swift-argument-parser, so they always match the binary. The unit ships
# with ExecStart=%h/.local/bin/lumen; install points it at BINDIR.
install: build
	mkdir -p $(STAGE)
	$(RELEASE_BIN) --generate-completion-script bash > $(STAGE)/lumen.bash
	$(RELEASE_BIN) --generate-completion-script zsh > $(STAGE)/_lumen
	$(RELEASE_BIN) --generate-completion-script fish > $(STAGE)/lumen.fish
	sed 's|^ExecStart=[^ ]*/lumen |ExecStart=$(BINDIR)/lumen |' dist/lumen.service \
		> $(STAGE)/lumen.service
	$(INSTALL_SUDO) install -D -m 0755 $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/lumen
	for page in $(MAN_PAGES); do section=$${page##*.}; \
		$(INSTALL_SUDO) install -D -m 0644 $$page $(DESTDIR)$(MANDIR)/man$$section/$${page#man/}; done
	if [ -d rules ]; then cd rules && find . -type f | while read -r file; do \
		$(INSTALL_SUDO) install -D -m 0644 "$$file" "$(DESTDIR)$(RULESDIR)/$${file#./}"; done; fi
	$(INSTALL_SUDO) install -D -m 0644 $(STAGE)/lumen.bash $(DESTDIR)$(BASH_COMPLETIONS_DIR)/lumen
	$(INSTALL_SUDO) install -D -m 0644 $(STAGE)/_lumen $(DESTDIR)$(ZSH_COMPLETIONS_DIR)/_lumen
	$(INSTALL_SUDO) install -D -m 0644 $(STAGE)/lumen.fish \
		$(DESTDIR)$(FISH_COMPLETIONS_DIR)/lumen.fish
	$(INSTALL_SUDO) install -D -m 0644 $(STAGE)/lumen.service \
		$(DESTDIR)$(SYSTEMD_USER_DIR)/lumen.service
	@echo "Installed $(DESTDIR)$(BINDIR)/lumen. To keep the index up to date as files change:"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now lumen"

uninstall:
	$(INSTALL_SUDO) rm -f $(DESTDIR)$(BINDIR)/lumen
	$(INSTALL_SUDO) rm -rf $(DESTDIR)$(RULESDIR)
	-$(INSTALL_SUDO) rmdir $(DESTDIR)$(DATADIR)/lumen 2>/dev/null
	for page in $(notdir $(MAN_PAGES)); do section=$${page##*.}; \
		$(INSTALL_SUDO) rm -f $(DESTDIR)$(MANDIR)/man$$section/$$page; done
	$(INSTALL_SUDO) rm -f $(DESTDIR)$(BASH_COMPLETIONS_DIR)/lumen \
		$(DESTDIR)$(ZSH_COMPLETIONS_DIR)/_lumen $(DESTDIR)$(FISH_COMPLETIONS_DIR)/lumen.fish \
		$(DESTDIR)$(SYSTEMD_USER_DIR)/lumen.service

# The same check as Tests/LumenCLITests/ManPageTests.swift, without building anything.
man-check:
	@status=0; for page in $(MAN_PAGES); do \
		warnings=$$(LC_ALL=C.UTF-8 MANWIDTH=80 MAN_DISABLE_SECCOMP=1 \
			man --warnings=w -l -P cat $$page 2>&1 >/dev/null); \
		if [ -n "$$warnings" ]; then echo "$$page:"; echo "$$warnings"; status=1; \
		else echo "ok $$page"; fi; done; exit $$status

format:
	$(SWIFT) format -i -r Sources Tests

lint:
	$(SWIFT) format lint -r Sources Tests

# The benchmarks build their own inputs; LUMEN tells them which binary to measure.
bench-query: build
	LUMEN=$(abspath $(RELEASE_BIN)) bench/query $(BENCH_ARGS)

bench-crawl: build
	LUMEN=$(abspath $(RELEASE_BIN)) bench/crawl $(BENCH_ARGS)

bench-extract: build
	LUMEN=$(abspath $(RELEASE_BIN)) bench/extract $(BENCH_ARGS)

bench-watch: build
	LUMEN=$(abspath $(RELEASE_BIN)) bench/watch $(BENCH_ARGS)

bench-faults: build
	bench/faults --lumen $(abspath $(RELEASE_BIN)) $(BENCH_ARGS)

fuzz:
	bench/fuzz $(BENCH_ARGS)
