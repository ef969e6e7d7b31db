import { nightly } from "./nightly";

// A unit test of the workflow: not a workflow source itself.
export const checkNightly = () => nightly({ call: async () => [] });
