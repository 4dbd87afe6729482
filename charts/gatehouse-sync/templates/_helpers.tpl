{{/* Names and labels, after the usual `helm create` conventions. */}}
{{- define "gatehouse-sync.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "gatehouse-sync.fullname" -}}
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

{{- define "gatehouse-sync.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "gatehouse-sync.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "gatehouse-sync.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gatehouse-sync.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "gatehouse-sync.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "gatehouse-sync.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Where the ConfigMap's file is mounted, read-only. */}}
{{- define "gatehouse-sync.configDir" -}}/etc/gatehouse-sync{{- end }}

{{/*
The pod spec shared by the Deployment and the CronJob: same image, Secret, configuration and
hardening. The probes and the restart policy differ and are added by each of them.
*/}}
{{- define "gatehouse-sync.podSpec" -}}
serviceAccountName: {{ include "gatehouse-sync.serviceAccountName" . }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
# The service never calls the Kubernetes API.
automountServiceAccountToken: false
# Longer than the service's own shutdown grace, so a running sync can finish and the process
# still close its connections and locks before Kubernetes kills it.
terminationGracePeriodSeconds: {{ add .Values.shutdownGraceSeconds 30 }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
containers:
  - name: sync
    image: "{{ required "image.repository is required: the sync image your release pushes, ghcr.io/<your GitHub owner>/gatehouse-sync (see docs/self-hosting.md)" .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
    imagePullPolicy: {{ .Values.image.pullPolicy }}
    # Appended to the image's entrypoint (node build/server/sync/main.js).
    args: ["--config", "{{ include "gatehouse-sync.configDir" . }}/sync.yaml"]
    envFrom:
      - secretRef:
          name: {{ required "existingSecret is required: the name of a Secret holding DEFECTDOJO_TOKEN and the source credentials (see values.yaml)" .Values.existingSecret }}
    env:
      - name: PORT
        value: "8080"
      - name: SYNC_SHUTDOWN_GRACE_SECONDS
        value: {{ .Values.shutdownGraceSeconds | quote }}
      - name: LOG_LEVEL
        value: {{ .Values.logLevel | quote }}
      {{- with .Values.extraEnv }}
      {{- toYaml . | nindent 6 }}
      {{- end }}
    securityContext:
      {{- toYaml .Values.securityContext | nindent 6 }}
    resources:
      {{- toYaml .Values.resources | nindent 6 }}
    volumeMounts:
      - name: config
        mountPath: {{ include "gatehouse-sync.configDir" . }}
        readOnly: true
      # Dependency-Track exports that come without a length are spooled here before their upload.
      - name: tmp
        mountPath: /tmp
{{- if eq .Values.config.mode "deployment" }}
    ports:
      - name: http
        containerPort: 8080
        protocol: TCP
    livenessProbe:
      httpGet:
        path: /healthz
        port: http
      periodSeconds: 10
      timeoutSeconds: 5
      failureThreshold: 3
    # 503 until the configuration is valid and DefectDojo answered.
    readinessProbe:
      httpGet:
        path: /readyz
        port: http
      periodSeconds: 10
      timeoutSeconds: 5
      failureThreshold: 3
{{- end }}
volumes:
  - name: config
    configMap:
      name: {{ include "gatehouse-sync.fullname" . }}
  - name: tmp
    emptyDir: {}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Pod metadata: a changed configuration rolls the pods. */}}
{{- define "gatehouse-sync.podMetadata" -}}
annotations:
  checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
  {{- with .Values.podAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
labels:
  {{- include "gatehouse-sync.selectorLabels" . | nindent 2 }}
  {{- with .Values.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}
