/**
 * Every rule's documented examples are fixtures: the wrong one reports exactly its markers (and
 * nothing else), the right one reports nothing. The docs pages are generated from these texts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { RULES } from "../../server/src/core/rules/index.ts";
import { diffExpected, parseFixture, removeFixture, writeFixture } from "../support/fixture.ts";
import { checkDir, toFound } from "../support/check.ts";

for (const rule of RULES) {
  test(`${rule.id}: the wrong example reports exactly its markers`, () => {
    const fx = parseFixture(rule.doc.wrong);
    assert.ok(fx.expected.some((e) => e.rule === rule.id), "the wrong example marks at least one problem of its rule");
    const dir = writeFixture(fx);
    try {
      assert.equal(diffExpected(fx.expected, toFound(dir, checkDir(dir))), "");
    } finally { removeFixture(dir); }
  });
  test(`${rule.id}: the right example reports nothing`, () => {
    const fx = parseFixture(rule.doc.right);
    const dir = writeFixture(fx);
    try {
      assert.equal(diffExpected([], toFound(dir, checkDir(dir))), "");
    } finally { removeFixture(dir); }
  });
}
