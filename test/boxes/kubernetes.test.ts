/**
 * The Kubernetes lane on paper (issue 21): the objects a `kubernetes` tier would create for a box,
 * made by the real functions of server/src/boxes/kubernetes.ts, validated against the Kubernetes
 * API's schema (kubernetes-models, generated from its OpenAPI document). Never sent anywhere.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { boxesRole, boxHomeClaim, boxNetworkPolicy, boxPod, POD_HOME } from "../../server/src/boxes/kubernetes.ts";

// ES modules only (their exports offer no `require`): loaded as such.
const models = async () => ({
  ...(await import("kubernetes-models/v1")),
  ...(await import("kubernetes-models/networking.k8s.io/v1")),
  ...(await import("kubernetes-models/rbac.authorization.k8s.io/v1")),
});

const box = { name: "billing-invoice", tag: "0123456789abcdef", namespace: "previews", image: "registry.example/acme/preview:1", settings: { memoryMiB: 512 } };

test("the box's pod, home claim, network policy and role are valid Kubernetes objects", async () => {
  const { Pod, PersistentVolumeClaim, NetworkPolicy, Role } = await models();
  const pod = new Pod(boxPod(box) as never);
  pod.validate();
  new PersistentVolumeClaim(boxHomeClaim(box) as never).validate();
  new NetworkPolicy(boxNetworkPolicy(box) as never).validate();
  new Role(boxesRole("previews") as never).validate();
});

test("the pod is unprivileged, limited and isolated, its home the claim's", async () => {
  const { Pod } = await models();
  const pod = boxPod(box) as { metadata: { name: string; namespace: string }; spec: any };
  assert.equal(pod.metadata.name, "sanoma-box-0123456789abcdef");
  assert.equal(pod.metadata.namespace, "previews");
  const spec = pod.spec;
  assert.equal(spec.automountServiceAccountToken, false);
  assert.equal(spec.securityContext.runAsNonRoot, true);
  const [container] = spec.containers;
  assert.deepEqual(container.securityContext.capabilities.drop, ["ALL"]);
  assert.equal(container.securityContext.allowPrivilegeEscalation, false);
  assert.equal(container.resources.limits.memory, "512Mi");
  assert.equal(container.workingDir, POD_HOME);
  assert.deepEqual(spec.volumes[0].persistentVolumeClaim, { claimName: "sanoma-box-0123456789abcdef-home" });
  const policy = boxNetworkPolicy(box) as { spec: { policyTypes: string[]; ingress: unknown[]; egress: unknown[] } };
  assert.deepEqual([policy.spec.policyTypes, policy.spec.ingress, policy.spec.egress], [["Ingress", "Egress"], [], []]);
  // A wrong shape is refused by the schema: the validation is no formality.
  assert.throws(() => new Pod({ ...boxPod(box), spec: { ...spec, containers: [{ ...container, securityContext: { runAsNonRoot: "yes" } }] } } as never).validate(), /runAsNonRoot must be boolean/);
});
