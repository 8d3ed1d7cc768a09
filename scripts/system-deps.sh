#!/usr/bin/env bash
# The system packages the test suite uses besides Node.js: Chromium for the browser tests of the
# playground and the HTML reports, and a C compiler for the code generator. Debian/Ubuntu only;
# run as root or with sudo available.
set -euo pipefail
pkgs=(chromium gcc)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${pkgs[@]}"
