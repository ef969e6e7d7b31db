import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";

/** A connector of acme's own: its definition rules are checked here. */
export const cacheDb = defineResource({
  vendor: "acme",
  type: "cache",
  title: "Cache",
  schema: z.object({ name: z.string() }),
  fields: {},
  writable: true,
  stateless: true,
  database: { url: "url" }, // expect: resource-type-spec
});

export const stamp = defineResource({
  vendor: "acme",
  type: "stamp",
  title: "Stamp",
  schema: z.object({ id: z.string() }),
  fields: {},
  writable: true,
  vendorless: true, // expect: resource-type-spec
});
