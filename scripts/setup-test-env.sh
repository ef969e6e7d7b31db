#!/usr/bin/env bash
# Installs what the tests need beyond npm packages: Debian's neovim, bubblewrap, chromium, patch, python3 and podman
# with its companions (the boxes' container tier: runc, fuse-overlayfs, uidmap, slirp4netns), and a
# code-server for the VS Code end-to-end tests. As root it installs them; otherwise it prints the
# exact command to run and fails.
set -euo pipefail
need=()
command -v nvim >/dev/null 2>&1 || need+=(neovim)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v podman >/dev/null 2>&1 || need+=(podman)
command -v runc >/dev/null 2>&1 || need+=(runc)
command -v fuse-overlayfs >/dev/null 2>&1 || need+=(fuse-overlayfs)
command -v newuidmap >/dev/null 2>&1 || need+=(uidmap)
command -v slirp4netns >/dev/null 2>&1 || need+=(slirp4netns)
# (GNU patch: the tests apply --fix-dry-run's diffs with it, as with git apply.)
command -v patch >/dev/null 2>&1 || need+=(patch)
# (python3's mmap: a box's process writes a file through a shared mapping in test/boxes/attacks.test.ts;
# the box's PATH holds the system's folders only.)
{ [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import mmap' >/dev/null 2>&1; } || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" libkrb5-dev >/dev/null
  else
    echo "missing: ${need[*]}. Run: sudo apt-get update && sudo apt-get install -y ${need[*]} libkrb5-dev" >&2
    exit 1
  fi
fi
bash scripts/setup-code-server.sh
# podman's runtime: runc (crun, where installed, cannot start a container on a machine whose cgroups
# are hybrid v1/v2: docs/boxes.md). Written only where the machine has no containers.conf of its own.
if [ ! -e /etc/containers/containers.conf ] && [ "$(id -u)" = 0 ]; then
  mkdir -p /etc/containers
  printf '[engine]\nruntime = "runc"\n' > /etc/containers/containers.conf
fi
