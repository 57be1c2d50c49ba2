#!/bin/sh
# Renders pgbouncer.ini from the environment (only the template's own ${PGBOUNCER_*} and
# ${DATABASE_*} names) and the auth file from PGBOUNCER_USER / PGBOUNCER_PASSWORD, then runs
# PgBouncer in the foreground, logging to standard error.
set -eu
: "${PGBOUNCER_USER:?set PGBOUNCER_USER (the service's PostgreSQL user)}"
: "${PGBOUNCER_PASSWORD:?set PGBOUNCER_PASSWORD}"
export PGBOUNCER_ADMIN_USERS="${PGBOUNCER_ADMIN_USERS:-$PGBOUNCER_USER}"
umask 077
printf '"%s" "%s"\n' "$PGBOUNCER_USER" "$PGBOUNCER_PASSWORD" > "$PGBOUNCER_AUTH_FILE"
vars=$(grep -o '\${[A-Z_]*}' /etc/pgbouncer/pgbouncer.ini.template | sort -u | tr -d '\n')
envsubst "$vars" < /etc/pgbouncer/pgbouncer.ini.template > /etc/pgbouncer/pgbouncer.ini
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
