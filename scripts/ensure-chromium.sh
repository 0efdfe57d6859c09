#!/bin/sh
# Make sure Debian's chromium is installed: the browser tests in tests/web drive it through Playwright
# (Playwright's own browser download is not used). Installs it with apt when missing and we are root.
set -e
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "ensure-chromium: /usr/bin/chromium is missing; run as root: apt-get update && apt-get install -y chromium" >&2
    exit 0
fi
echo "ensure-chromium: installing Debian's chromium for the browser tests"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
