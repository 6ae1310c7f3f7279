// A kubeconfig pointing kubectl, helm and client-node at the test server (plain HTTP on loopback;
// insecure-skip-tls-verify is what @kubernetes/client-node requires before it speaks plain HTTP).
export function kubeconfig(server: string, namespace = 'default'): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: ${server}
    insecure-skip-tls-verify: true
users:
- name: e2e
  user: {}
contexts:
- name: e2e
  context:
    cluster: e2e
    user: e2e
    namespace: ${namespace}
current-context: e2e
`;
}
