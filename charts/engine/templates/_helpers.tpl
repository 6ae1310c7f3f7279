{{- define "engine.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "engine.operatorName" -}}
{{- printf "%s-operator" (include "engine.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "engine.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: engine-operator
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "engine.selectorLabels" -}}
app.kubernetes.io/name: engine-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "engine.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "engine.operatorName" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The namespace whose EngineClusters are run: none (all) for the cluster scope. */}}
{{- define "engine.watchNamespace" -}}
{{- if eq .Values.rbac.scope "namespace" -}}
{{- default .Release.Namespace .Values.watchNamespace -}}
{{- else -}}
{{- .Values.watchNamespace -}}
{{- end -}}
{{- end -}}
