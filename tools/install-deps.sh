#!/usr/bin/env bash
# Installs the Debian 12 packages wirejson builds and tests with, only those
# missing, and the de_DE.UTF-8 locale the number tests re-run under.
# Needs root (or sudo) when something is missing.
set -euo pipefail

packages=(build-essential cmake pkg-config libssl-dev libsqlite3-dev sqlite3
          libjq-dev libonig-dev jq python3 unicode-data locales clang
          libclang-rt-14-dev valgrind
          python3-dev python3-setuptools python3-venv python3-distributed
          python3-dask)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$p")
done

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  as_root sed -i 's/^# *\(de_DE.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen ||
    echo 'de_DE.UTF-8 UTF-8' | as_root tee -a /etc/locale.gen >/dev/null
  as_root locale-gen >/dev/null
fi
