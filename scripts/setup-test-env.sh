#!/usr/bin/env bash
# Installs what the tests need beyond npm packages: Debian's neovim, bubblewrap and chromium, and a
# code-server for the VS Code end-to-end tests. As root it installs them; otherwise it prints the
# exact command to run and fails.
set -euo pipefail
need=()
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" libkrb5-dev >/dev/null
  else
    echo "missing: ${need[*]}. Run: sudo apt-get update && sudo apt-get install -y ${need[*]} libkrb5-dev" >&2
    exit 1
  fi
fi
bash scripts/setup-code-server.sh
