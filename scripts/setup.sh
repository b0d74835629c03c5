#!/usr/bin/env bash
# Set up wsim on a Debian machine and run the default job:
#  - install the kernel toolchain (clang, lld, llvm), cmake (the soft-float library's
#    build needs it) and, on a host without fonts, fonts-dejavu-core (the figures' PDFs
#    embed the host's fonts) from Debian's packages when missing,
#  - build the C kernels in programs/ and wsim itself (release),
#  - run the default job: PageRank through the SparseWeaver unit on the dissertation's
#    machine (configs/sparseweaver.toml) on R-MAT scale 13 (8,192 vertices for its 6,144
#    threads), verified against the host reference.
# Pass --no-run to stop after building (CI does).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "setup: $*"; }

say "checking the kernel toolchain (clang, ld.lld, llvm-objdump), cmake and fonts"
missing=()
command -v clang >/dev/null || missing+=(clang)
command -v ld.lld >/dev/null || missing+=(lld)
command -v llvm-objdump >/dev/null || missing+=(llvm)
command -v cmake >/dev/null || missing+=(cmake)
find /usr/share/fonts /usr/local/share/fonts -name '*.[ot]tf' -print -quit 2>/dev/null | grep -q . ||
    missing+=(fonts-dejavu-core)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} from Debian's packages"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "setup: need root or sudo to install ${missing[*]}" >&2; exit 1; }
        sudo=sudo
    fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

say "building the programs (make -C programs: programs/build/*.elf)"
make -s -C programs -j"$(nproc)"
say "building wsim (cargo build --release; a first build takes a few minutes)"
cargo build --release
say "wsim is target/release/wsim ('cargo install --path .' puts it on PATH)"

if [ "${1:-}" != "--no-run" ]; then
    say "running the default job: PageRank through the SparseWeaver unit on configs/sparseweaver.toml, R-MAT scale 13 (8,192 vertices for its 6,144 threads)"
    ./target/release/wsim run --config configs/sparseweaver.toml --graph gen:rmat:scale=13,ef=8 programs/build/graph/pr_sparseweaver_pull.elf
fi
