# sbomd - lockfiles in, SBOMs out. Plain make; every source listed here.
#
#   make            release build: build/release/{sbomd,sbomgen}
#   make run        install missing deps, build, start sbomd on 127.0.0.1:8080
#   make test       install missing deps, build, run every test (release + ASan/UBSan)
#   make check      the fast tier: release build, unit tests, golden documents and reports
#   make asan       sanitizer build in build/asan
#   make valgrind   the unit tests under valgrind

CC      ?= cc
PKGS    := libmicrohttpd yaml-0.1 jansson libcurl libzstd zlib
WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
DEFS    := -D_GNU_SOURCE
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lbz2 -lm
# the shared cache's Redis client: sbomd (and the unit tests) only, not sbomgen
REDIS_LIBS := $(shell pkg-config --libs hiredis 2>/dev/null || echo -lhiredis)

CORE_SRC := core/err.c core/gate.c core/deadline.c core/arena.c core/buf.c core/jsonw.c core/uuid.c core/strmap.c core/exploit.c core/vex.c \
            core/model.c core/pairs.c core/purl.c core/license.c core/spdx_ids.c core/lock.c core/enrich.c core/toml.c core/marker.c core/yaml_ev.c core/lock_pixi.c core/lock_condalock.c core/lock_explicit.c core/lock_py.c core/lock_uv.c core/lock_pylock.c core/lock_poetry.c core/lock_pdm.c core/lock_requirements.c core/lock_js.c core/lock_npm.c core/yaml_tree.c core/lock_pnpm.c core/lock_yarn.c core/manifest.c \
            core/filter.c core/doc.c core/doc_cyclonedx.c core/doc_spdx_common.c core/doc_spdx.c core/doc_spdx3.c core/report.c core/report_packages.c core/report_licenses.c core/report_python.c core/report_tree.c core/table.c core/pypi.c core/archive.c core/json_stream.c core/policy.c core/quality.c core/report_quality.c core/report_vulns.c core/pypimap.c core/vuln.c core/vercmp.c core/diff.c core/health.c core/scorecard.c core/report_outdated.c core/lock_sbom.c core/report_explain.c core/par.c core/lock_util.c core/lock_merge.c
SVC_SRC  := service/main.c service/config.c service/server.c service/router.c \
            service/request.c service/params.c service/intake.c service/auth.c service/lookup.c service/lookup_http.c service/lookup_cache.c service/lookup_licenses.c service/lookup_vulns.c service/lookup_projects.c service/lookup_sched.c service/lookup_store.c service/upload.c service/multipart.c service/gzip.c service/decode.c service/problem.c service/log.c service/metrics.c service/guard.c service/cgroup.c service/budget.c service/filewatch.c service/shared_cache.c service/lookup_health.c service/rcache.c service/mapsrc.c service/lookup_scorecard.c
HND_SRC  := handlers/sbom.c handlers/health.c handlers/formats.c handlers/metrics.c handlers/openapi.c handlers/report.c handlers/page.c handlers/version.c handlers/diff.c
CLI_SRC  := cli/sbomgen.c
TEST_SRC := tests/unit/main.c tests/unit/test_quality.c tests/unit/test_jsonw.c tests/unit/test_purl.c \
            tests/unit/test_pixi.c tests/unit/test_doc.c tests/unit/test_arena.c \
            tests/unit/test_license.c tests/unit/test_toml.c tests/unit/test_marker.c tests/unit/test_pyreaders.c tests/unit/test_enrich.c tests/unit/test_params.c tests/unit/test_report.c tests/unit/test_uuid.c tests/unit/test_archive.c tests/unit/test_lookup_sched.c tests/unit/test_bounds.c tests/unit/test_cgroup.c tests/unit/test_jsreaders.c tests/unit/test_service.c tests/unit/test_manifest.c tests/unit/test_filter.c tests/unit/test_json_stream.c tests/unit/test_policy.c tests/unit/test_vuln.c tests/unit/test_diff.c tests/unit/test_shared_cache.c tests/unit/test_health.c tests/unit/test_sbomin.c tests/unit/test_rcache.c tests/unit/test_lookup_cache.c tests/unit/test_intake.c tests/unit/test_scorecard.c

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
SVC_OBJ  := $(SVC_SRC:%.c=$(B)/%.o) $(HND_SRC:%.c=$(B)/%.o) $(B)/gen/openapi_yaml.o $(B)/gen/page_html.o
CLI_OBJ  := $(CLI_SRC:%.c=$(B)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(B)/%.o)

.DEFAULT_GOAL := all

.PHONY: bench all build run test check test-one asan valgrind deps clean check-deps gen fuzz print-core-src image image-test

# Regenerate committed tables from ../shared (a unit test checks they match).
gen:
	scripts/gen-spdx-ids ../shared/data/spdx-license-list > core/spdx_ids.c

all: build

build: check-deps
	@$(MAKE) --no-print-directory PROFILE=$(PROFILE) $(B)/sbomd $(B)/sbomgen $(B)/unit-tests

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC [$(PROFILE)] $<"
	@$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

# the API contract, served at /openapi.yaml from inside the binary
$(B)/gen/openapi_yaml.c: openapi/openapi.yaml scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< sb_openapi_yaml > $@

# the browser page, served at /
$(B)/gen/page_html.c: handlers/page.html scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< sb_page_html > $@

$(B)/gen/page_html.o: $(B)/gen/page_html.c
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/gen/openapi_yaml.o: $(B)/gen/openapi_yaml.c
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(B)/libsbcore.a: $(CORE_OBJ)
	ar rcs $@ $^

$(B)/sbomd: $(SVC_OBJ) $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(REDIS_LIBS) $($(PROFILE)_LIBS) -lpthread

$(B)/sbomgen: $(CLI_OBJ) $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $($(PROFILE)_LIBS)

$(B)/bench: $(B)/cli/bench.o $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $($(PROFILE)_LIBS) -lpthread

$(B)/unit-tests: $(TEST_OBJ) $(B)/service/params.o $(B)/service/lookup_sched.o $(B)/service/lookup_cache.o $(B)/service/lookup_store.o $(B)/service/cgroup.o $(B)/service/budget.o $(B)/service/config.o $(B)/service/auth.o $(B)/service/decode.o $(B)/service/filewatch.o $(B)/service/shared_cache.o $(B)/service/rcache.o $(B)/service/log.o $(B)/libsbcore.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(PKG_LIBS) $(REDIS_LIBS) $($(PROFILE)_LIBS) -lpthread

check-deps:
	@scripts/install-deps --check-or-install

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
check: check-deps
	@$(MAKE) --no-print-directory PROFILE=release build
	@SB_PROFILES=release SB_FAST=1 tests/run-all.sh

# One profile only (PROFILE=release|asan|debug).
test-one: build
	@SB_PROFILES=$(PROFILE) tests/run-all.sh

asan:
	@$(MAKE) --no-print-directory PROFILE=asan build

valgrind:
	@$(MAKE) --no-print-directory PROFILE=debug build
	@SB_PROFILES=debug SB_VALGRIND=1 tests/run-all.sh

# libFuzzer targets (clang), each run FUZZ_SECONDS (default 60).
# container image (root; buildah/podman/debootstrap): build, or build and run
image:
	deploy/build-image

image-test:
	deploy/build-image --test

# core micro-benchmarks (figures only, never a pass/fail on time)
bench: check-deps
	@$(MAKE) --no-print-directory PROFILE=release build build/release/bench
	@loadtest/bench.sh

fuzz:
	@tests/fuzz/run.sh $${FUZZ_SECONDS:-60}

print-core-src:
	@echo $(CORE_SRC)

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
