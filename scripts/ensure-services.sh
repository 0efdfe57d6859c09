#!/bin/sh
# Make sure PostgreSQL and Redis are installed: the multi-worker tests (tests/scaling) start private
# instances of both on free loopback ports. Installs Debian's packages when missing and we are root;
# nothing is started here and no system service is used.
set -e
have_pg=no
for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then have_pg=yes; fi
done
have_redis=no
if command -v redis-server >/dev/null 2>&1; then have_redis=yes; fi
if [ "$have_pg" = yes ] && [ "$have_redis" = yes ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "ensure-services: PostgreSQL or Redis is missing; run as root: apt-get install -y postgresql redis-server" >&2
    exit 0
fi
echo "ensure-services: installing Debian's postgresql and redis-server for the scaling tests"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql redis-server
