#!/usr/bin/env bash
# make_big_string.sh OUT.json.gz MIB: a one-event trace whose args hold one string of
# MIB MiB, gzipped (a few KB per MiB); for tests/sql/hardening/ceiling_string.sql.
set -eu
mkdir -p "$(dirname "$1")"
{
  printf '{"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1,"args":{"s":"'
  head -c $(($2 * 1048576)) /dev/zero | tr '\0' 'A'
  printf '"}}]}'
} | gzip -1 > "$1"
