#!/usr/bin/env bash
# Gatehouse fail-soft token client: exchanges the job's OIDC token for a GitHub App installation
# token through the broker. On any failure it prints exactly one warning line, writes empty
# outputs and exits 0, so the job continues with the default bot identity.
#
# Settings (environment):
#   BROKER_URL    broker base URL; unset: the hosted primary; set but empty: off ("broker disabled")
#   FALLBACK_URL  second address, tried only when the first cannot be reached; unset: the hosted
#                 fallback, and only when BROKER_URL is the hosted primary
#   AUDIENCE      OIDC audience (default gatehouse-broker)
#   APP_NAME      name used in the warning (default Gatehouse)
#   BROKER_TIMEOUT  seconds one broker call may take, answer included (default 30; the connection
#                 itself at most 5); the runner's OIDC endpoint gets 10 (connection 5)
# Outputs (GITHUB_OUTPUT): token (masked), expires-at, repository.
# Needs bash, curl (7.55 or later) and jq.
set -uo pipefail

readonly DEFAULT_BROKER_URL='https://broker.gatehouse.dev'
readonly DEFAULT_FALLBACK_URL='https://broker-fallback.gatehouse.dev'

app_name="${APP_NAME:-Gatehouse}"
broker_timeout="${BROKER_TIMEOUT:-30}"
[[ "$broker_timeout" =~ ^[1-9][0-9]{0,3}$ ]] || broker_timeout=30
broker_connect_timeout=$((broker_timeout < 5 ? broker_timeout : 5))
app_name="${app_name//[$'\r\n']/ }"
broker_url="${BROKER_URL-$DEFAULT_BROKER_URL}"
audience="${AUDIENCE:-gatehouse-broker}"
if [[ -n "${FALLBACK_URL:-}" ]]; then
  fallback_url="$FALLBACK_URL"
elif [[ "$broker_url" == "$DEFAULT_BROKER_URL" ]]; then
  fallback_url="$DEFAULT_FALLBACK_URL"
else
  fallback_url=''
fi

write_outputs() {
  if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    printf 'token=%s\nexpires-at=%s\nrepository=%s\n' "$1" "$2" "$3" >>"$GITHUB_OUTPUT"
  fi
}

unavailable() {
  printf '::warning::%s token unavailable (%s); comments fall back to the default bot\n' "$app_name" "$1"
  write_outputs '' '' ''
  exit 0
}

# Splits curl's "<body>\n<status>" (from -w '\n%{http_code}') into $reply_body and $reply_status.
split_reply() {
  reply_status="${1##*$'\n'}"
  reply_body="${1%$'\n'*}"
}

[[ -n "$broker_url" ]] || unavailable 'broker disabled'
command -v curl >/dev/null 2>&1 || unavailable 'curl not installed on this runner'
command -v jq >/dev/null 2>&1 || unavailable 'jq not installed on this runner'
[[ -n "${ACTIONS_ID_TOKEN_REQUEST_URL:-}" && -n "${ACTIONS_ID_TOKEN_REQUEST_TOKEN:-}" ]] || unavailable "missing 'id-token: write'"
repository_pattern='^([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})$'
[[ "${GITHUB_REPOSITORY:-}" =~ $repository_pattern ]] || unavailable 'bad GITHUB_REPOSITORY'
owner="${BASH_REMATCH[1]}"
repo="${BASH_REMATCH[2]}"

# Credentials go through a process-substitution file, never the command line (visible in ps).
encoded_audience="$(jq -rn --arg a "$audience" '$a | @uri')"
oidc_reply="$(curl --silent --max-time 10 --connect-timeout 5 -w '\n%{http_code}' \
  -H @<(printf 'Authorization: Bearer %s\n' "$ACTIONS_ID_TOKEN_REQUEST_TOKEN") \
  "${ACTIONS_ID_TOKEN_REQUEST_URL}&audience=${encoded_audience}")" || unavailable 'OIDC request failed'
split_reply "$oidc_reply"
[[ "$reply_status" == 200 ]] || unavailable 'OIDC request failed'
oidc_token="$(jq -er '.value | select(type == "string" and length > 0)' <<<"$reply_body" 2>/dev/null)" || unavailable 'OIDC token missing'
printf '::add-mask::%s\n' "$oidc_token"

request_body="$(jq -cn --arg t "$oidc_token" --arg o "$owner" --arg r "$repo" \
  --arg ref "${GITHUB_REF:-}" --arg run "${GITHUB_RUN_ID:-}" --arg sha "${GITHUB_SHA:-}" \
  '{oidcToken: $t, owner: $o, repo: $r}
   + (if $ref != "" then {ref: $ref} else {} end)
   + (if $run != "" then {runId: $run} else {} end)
   + (if $sha != "" then {sha: $sha} else {} end)')"

# Non-zero only when no HTTP answer came (refused, DNS failure, timeout): the fallback's case.
call_broker() {
  broker_reply="$(curl --silent --max-time "$broker_timeout" --connect-timeout "$broker_connect_timeout" -w '\n%{http_code}' \
    -X POST -H 'Content-Type: application/json' -H 'Accept: application/json' \
    --data-binary @- "${1%/}/token" <<<"$request_body")"
}

if ! call_broker "$broker_url"; then
  if [[ -n "$fallback_url" ]]; then
    echo "broker unreachable at $broker_url; trying $fallback_url"
    call_broker "$fallback_url" || unavailable 'broker unreachable'
  else
    unavailable 'broker unreachable'
  fi
fi
split_reply "$broker_reply"
[[ "$reply_status" == 200 ]] || unavailable "broker HTTP $reply_status"
token="$(jq -er '.token | select(type == "string" and length > 0)' <<<"$reply_body" 2>/dev/null)" || unavailable 'broker returned no token'
# A value with whitespace could forge extra output lines; a real token has none.
[[ "$token" =~ ^[[:graph:]]+$ ]] || unavailable 'broker returned no token'
printf '::add-mask::%s\n' "$token"

expires_at="$(jq -r '.expires_at // "" | tostring' <<<"$reply_body")"
expires_at="${expires_at//[$'\r\n']/}"
token_repository="$(jq -r '.repository // "" | tostring' <<<"$reply_body")"
token_repository="${token_repository//[$'\r\n']/}"
write_outputs "$token" "$expires_at" "${token_repository:-$owner/$repo}"
echo "$app_name token ready for ${token_repository:-$owner/$repo} (expires ${expires_at:-at an unknown time})"
