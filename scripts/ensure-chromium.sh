#!/bin/sh
# Make sure Debian's chromium is installed: the browser tests in tests/web drive it through Playwright
# (Playwright's own browser download is not used). Also a font with Hangul (Debian's fonts-nanum): without one
# the Korean pages draw empty boxes of a guessed width, and the fit tests would measure those instead of words.
# Installs what is missing with apt when we are root.
set -e
missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
if ! fc-list :lang=ko 2>/dev/null | grep -q .; then
    missing="$missing fonts-nanum"
fi
if [ -z "$missing" ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "ensure-chromium: missing:$missing; run as root: apt-get update && apt-get install -y $missing" >&2
    exit 0
fi
echo "ensure-chromium: installing Debian's $missing for the browser tests"
apt-get update -q
# shellcheck disable=SC2086  # the package names are words
DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing
