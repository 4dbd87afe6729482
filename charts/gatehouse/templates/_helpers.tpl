{{/* Names and labels, after the usual `helm create` conventions. */}}
{{- define "gatehouse.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "gatehouse.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "gatehouse.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "gatehouse.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "gatehouse.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gatehouse.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "gatehouse.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "gatehouse.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The backend's environment variable of each entry of .Values.secrets. One table, read by the
Deployment (and by the test that checks it against the documented settings).
*/}}
{{- define "gatehouse.secretVariables" -}}
mongodbUri: MONGODB_URI
appPrivateKey: FORGE_APP_PRIVATE_KEY
webhookSecret: FORGE_WEBHOOK_SECRET
ledgerCursorKey: LEDGER_CURSOR_KEY
metricsToken: METRICS_TOKEN
auditToken: AUDIT_TOKEN
processTriggerSecret: PROCESS_TRIGGER_SECRET
ledgerChatWebhookUrl: LEDGER_CHAT_WEBHOOK_URL
enterpriseAppPrivateKey: ENTERPRISE_APP_PRIVATE_KEY
{{- end }}

{{/*
What a release must hold before anything is rendered: an image of its own; several replicas
share one MongoDB and one cursor key; a ServiceMonitor needs the bearer /metrics asks for.
*/}}
{{- define "gatehouse.checks" -}}
{{- $_ := required "image.repository is required: the backend image your release pushes, ghcr.io/<your GitHub owner>/gatehouse (see docs/self-hosting.md)" .Values.image.repository }}
{{- if gt (int .Values.replicaCount) 1 }}
{{- $_ := required "secrets.mongodbUri.name is required with more than one replica: each replica's in-memory store would be its own (see docs/self-hosting.md#scaling)" .Values.secrets.mongodbUri.name }}
{{- $_ := required "secrets.ledgerCursorKey.name is required with more than one replica: a history cursor made by one replica must page on another (LEDGER_CURSOR_KEY)" .Values.secrets.ledgerCursorKey.name }}
{{- end }}
{{- if .Values.serviceMonitor.enabled }}
{{- $_ := required "secrets.metricsToken.name is required with serviceMonitor.enabled: the ServiceMonitor sends the bearer GET /metrics asks for (METRICS_TOKEN)" .Values.secrets.metricsToken.name }}
{{- end }}
{{- end }}
