#!/usr/bin/env bash
# Gatehouse fail-soft token client: exchanges the job's OIDC token for a GitHub App installation
# token through the broker. On any failure it prints one warning line (and a second one with the
# broker's error and reason when it sent them), writes empty outputs and exits 0, so the job
# continues with the default bot identity.
#
# Settings (environment):
#   BROKER_URL    broker base URL, required: there is no default broker. Set but empty: off
#                 ("broker disabled"); unset: "broker URL not set"
#   FALLBACK_URL  second address, tried only when the first cannot be reached; unset or empty:
#                 no fallback
#   AUDIENCE      OIDC audience (default gatehouse-broker)
#   APP_NAME      name used in the warning (default Gatehouse)
#   BROKER_TIMEOUT  seconds one broker call may take, answer included (default 30; the connection
#                 itself at most 5); the runner's OIDC endpoint gets 10 (connection 5)
# Outputs (GITHUB_OUTPUT): token (masked), expires-at, repository.
# Needs bash, curl (7.55 or later) and jq (1.6 or later, for --rawfile).
set -uo pipefail

app_name="${APP_NAME:-Gatehouse}"
broker_timeout="${BROKER_TIMEOUT:-30}"
[[ "$broker_timeout" =~ ^[1-9][0-9]{0,3}$ ]] || broker_timeout=30
broker_connect_timeout=$((broker_timeout < 5 ? broker_timeout : 5))
app_name="${app_name//[$'\r\n']/ }"
broker_url="${BROKER_URL-}"
audience="${AUDIENCE:-gatehouse-broker}"
# The OIDC token goes only to addresses the workflow named.
fallback_url="${FALLBACK_URL:-}"

write_outputs() {
  if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
    printf 'token=%s\nexpires-at=%s\nrepository=%s\n' "$1" "$2" "$3" >>"$GITHUB_OUTPUT"
  fi
}

# $1: the reason (the spec's vocabulary); $2, optional: what the broker said (see broker_said).
unavailable() {
  printf '::warning::%s token unavailable (%s); comments fall back to the default bot\n' "$app_name" "$1"
  if [[ -n "${2:-}" ]]; then printf '::warning::broker said: %s\n' "$2"; fi
  write_outputs '' '' ''
  exit 0
}

# The broker's `error` and `reason` from the answer body $1, as "invalid_oidc_token
# (audience_mismatch)", on one line: control characters become spaces, format characters go,
# the OIDC token and anything shaped like a credential (16+ characters of a token alphabet with a
# digit or both cases) become [hidden], each part is cut to 64 characters. Empty when the body is
# not one JSON object or has neither field. The OIDC token reaches jq as a file, not an argument.
broker_said() {
  jq -rs --rawfile secret <(printf '%s' "$oidc_token") '
    def clean($max):
      if type == "string" then
        gsub("[\\p{Cc}\u2028\u2029]"; " ") | gsub("\\p{Cf}"; "")
        | (if ($secret | length) >= 8 then split($secret) | join("[hidden]") else . end)
        | gsub("(?<run>[A-Za-z0-9+/=_.~-]{16,})"; if (.run | test("[0-9]") or (test("[a-z]") and test("[A-Z]"))) then "[hidden]" else .run end)
        | gsub("\\s+"; " ") | sub("^ "; "") | sub(" $"; "")
        | if length == 0 then null elif length <= $max then . else .[0:$max - 1] + "…" end
      else null end;
    if length == 1 and (.[0] | type) == "object" then
      (.[0].error | clean(64)) as $e | (.[0].reason | clean(64)) as $r
      | if $e == null and $r == null then empty
        else [$e, (if $r == null then null else "(\($r))" end)] | map(select(. != null)) | join(" ") | gsub("%"; "%25")
        end
    else empty end' <<<"$1" 2>/dev/null || true
}

# Splits curl's "<body>\n<status>" (from -w '\n%{http_code}') into $reply_body and $reply_status.
split_reply() {
  reply_status="${1##*$'\n'}"
  reply_body="${1%$'\n'*}"
}

# Unset is a mistake (there is no default broker); set to '' is the spec's intentional off switch.
[[ -n "${BROKER_URL+set}" ]] || unavailable 'broker URL not set'
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
[[ "$reply_status" == 200 ]] || unavailable "broker HTTP $reply_status" "$(broker_said "$reply_body")"
token="$(jq -er '.token | select(type == "string" and length > 0)' <<<"$reply_body" 2>/dev/null)" || unavailable 'broker returned no token'
# A value with whitespace could forge extra output lines; a real token has none.
[[ "$token" =~ ^[[:graph:]]+$ ]] || unavailable 'broker returned no token'
printf '::add-mask::%s\n' "$token"
# A token the broker says is for another repository is not this job's to use (names compared
# without case, as GitHub compares them). Not revoked: this client never revokes (no post step).
same_repository="$(jq -r --arg want "$owner/$repo" '.repository | if . == null then "yes" elif type == "string" and ascii_downcase == ($want | ascii_downcase) then "yes" else "no" end' <<<"$reply_body")"
[[ "$same_repository" == yes ]] || unavailable 'broker returned another repository'

expires_at="$(jq -r '.expires_at // "" | tostring' <<<"$reply_body")"
expires_at="${expires_at//[$'\r\n']/}"
token_repository="$(jq -r '.repository // "" | tostring' <<<"$reply_body")"
token_repository="${token_repository//[$'\r\n']/}"
write_outputs "$token" "$expires_at" "${token_repository:-$owner/$repo}"
echo "$app_name token ready for ${token_repository:-$owner/$repo} (expires ${expires_at:-at an unknown time})"
