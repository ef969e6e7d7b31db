/**
 * The `kubernetes` lane, on paper (SPEC B4; docs/boxes.md, "The Kubernetes lane"): the objects a
 * `kubernetes` tier would create for a box, for users whose previews outgrow one machine. Nothing
 * here talks to a cluster; a test validates what it makes against the Kubernetes API's schema.
 *
 * Per box: a pod (`sanoma-box-<tag>`) that waits for `exec`s, as the container tier's container
 * does; a claim for its home (it survives stops, as a local home does: the box's snapshot
 * capability), mounted at `/box/home`; an `emptyDir` for its temporary folder; and a network
 * policy that lets nothing in or out (ports travel by port-forward, which it does not block).
 */
import type { ContainerSettings } from "./container.ts";
import { DEFAULT_MEMORY_MIB } from "./container.ts";

/** Where a pod mounts the box's home and temporary folder. */
export const POD_HOME = "/box/home";
export const POD_TMP = "/box/tmp";

export interface KubernetesBox {
  /** The box's name (an annotation: names may hold what labels cannot). */
  name: string;
  /** The box's tag (`Box`): names the objects, as it names a container. */
  tag: string;
  /** The namespace the tier works in. */
  namespace: string;
  /** The image: it must hold bash (and Node for previews); there is no machine's /usr to mount. */
  image: string;
  /** The home's size, in GiB (default 5). */
  homeGiB?: number;
  settings?: ContainerSettings;
}

const MANAGED = { "app.kubernetes.io/managed-by": "sanoma", "app.kubernetes.io/component": "box" };

function metadata(box: KubernetesBox, suffix = "") {
  return {
    name: `sanoma-box-${box.tag}${suffix}`,
    namespace: box.namespace,
    labels: { ...MANAGED, "sanoma.dev/box": box.tag },
    annotations: { "sanoma.dev/box-name": box.name },
  };
}

/** The pod of a box: unprivileged, no service account token, limits from the settings. */
export function boxPod(box: KubernetesBox): Record<string, unknown> {
  const memory = `${box.settings?.memoryMiB ?? DEFAULT_MEMORY_MIB}Mi`;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: metadata(box),
    spec: {
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 2,
      securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: "RuntimeDefault" } },
      containers: [{
        name: "box",
        image: box.image,
        imagePullPolicy: "IfNotPresent",
        // Waits for execs, reaping what they leave (bash as the container's first process).
        command: ["bash", "-c", "trap 'exit 0' TERM; while :; do sleep 86400 & wait $!; done"],
        workingDir: POD_HOME,
        env: [{ name: "HOME", value: POD_HOME }, { name: "TMPDIR", value: POD_TMP }],
        resources: { requests: { memory, cpu: "250m" }, limits: { memory } },
        securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, privileged: false, capabilities: { drop: ["ALL"] } },
        volumeMounts: [{ name: "home", mountPath: POD_HOME }, { name: "tmp", mountPath: POD_TMP }],
      }],
      volumes: [
        { name: "home", persistentVolumeClaim: { claimName: `sanoma-box-${box.tag}-home` } },
        { name: "tmp", emptyDir: { sizeLimit: "1Gi" } },
      ],
    },
  };
}

/** The claim that holds a box's home across stops; deleted by discard. */
export function boxHomeClaim(box: KubernetesBox): Record<string, unknown> {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: metadata(box, "-home"),
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: `${box.homeGiB ?? 5}Gi` } } },
  };
}

/** No traffic in or out of the box's pod (port-forward goes through the kubelet, not the pod network). */
export function boxNetworkPolicy(box: KubernetesBox): Record<string, unknown> {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: metadata(box, "-isolated"),
    spec: { podSelector: { matchLabels: { "sanoma.dev/box": box.tag } }, policyTypes: ["Ingress", "Egress"], ingress: [], egress: [] },
  };
}

/** What a cluster must grant the tier, in its namespace: a Role. */
export function boxesRole(namespace: string): Record<string, unknown> {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "Role",
    metadata: { name: "sanoma-boxes", namespace, labels: MANAGED },
    rules: [
      { apiGroups: [""], resources: ["pods"], verbs: ["create", "get", "list", "watch", "delete"] },
      { apiGroups: [""], resources: ["pods/exec", "pods/portforward"], verbs: ["create"] },
      { apiGroups: [""], resources: ["persistentvolumeclaims"], verbs: ["create", "get", "list", "delete"] },
      { apiGroups: ["networking.k8s.io"], resources: ["networkpolicies"], verbs: ["create", "get", "delete"] },
    ],
  };
}
