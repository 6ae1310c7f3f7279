// The echo server pods of fixtures/echo-server.yaml, as Deployments or single pods.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fixtures } from './cluster.js';

export const echoServerConfig = fs.readFileSync(path.join(fixtures, 'echo-server.yaml'), 'utf8');

export function echoContainer(env: Record<string, string> = {}): string {
  const extra = Object.entries(env)
    .map(([k, v]) => `\n        - {name: ${k}, value: "${v}"}`)
    .join('');
  return `      - name: echo
        image: busybox
        command: [node, /app/server.js]
        env:
        - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
        - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}${extra}
        ports: [{name: http, containerPort: 8080}]
        readinessProbe: {httpGet: {path: /ready, port: http}, periodSeconds: 1}
        volumeMounts: [{name: app, mountPath: /app}]
      volumes: [{name: app, configMap: {name: echo-server}}]`;
}

export function echoDeployment(name: string, replicas: number, env: Record<string, string> = {}): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
${echoContainer(env)}
`;
}

export function echoPod(name: string, labels: Record<string, string>, env: Record<string, string> = {}): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  labels: {${Object.entries(labels)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}}
spec:
  terminationGracePeriodSeconds: 2
  containers:
${echoContainer(env).replace(/^ {4}/gm, '')}
`;
}

export function service(name: string, selector: Record<string, string>, extra = ''): string {
  return `apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: {${Object.entries(selector)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}}
  ports: [{name: http, port: 80, targetPort: http${extra}}]
`;
}

/** GET over a new connection each time (a Service picks an endpoint per connection, as kube-proxy does). */
export function httpText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}
