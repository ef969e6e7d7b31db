import { defineApp } from "@sanoma-ai/workflows";

export default defineApp({ name: "billing" });
