import { collection } from "@sanoma-ai/workflows/data";

export const tickets = collection({
  key: "id",
  fields: { id: "string", customerId: "string", subject: "string", state: "string" },
});
