#!/usr/bin/env bash
# The system packages the test suite uses besides Node.js: Chromium for the browser tests of the
# playground and the HTML reports, a C compiler for the code generator, and Halide 14's Python
# bindings (through /usr/bin/python3) for the differential peer, and an AArch64 cross compiler with
# qemu-user to run the Neon intrinsics. Debian/Ubuntu only;
# run as root or with sudo available.
set -euo pipefail
pkgs=(chromium gcc python3-halide gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${pkgs[@]}"
