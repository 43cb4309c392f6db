# sbomd container image: build on Debian bookworm with the -dev packages, run
# on bookworm-slim with only the runtime libraries, as a non-root user.
# No registry is reachable on our build machines: deploy/build-image creates
# the two FROM images locally (debootstrap) and then builds this file as is.
FROM debian:bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential pkg-config libmicrohttpd-dev libyaml-dev libjansson-dev \
      libcurl4-openssl-dev libmimalloc-dev libzstd-dev libbz2-dev zlib1g-dev libhiredis-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Makefile ./
COPY core core
COPY service service
COPY handlers handlers
COPY cli cli
COPY scripts scripts
COPY openapi openapi
COPY tests/unit tests/unit
# the context has no .git: the commit reaches the binary (sbomd_build_info,
# --version) through the Makefile's SBOMD_REVISION, as git's short form
ARG REVISION=unknown
RUN SBOMD_REVISION="$(printf '%.12s' "$REVISION")" make PROFILE=release build/release/sbomd \
 && strip build/release/sbomd

FROM debian:bookworm-slim
# what the image is (OCI annotations); deploy/build-image passes them from git
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=unknown
LABEL org.opencontainers.image.title="sbomd" \
      org.opencontainers.image.description="Lockfiles in, SBOMs out: CycloneDX and SPDX over HTTP" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.source="$SOURCE" \
      org.opencontainers.image.base.name="debian:bookworm-slim"
# ca-certificates: license lookups and OSV queries go over HTTPS
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libmicrohttpd12 libyaml-0-2 libjansson4 libcurl4 libmimalloc2.0 libzstd1 libbz2-1.0 zlib1g libhiredis0.14 ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /usr/share/doc/* /usr/share/man/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin sbomd
COPY --from=build /src/build/release/sbomd /usr/local/bin/sbomd
USER 10001:10001
EXPOSE 8080
# inside the container only: the pod network is the boundary
ENV SBOMD_LISTEN=0.0.0.0 SBOMD_PORT=8080
ENTRYPOINT ["/usr/local/bin/sbomd"]
