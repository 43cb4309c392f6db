# sbomd - lockfiles in, SBOMs out. Plain make; every .c of core/, service/,
# handlers/ and tests/unit/ is built.
#
#   make            release build: build/release/{sbomd,sbomgen,unit-tests}
#   make run        install missing deps, build, start sbomd on 127.0.0.1:8080
#   make test       install missing deps, build, run every test (release + ASan/UBSan)
#   make check      the fast tier: release build, unit tests, goldens, reports, quality, docs
#   make asan       sanitizer build in build/asan
#   make valgrind   debug build: unit tests, a slice of the HTTP suite, lookups under valgrind
#   make docs       regenerate docs/configuration.md and docs/sbomd.8
#   make fuzz       the libFuzzer targets, FUZZ_SECONDS each (clang)
#   make bench      core micro-benchmarks (figures, never pass/fail)
#   make image      the container image, as root (image-test also runs it)
#   make deps       install the Debian packages build and tests need
#   make counts     raise tests/counts.tsv's floors to the last runs' counts

CC      ?= cc
PKGS    := libmicrohttpd yaml-0.1 jansson libcurl libzstd zlib
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
DEFS    := -D_GNU_SOURCE
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lbz2 -lm
# the shared cache's Redis client: sbomd (and the unit tests) only, not sbomgen
REDIS_LIBS := $(shell pkg-config --libs hiredis 2>/dev/null || echo -lhiredis)

# Every source file of a directory is built: adding a file needs no edit here.
# The unit tests link the service and handler objects through an archive,
# so they take the objects their tests call and nothing else.
CORE_SRC := $(sort $(wildcard core/*.c))
SVC_SRC  := $(sort $(wildcard service/*.c service/http/*.c service/lookup/*.c))
HND_SRC  := $(sort $(wildcard handlers/*.c))
CLI_SRC  := cli/sbomgen.c
TEST_SRC := $(sort $(wildcard tests/unit/*.c))
NPROC    := $(shell nproc 2>/dev/null || echo 2)

# profile-specific flags
release_CFLAGS  := -O2 -g -flto=auto -fvisibility=hidden
release_LDFLAGS := -flto=auto
release_LIBS    := -lmimalloc
asan_CFLAGS     := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
                   -fno-sanitize-recover=undefined -DSB_NO_MIMALLOC -DSB_ARENA_DEBUG
asan_LDFLAGS    := -fsanitize=address,undefined
asan_LIBS       :=
nomi_CFLAGS     := $(release_CFLAGS) -DSB_NO_MIMALLOC
nomi_LDFLAGS    := $(release_LDFLAGS)
nomi_LIBS       :=
debug_CFLAGS    := -O0 -g -DSB_NO_MIMALLOC -DSB_ARENA_DEBUG
debug_LDFLAGS   :=
debug_LIBS      :=

PROFILE ?= release
B := build/$(PROFILE)
CFLAGS_ALL  = $(WARN) $(DEFS) $(PKG_CFLAGS) $($(PROFILE)_CFLAGS) $(CFLAGS)
LDFLAGS_ALL = $($(PROFILE)_LDFLAGS) $(LDFLAGS)

CORE_OBJ := $(CORE_SRC:%.c=$(B)/%.o)
SVC_OBJ  := $(SVC_SRC:%.c=$(B)/%.o) $(HND_SRC:%.c=$(B)/%.o) $(B)/gen/openapi_yaml.o $(B)/gen/page_html.o \
            $(B)/gen/reports_schema.o $(B)/gen/revision.o
SVCLIB_OBJ := $(filter-out $(B)/service/main.o,$(SVC_OBJ))
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)

.DEFAULT_GOAL := all

.PHONY: FORCE counts docs bench all build run test check test-one asan valgrind deps clean check-deps gen fuzz print-core-src image image-test image-test-podman

# Regenerate committed tables from ../shared (a unit test checks they match).
gen:
	scripts/gen-spdx-ids ../shared/data/spdx-license-list > core/spdx_ids.c

all: build

build: check-deps
	@$(MAKE) --no-print-directory -j$(NPROC) PROFILE=$(PROFILE) $(B)/sbomd $(B)/sbomgen $(B)/unit-tests

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC [$(PROFILE)] $<"
	@$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# the API contract, served at /openapi.yaml from inside the binary
$(B)/gen/openapi_yaml.c: openapi/openapi.yaml scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< sb_openapi_yaml > $@

# the reports' one schema, served at /reports.schema.json (the contract links it)
$(B)/gen/reports_schema.c: openapi/reports.schema.json scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< sb_reports_schema > $@

# the browser page, served at /
$(B)/gen/page_html.c: handlers/page.html scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< sb_page_html > $@

# the commit built (sbomd_build_info, --version): rewritten only when it
# changes, so a build of the same commit compiles nothing again.
# SBOMD_REVISION, when set, is taken instead of git's: an image's build
# context has no .git, so the Dockerfile passes the revision in; only
# characters a C string and a Prometheus label take as they are are kept.
$(B)/gen/revision.c: FORCE
	@mkdir -p $(dir $@)
	@r="$$(printf '%s' "$$SBOMD_REVISION" | tr -cd 'A-Za-z0-9._+-')"; \
	  [ -n "$$r" ] || r="$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"; \
	  printf 'const char svc_revision[] = "%s";\n' "$$r" > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

$(B)/gen/revision.o: $(B)/gen/revision.c
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

FORCE:

$(B)/gen/page_html.o: $(B)/gen/page_html.c
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/gen/openapi_yaml.o: $(B)/gen/openapi_yaml.c
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/gen/reports_schema.o: $(B)/gen/reports_schema.c
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/libsbcore.a: $(CORE_OBJ)
	ar rcs $@ $^

$(B)/sbomd: $(SVC_OBJ) $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(REDIS_LIBS) $($(PROFILE)_LIBS) -lpthread

$(B)/sbomgen: $(CLI_OBJ) $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $($(PROFILE)_LIBS)

$(B)/bench: $(B)/cli/bench.o $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $($(PROFILE)_LIBS) -lpthread

$(B)/libsbsvc.a: $(SVCLIB_OBJ)
	ar rcs $@ $^

$(B)/unit-tests: $(TEST_OBJ) $(B)/libsbsvc.a $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(REDIS_LIBS) $($(PROFILE)_LIBS) -lpthread

# what building and running need (the tests' tools come with test/check)
check-deps:
	@scripts/install-deps --check-or-install --build-only

deps:
	@scripts/install-deps

run: check-deps
	@$(MAKE) --no-print-directory PROFILE=release build
	./build/release/sbomd --listen 127.0.0.1 --port $${PORT:-8080}

# The whole suite, release build then the ASan/UBSan build.
test:
	@scripts/install-deps --check-or-install --with-browser
	@$(MAKE) --no-print-directory PROFILE=release build
	@$(MAKE) --no-print-directory PROFILE=asan build
	@tests/run-all.sh

# The fast tier (minutes, not the full suite's half hour): release build, unit
# tests, the golden documents and the reports against a real server.
check:
	@scripts/install-deps --check-or-install
	@$(MAKE) --no-print-directory PROFILE=release build
	@SB_PROFILES=release SB_FAST=1 tests/run-all.sh

# Raise tests/counts.tsv's floors to what the last runs saw (build/counts.tsv):
# the only step that writes the tracked file; a floor never goes down here.
counts:
	@scripts/record-counts build/counts.tsv tests/counts.tsv

# One profile only (PROFILE=release|asan|debug).
test-one: build
	@SB_PROFILES=$(PROFILE) tests/run-all.sh

asan:
	@$(MAKE) --no-print-directory PROFILE=asan build

valgrind:
	@scripts/install-deps --check-or-install
	@$(MAKE) --no-print-directory PROFILE=debug build
	@SB_PROFILES=debug SB_VALGRIND=1 tests/run-all.sh

# container image (as root: apt-get, debootstrap, buildah/podman): build,
# or build and run
image:
	deploy/build-image

image-test:
	deploy/build-image --test

# the same with podman build and a real podman run (the Docker/Podman path)
image-test-podman:
	deploy/build-image --podman --test

# core micro-benchmarks (figures only, never a pass/fail on time)
bench: check-deps
	@$(MAKE) --no-print-directory PROFILE=release build build/release/bench
	@loadtest/bench.sh

# the generated references: docs/configuration.md and the man page sbomd(8),
# both from the settings table (tests/integration/docs.sh checks they match)
docs:
	@$(MAKE) --no-print-directory PROFILE=release build
	build/release/sbomd --help-markdown > docs/configuration.md
	build/release/sbomd --help-man > docs/sbomd.8

# libFuzzer targets (clang), each run FUZZ_SECONDS (default 60; CI sets 30)
fuzz:
	@scripts/install-deps --check-or-install
	@tests/fuzz/run.sh $${FUZZ_SECONDS:-60}

print-core-src:
	@echo $(CORE_SRC)

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
