#!/bin/sh
# Patroni's post_bootstrap (deploy/patroni/patroni.yml): once, on the node that initialised the
# cluster, makes Parley's role and database. Patroni passes a superuser connection URL; the
# password comes from PARLEY_DB_PASSWORD in Patroni's environment (nothing is made without it).
set -eu
[ -n "${PARLEY_DB_PASSWORD:-}" ] || exit 0
psql -X -v ON_ERROR_STOP=1 -v password="$PARLEY_DB_PASSWORD" "$1" <<'SQL'
SELECT format('CREATE ROLE parley LOGIN PASSWORD %L', :'password')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'parley') \gexec
SELECT 'CREATE DATABASE parley OWNER parley'
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'parley') \gexec
SQL
