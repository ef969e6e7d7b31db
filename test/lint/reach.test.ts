/**
 * `server/src/core/reach.ts`, the path math every import rule asks: targets worked out by string
 * math (`joinRelative`) and kept per root, folder and specifier, with the last answer apart. Held
 * to `path.posix.normalize` and `path.join` (what the targets were computed with before) on
 * generated paths, and the caches to fresh computations, asked in an order that would expose a
 * stale answer (the same specifier from another folder or company, one after the other).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { roleOf } from "../../server/src/core/company.ts";
import { importTarget, isPathSpecifier, joinRelative, targetApp } from "../../server/src/core/reach.ts";
import type { ImportContext } from "../../server/src/core/sites.ts";

function random(seed: number) {
  return (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return (seed >>> 12) % n; };
}

const SEGMENTS = ["a", "b", ".", "..", "", "apps", "x.ts", "...", ".hidden", "workflows"];

test("joinRelative is path.posix.normalize of the joined path, without its trailing slash", () => {
  const rnd = random(3);
  const mk = (min: number) => Array.from({ length: min + rnd(5) }, () => SEGMENTS[rnd(SEGMENTS.length)]).join("/");
  for (let i = 0; i < 50_000; i++) {
    let dir = rnd(4) === 0 ? "" : mk(1);
    if (dir.startsWith("/")) dir = `a${dir}`; // a company-relative folder is never absolute
    let spec = mk(1);
    if (!spec.startsWith(".")) spec = (rnd(2) ? "./" : "../") + spec;
    const want = path.posix.normalize(dir === "" ? spec : `${dir}/${spec}`).replace(/\/$/, "");
    assert.equal(joinRelative(dir, spec), want, JSON.stringify({ dir, spec }));
  }
});

/** The targets as the core computed them before the caches and string math. */
function reference(ctx: ImportContext, specifier: string): { rel: string | undefined; abs: string } {
  const dirRel = ctx.rel.includes("/") ? ctx.rel.slice(0, ctx.rel.lastIndexOf("/")) : "";
  if (path.isAbsolute(specifier)) {
    const abs = path.resolve(specifier);
    const rel = path.relative(ctx.root, abs);
    return rel.startsWith("..") || path.isAbsolute(rel) ? { abs, rel: undefined } : { abs, rel: rel.split(path.sep).join("/") };
  }
  const joined = path.posix.normalize(dirRel === "" ? specifier : `${dirRel}/${specifier}`).replace(/\/$/, "");
  const abs = path.join(ctx.root, joined);
  if (joined === ".." || joined.startsWith("../")) return { abs, rel: undefined };
  return { abs, rel: joined === "." ? "" : joined };
}

test("importTarget answers as a fresh computation, whatever was asked just before", () => {
  const rnd = random(11);
  const roots = ["/w/co", "/w/co/apps/a", "/w/other"];
  const files = ["x.ts", "lib/x.ts", "apps/a/lib/x.ts", "apps/a/workflows/w.ts", "apps/b/resources/r.ts", "workflows/sub/w.ts"];
  const specs = [".", "..", "./x", "../x", "../../x", "../../../x", "../../../../x", "./a/../b", "../apps/b/x", "../../b/lib", "/w/co/apps/c/x", "/elsewhere/y", "zod", "@sanoma-ai/workflows"];
  const ctx = (root: string, rel: string): ImportContext => ({ root, rel, file: `${root}/${rel}`, role: roleOf(rel) });
  for (let i = 0; i < 20_000; i++) {
    // Often the same specifier as before from another folder or root, or the same context again.
    const c = ctx(roots[rnd(roots.length)], files[rnd(files.length)]);
    const spec = specs[rnd(specs.length)];
    for (let k = 0; k < 1 + rnd(3); k++) {
      const got = importTarget(c, spec);
      if (spec === "zod" || spec.startsWith("@")) { assert.equal(got, undefined); continue; }
      const want = reference(c, spec);
      assert.equal(got?.rel, want.rel, `${c.root} ${c.rel} ${spec}`);
      assert.equal(got?.abs, want.abs, `${c.root} ${c.rel} ${spec}`);
    }
  }
});

test("targetApp: the app of a path under apps/<app>", () => {
  const old = (rel: string) => { const p = rel.split("/"); return p[0] === "apps" && p.length >= 2 && p[1] !== "" && !p[1].startsWith(".") ? p[1] : null; };
  for (const rel of ["", "apps", "apps/", "apps/a", "apps/a/", "apps/a/x/y", "apps//x", "apps/.x/y", "apps/..", "appsx/a", "lib/apps/a", "a/apps/b", ".", "apps/a.b/c"]) {
    assert.equal(targetApp(rel), old(rel), rel);
  }
});

test("isPathSpecifier: `.`, `..`, `./…`, `../…` or an absolute path", () => {
  const reference = (s: string) => s === "." || s === ".." || s.startsWith("./") || s.startsWith("../") || path.isAbsolute(s);
  for (const s of ["", ".", "..", "...", "./", "../", "./a", "../a", ".a", "..a", ".../a", ".\\a", "/", "/a", "a", "a/b", "@s/x", "zod", "node:path", "~/a", "./../a", "..//a"]) {
    assert.equal(isPathSpecifier(s), reference(s), JSON.stringify(s));
  }
});
