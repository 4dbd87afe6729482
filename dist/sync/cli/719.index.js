export const id = 719;
export const ids = [719];
export const modules = {

/***/ 89719:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  serveCommand: () => (/* binding */ serveCommand)
});

// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(77030);
// EXTERNAL MODULE: ./node_modules/pino/pino.js
var pino = __webpack_require__(65005);
// EXTERNAL MODULE: ./build/server/http/loopback.js
var loopback = __webpack_require__(82806);
;// CONCATENATED MODULE: ./build/server/config-error.js

/** A setting that cannot be used, named so the operator knows what to fix. Never carries its value. */
class ConfigError extends Error {
    setting;
    problem;
    name = 'ConfigError';
    constructor(setting, problem) {
        super(`${setting} ${problem}`);
        this.setting = setting;
        this.problem = problem;
    }
}
/** Runs `parse`, adding its `ConfigError` to `problems` instead of throwing it, so every problem is found. */
function collect(problems, parse) {
    try {
        return parse();
    }
    catch (err) {
        if (!(err instanceof ConfigError))
            throw err;
        problems.push(err);
        return undefined;
    }
}
/**
 * A base address setting (an OIDC issuer, a REST base such as `https://ghe.example.com/api/v3`):
 * `secureOrLoopback`, without query, fragment or credentials; whitespace and trailing slashes dropped.
 */
function parseSecureBase(setting, raw) {
    const base = raw.trim().replace(/\/+$/, '');
    const url = URL.parse(base);
    if (!url)
        throw new ConfigError(setting, 'must be an absolute URL');
    // Tokens, app JWTs and key-set fetches travel to this address: never in clear over a network.
    if (!secureOrLoopback(url)) {
        throw new ConfigError(setting, 'must be an https URL (http is accepted only on loopback)');
    }
    if (url.search || url.hash || url.username || url.password) {
        throw new ConfigError(setting, 'must not carry a query, fragment or credentials');
    }
    return base;
}
/** Comma-separated list: entries trimmed, empty entries dropped. */
function commaList(raw) {
    return (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}
/**
 * `parse` memoised on the values of the variables it reads, recorded as it reads them (so no list
 * of names can fall out of step with it): while they are unchanged, every call answers the same
 * object. The start-up check and every request call the same memo, so settings are parsed once, a
 * changed variable applies to the next request, and what is built from settings (clients, key
 * sets) is kept per settings object. The last few environments are kept: a test process serves
 * several, and a policy changed and changed back is not parsed again.
 */
function memoOnEnv(parse, keep = 4) {
    const kept = [];
    return (env) => {
        for (const { read, value } of kept)
            if (sameValues(read, env))
                return value;
        const read = new Map();
        const value = parse(new Proxy(env, {
            get: (target, name) => {
                const v = Reflect.get(target, name);
                if (typeof name === 'string')
                    read.set(name, v);
                return v;
            },
        }));
        kept.unshift({ read, value });
        if (kept.length > keep)
            kept.pop();
        return value;
    };
}
function sameValues(read, env) {
    for (const [name, value] of read)
        if (env[name] !== value)
            return false;
    return true;
}

;// CONCATENATED MODULE: ./build/server/logger.js

/** Names whose values never reach a log line, whatever code logs them. */
const SECRET_NAMES = ['authorization', 'cookie', 'x-hub-signature-256', 'token', 'oidcToken', 'privateKey', 'secret', 'password', 'webhookUrl', 'chatWebhookUrl'];
const SECRETS = new Set(SECRET_NAMES);
/**
 * The same names anywhere in the first levels of a log object (`settings.privateKey`,
 * `req.headers.authorization`), censored in one pass over its keys rather than with pino's
 * wildcard paths (`*.token`), which cost more than the rest of a request's logging
 * (docs/benchmarks.md).
 */
function censored(object, depth = 0) {
    let out = object;
    for (const key in object) {
        const value = object[key];
        let replaced = value;
        if (SECRETS.has(key))
            replaced = '[redacted]';
        else if (depth < 2 && value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Error)) {
            replaced = censored(value, depth + 1);
        }
        if (replaced !== value) {
            if (out === object)
                out = { ...object };
            out[key] = replaced;
        }
    }
    return out;
}
/**
 * Structured JSON logs on stdout (or `destination`, which tests use to read the stream), written
 * synchronously: pino's default stdout stream is asynchronous and buffers without bound, so under
 * load its backlog grows in memory for as long as the load lasts. A blocking write is the
 * back-pressure, and a crash loses no line.
 */
function logger_createLogger(options = {}) {
    return (0,pino.pino)({
        level: options.level ?? 'info',
        base: { service: options.service ?? 'gatehouse' },
        timestamp: pino.pino.stdTimeFunctions.isoTime,
        // pino's redaction covers child-logger bindings, which the `log` formatter never sees: the
        // names at the top level, and a `req` binding through its serializer (cheaper than nested
        // redact paths such as `req.headers.authorization` on every line).
        redact: { paths: SECRET_NAMES, censor: '[redacted]' },
        serializers: { req: (req) => censored(req) },
        formatters: { level: (label) => ({ level: label }), log: (object) => censored(object) },
    }, options.destination ?? pino.pino.destination({ dest: 1, sync: true }));
}

;// CONCATENATED MODULE: ./build/server/startup/checks.js




/** pino's levels, quietest last, and `silent`. Names are matched case-insensitively (`DEBUG` is `debug`). */
const LOG_LEVELS = [
    ...Object.entries(pino.pino.levels.values)
        .sort(([, a], [, b]) => a - b)
        .map(([name]) => name),
    'silent',
];
function listenPort(env) {
    const raw = env.PORT?.trim() || '8080';
    if (!/^[0-9]+$/.test(raw) || Number(raw) > 65535)
        throw new ConfigError('PORT', 'must be a port number (0-65535)');
    return Number(raw);
}
// Labels of letters, digits, `-` and `_` (container service names use `_`; the resolver accepts it).
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
/** Unset: every interface. A mistake such as `0.0.0.0:8080` or `http://…` is caught here, not by a failed listen. */
function listenHost(env) {
    const raw = env.HOST?.trim();
    if (!raw)
        return undefined;
    if ((0,external_node_net_.isIP)(raw) === 0 && !HOST_NAME.test(raw))
        throw new ConfigError('HOST', 'must be an IP address or a host name (no scheme, port or brackets)');
    return raw;
}
/** Unset: `info`. Any case is accepted, so `DEBUG` from an environment convention works. */
function logLevel(env) {
    const raw = env.LOG_LEVEL?.trim().toLowerCase();
    if (!raw)
        return 'info';
    if (!LOG_LEVELS.includes(raw))
        throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
    return raw;
}
/** PORT, HOST and LOG_LEVEL, each problem added to `problems`; undefined when any was unusable. */
function checkListenSettings(env, problems) {
    const before = problems.length;
    const port = collect(problems, () => listenPort(env));
    const host = collect(problems, () => listenHost(env));
    const level = collect(problems, () => logLevel(env));
    if (port === undefined || level === undefined || problems.length > before)
        return undefined;
    return { port, logLevel: level, ...(host ? { host } : {}) };
}
/**
 * One fatal JSON line per problem, naming the setting and what is wrong (a `ConfigError` never
 * holds the value). Written whatever LOG_LEVEL says (it may itself be the problem, and a silent
 * exit would hide why the process stopped).
 */
function reportStartupProblems(problems, options = {}) {
    const logger = createLogger({ level: 'info', ...options });
    for (const problem of problems)
        logger.fatal({ setting: problem.setting }, `invalid configuration: ${problem.message}`);
}
function logNotices(logger, notices) {
    for (const notice of notices)
        logger[notice.level]({ ...notice.fields }, notice.message);
}
/** A failed listen (port in use, address not on this host) in one line: its code and message, no stack. */
function reportListenFailure(logger, err) {
    logger.fatal({ code: err.code }, `cannot listen: ${err.message}`);
}

// EXTERNAL MODULE: ./build/server/version.js
var server_version = __webpack_require__(34034);
// EXTERNAL MODULE: ./build/server/clock.js
var server_clock = __webpack_require__(90232);
// EXTERNAL MODULE: ./build/server/sync/config.js + 1 modules
var sync_config = __webpack_require__(55215);
// EXTERNAL MODULE: ./build/server/sync/run.js
var run = __webpack_require__(21517);
;// CONCATENATED MODULE: ./build/server/sync/service/log.js




/**
 * Every configured secret value, as it appears in the text and inside a JSON string (a quote or
 * backslash in it is escaped there), longest first so a secret containing another is replaced whole.
 */
function log_forms(secrets) {
    const all = secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
    return [...new Set(all)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}
/**
 * A destination that replaces every secret value in each serialised line before it is written:
 * the service's counterpart of the CLI scrubbing its stdout and stderr. An upstream that echoes a
 * credential into an error body reaches a run's reasons, its summary and any error logged, and
 * the line is the one place they all pass through.
 */
function scrubbingDestination(destination, secrets) {
    const values = log_forms(secrets);
    if (values.length === 0)
        return destination;
    return { write: (line) => destination.write((0,run/* scrub */._I)(line, values)) };
}
/**
 * The secrets a service process knows: from the loaded configuration, or (when it is invalid)
 * the raw values of the secret settings, and the trigger token.
 */
function serviceSecrets(loaded, env) {
    const raw = [...sync_config/* SECRET_SETTINGS */.Rt, 'SYNC_TRIGGER_TOKEN', 'SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET'].map((name) => env[name]?.trim()).filter((v) => !!v);
    return [...(loaded ? (0,run/* secretValues */.VX)(loaded) : []), ...raw];
}
/** The service's logger: JSON lines on stdout (or `destination`), scrubbed of `secrets`. */
function serviceLogger(options) {
    const destination = options.destination ?? pino.pino.destination({ dest: 1, sync: true });
    return logger_createLogger({ level: options.level, service: 'gatehouse-sync', destination: scrubbingDestination(destination, options.secrets) });
}

;// CONCATENATED MODULE: ./build/server/store/mongo-connection.js
/**
 * The driver connects on first use, but when that first connection fails it keeps the closed
 * topology and answers every later call "Topology is closed" without trying again (mongodb 7's
 * autoConnect only connects a client that has no topology), so a process started while its
 * database was down would answer 503 until restarted. An explicit `connect()` replaces a closed
 * topology and returns at once when connected; called before each operation, the database is
 * used as soon as it is up. (An outage after a successful connect is the driver's own to ride out.)
 */
function mongoConnection(client) {
    let closed = false;
    return {
        ready: async () => {
            if (!closed)
                await client.connect();
        },
        close: async () => {
            closed = true;
            await client.close();
        },
    };
}

;// CONCATENATED MODULE: ./build/server/store/mongo-options.js
const MONGO_BOUNDS = { serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000, socketTimeoutMS: 30_000 };
function mongoClientOptions(uri, appName, overrides = {}) {
    const options = { appName };
    for (const [name, value] of Object.entries(MONGO_BOUNDS)) {
        const inUri = new RegExp(`[?&]${name}=`, 'i').test(uri);
        if (overrides[name] !== undefined)
            options[name] = overrides[name];
        else if (!inUri)
            options[name] = value;
    }
    return options;
}

;// CONCATENATED MODULE: ./build/server/store/types.js
/** The store could not be reached or answered with an error: retryable, nothing was decided. */
class StoreUnavailable extends Error {
    name = 'StoreUnavailable';
    constructor(options) {
        super('store unavailable', options);
    }
}
/** Newest-first order of the history: recordedAt, then deploymentId, descending. */
function newestFirst(a, b) {
    const byTime = b.recordedAt.getTime() - a.recordedAt.getTime();
    if (byTime !== 0)
        return byTime;
    return a.deploymentId < b.deploymentId ? 1 : a.deploymentId > b.deploymentId ? -1 : 0;
}
/** Index of the first of `items` (oldest first) recorded at or after `ms`: a binary search. */
function firstAtOrAfter(items, ms) {
    let low = 0;
    let high = items.length;
    while (low < high) {
        const mid = (low + high) >>> 1;
        if (items[mid].recordedAt.getTime() < ms)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

;// CONCATENATED MODULE: ./build/server/sync/service/locks-mongo.js




const DUPLICATE_KEY = 11000;
/** A lease outlives a crashed holder by at most this long; a live holder renews it every third of it. */
const DEFAULT_LEASE_MS = 60_000;
/** The driver's `appName` of the locks' client (the start-up check builds its client with the same options). */
const LOCKS_APP_NAME = 'gatehouse-sync';
/**
 * Locks as leases in MongoDB (`sync_locks`, one document per key: a source, or an issue-push
 * product or repository), for when `MONGODB_URI` is
 * set: they also hold across a rolling update, where an old and a new process briefly overlap.
 * Taking a lease is one atomic upsert that matches only an expired document; a held one makes
 * the upsert collide on `_id`.
 */
function mongoLocks(uri, options, driver) {
    const { MongoClient, MongoError } = driver;
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const clock = options.clock ?? server_clock/* systemClock */.m;
    const client = new MongoClient(uri, mongoClientOptions(uri, LOCKS_APP_NAME, options.serverSelectionTimeoutMs === undefined ? {} : { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs }));
    // Connects again when the first connection failed (see mongo-connection.ts).
    const connection = mongoConnection(client);
    const locks = client.db(options.dbName).collection('sync_locks');
    const unavailable = (err) => {
        throw err instanceof MongoError ? new StoreUnavailable({ cause: err }) : err;
    };
    return {
        kind: 'mongodb',
        async acquire(source, holder) {
            const now = new Date(clock.now());
            try {
                await connection.ready();
                await locks.updateOne({ _id: source, expiresAt: { $lte: now } }, { $set: { holder, acquiredAt: now, expiresAt: new Date(now.getTime() + leaseMs) } }, { upsert: true });
            }
            catch (err) {
                if (err instanceof MongoError && err.code === DUPLICATE_KEY)
                    return undefined;
                return unavailable(err);
            }
            const renewal = setInterval(() => {
                locks.updateOne({ _id: source, holder }, { $set: { expiresAt: new Date(clock.now() + leaseMs) } }).then((result) => {
                    if (result.matchedCount === 0)
                        options.onLost?.(source);
                }, 
                // A missed renewal is retried at the next tick; the lease is three ticks long.
                () => undefined);
            }, leaseMs / 3);
            renewal.unref();
            return {
                release: async () => {
                    clearInterval(renewal);
                    await locks.deleteOne({ _id: source, holder }).catch(unavailable);
                },
            };
        },
        close: () => connection.close(),
    };
}

;// CONCATENATED MODULE: ./build/server/sync/service/locks.js
/** In-process locks: enough for the single replica the service runs as. */
function memoryLocks() {
    const held = new Map();
    return {
        kind: 'memory',
        acquire: async (source, holder) => {
            if (held.has(source))
                return undefined;
            held.set(source, holder);
            return {
                release: async () => {
                    if (held.get(source) === holder)
                        held.delete(source);
                },
            };
        },
        close: async () => undefined,
    };
}

;// CONCATENATED MODULE: ./build/server/store/mongo-uri.js


const REDACTED = '[redacted]';
/** Query options whose values may be credentials (authMechanismProperties, tlsCertificateKeyFilePassword, proxyPassword, …). */
const SECRET_OPTION = /pass|token|secret|key|properties|credential/i;
/** Shorter pieces are not replaced inside words (that would garble the message): a short user or password withholds it. */
const MIN_REPLACED = 3;
function decoded(text) {
    try {
        return decodeURIComponent(text);
    }
    catch {
        return text;
    }
}
/**
 * Every piece of `uri` never shown: the URI itself; everything before its last `@` (user and
 * password, whatever the password holds, even an unescaped `/` or `@`), the user and the password
 * alone; the host list and each host (a password typed where a host goes, `user@password:port`,
 * would be quoted as a host); the values of options that may carry secrets. Each raw and
 * percent-decoded, longest first. Option names and other values stay: they say what is wrong.
 */
function hiddenParts(uri) {
    const parts = [uri];
    const scheme = uri.indexOf('://');
    const rest = scheme >= 0 ? uri.slice(scheme + 3) : uri;
    const at = rest.lastIndexOf('@');
    if (at >= 0) {
        const userinfo = rest.slice(0, at);
        const colon = userinfo.indexOf(':');
        parts.push(userinfo, ...(colon >= 0 ? [userinfo.slice(0, colon), userinfo.slice(colon + 1)] : []));
    }
    const hosts = rest.slice(at + 1).split(/[/?]/)[0] ?? '';
    // A host too short to replace is left: it is no credential, and withholding every message for it would help no one.
    parts.push(...[hosts, ...hosts.split(',')].filter((h) => h.length >= MIN_REPLACED));
    const query = rest.indexOf('?', at + 1);
    if (query >= 0) {
        for (const pair of rest.slice(query + 1).split('&')) {
            const [name = '', value = ''] = pair.split(/=(.*)/s);
            if (SECRET_OPTION.test(name))
                parts.push(value, ...value.split(/[,:]/).filter((p) => p.length >= MIN_REPLACED));
        }
    }
    const all = [...parts, ...parts.map(decoded)].filter((p) => p.length > 0);
    return [...new Set(all)].sort((a, b) => b.length - a.length);
}
/** The driver's message with every hidden part replaced; undefined when it cannot be shown safely. */
function redactedMessage(message, uri) {
    let text = message.replace(/\s+/g, ' ').trim();
    for (const part of hiddenParts(uri)) {
        if (part.length >= MIN_REPLACED)
            text = text.split(part).join(REDACTED);
        else if (text.includes(part))
            return undefined;
    }
    return text;
}
/**
 * Whether the driver accepts `uri` with the options the store or the locks will give it: the
 * check is the driver's own (its constructor parses and validates, and connects only on first
 * use, so an unreachable server is not a problem here). The problem quotes the driver's
 * message without the URI, its credentials or its hosts.
 */
function mongoUriProblem(uri, Client, appName) {
    try {
        new Client(uri, mongoClientOptions(uri, appName));
        return undefined;
    }
    catch (err) {
        const message = redactedMessage(err instanceof Error ? err.message : String(err), uri);
        return new ConfigError('MONGODB_URI', `is not a connection string the MongoDB driver accepts: ${message ?? "the driver's message is withheld because it may quote a credential"}`);
    }
}

;// CONCATENATED MODULE: ./build/server/sync/service/process-settings.js




/** How long a running sync may go on after SIGTERM; the chart's termination grace is longer. */
const DEFAULT_SHUTDOWN_GRACE_SECONDS = 120;
const MAX_SHUTDOWN_GRACE_SECONDS = 86_400;
function graceSeconds(env) {
    const raw = env.SYNC_SHUTDOWN_GRACE_SECONDS?.trim();
    if (!raw)
        return DEFAULT_SHUTDOWN_GRACE_SECONDS;
    if (!/^\d+$/.test(raw) || Number(raw) > MAX_SHUTDOWN_GRACE_SECONDS) {
        throw new ConfigError('SYNC_SHUTDOWN_GRACE_SECONDS', `must be a whole number from 0 to ${MAX_SHUTDOWN_GRACE_SECONDS}`);
    }
    return Number(raw);
}
/**
 * PORT, HOST, LOG_LEVEL, SYNC_SHUTDOWN_GRACE_SECONDS and the syntax of MONGODB_URI, every
 * problem at once. Unlike the sync configuration, these stop the process in either mode: it
 * cannot listen, log or lock without them. `loadDriver` is called only when MONGODB_URI is set
 * (the command-line bundle keeps the driver in a chunk of its own).
 */
async function checkServiceProcess(env, loadDriver) {
    const problems = [];
    const listen = checkListenSettings(env, problems);
    const grace = collect(problems, () => graceSeconds(env));
    const mongoUri = env.MONGODB_URI?.trim() || undefined;
    if (mongoUri) {
        const mongo = mongoUriProblem(mongoUri, (await loadDriver()).MongoClient, LOCKS_APP_NAME);
        if (mongo)
            problems.push(mongo);
    }
    if (!listen || grace === undefined || problems.length > 0)
        return { ok: false, problems };
    return { ok: true, value: { ...listen, graceMs: grace * 1000, ...(mongoUri ? { mongoUri } : {}) } };
}

// EXTERNAL MODULE: ./build/server/http/call-bounds.js
var call_bounds = __webpack_require__(71973);
;// CONCATENATED MODULE: ./build/server/http/api-headers.js
/** Every answer is JSON and none may be cached by an intermediary (tokens and records pass here). */
const API_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
/** `API_HEADERS` on every answer of an Express app. */
const apiHeaders = (_req, res, next) => {
    res.set(API_HEADERS);
    next();
};

// EXTERNAL MODULE: ./build/server/http/errors.js
var errors = __webpack_require__(26924);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(37067);
;// CONCATENATED MODULE: ./build/server/http/client-errors.js



/**
 * The codes answered before any route runs, by every server `apiServer` makes (the minimal
 * broker's vocabulary included): headers over the parser's limit, a request too slow to arrive,
 * and anything else the parser refuses (or an HTTP/1.1 request without `Host`).
 */
const PARSER_ERRORS = {
    invalid_request: errors/* HTTP_ERRORS */.P$.invalid_request,
    request_headers_too_large: errors/* HTTP_ERRORS */.P$.request_headers_too_large,
    request_timeout: errors/* HTTP_ERRORS */.P$.request_timeout,
};
/** What Node's HTTP parser refused, before any route ran: the code, its status from the catalogue. */
function answerFor(parserCode) {
    const error = parserCode === 'HPE_HEADER_OVERFLOW' ? 'request_headers_too_large' : parserCode === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'invalid_request';
    const status = PARSER_ERRORS[error];
    return { status, reason: external_node_http_.STATUS_CODES[status], error };
}
/** The raw answer to a request no route may see: JSON, `no-store`, and the connection closed after it. */
function rawAnswer({ status, reason, error }) {
    const body = JSON.stringify({ error });
    return (`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
}
/**
 * Requests Node's parser refuses (headers over its 16 KB limit, malformed HTTP, a request too
 * slow to arrive) get a JSON error like every other answer, instead of Node's default bare status
 * line. The connection is closed after it: the parser cannot tell where the next request starts.
 *
 * Every complete request is answered first: a pipelined `POST /token` whose mint is still at
 * GitHub when the next request fails to parse gets its token, then the parser's 400 follows (the
 * answer written at once would close the connection under the mint, and the token would be
 * neither delivered nor revoked).
 *
 * One request, one answer: when the parser fails inside the body of a request a route has already
 * answered (a refused credential is answered before the body is read), that answer stands and the
 * connection is closed without a second one.
 */
function answerClientErrors(server) {
    // Per connection: the request it is reading, and the responses not yet finished (in order).
    const connections = new WeakMap();
    // The parser repeats its error on every later chunk of a connection it refused: answered once.
    const refused = new WeakSet();
    server.on('request', (req, res) => {
        let connection = connections.get(req.socket);
        if (!connection)
            connections.set(req.socket, (connection = { unfinished: new Set() }));
        connection.reading = { req, res };
        connection.unfinished.add(res);
        // 'close' follows the last byte handed to the socket, or the socket's end, whichever comes.
        res.once('close', () => {
            connection.unfinished.delete(res);
            // A complete request is not the one a parser error is about: it is let go with its answer,
            // not kept until the connection's next request (a keep-alive client may send none for long).
            if (connection.reading?.req === req && req.complete)
                delete connection.reading;
        });
    });
    server.on('clientError', (err, socket) => {
        if (refused.has(socket))
            return;
        refused.add(socket);
        if (err.code === 'ECONNRESET' || !socket.writable) {
            socket.destroy();
            return;
        }
        const connection = connections.get(socket);
        // An incomplete request is the one whose body failed; a complete one was an earlier request.
        const failed = connection?.reading && !connection.reading.req.complete ? connection.reading : undefined;
        const answer = () => {
            if (!socket.writable)
                socket.destroy();
            else if (failed?.res.headersSent) {
                if (failed.res.writableFinished)
                    socket.end();
                else
                    socket.destroy();
            }
            else
                socket.end(rawAnswer(answerFor(err.code)));
        };
        const earlier = [...(connection?.unfinished ?? [])].filter((res) => res !== failed?.res);
        if (earlier.length === 0)
            return answer();
        let waiting = earlier.length;
        for (const res of earlier)
            res.once('close', () => --waiting === 0 && answer());
    });
}
/**
 * The HTTP server of every Gatehouse process (backend, minimal broker, sync service): `listener`
 * behind the parser's JSON answers above. An HTTP/1.1 request without `Host` must be refused (RFC
 * 9112 §3.2); Node's own refusal is an empty, non-JSON 400, so Node's check is turned off and the
 * request is refused here instead, with `400 invalid_request` like any other malformed request.
 */
function apiServer(listener) {
    const server = (0,external_node_http_.createServer)({ requireHostHeader: false }, (req, res) => {
        if (req.headers.host === undefined && req.httpVersion === '1.1') {
            const body = JSON.stringify({ error: 'invalid_request' });
            res.shouldKeepAlive = false;
            res.writeHead(PARSER_ERRORS.invalid_request, { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
            res.end(body);
            return;
        }
        listener(req, res);
    });
    answerClientErrors(server);
    return server;
}

// EXTERNAL MODULE: ./build/server/sync/connectors.js + 15 modules
var connectors = __webpack_require__(17132);
// EXTERNAL MODULE: ./build/server/sync/defectdojo/client.js + 2 modules
var client = __webpack_require__(22111);
// EXTERNAL MODULE: ./build/server/github/rate-limited-client.js + 16 modules
var rate_limited_client = __webpack_require__(46612);
// EXTERNAL MODULE: ./build/server/github/conditional.js + 1 modules
var github_conditional = __webpack_require__(42839);
// EXTERNAL MODULE: ./build/server/http/retry.js + 2 modules
var http_retry = __webpack_require__(70699);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
;// CONCATENATED MODULE: ./build/server/issues/pacer.js

/**
 * Spaces requests out under GitHub's limits: at least `minIntervalMs` between two, and within
 * every window. Callers queue: concurrent pushes sharing a pacer take their slots one after
 * another (two that looked at the same last stamp used to go out in the same millisecond).
 */
class Pacer {
    clock;
    minIntervalMs;
    windows;
    /** Slots taken within the longest window. */
    stamps = [];
    last;
    queue = Promise.resolve();
    longest;
    constructor(clock, minIntervalMs, windows = []) {
        this.clock = clock;
        this.minIntervalMs = minIntervalMs;
        this.windows = windows;
        this.longest = Math.max(0, ...windows.map((w) => w.ms));
    }
    /** Waits for the next slot; false when a `defer` window is full (the caller defers the work). */
    slot() {
        const turn = this.queue.then(() => this.take());
        this.queue = turn.catch(() => undefined);
        return turn;
    }
    /** Runs alone (queued): after the computed wait the slot is free, as no other taker ran meanwhile. */
    async take() {
        const now = this.clock.now();
        while (this.stamps.length > 0 && this.stamps[0] <= now - this.longest)
            this.stamps.shift();
        let waitMs = 0;
        for (const w of this.windows) {
            const inWindow = this.stamps.filter((t) => t > now - w.ms);
            if (inWindow.length < w.max)
                continue;
            if (w.whenFull === 'defer')
                return false;
            // The slot frees when the oldest stamp that keeps the window full leaves it.
            waitMs = Math.max(waitMs, inWindow[inWindow.length - w.max] + w.ms - now);
        }
        if (this.last !== undefined)
            waitMs = Math.max(waitMs, this.minIntervalMs - (now - this.last));
        if (waitMs > 0)
            await this.clock.sleep(waitMs);
        this.last = this.clock.now();
        if (this.windows.length > 0)
            this.stamps.push(this.last);
        return true;
    }
}
/**
 * GitHub's documented limits for content creation: at most 80 requests a minute and 500 an hour,
 * with at least a second between writes; search allows 30 requests a minute. A full minute is
 * waited for; a full hour defers the rest of the push to a later run.
 */
const GITHUB_PACE = {
    create: {
        minIntervalMs: 1000,
        windows: [
            { ms: 60_000, max: 80, whenFull: 'wait' },
            { ms: 3_600_000, max: 500, whenFull: 'defer' },
        ],
    },
    search: { minIntervalMs: 2000, windows: [{ ms: 60_000, max: 30, whenFull: 'wait' }] },
};
/**
 * The pacers of one GitHub account: GitHub counts content creation per user (per token), so
 * everything in the process that creates issues with one token on one server shares them, across
 * runs and sources. Keyed by server and a hash of the token, so the map keeps no token.
 */
class PacerRegistry {
    clock;
    pacers = new Map();
    constructor(clock) {
        this.clock = clock;
    }
    for(target) {
        const key = `${target.server.toLowerCase()}\n${(0,external_node_crypto_.createHash)('sha256').update(target.token).digest('hex')}`;
        let pacers = this.pacers.get(key);
        if (!pacers) {
            pacers = {
                create: new Pacer(this.clock, GITHUB_PACE.create.minIntervalMs, GITHUB_PACE.create.windows),
                search: new Pacer(this.clock, GITHUB_PACE.search.minIntervalMs, GITHUB_PACE.search.windows),
            };
            this.pacers.set(key, pacers);
        }
        return pacers;
    }
}

;// CONCATENATED MODULE: ./build/server/issues/push-locks.js
/** Another push held a key longer than the wait. */
class PushLockTimeout extends Error {
    name = 'PushLockTimeout';
}
/**
 * The keys of issue push in the locks the runs use (`sync_locks` with MONGODB_URI): one per
 * DefectDojo product, one per GitHub repository. Names are compared without case, as GitHub
 * compares repository names (so two spellings of one product cannot push side by side).
 */
const productKey = (product) => `issue-push:product:${product.toLowerCase()}`;
const repositoryKey = (server, fullName) => `issue-push:repository:${server.toLowerCase()} ${fullName.toLowerCase()}`;
/**
 * Holds every key, taken in sorted order so two pushes that want overlapping keys never each hold
 * what the other waits for; a held key is tried again every `pollMs` up to `waitMs`. Callers take
 * all product keys before any repository key. On a timeout, what was taken is released again.
 */
async function holdKeys(locks, keys, holder, options) {
    const leases = [];
    const release = async () => {
        // Every lease is released even when one release fails; a Mongo lease left behind expires.
        await Promise.allSettled(leases.splice(0).reverse().map((l) => l.release()));
    };
    const deadline = options.clock.now() + options.waitMs;
    try {
        for (const key of [...new Set(keys)].sort()) {
            for (;;) {
                const lease = await locks.acquire(key, holder);
                if (lease) {
                    leases.push(lease);
                    break;
                }
                if (options.clock.now() >= deadline)
                    throw new PushLockTimeout(`another issue push held ${key} for longer than ${Math.round(options.waitMs / 1000)} s`);
                await options.clock.sleep(options.pollMs);
            }
        }
    }
    catch (err) {
        await release();
        throw err;
    }
    return release;
}
/** How long a push waits for another push of the same product or repository, and how often it looks. */
const DEFAULT_PUSH_LOCK_WAIT = { waitMs: 15 * 60_000, pollMs: 2000 };

// EXTERNAL MODULE: ./build/server/http/call-errors.js
var call_errors = __webpack_require__(90515);
// EXTERNAL MODULE: ./build/server/errors.js
var server_errors = __webpack_require__(27227);
// EXTERNAL MODULE: ./build/server/issues/finding.js
var issues_finding = __webpack_require__(3206);
// EXTERNAL MODULE: ./build/server/github/targets.js
var github_targets = __webpack_require__(76974);
// EXTERNAL MODULE: ./build/server/github/identifiers.js
var identifiers = __webpack_require__(93032);
;// CONCATENATED MODULE: ./build/server/http/control-characters.js
/**
 * The server's one "no control character" rule (`/sign` paths and branch, ledger text and links).
 *
 * Refused: Unicode general category Cc, which is C0 (U+0000–U+001F), DEL (U+007F) and C1
 * (U+0080–U+009F: NEL U+0085 breaks lines, CSI U+009B starts terminal escape sequences); and the
 * line and paragraph separators, categories Zl and Zp (U+2028, U+2029), which break a line like
 * `\n` does (Unicode line breaking and JavaScript both treat them as line terminators). A line
 * break inside one field of a chat message or log line is what this rule exists to prevent.
 *
 * Allowed: format characters (Cf: bidi controls, zero-width joiners, soft hyphen). Ordinary text
 * needs them (emoji sequences, Persian and Indic names, mixed-direction text) and they break no
 * line; refusing them would be a different rule about how text displays.
 */
const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const CONTROL_RUNS = new RegExp(`${CONTROL.source}+`, 'gu');
/** Whether `s` holds a control character in the sense above. One class, no quantifier: linear. */
const hasControlCharacter = (s) => CONTROL.test(s);
/** `s` with each run of control characters in the sense above made one space: text for one line. */
const spaceControlCharacters = (s) => s.replace(CONTROL_RUNS, ' ');

;// CONCATENATED MODULE: ./build/server/markdown.js
/**
 * Data as Markdown text: the one place that decides how text the product did not write (a
 * scanner's message, a file name, an environment name, a product name, an error a peer sent)
 * goes into the Markdown GitHub renders (job summaries, pull-request and review comments, issue
 * bodies) or into text GitHub links up (issue titles).
 *
 * What data must not do there: make HTML (`<img>` is a tracking pixel, `<details>` hides text,
 * raw HTML restyles the page), mention anyone (`@user`, `@org/team` notify), cross-reference an
 * issue (`#123`, `owner/repo#123` leave a "mentioned this" on it), make a link or an image of its
 * own, or break the surrounding structure (a `|` ends a table cell, a line break ends the block,
 * a backtick opens a code span). What it may still do: show every character it holds. So:
 * - `<`, `>`, `&` become character references: GitHub shows them, and no tag can form;
 * - a zero-width space goes after each `@` and `#`, and inside `GH-` before a number: shown the
 *   same, but no mention or reference;
 * - `\`, `` ` ``, `|`, `[`, `]`, `!` get a backslash: shown as themselves, with no code span,
 *   cell boundary, link or image (`!` too, so that a `!` of the data cannot turn a link the
 *   product keeps into an image);
 * - line breaks (and the other control characters) become spaces: inline text stays inline.
 * Emphasis characters (`*`, `_`, `~`) are left alone: at most they make text bold or struck,
 * and escaping them would make rule ids and `snake_case` names harder to search for. At the
 * start of the text, what would open a block (`- `, `1. `, `***`, `~~~`) is escaped too, since the
 * product puts data at the start of a line (a review comment's message). A bare URL still becomes
 * a link (GitHub links them, and one to an issue still references it).
 */

const MARKDOWN_PUNCTUATION = /[\\`|[\]!]/g;
const REFERENCES = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };
/** Text GitHub renders as it is (an issue title): no mention, no issue reference, one line. */
const plainText = (data) => spaceControlCharacters(data)
    .replace(/[@#]/g, '$&\u200b')
    .replace(/(gh)-(?=\d)/gi, '$1\u200b-');
/** Each character of `data` as itself: nothing it holds builds HTML, a mention, a link or a span. */
const escaped = (data) => plainText(data)
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .replace(/[<>&]/g, (c) => REFERENCES[c]);
/**
 * Inline Markdown made safe at the start of a line, where the product puts data (a review
 * comment's message): what would open a block instead (a list, a rule, a fence, an indented code
 * block) has its marker escaped; the leading spaces, which HTML does not show, are dropped.
 */
const atLineStart = (markdown) => markdown
    .replace(/^\s+/, '')
    // A bullet, a rule (`***`, `- - -`, `___`), a `~~~` fence, a setext underline.
    .replace(/^([-+*](?=\s|$)|([-*_])(?=[ \t]*\2[ \t]*\2)|~(?=~~)|=(?==*[ \t]*$))/, '\\$1')
    // An ordered list's `1.` or `1)`.
    .replace(/^(\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
/** Data as inline Markdown text, in a paragraph, a heading, a list item or a table cell: shown as it is, doing nothing. */
const inlineText = (data) => atLineStart(escaped(data));
/**
 * Data as a code span (a path, a rule id, a component), outside a table: a fence of backticks
 * longer than any run inside, so the span cannot end early. Inside a code span nothing renders
 * (no HTML, no mention), so nothing else is escaped.
 */
function codeSpan(data) {
    const text = spaceControlCharacters(data);
    const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    // A space each side keeps a backtick at either end from joining the fence, and a space of the
    // data at either end from being stripped: CommonMark strips one space each side when both have one.
    const pad = /^[` ]|[` ]$/.test(text) || text === '' ? ' ' : '';
    return `${fence}${pad}${text}${pad}${fence}`;
}
/**
 * A code span inside a table cell: GitHub splits the row at every `|` not escaped by a
 * backslash, code spans included, and reads `\\` as an escaped backslash first. So each `|`
 * gets a backslash and the data's backslashes right before it are doubled: the cell holds, and
 * such a backslash shows twice (a code span cannot show `\|` in a cell otherwise).
 */
const codeSpanInCell = (data) => codeSpan(data).replace(/(\\*)\|/g, (_, slashes) => `${slashes}${slashes}\\|`);
/**
 * A link of the product's own making to a URL it built: the label is data, the URL's characters
 * that could end the destination (`(`, `)`, spaces, `<`, `>`) are percent-encoded.
 */
function markdown_link(label, url) {
    const destination = url.replace(/[()\s<>|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    return `[${inlineText(label)}](${destination})`;
}
/**
 * A SARIF result's `message.text` as Markdown. SARIF 2.1.0 (§3.11.6) lets a plain-text message
 * carry embedded links, `[text](target)`, whose target is a URI or the id of one of the result's
 * `relatedLocations` (a whole number), and escapes a literal bracket as `\[` `\]`. Those links
 * are the scanner's own format and stay links (http and https targets, and ids, kept as the
 * scanner wrote them); everything else is data (`inlineText`), the link texts included, so a
 * message can make no image, no HTML and no mention, and a link only to an http(s) address.
 */
function scannerMessage(message) {
    const parts = [];
    const embedded = /\\([[\]])|\[((?:[^[\]\\]|\\[[\]\\])*)\]\((https?:\/\/[^\s()<>|\\`]+|\d+)\)/g;
    let at = 0;
    for (const m of message.matchAll(embedded)) {
        parts.push(escaped(message.slice(at, m.index)));
        if (m[1] !== undefined)
            parts.push(escaped(m[1]));
        else
            parts.push(`[${escaped(m[2].replace(/\\([[\]\\])/g, '$1'))}](${m[3]})`);
        at = m.index + m[0].length;
    }
    parts.push(escaped(message.slice(at)));
    return atLineStart(parts.join(''));
}

;// CONCATENATED MODULE: ./build/server/issues/issue-text.js

/** The label every pushed issue carries; issue push lists a repository's issues by it. */
const ISSUE_LABEL = 'gatehouse';
const TITLE_MAX = 256;
const QUOTE_MAX = 3000;
function identifierLink(id) {
    if (/^CVE-\d{4}-\d+$/i.test(id))
        return `[${id}](https://nvd.nist.gov/vuln/detail/${id.toUpperCase()})`;
    if (/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/i.test(id))
        return `[${id}](https://github.com/advisories/${id})`;
    return codeSpan(id);
}
/**
 * Scanner text goes into a fenced block: no @mention notifies anyone, no #123 links an unrelated
 * issue and no markup breaks the body. The fence is longer than any backtick run inside.
 */
function quoted(text) {
    const cut = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}\n… (cut; the whole text is in DefectDojo)` : text;
    const longest = Math.max(2, ...[...cut.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}text\n${cut}\n${fence}`;
}
/** The id a reader searches by: a CVE, else a GitHub advisory, else the first one. */
function primaryId(ids) {
    return ids.find((id) => /^CVE-/i.test(id)) ?? ids.find((id) => /^GHSA-/i.test(id)) ?? ids[0];
}
/** The secret type GitHub named, as DefectDojo's secret-scanning parser writes it into the description. */
const SECRET_TYPE = /^\*\*Secret Type\*\*: (.+)$/m;
/**
 * What the issue is about, from the fields DefectDojo keeps as the source gave them, never its
 * title, which DefectDojo title-cases on save (`(Py/Path-Injection #34)`):
 * - a package finding (Dependency-Track, Dependabot): `<CVE or advisory> in <package> <version>`;
 * - a code finding (code scanning, secret scanning, SonarQube): `<rule id, secret type or message> in <file>:<line>`;
 * - otherwise its vulnerability id, or its DefectDojo id.
 */
function subjectOf(finding) {
    const id = primaryId(finding.vulnerabilityIds);
    if (finding.componentName)
        return `${id ?? finding.vulnIdFromTool ?? `finding ${finding.id}`} in ${[finding.componentName, finding.componentVersion].filter(Boolean).join(' ')}`;
    if (finding.filePath) {
        const secret = SECRET_TYPE.exec(finding.description ?? '')?.[1]?.trim();
        const message = finding.description?.split('\n')[0]?.trim();
        const what = secret ? `Secret: ${secret}` : (finding.vulnIdFromTool ?? id ?? (message ? message.slice(0, 120) : undefined) ?? (finding.cwe ? `CWE-${finding.cwe}` : `finding ${finding.id}`));
        return `${what} in ${finding.filePath}${finding.line ? `:${finding.line}` : ''}`;
    }
    return id ?? finding.vulnIdFromTool ?? `DefectDojo finding ${finding.id}`;
}
/** Title, body and labels of the issue of one finding; the body ends with the finding's hash. */
function issueText(finding, hash, findingUrl) {
    const component = [finding.componentName, finding.componentVersion].filter(Boolean).join(' ');
    const location = finding.filePath ? `${codeSpan(finding.filePath)}${finding.line ? ` line ${finding.line}` : ''}` : undefined;
    const identifiers = [...finding.vulnerabilityIds.map(identifierLink), ...(finding.cwe ? [`[CWE-${finding.cwe}](https://cwe.mitre.org/data/definitions/${finding.cwe}.html)`] : [])];
    const facts = [
        `**Severity:** ${finding.severity}`,
        ...(component ? [`**Component:** ${codeSpan(component)}`] : []),
        ...(location ? [`**Location:** ${location}`] : []),
        ...(identifiers.length ? [`**Identifiers:** ${identifiers.join(', ')}`] : []),
        `**DefectDojo:** [finding ${finding.id}](${findingUrl}) in product ${codeSpan(finding.product)}`,
    ];
    const sections = [
        facts.join('  \n'),
        ...(finding.description ? [`<details><summary>Description</summary>\n\n${quoted(finding.description)}\n\n</details>`] : []),
        ...(finding.mitigation ? [`<details><summary>Mitigation</summary>\n\n${quoted(finding.mitigation)}\n\n</details>`] : []),
        `---\n<sub>Opened by Gatehouse issue push for an active ${finding.severity} finding. Fix it and the next sync closes the finding in DefectDojo. Gatehouse finding: ${codeSpan(hash)}</sub>`,
    ];
    // GitHub links `#34` and `@scope` in a title as it does in a body: the scanner's text is made inert.
    const title = plainText(`${finding.severity}: ${subjectOf(finding)}`).replace(/\s+/g, ' ').trim();
    return {
        title: title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title,
        body: sections.join('\n\n'),
        labels: ['security', ISSUE_LABEL, `severity:${finding.severity.toLowerCase()}`],
    };
}
/** Whether an issue body carries this finding hash. */
function bodyHasHash(body, hash) {
    return typeof body === 'string' && body.includes(`Gatehouse finding: \`${hash}\``);
}

;// CONCATENATED MODULE: ./build/server/issues/github-issues.js




/**
 * The repository of a DefectDojo product: the product (project) name read as `owner/name`, looked
 * up on each target that lists the owner, the public platform first, then enterprise instances.
 * A repository GitHub shows under an owner the target does not list (moved there) is not it.
 */
async function resolveRepository(product, targets, clientFor) {
    const named = (0,identifiers/* parseFullName */.St)(product.trim());
    if (!named)
        return undefined;
    const { owner, name } = named;
    for (const target of targets) {
        if (!(0,github_targets/* listsOwner */.N_)(target, owner))
            continue;
        const client = clientFor(target);
        try {
            const { data } = await client.request('GET /repos/{owner}/{repo}', { owner, repo: name });
            if (!(0,github_targets/* listsOwner */.N_)(target, data.owner.login) || !(0,identifiers/* isRepositoryPair */.J4)(data.owner.login, data.name))
                continue;
            return {
                target,
                client,
                owner: data.owner.login,
                name: data.name,
                fullName: data.full_name,
                hasIssues: data.has_issues !== false,
                canPush: data.permissions?.push !== false,
            };
        }
        catch (err) {
            // Missing here (or not visible to this token): the next target may hold it.
            if (err instanceof call_errors/* HttpError */.j$ && err.status === 404)
                continue;
            throw err;
        }
    }
    return undefined;
}
const HASH_IN_BODY = /Gatehouse finding: `([0-9a-f]{32})`/;
/**
 * The repository's issues (open or closed) by finding hash: those with the Gatehouse label, or
 * with `labelled: false` every issue, for issues whose label GitHub dropped. The listing reads
 * GitHub's database, so unlike search it holds an issue from the moment it is created.
 */
async function issuesByHash(repo, { labelled }) {
    const found = new Map();
    const pages = repo.client.paginate.iterator('GET /repos/{owner}/{repo}/issues', {
        owner: repo.owner,
        repo: repo.name,
        ...(labelled ? { labels: ISSUE_LABEL } : {}),
        state: 'all',
        per_page: 100,
    });
    for await (const { data } of pages) {
        for (const issue of data) {
            if (issue.pull_request)
                continue;
            const hash = HASH_IN_BODY.exec(issue.body ?? '')?.[1];
            if (hash && !found.has(hash))
                found.set(hash, issue.html_url);
        }
    }
    return found;
}
/**
 * The spec's fallback: an issue whose body carries the hash, found by GitHub's search, for
 * issues that lost the label. Search lags issue creation, which the labelled listing covers.
 */
async function searchIssue(repo, hash) {
    const { data } = await repo.client.request('GET /search/issues', {
        q: `repo:${repo.fullName} is:issue in:body "${hash}"`,
        advanced_search: 'true',
        per_page: 10,
    });
    return data.items.find((item) => !item.pull_request && bodyHasHash(item.body, hash))?.html_url;
}
/**
 * A write to GitHub made at most once. The client does not repeat a POST or PATCH whose answer was
 * lost (no answer once sent, or a 5xx): GitHub may have made it. `lookAgain` reads GitHub's state
 * to find it: found, the write stands (`found: true`); not found, the failure stands, and the next
 * run, which looks before it writes, tries again. Any other failure is thrown as it came.
 */
async function writeOnce(write, lookAgain) {
    try {
        return { value: await write(), found: false };
    }
    catch (err) {
        if (!(0,call_errors/* mayHaveActed */.LR)(err))
            throw err;
        const found = await lookAgain().catch(() => undefined);
        if (found === undefined)
            throw err;
        return { value: found, found: true };
    }
}
async function createIssue(repo, text) {
    const { data } = await repo.client.request('POST /repos/{owner}/{repo}/issues', { owner: repo.owner, repo: repo.name, title: text.title, body: text.body, labels: [...text.labels] });
    const given = new Set(data.labels.map((l) => (typeof l === 'string' ? l : l.name)).filter((n) => typeof n === 'string').map((n) => n.toLowerCase()));
    return { url: data.html_url, droppedLabels: text.labels.filter((l) => !given.has(l.toLowerCase())) };
}
/**
 * The issue of an `issue:` tag's URL (`<server>/<owner>/<repo>/issues/<n>`, lowercased by
 * DefectDojo; GitHub compares owner and repository names without case), on the first target
 * whose server it starts with; undefined when no target serves it or the owner or name is not
 * one GitHub allows (`..` among them). Which issue a finding may change is `inScope`'s decision.
 */
function issueRefOf(url, targets) {
    for (const target of targets) {
        const base = `${target.server.toLowerCase()}/`;
        if (!url.toLowerCase().startsWith(base))
            continue;
        const match = /^([^/]+)\/([^/]+)\/issues\/([1-9]\d{0,11})$/.exec(url.slice(base.length));
        if (match && (0,identifiers/* isRepositoryPair */.J4)(match[1], match[2]))
            return { target, owner: match[1], repo: match[2], number: Number(match[3]) };
    }
    return undefined;
}
/**
 * Whether an issue is one issue push may have opened for a product: in the repository the product
 * resolves to (or its own `owner/name`, the name it had when the issue was opened), on the same
 * target. A tag is data anyone who can edit a finding may write: it never chooses another repository.
 */
function inScope(ref, product, repository) {
    const named = `${ref.owner}/${ref.repo}`;
    return ref.target === repository.target && ((0,identifiers/* sameFullName */.hm)(named, repository.fullName) || (0,identifiers/* sameFullName */.hm)(named, product.trim()));
}
/** The path parameters of an issue's routes. */
const issuePath = (ref) => ({ owner: ref.owner, repo: ref.repo, issue_number: ref.number });
async function issueState(client, ref) {
    const { data } = await client.request('GET /repos/{owner}/{repo}/issues/{issue_number}', issuePath(ref));
    const closedAt = data.closed_at ? new Date(data.closed_at) : undefined;
    return {
        state: data.state === 'closed' ? 'closed' : 'open',
        htmlUrl: data.html_url,
        ...(closedAt && !Number.isNaN(closedAt.getTime()) ? { closedAt } : {}),
        ...(data.updated_at ? { updatedAt: data.updated_at } : {}),
    };
}
async function commentOnIssue(client, ref, body) {
    await client.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...issuePath(ref), body });
}
/** Whether the issue has a comment with exactly this body, written at or after `since` (GitHub's clock). */
async function hasComment(client, ref, body, since) {
    const pages = client.paginate.iterator('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        ...issuePath(ref),
        ...(since ? { since } : {}),
        per_page: 100,
    });
    for await (const { data } of pages)
        if (data.some((comment) => comment.body === body))
            return true;
    return false;
}
/** Closes (with GitHub's `state_reason`) or reopens the issue. */
async function setIssueState(client, ref, state, stateReason) {
    await client.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
        ...issuePath(ref),
        state,
        ...(stateReason ? { state_reason: stateReason } : {}),
    });
}

;// CONCATENATED MODULE: ./build/server/issues/issue-index.js



/**
 * What one push knows of a repository's Gatehouse issues, by finding hash. It starts from the
 * labelled listing; search covers issues that lost their label. When labels cannot be relied on
 * (the token cannot push, or GitHub's answer to a creation lacked them) or search is out of
 * budget, it lists every issue of the repository instead: that listing is complete and, unlike
 * search, never lags behind creation.
 */
class IssueIndex {
    repo;
    search;
    log;
    known;
    /** Every issue of the repository was listed: a miss is a real miss, no search needed. */
    complete = false;
    constructor(repo, search, log) {
        this.repo = repo;
        this.search = search;
        this.log = log;
    }
    /** The issue of this finding hash, if the repository has one. */
    async find(hash) {
        const known = await this.listing();
        const hit = known.get(hash);
        if (hit || this.complete)
            return hit;
        try {
            await this.search.slot();
            return await searchIssue(this.repo, hash);
        }
        catch (err) {
            if (!(err instanceof rate_limited_client/* RateLimitExhausted */.Nq) || err.resource !== 'search')
                throw err;
            this.log.warn({ repository: this.repo.fullName, err: (0,server_errors/* message */.iU)(err) }, 'issue push: the search budget is spent; every issue of the repository is listed instead');
            await this.listEverything();
            return this.known.get(hash);
        }
    }
    /**
     * The issue of this finding hash, from a listing of every issue of the repository made now: for
     * a creation whose answer was lost (the listing holds an issue from the moment it exists).
     */
    async lookAgain(hash) {
        await this.listEverything();
        return this.known.get(hash);
    }
    /** An issue this push created or linked. */
    record(hash, url) {
        this.known?.set(hash, url);
    }
    /** GitHub's answer to a creation lacked labels asked for: from now on the listing covers every issue. */
    async labelsDropped(dropped) {
        if (this.complete)
            return;
        this.log.warn({ repository: this.repo.fullName, dropped }, 'issue push: GitHub dropped the labels of a new issue (the token cannot push to the repository); issues are found by the hash in their body');
        await this.listEverything();
    }
    async listing() {
        if (this.known)
            return this.known;
        // A token that cannot push gets issues without labels: then every issue is listed.
        this.known = await issuesByHash(this.repo, { labelled: this.repo.canPush });
        if (!this.repo.canPush)
            this.complete = true;
        return this.known;
    }
    async listEverything() {
        const all = await issuesByHash(this.repo, { labelled: false });
        const known = this.known ?? new Map();
        for (const [hash, url] of all)
            if (!known.has(hash))
                known.set(hash, url);
        this.known = known;
        this.complete = true;
    }
}

// EXTERNAL MODULE: ./node_modules/p-limit/index.js + 1 modules
var p_limit = __webpack_require__(70370);
;// CONCATENATED MODULE: ./build/server/issues/per-product.js



/** Products listed at once. */
const LISTING_CONCURRENCY = 4;
/**
 * What `list` pages hold for each product, read by `read` (undefined: left out), in product order:
 * a few products at once, each listing retried while its failure may pass. A product that still
 * cannot be listed is warned about (`what` names the listing), counted by `onFailure`, and adds nothing.
 */
async function perProduct(products, deps, what, list, read, onFailure) {
    const limit = (0,p_limit/* default */.A)(LISTING_CONCURRENCY);
    const found = await Promise.all(products.map((product) => limit(async () => {
        try {
            return await (0,call_errors/* retryTransient */.jh)(async () => {
                const items = [];
                for await (const page of list(product)) {
                    for (const raw of page) {
                        const item = read(product, raw);
                        if (item !== undefined)
                            items.push(item);
                    }
                }
                return items;
            }, deps.retry);
        }
        catch (err) {
            onFailure();
            deps.log.warn({ product, err: (0,server_errors/* message */.iU)(err) }, `${what} could not be listed`);
            return [];
        }
    })));
    return found.flat();
}

;// CONCATENATED MODULE: ./build/server/issues/finding-status.js

/**
 * The reason a person reads first: the triage decisions (false positive, out of scope, risk
 * accepted, duplicate) before `is_mitigated`, which DefectDojo also sets for a false positive or an
 * out-of-scope finding. A finding closed by a reimport (`close_old_findings`) is mitigated.
 */
function reasonOf(f) {
    if (f.false_p === true)
        return 'false_positive';
    if (f.out_of_scope === true)
        return 'out_of_scope';
    if (f.risk_accepted === true)
        return 'risk_accepted';
    if (f.duplicate === true)
        return 'duplicate';
    if (f.is_mitigated === true)
        return 'mitigated';
    return 'inactive';
}
/** A finding of the linked-findings list, or undefined when it lacks an id or an issue tag. */
function readLinkedFinding(product, raw) {
    if (!raw || typeof raw !== 'object')
        return undefined;
    const f = raw;
    if (typeof f.id !== 'number')
        return undefined;
    const tags = Array.isArray(f.tags) ? f.tags.filter((t) => typeof t === 'string') : [];
    const issueUrls = tags.filter((t) => t.toLowerCase().startsWith(issues_finding/* ISSUE_TAG */.BP)).map((t) => t.slice(issues_finding/* ISSUE_TAG */.BP.length));
    if (issueUrls.length === 0)
        return undefined;
    const active = f.active === true;
    const stamp = typeof f.last_status_update === 'string' ? new Date(f.last_status_update) : undefined;
    return {
        id: f.id,
        product,
        issueUrls,
        active,
        ...(active ? {} : { reason: reasonOf(f) }),
        ...(stamp && !Number.isNaN(stamp.getTime()) ? { lastStatusUpdate: stamp } : {}),
    };
}
/** GitHub's `state_reason` for closing the issue of a finding inactive for this reason: only a fix is `completed`. */
function stateReasonFor(reason) {
    return reason === 'mitigated' ? 'completed' : 'not_planned';
}
const SAID = {
    mitigated: 'is mitigated (fixed, or no longer reported by its scanner)',
    false_positive: 'is marked as a false positive',
    out_of_scope: 'is marked as out of scope',
    risk_accepted: 'has its risk accepted',
    duplicate: 'is marked as a duplicate of another finding',
    inactive: 'is no longer active',
};
/** The comment written before the issue is closed. */
function closingComment(finding, findingUrl) {
    return `Closed by Gatehouse: [DefectDojo finding ${finding.id}](${findingUrl}) ${SAID[finding.reason ?? 'inactive']}. If the finding becomes active again, the next sync reopens this issue.`;
}
/** The comment written before the issue is reopened. */
function reopeningComment(finding, findingUrl) {
    const when = finding.lastStatusUpdate ? ` on ${finding.lastStatusUpdate.toISOString()}` : '';
    return `Reopened by Gatehouse: [DefectDojo finding ${finding.id}](${findingUrl}) became active again${when}, after this issue was closed.`;
}

;// CONCATENATED MODULE: ./build/server/issues/lifecycle.js




/** What the issue of `finding` needs, if anything; `kept` when a closed issue stays closed. */
function decide(finding, issue) {
    if (!finding.active)
        return issue.state === 'open' ? 'close' : 'none';
    if (issue.state === 'open')
        return 'none';
    // Reopened only when DefectDojo changed the finding's status after the issue was closed: an issue
    // closed by hand while its finding stayed active stays closed until the finding is closed and
    // re-activated. Both times are the servers' own clocks (GitHub's in whole seconds).
    return finding.lastStatusUpdate && issue.closedAt && finding.lastStatusUpdate.getTime() > issue.closedAt.getTime() ? 'reopen' : 'kept';
}
/**
 * Issue lifecycle for the products of a run: for every finding issue push linked to an issue (its
 * `issue:` tag), the issue is closed with a comment when the finding is no longer active
 * (`state_reason` completed when mitigated, not_planned for a false positive, out of scope, risk
 * accepted or duplicate) and reopened with a comment when the finding is active again after the
 * issue was closed. Every write takes a slot of the account's content-creation pacer, as creation
 * does. Running it twice changes nothing the second time: each change is read back from GitHub's
 * and DefectDojo's own state.
 */
async function followIssues(products, deps) {
    const counts = { closed: 0, reopened: 0, keptClosed: 0, failed: 0, deferred: 0, outOfScope: 0 };
    const changes = [];
    const linked = await inScopeLinks(await linkedFindings(products, deps, counts), deps, counts);
    for (const { url, finding, ref } of byIssue(linked)) {
        try {
            const issue = await issueState(deps.clientFor(ref.target), ref);
            const decision = decide(finding, issue);
            if (decision === 'kept')
                counts.keptClosed++;
            else if (decision !== 'none')
                changes.push({ kind: decision, finding, ref, url: issue.htmlUrl, ...(issue.updatedAt ? { updatedAt: issue.updatedAt } : {}) });
        }
        catch (err) {
            counts.failed++;
            deps.log.warn({ finding: finding.id, product: finding.product, issue: url, err: (0,server_errors/* message */.iU)(err) }, 'issue lifecycle: issue could not be read; the next run tries again');
        }
    }
    for (const [index, change] of changes.entries()) {
        if (counts.closed + counts.reopened >= deps.maxChangesPerRun) {
            counts.deferred = changes.length - index;
            deps.log.info({ deferred: counts.deferred, max_issues_per_run: deps.maxChangesPerRun }, 'issue lifecycle: per-run cap reached; the rest waits for the next run');
            break;
        }
        const outcome = await apply(change, deps);
        if (outcome === 'deferred') {
            counts.deferred = changes.length - index;
            deps.log.warn({ deferred: counts.deferred }, 'issue lifecycle: hourly content-creation budget spent; the rest waits for a later run');
            break;
        }
        if (outcome === 'failed')
            counts.failed++;
        else if (change.kind === 'close')
            counts.closed++;
        else
            counts.reopened++;
    }
    return counts;
}
/**
 * The comment, then the state change, each in a paced slot. A comment whose answer was lost is not
 * written again but looked for among the issue's comments since it was read (`writeOnce`). A
 * failure between them leaves the comment; the next run writes both again.
 */
async function apply(change, deps) {
    const { finding, ref } = change;
    const client = deps.clientFor(ref.target);
    const pacer = deps.pacersFor(ref.target).create;
    const findingUrl = `${deps.defectDojoUrl}/finding/${finding.id}`;
    try {
        if (!(await pacer.slot()))
            return 'deferred';
        const comment = change.kind === 'close' ? closingComment(finding, findingUrl) : reopeningComment(finding, findingUrl);
        await writeOnce(async () => {
            await commentOnIssue(client, ref, comment);
            return true;
        }, async () => ((await hasComment(client, ref, comment, sinceRead(change.updatedAt))) ? true : undefined));
        if (!(await pacer.slot()))
            return 'deferred';
        if (change.kind === 'close')
            await setIssueState(client, ref, 'closed', stateReasonFor(finding.reason ?? 'inactive'));
        else
            await setIssueState(client, ref, 'open');
        deps.log.info({ finding: finding.id, product: finding.product, issue: change.url, ...(finding.reason ? { reason: finding.reason } : {}) }, change.kind === 'close' ? 'issue closed' : 'issue reopened');
        return 'done';
    }
    catch (err) {
        deps.log.warn({ finding: finding.id, product: finding.product, issue: change.url, err: (0,server_errors/* message */.iU)(err) }, `issue lifecycle: issue not ${change.kind === 'close' ? 'closed' : 'reopened'}; the next run tries again`);
        return 'failed';
    }
}
/**
 * From a second before the issue's `updated_at` as read: GitHub's `since` is documented as "after
 * the given time", and a comment may be written within the second the issue was last updated.
 */
function sinceRead(updatedAt) {
    const ms = updatedAt === undefined ? NaN : Date.parse(updatedAt);
    return Number.isFinite(ms) ? new Date(ms - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
}
/**
 * The finding-to-issue links issue lifecycle may act on: each tag's issue must lie in the
 * repository its finding's product resolves to, as issue push resolves it (`inScope`). Every other
 * tag (crafted, or copied from another product) is skipped, counted and warned about by finding
 * id, never by its value. A product whose repository lookup fails counts as one failure.
 */
async function inScopeLinks(findings, deps, counts) {
    const repositories = new Map();
    for (const product of new Set(findings.map((f) => f.product))) {
        if (deps.resolved?.has(product)) {
            repositories.set(product, deps.resolved.get(product));
            continue;
        }
        try {
            repositories.set(product, await resolveRepository(product, deps.targets, deps.clientFor));
        }
        catch (err) {
            counts.failed++;
            repositories.set(product, 'failed');
            deps.log.warn({ product, err: (0,server_errors/* message */.iU)(err) }, 'issue lifecycle: repository lookup failed; the next run tries again');
        }
    }
    const links = [];
    for (const finding of findings) {
        const repository = repositories.get(finding.product);
        if (repository === 'failed')
            continue;
        for (const url of new Set(finding.issueUrls)) {
            const ref = issueRefOf(url, deps.targets);
            if (ref && repository && inScope(ref, finding.product, repository)) {
                links.push({ url, finding, ref });
                continue;
            }
            counts.outOfScope++;
            deps.log.warn({ finding: finding.id, product: finding.product }, "issue lifecycle: the finding's issue tag names an issue outside its product's repository; skipped (out of scope)");
        }
    }
    return links;
}
/**
 * Each issue once, with the finding that decides it: when several findings carry one issue (a
 * finding re-created by a reimport and linked again), an active one (the latest changed) keeps the
 * issue open; otherwise the latest changed inactive one says why it closes.
 */
function byIssue(links) {
    const time = (f) => f.lastStatusUpdate?.getTime() ?? 0;
    const chosen = new Map();
    for (const link of links) {
        const { finding } = link;
        const held = chosen.get(link.url)?.finding;
        if (!held || (finding.active && !held.active) || (finding.active === held.active && time(finding) > time(held)))
            chosen.set(link.url, link);
    }
    return [...chosen.values()];
}
/** The linked findings of the products, in product and id order; a product that cannot be listed counts as one failure. */
function linkedFindings(products, deps, counts) {
    return perProduct(products, deps, 'issue lifecycle: linked findings', (product) => deps.defectDojo.linkedFindings(product), (product, raw) => readLinkedFinding(product, raw), () => counts.failed++);
}

;// CONCATENATED MODULE: ./build/server/issues/push.js










/** Untagged active findings at or above the threshold, across the products, worst first. */
async function candidates(products, deps, failures) {
    const severities = (0,issues_finding/* severitiesFrom */.M6)(deps.minSeverity);
    const found = await perProduct(products, deps, 'issue push: findings', (product) => deps.defectDojo.openFindings(product, severities), (product, raw) => {
        const finding = (0,issues_finding/* readFinding */.Gd)(product, raw);
        // The query already filters; this holds even where a filter is ignored.
        return finding && finding.active && severities.includes(finding.severity) && !(0,issues_finding/* hasIssueTag */.Io)(finding) ? finding : undefined;
    }, () => failures.count++);
    return found.sort((a, b) => (0,issues_finding/* severityRank */.qs)(a.severity) - (0,issues_finding/* severityRank */.qs)(b.severity) || a.product.localeCompare(b.product) || a.id - b.id);
}
/**
 * Issue push for the products a run touched: one GitHub issue per active finding at or above
 * `minSeverity` that has no `issue:` tag, then the tag, at once. Pushes exclude each other per
 * product and per repository (another push's findings are listed only after it tagged them), and
 * before creating, the finding's hash is looked up among the repository's issues (see
 * `IssueIndex`), so a crash between creating and tagging, a reimport that dropped the tag, or a
 * token whose labels GitHub drops never opens a second issue; nor does a creation whose answer
 * was lost: it is not made again, but looked for by its hash (`writeOnce`). Then, under the same product locks,
 * the issues opened before follow their findings (`followIssues`: closed, reopened).
 */
async function pushIssues(products, deps) {
    const failures = { count: 0 };
    const counts = { opened: 0, relinked: 0, deferred: 0, unresolved: 0 };
    let lifecycle = { closed: 0, reopened: 0, keptClosed: 0, failed: 0, deferred: 0, outOfScope: 0 };
    const report = () => ({
        opened: counts.opened,
        relinked: counts.relinked,
        failed: failures.count + lifecycle.failed,
        deferred: counts.deferred + lifecycle.deferred,
        unresolved: counts.unresolved,
        closed: lifecycle.closed,
        reopened: lifecycle.reopened,
        keptClosed: lifecycle.keptClosed,
        outOfScope: lifecycle.outOfScope,
    });
    if (deps.maxIssuesPerRun === 0 || products.length === 0)
        return report();
    const unique = [...new Set(products)];
    const holder = (0,external_node_crypto_.randomUUID)();
    const held = await holding(deps, unique.map(productKey), holder, { products: unique });
    if (!held)
        return { ...report(), failed: 1 };
    // One client per target for the whole push, so its rate-limit state covers every call.
    const clients = new Map();
    const clientFor = (target) => {
        if (!clients.has(target))
            clients.set(target, deps.clientFor(target));
        return clients.get(target);
    };
    try {
        const findings = await candidates(unique, deps, failures);
        const repositories = await resolveAll(findings, { ...deps, clientFor }, failures);
        const repositoryKeys = [...new Set([...repositories.values()].filter((r) => !!r?.hasIssues).map((r) => repositoryKey(r.target.server, r.fullName)))];
        const heldRepositories = await holding(deps, repositoryKeys, holder, { products: unique });
        if (!heldRepositories)
            return { ...report(), failed: failures.count + 1 };
        try {
            await pushFindings(findings, repositories, deps, counts, failures);
        }
        finally {
            await heldRepositories();
        }
        // Issues opened before (by any run) follow their findings, under the same product locks.
        lifecycle = await followIssues(unique, { ...deps, clientFor, maxChangesPerRun: deps.maxIssuesPerRun, resolved: repositories });
    }
    finally {
        await held();
    }
    return report();
}
/** The release of the keys, or undefined (logged) when another push held one too long. */
async function holding(deps, keys, holder, at) {
    try {
        return await holdKeys(deps.locks, keys, holder, deps.lockWait);
    }
    catch (err) {
        if (!(err instanceof PushLockTimeout))
            throw err;
        deps.log.warn({ ...at, err: err.message }, 'issue push: skipped; the next run tries again');
        return undefined;
    }
}
/** The repository of every product with findings (read-only calls, made before the repository locks). */
async function resolveAll(findings, deps, failures) {
    const resolved = new Map();
    for (const product of new Set(findings.map((f) => f.product))) {
        try {
            resolved.set(product, await resolveRepository(product, deps.targets, deps.clientFor));
        }
        catch (err) {
            const count = findings.filter((f) => f.product === product).length;
            deps.log.warn({ product, findings: count, err: (0,server_errors/* message */.iU)(err) }, 'issue push: repository lookup failed');
            failures.count += count;
        }
    }
    return resolved;
}
async function pushFindings(findings, repositories, deps, counts, failures) {
    const indexes = new Map();
    const refused = new Set();
    for (const [index, finding] of findings.entries()) {
        if (counts.opened >= deps.maxIssuesPerRun) {
            counts.deferred = findings.length - index;
            deps.log.info({ deferred: counts.deferred, max_issues_per_run: deps.maxIssuesPerRun }, 'issue push: per-run cap reached; the rest waits for the next run');
            return;
        }
        const at = { finding: finding.id, product: finding.product };
        // Not in the map: its lookup failed (counted there).
        if (!repositories.has(finding.product))
            continue;
        const repository = repositories.get(finding.product);
        if (!repository) {
            counts.unresolved++;
            continue;
        }
        if (!repository.hasIssues) {
            if (!refused.has(repository.fullName))
                deps.log.warn({ ...at, repository: repository.fullName }, 'issue push: issues are turned off in the repository');
            refused.add(repository.fullName);
            failures.count++;
            continue;
        }
        const hash = (0,issues_finding/* findingHash */.O5)(finding);
        const pacers = deps.pacersFor(repository.target);
        const key = repositoryKey(repository.target.server, repository.fullName);
        if (!indexes.has(key))
            indexes.set(key, new IssueIndex(repository, pacers.search, deps.log));
        const issues = indexes.get(key);
        try {
            let url = await issues.find(hash);
            let droppedLabels = [];
            if (url) {
                counts.relinked++;
            }
            else {
                if (!(await pacers.create.slot())) {
                    counts.deferred = findings.length - index;
                    deps.log.warn({ deferred: counts.deferred }, 'issue push: hourly content-creation budget spent; the rest waits for a later run');
                    return;
                }
                const { value: created, found } = await writeOnce(() => createIssue(repository, issueText(finding, hash, `${deps.defectDojoUrl}/finding/${finding.id}`)), async () => {
                    const again = await issues.lookAgain(hash);
                    return again === undefined ? undefined : { url: again, droppedLabels: [] };
                });
                url = created.url;
                droppedLabels = created.droppedLabels;
                counts.opened++;
                if (found)
                    deps.log.warn({ ...at, issue: url }, 'issue opened: GitHub gave no answer to the creation, and the issue was found by its hash');
                else
                    deps.log.info({ ...at, issue: url }, 'issue opened');
            }
            issues.record(hash, url);
            // The tag goes on at once: the finding leaves every later push's list even where no label marks the issue.
            await (0,call_errors/* retryTransient */.jh)(() => deps.defectDojo.addFindingTags(finding.id, [(0,issues_finding/* issueTag */._k)(url)]), deps.retry);
            if (droppedLabels.length > 0)
                await issues.labelsDropped(droppedLabels);
        }
        catch (err) {
            failures.count++;
            deps.log.warn({ ...at, repository: repository.fullName, err: (0,server_errors/* message */.iU)(err) }, 'issue push: finding not handled; the next run tries again');
        }
    }
}

// EXTERNAL MODULE: ./build/server/sync/report.js
var sync_report = __webpack_require__(4464);
// EXTERNAL MODULE: ./node_modules/express/index.js
var express = __webpack_require__(85152);
;// CONCATENATED MODULE: ./build/server/auth/secrets.js

/**
 * Compares a presented secret with the configured one in constant time, whatever their lengths
 * (both are hashed first, so neither the content nor the length leaks through timing).
 */
function secretsEqual(presented, expected) {
    const a = (0,external_node_crypto_.createHash)('sha256').update(presented).digest();
    const b = (0,external_node_crypto_.createHash)('sha256').update(expected).digest();
    return (0,external_node_crypto_.timingSafeEqual)(a, b);
}

;// CONCATENATED MODULE: ./build/server/auth/bearer.js

/**
 * The credential of an `Authorization: Bearer <credential>` header, or undefined when the
 * header is missing, empty, of another scheme or malformed. The scheme is case-insensitive (RFC 7235).
 */
function bearerCredential(headers) {
    const value = headers.authorization;
    if (typeof value !== 'string')
        return undefined;
    const match = /^Bearer +([^\s]+) *$/i.exec(value);
    return match?.[1];
}
/** Whether the request carries `Authorization: Bearer <secret>`, compared in constant time. */
function presentsBearer(headers, secret) {
    const presented = bearerCredential(headers);
    return presented !== undefined && secretsEqual(presented, secret);
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/iso.js
var iso = __webpack_require__(64377);
;// CONCATENATED MODULE: ./build/server/http/validation.js


/** Flattens zod issues into `{path, message}` pairs; each unknown field is its own entry. */
function validationDetails(error) {
    return error.issues.flatMap((issue) => {
        const base = issue.path.map(String);
        if (issue.code === 'unrecognized_keys') {
            return issue.keys.map((key) => ({ path: [...base, key].join('.'), message: 'unknown field (not accepted)' }));
        }
        return [{ path: base.join('.') || '(root)', message: issue.message }];
    });
}
/** `422 validation_failed` with a readable message and the per-field details. */
function validationFailed(details) {
    const message = details
        .slice(0, 5)
        .map((d) => `${d.path}: ${d.message}`)
        .join('; ');
    return (0,errors/* refuseHttp */.PH)('validation_failed', { message, details });
}
/** Parses `input` with `schema`, or throws `422 validation_failed`. */
function validate(schema, input) {
    const result = schema.safeParse(input);
    if (!result.success)
        throw validationFailed(validationDetails(result.error));
    return result.data;
}
/**
 * An ISO 8601 date-time with its offset (`Z` or `±hh:mm`), as a query or body value: a time
 * without one names no instant. zod also refuses impossible dates (February 30), which `Date`
 * would roll over silently.
 */
const isoInstant = iso/* datetime */.w$({ offset: true, message: 'must be an ISO 8601 date-time with an offset (Z or ±hh:mm)' })
    .transform((s) => new Date(s));
/** A query parameter holding a whole number from 1 to `max` (three digits at most), as a number. */
const countParameter = (max, noun = 'whole number') => z
    .string()
    .regex(/^[0-9]{1,3}$/, `must be a ${noun} from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().min(1, `must be from 1 to ${max}`).max(max, `must be from 1 to ${max}`));

;// CONCATENATED MODULE: ./build/server/sync/service/dependency-track-hook.js
/**
 * Dependency-Track's outbound webhook notifications (its "Webhook" publisher: a POST of
 * `{"notification": {level, scope, group, timestamp, title, content, subject}}`), read for the
 * projects whose findings they say changed.
 */
/** The groups that change a project's findings: a BOM analysed, a new vulnerability, an analysis decision. */
const SYNCED_GROUPS = ['BOM_PROCESSED', 'NEW_VULNERABILITY', 'PROJECT_AUDIT_CHANGE'];
/** The most projects one notification starts (NEW_VULNERABILITY lists every affected project). */
const MAX_PROJECTS_PER_NOTIFICATION = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOf = (value) => {
    const uuid = value?.uuid;
    return typeof uuid === 'string' && UUID.test(uuid) ? uuid.toLowerCase() : undefined;
};
/**
 * The projects a notification names: `subject.project` (BOM_PROCESSED), `subject.affectedProjects`
 * (NEW_VULNERABILITY, PROJECT_AUDIT_CHANGE) and `subject.analysis.project` (a UUID string).
 */
function readNotification(body) {
    const notification = body?.notification;
    if (!notification || typeof notification !== 'object' || typeof notification.group !== 'string') {
        return { kind: 'invalid', message: 'not a Dependency-Track notification: {"notification": {"group": …, "subject": …}} expected' };
    }
    const group = notification.group;
    if (!SYNCED_GROUPS.includes(group))
        return { kind: 'ignored', group };
    const subject = (notification.subject ?? {});
    const found = new Set();
    const add = (uuid) => uuid && found.size < MAX_PROJECTS_PER_NOTIFICATION && found.add(uuid);
    add(uuidOf(subject.project));
    if (Array.isArray(subject.affectedProjects))
        for (const p of subject.affectedProjects)
            add(uuidOf(p));
    const analysed = subject.analysis?.project;
    if (typeof analysed === 'string' && UUID.test(analysed))
        add(analysed.toLowerCase());
    if (found.size === 0)
        return { kind: 'invalid', message: `a ${group} notification without a project UUID (subject.project, subject.affectedProjects)` };
    return { kind: 'projects', group, projects: [...found] };
}

;// CONCATENATED MODULE: ./build/server/http/error-handler.js



/** Errors raised by body-parser (raw-body) carry a `type`; map the ones a client can cause. */
function fromBodyParser(err) {
    switch (err.type) {
        case 'entity.too.large':
            return (0,errors/* refuseHttp */.PH)('payload_too_large');
        case 'entity.parse.failed':
            return (0,errors/* invalidJson */.U8)();
        case 'encoding.unsupported':
        case 'charset.unsupported':
            return (0,errors/* refuseHttp */.PH)('unsupported_media_type');
        case 'request.aborted':
        case 'request.size.invalid':
            return (0,errors/* refuseHttp */.PH)('invalid_request');
        default:
            return undefined;
    }
}
/** What an error is answered with: its own status and code, or the client error behind it, or 500. */
function toAppError(err) {
    if (err instanceof errors/* AppError */.uV)
        return err;
    // No verdict was reached and nothing was half-written: the client may retry.
    if (err instanceof StoreUnavailable)
        return (0,errors/* refuseHttp */.PH)('store_unavailable', {}, { cause: err, headers: { 'Retry-After': '2' } });
    if (err && typeof err === 'object') {
        const mapped = fromBodyParser(err);
        if (mapped)
            return mapped;
        const status = err.status;
        // Other client errors raised by Express itself (a path parameter whose percent-encoding does
        // not decode is a 400): the catalogued code of that status, else `400 invalid_request`. No
        // cause is logged: Express's message quotes the parameter, which may be a webhook's secret.
        if (typeof status === 'number' && status >= 400 && status < 500)
            return (0,errors/* refuseHttp */.PH)(CLIENT_ERROR_BY_STATUS.get(status) ?? 'invalid_request');
    }
    return (0,errors/* refuseHttp */.PH)('internal_error');
}
/** The HTTP layer's code for a client-error status (for 400, the general one, not `invalid_json`). */
const CLIENT_ERROR_BY_STATUS = new Map(Object.entries(errors/* HTTP_ERRORS */.P$).filter(([code, status]) => status < 500 && code !== 'invalid_json').map(([code, status]) => [status, code]));
/** The error code an error is answered with (for counting outcomes without answering twice). */
const answeredCode = (err) => toAppError(err).code;
/** The single place where an error becomes an HTTP response, for every Express app (its error handler). */
const errorHandler = (err, req, res, _next) => {
    const appError = toAppError(err);
    if (appError.status >= 500) {
        // The request's log line carries `res.err`: one line per failed request, with the real error.
        res.err = err instanceof Error ? err : new Error(String(err));
    }
    else if (appError.cause !== undefined) {
        req.log?.info({ code: appError.code, cause: describeCause(appError.cause) }, 'request refused');
    }
    if (res.headersSent) {
        res.end();
        return;
    }
    res.status(appError.status).set({ ...API_HEADERS, ...appError.headers }).json(appError.body());
};
/** Only the class name and message of a cause are logged: never a stack with request data. */
function describeCause(cause) {
    return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}

;// CONCATENATED MODULE: ./build/server/sync/service/errors.js

/**
 * Every error the sync service's HTTP surface answers, with its HTTP status: its one catalogue
 * (docs/sync-service.md). Routes refuse by code (`refuse('run_in_progress')`).
 */
const SYNC_SERVICE_ERRORS = {
    ...errors/* HTTP_ERRORS */.P$,
    unauthorized: 401,
    unknown_source: 404,
    run_in_progress: 409,
    not_ready: 503,
    configuration_invalid: 503,
    shutting_down: 503,
};
/** A refusal of the sync service, by code. */
const refuse = (0,errors/* refusalsOf */.he)(SYNC_SERVICE_ERRORS);

;// CONCATENATED MODULE: ./build/server/readiness-log.js
/**
 * Readiness as an operator sees it in the log: each change (ready ↔ not ready, or another reason
 * for not being ready) written once, not once per probe, so a log alert fires on the change and a
 * probe every few seconds adds nothing. Not ready is a `warn` with the reason and what to fix.
 */
class ReadinessLog {
    log;
    last;
    /**
     * `startsReady`: the process counts as ready from its start (the backend: its store is reached
     * lazily), so only a loss and the recovery after it are written, not the first success.
     */
    constructor(log, options = {}) {
        this.log = log;
        if (options.startsReady)
            this.last = 'ready';
    }
    ready() {
        if (this.last === 'ready')
            return;
        const wasNotReady = this.last !== undefined;
        this.last = 'ready';
        this.log.info(wasNotReady ? 'ready again' : 'ready');
    }
    /** `problems` are part of the state (a new list is a change); `detail` is only written with it. */
    notReady(reason, problems = [], detail = {}) {
        const state = `${reason}\u0000${problems.join('\u0000')}`;
        if (this.last === state)
            return;
        this.last = state;
        this.log.warn({ reason, ...(problems.length > 0 ? { problems } : {}), ...detail }, `not ready: ${reason}`);
    }
}

;// CONCATENATED MODULE: ./build/server/http/request-logging.js

/** Puts `fields` on the request's one log line, under `msg`: a route's outcome without a second line. */
function noteLogLine(res, msg, fields) {
    res.logLine = { msg, fields };
}
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Reuses a caller's `x-request-id` when it is a plain token, otherwise makes one. */
function requestId(req, res) {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : (0,external_node_crypto_.randomUUID)();
    res.setHeader('x-request-id', id);
    return id;
}
const request_logging_REDACTED = '[redacted]';
/** A path segment as the router reads it (percent-decoded); the raw text when it does not decode. */
function request_logging_decoded(segment) {
    try {
        return decodeURIComponent(segment);
    }
    catch {
        return segment;
    }
}
/**
 * The path as logged: every segment that decodes to one of `secrets`, and every segment after a
 * `secretAfter` prefix, replaced whole by `[redacted]`. Segments are compared decoded, so
 * `%2F`, `%2f` or `%2B` spellings of a secret are caught as well as the raw value.
 */
function loggedPath(path, secrets, secretAfter) {
    if (secrets.length === 0 && secretAfter.length === 0)
        return path;
    const segments = path.split('/');
    const plain = segments.map(request_logging_decoded);
    // The leading '' of an absolute path is skipped; empty segments (`//`) are not counted.
    const named = plain.map((s, i) => ({ s, i })).filter(({ s, i }) => i > 0 && s !== '');
    const hidden = new Set();
    for (const prefix of secretAfter) {
        if (named.length > prefix.length && prefix.every((p, k) => named[k].s.toLowerCase() === p))
            for (const { i } of named.slice(prefix.length))
                hidden.add(i);
    }
    plain.forEach((s, i) => {
        if (s !== '' && secrets.includes(s))
            hidden.add(i);
    });
    return hidden.size === 0 ? path : segments.map((s, i) => (hidden.has(i) ? request_logging_REDACTED : s)).join('/');
}
/**
 * One log line per request, when it ends: the request id, method and path (no query string, no
 * headers, no body; secret segments redacted, see `loggedPath`), the status, the duration, and what the route added (`noteLogLine`:
 * `/token` puts its audit fields there instead of logging a second line). `probePaths` are logged
 * at debug level. `req.log` is a child logger that carries the request. Written here rather than
 * with pino-http for the one-line rule: a route's outcome (`/token`'s audit) joins the request's
 * line instead of adding a second one.
 */
function requestLogging(logger, options = {}) {
    const probes = new Set(options.probePaths ?? []);
    const secrets = (options.secrets ?? []).filter((s) => s !== '');
    const secretAfter = (options.secretAfter ?? []).map((prefix) => prefix.map((s) => s.toLowerCase()));
    return (req, res, next) => {
        const started = performance.now();
        const id = requestId(req, res);
        const path = loggedPath((req.url ?? '').split('?')[0], secrets, secretAfter);
        req.id = id;
        req.log = logger.child({ req: { id, method: req.method, path } });
        // Node emits 'close' on every response: after 'finish', or when the connection ends first.
        res.once('close', () => {
            const responseTime = Math.round(performance.now() - started);
            const failed = res.err !== undefined || res.statusCode >= 500;
            const line = res.logLine;
            const fields = { res: { statusCode: res.statusCode }, responseTime, ...(failed ? { err: res.err ?? new Error(`failed with status code ${res.statusCode}`) } : {}), ...line?.fields };
            const level = probes.has(path) ? 'debug' : failed ? 'error' : 'info';
            const message = failed ? 'request errored' : res.writableFinished ? (line?.msg ?? 'request completed') : 'request aborted';
            req.log[level](fields, message);
        });
        next();
    };
}

;// CONCATENATED MODULE: ./build/server/http/routes.js

/**
 * Registers the handlers of one path and answers every other method with
 * `405 method_not_allowed` and an `Allow` header (HEAD follows GET, as in Express).
 */
function route(router, path, handlers) {
    const r = router.route(path);
    const allowed = [];
    for (const [method, chain] of Object.entries(handlers)) {
        r[method](...chain);
        allowed.push(method.toUpperCase());
        if (method === 'get')
            allowed.push('HEAD');
    }
    r.all(() => {
        throw (0,errors/* methodNotAllowed */.TS)(allowed);
    });
}

;// CONCATENATED MODULE: ./build/server/sync/service/app.js












const SYNC_SERVICE_NAME = 'gatehouse-sync';
/** The largest notification read (a BOM_PROCESSED notification carries the whole BOM, base64). */
const HOOK_BODY_LIMIT = '32mb';
/** The one scope parameter of a run (`?project=` / `?repository=`), checked; undefined without a query. */
function scopeOf(req, service, source) {
    const names = Object.keys(req.query);
    if (names.length === 0)
        return undefined;
    const scope = service.scopeOf(source);
    if (!scope) {
        if (!service.sources.includes(source))
            throw refuse('unknown_source');
        throw validationFailed(names.map((name) => ({ path: name, message: `${source} runs whole: it takes no query parameter` })));
    }
    const unknown = names.filter((n) => n !== scope.parameter);
    if (unknown.length > 0)
        throw validationFailed(unknown.map((name) => ({ path: name, message: `unknown parameter (${source} takes ${scope.parameter})` })));
    const value = req.query[scope.parameter];
    if (typeof value !== 'string' || !scope.accepts(value))
        throw validationFailed([{ path: scope.parameter, message: `must be ${scope.form}, once` }]);
    return { items: [value] };
}
/**
 * Dependency-Track's webhook publisher signs nothing: the secret comes as a bearer header or as
 * the last path segment, compared in constant time (the path is scrubbed from every log line).
 */
function hookSecret(secret) {
    return (req, _res, next) => {
        if (secret === undefined)
            throw refuse('not_found');
        const inPath = typeof req.params.secret === 'string' ? req.params.secret : undefined;
        const ok = inPath !== undefined ? secretsEqual(inPath, secret) : presentsBearer(req.headers, secret);
        if (!ok)
            throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
        next();
    };
}
/** Open when no token is configured (the service warns at start); otherwise a constant-time bearer check. */
function bearer(token) {
    return (req, _res, next) => {
        if (token === undefined)
            return next();
        if (!presentsBearer(req.headers, token))
            throw refuse('unauthorized', {}, { headers: { 'WWW-Authenticate': 'Bearer' } });
        next();
    };
}
/** The sync service's HTTP surface: probes, metrics and on-demand runs. Wiring only. */
function createSyncApp(deps) {
    const router = (0,express.Router)();
    const auth = bearer(deps.triggerToken);
    const health = { status: 'ok', service: SYNC_SERVICE_NAME, version: deps.version };
    route(router, '/healthz', { get: [(_req, res) => void res.json(health)] });
    const readinessLog = new ReadinessLog(deps.logger);
    route(router, '/readyz', {
        get: [
            async (_req, res) => {
                const answer = await deps.readiness.check();
                if (answer.ready) {
                    readinessLog.ready();
                    res.json({ status: 'ready' });
                    return;
                }
                readinessLog.notReady(answer.reason, answer.problems);
                // Answered here, not thrown: a probe's not-ready is not a failed request for the log.
                res.status(SYNC_SERVICE_ERRORS.not_ready).json({ error: 'not_ready', reason: answer.reason, ...(answer.problems?.length ? { problems: answer.problems } : {}) });
            },
        ],
    });
    route(router, '/metrics', {
        get: [
            auth,
            async (_req, res) => {
                const text = await deps.metrics.text();
                res.set('Content-Type', deps.metrics.contentType).send(text);
            },
        ],
    });
    // No body is read: the source in the path (and a project or repository in the query) is the whole request.
    route(router, '/sync/:source', {
        post: [
            auth,
            async (req, res) => {
                if (!deps.service)
                    throw refuse('configuration_invalid');
                const source = String(req.params.source);
                const scope = scopeOf(req, deps.service, source);
                const answer = await deps.service.start(source, 'trigger', scope);
                switch (answer.outcome) {
                    case 'started':
                        req.log?.info({ run_id: answer.runId, source: req.params.source, ...(scope ? { items: scope.items } : {}) }, 'run triggered');
                        res.status(202).json({ accepted: true, run_id: answer.runId });
                        return;
                    case 'busy':
                        throw refuse('run_in_progress');
                    case 'unknown_source':
                        throw refuse('unknown_source');
                    case 'stopping':
                        throw refuse('shutting_down', {}, { headers: { 'Retry-After': '30' } });
                }
            },
        ],
    });
    // Dependency-Track's notifications: the projects they name are synced (queued behind a run in progress).
    const hook = [
        hookSecret(deps.webhookSecret),
        express.json({ limit: HOOK_BODY_LIMIT, type: () => true }),
        async (req, res) => {
            if (!deps.service)
                throw refuse('configuration_invalid');
            if (!deps.service.sources.includes('dependencytrack'))
                throw refuse('unknown_source');
            const reading = readNotification(req.body);
            if (reading.kind === 'invalid')
                throw validationFailed([{ path: 'notification', message: reading.message }]);
            if (reading.kind === 'ignored') {
                res.status(200).json({ accepted: false, group: reading.group, reason: 'group_not_synced' });
                return;
            }
            const outcome = await deps.service.enqueue('dependencytrack', reading.projects);
            if (outcome === 'stopping')
                throw refuse('shutting_down', {}, { headers: { 'Retry-After': '30' } });
            req.log?.info({ group: reading.group, projects: reading.projects, outcome }, 'Dependency-Track notification');
            res.status(202).json({ accepted: true, group: reading.group, projects: reading.projects, queued: outcome === 'queued' });
        },
    ];
    route(router, '/hooks/dependency-track', { post: hook });
    route(router, '/hooks/dependency-track/:secret', { post: hook });
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    // The webhook secret may travel as a path segment: that segment is never logged, whatever it holds.
    const secrets = [deps.webhookSecret, deps.triggerToken].filter((s) => s !== undefined);
    app.use(requestLogging(deps.logger, { probePaths: ['/healthz', '/readyz', '/metrics'], secrets, secretAfter: [['hooks', 'dependency-track']] }), apiHeaders, router);
    app.use(() => {
        throw (0,errors/* notFound */.mX)();
    });
    app.use(errorHandler);
    return app;
}

// EXTERNAL MODULE: ./node_modules/prom-client/index.js
var prom_client = __webpack_require__(95222);
;// CONCATENATED MODULE: ./build/server/sync/service/metrics.js


const METRIC_PREFIX = 'gatehouse_';
/** The `change` label of `gatehouse_sync_finding_changes_total`: DefectDojo's reimport statistics. */
const FINDING_CHANGES = ['created', 'closed', 'reactivated'];
/**
 * The service's Prometheus metrics, on a registry of its own (never prom-client's global one),
 * so a test or a second service in one process starts from zero.
 */
class SyncMetrics {
    registry = new prom_client.Registry();
    findings;
    changes;
    issues;
    issuesClosed;
    issuesReopened;
    lastSuccess;
    errors;
    runs;
    duration;
    running;
    constructor(options = {}) {
        const registers = [this.registry];
        // The default process metrics keep their usual names (process_*, nodejs_*), which dashboards expect.
        if (options.defaultMetrics !== false)
            (0,prom_client.collectDefaultMetrics)({ register: this.registry });
        this.findings = new prom_client.Counter({
            name: `${METRIC_PREFIX}sync_findings_total`,
            help: 'Findings sent to DefectDojo, by source',
            labelNames: ['source'],
            registers,
        });
        this.changes = new prom_client.Counter({
            name: `${METRIC_PREFIX}sync_finding_changes_total`,
            help: "What DefectDojo's reimports did to findings (its own statistics; a reimport that created its test counts all its findings as created), by source",
            labelNames: ['source', 'change'],
            registers,
        });
        this.issues = new prom_client.Counter({ name: `${METRIC_PREFIX}issues_total`, help: 'GitHub issues opened for DefectDojo findings', registers });
        this.issuesClosed = new prom_client.Counter({ name: `${METRIC_PREFIX}issues_closed_total`, help: 'GitHub issues closed because their DefectDojo finding is no longer active', registers });
        this.issuesReopened = new prom_client.Counter({ name: `${METRIC_PREFIX}issues_reopened_total`, help: 'GitHub issues reopened because their DefectDojo finding became active again', registers });
        this.lastSuccess = new prom_client.Gauge({
            name: `${METRIC_PREFIX}last_success_timestamp`,
            help: 'Unix time (seconds) at which the last fully successful run of a source ended; until one has since the service started, the time it started',
            labelNames: ['source'],
            registers,
        });
        this.errors = new prom_client.Counter({
            name: `${METRIC_PREFIX}errors_total`,
            help: 'Failures: a project, alert list or finding that failed, or a run that could not start',
            registers,
        });
        this.runs = new prom_client.Counter({ name: `${METRIC_PREFIX}sync_runs_total`, help: 'Finished runs, by source and outcome', labelNames: ['source', 'outcome'], registers });
        this.duration = new prom_client.Histogram({
            name: `${METRIC_PREFIX}sync_run_duration_seconds`,
            help: 'Duration of a run of a source, issue push included',
            labelNames: ['source'],
            buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600],
            registers,
        });
        this.running = new prom_client.Gauge({ name: `${METRIC_PREFIX}sync_running`, help: '1 while a run of the source is in progress', labelNames: ['source'], registers });
        // Every source appears from the first scrape, so a rate() or an absence alert has a series to read.
        for (const source of sync_config/* SOURCES */.Hl) {
            this.findings.inc({ source }, 0);
            for (const change of FINDING_CHANGES)
                this.changes.inc({ source, change }, 0);
            this.running.set({ source }, 0);
        }
        this.issues.inc(0);
        this.issuesClosed.inc(0);
        this.issuesReopened.inc(0);
        this.errors.inc(0);
    }
    /**
     * The enabled sources, at the service's start: each one's last-success series starts at the
     * start time, so a staleness alert (`time() - gatehouse_last_success_timestamp > …`) has a
     * series from the first scrape and fires when no run has succeeded that long after a restart.
     */
    sourcesEnabled(sources, startedAt) {
        for (const source of sources)
            this.lastSuccess.set({ source }, startedAt.getTime() / 1000);
    }
    runStarted(source) {
        this.running.set({ source }, 1);
    }
    runFinished(source, outcome, seconds, endedAt) {
        this.running.set({ source }, 0);
        this.runs.inc({ source, outcome });
        this.duration.observe({ source }, seconds);
        if (outcome === 'success')
            this.lastSuccess.set({ source }, endedAt.getTime() / 1000);
    }
    findingsSent(source, count) {
        if (count > 0)
            this.findings.inc({ source }, count);
    }
    /** A run's totals of DefectDojo's own counts. */
    findingsChanged(source, totals) {
        for (const change of FINDING_CHANGES)
            if (totals[change] > 0)
                this.changes.inc({ source, change }, totals[change]);
    }
    issuesOpened(count) {
        if (count > 0)
            this.issues.inc(count);
    }
    /** Issue lifecycle after a run: issues closed and reopened. */
    issuesChanged(closed, reopened) {
        if (closed > 0)
            this.issuesClosed.inc(closed);
        if (reopened > 0)
            this.issuesReopened.inc(reopened);
    }
    errorsSeen(count) {
        if (count > 0)
            this.errors.inc(count);
    }
    text() {
        return this.registry.metrics();
    }
    get contentType() {
        return this.registry.contentType;
    }
}

// EXTERNAL MODULE: ./build/server/sync/credentials.js
var credentials = __webpack_require__(71930);
;// CONCATENATED MODULE: ./build/server/sync/service/readiness.js

const DEFAULT_FRESH_MS = 5 * 60_000;
/** A probe every few seconds at most while DefectDojo fails: not one call with the token per `/readyz`. */
const DEFAULT_FAILURE_MS = 10_000;
/** A refusal of the token (401/403) is told apart from DefectDojo not answering. */
function failureReason(err) {
    return (0,credentials/* isRefusal */.vu)(err) ? 'defectdojo_unauthorized' : 'defectdojo_unreachable';
}
/**
 * `GET /readyz`: the configuration is valid and DefectDojo answered recently. A run's successful
 * reimport counts as an answer; when none is recent, one probe call is made (shared by
 * concurrent probes) rather than on every request.
 */
class Readiness {
    options;
    lastAnswerAt = Number.NEGATIVE_INFINITY;
    lastFailure;
    probing;
    stopping = false;
    constructor(options) {
        this.options = options;
    }
    /** DefectDojo answered a call with 2xx. */
    defectDojoAnswered() {
        this.lastAnswerAt = this.options.timers.now();
        this.lastFailure = undefined;
    }
    shuttingDown() {
        this.stopping = true;
    }
    async check() {
        if (this.stopping)
            return { ready: false, reason: 'shutting_down' };
        if (this.options.configProblems.length > 0 || !this.options.probe) {
            return { ready: false, reason: 'configuration_invalid', problems: this.options.configProblems };
        }
        const now = this.options.timers.now();
        if (now - this.lastAnswerAt <= (this.options.freshMs ?? DEFAULT_FRESH_MS))
            return { ready: true };
        if (this.lastFailure && now - this.lastFailure.at < (this.options.failureMs ?? DEFAULT_FAILURE_MS))
            return { ready: false, reason: this.lastFailure.reason };
        this.probing ??= this.options.probe().then(() => {
            this.defectDojoAnswered();
            return undefined;
        }, (err) => {
            const reason = failureReason(err);
            this.lastFailure = { at: this.options.timers.now(), reason };
            return reason;
        });
        const probing = this.probing;
        const failed = await probing.finally(() => {
            if (this.probing === probing)
                this.probing = undefined;
        });
        return failed === undefined ? { ready: true } : { ready: false, reason: failed };
    }
}

// EXTERNAL MODULE: ./build/server/sync/service/schedule.js + 1 modules
var service_schedule = __webpack_require__(29906);
;// CONCATENATED MODULE: ./build/server/sync/service/scheduler.js
/** Node's timers hold at most 2^31-1 ms (about 24.8 days); a later run is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * One timer per source, armed for its next run. Runs missed while the process was busy or
 * asleep are not caught up: the next one is computed from the later of the planned time and now.
 */
class Scheduler {
    timers;
    entries = new Map();
    stopped = false;
    constructor(timers) {
        this.timers = timers;
    }
    add(name, schedule, fire) {
        if (this.entries.has(name))
            throw new Error(`${name} is already scheduled`);
        const entry = { schedule, fire, nextAt: null };
        this.entries.set(name, entry);
        this.arm(entry, new Date(this.timers.now()));
    }
    /** The next planned run of each source (null when its expression has no future date). */
    nextRuns() {
        return Object.fromEntries([...this.entries].map(([name, e]) => [name, e.nextAt]));
    }
    /** Disarms every timer; a run already started is not affected. */
    stop() {
        this.stopped = true;
        for (const entry of this.entries.values())
            this.timers.clearTimeout(entry.handle);
    }
    arm(entry, after) {
        const at = entry.schedule.next(after);
        entry.nextAt = at;
        if (!at || this.stopped)
            return;
        const wait = () => {
            if (this.stopped)
                return;
            const delay = at.getTime() - this.timers.now();
            if (delay > MAX_TIMER_MS) {
                entry.handle = this.timers.setTimeout(wait, MAX_TIMER_MS);
                return;
            }
            entry.handle = this.timers.setTimeout(() => {
                if (this.stopped)
                    return;
                this.arm(entry, new Date(Math.max(at.getTime(), this.timers.now())));
                entry.fire();
            }, Math.max(0, delay));
        };
        wait();
    }
}

;// CONCATENATED MODULE: ./build/server/sync/service/service.js



/**
 * Runs sources: at most one run per source at a time (the lock), runs of different sources side
 * by side. Every run ends in the metrics and one summary log line, whatever happened in it.
 */
class SyncService {
    deps;
    running = new Map();
    /** Sources between the in-process check and the lock, so two triggers in one tick cannot both pass. */
    claiming = new Set();
    /** Items asked for (webhooks) while their source was busy: run together once it is free. */
    queued = new Map();
    stopping = false;
    constructor(deps) {
        this.deps = deps;
    }
    get sources() {
        return this.deps.connectors.map((c) => c.source);
    }
    /** How a run of an enabled source is narrowed to one item (`Connector.scope`); undefined when it cannot be, or the source is not enabled. */
    scopeOf(source) {
        return this.deps.connectors.find((c) => c.source === source)?.scope;
    }
    /**
     * Runs `items` of `source` as soon as no other run of it holds its lock: now when it is free,
     * else after the run in progress (items asked for meanwhile are run together). Answers whether
     * they started now or wait.
     */
    async enqueue(source, items) {
        if (!this.deps.connectors.some((c) => c.source === source))
            return 'unknown_source';
        if (this.stopping)
            return 'stopping';
        this.queued.set(source, new Set([...(this.queued.get(source) ?? []), ...items]));
        return (await this.drain(source)) ? 'started' : 'queued';
    }
    /** Starts the queued items of a source when it is free; true when a run started. */
    async drain(source) {
        const pending = this.queued.get(source);
        if (!pending || pending.size === 0 || this.stopping || this.running.has(source) || this.claiming.has(source))
            return false;
        const items = [...pending];
        this.queued.delete(source);
        const answer = await this.start(source, 'webhook', { items });
        if (answer.outcome === 'started')
            return true;
        // Held (by another process's lock): put back, tried again when a run of the source ends here.
        this.queued.set(source, new Set([...(this.queued.get(source) ?? []), ...items]));
        return false;
    }
    /** Items waiting for their source to be free. */
    queuedItems(source) {
        return [...(this.queued.get(source) ?? [])];
    }
    /** Starts a run of `source` unless one is in progress; answers without waiting for the run. */
    async start(source, reason, scope) {
        const connector = this.deps.connectors.find((c) => c.source === source);
        if (!connector)
            return { outcome: 'unknown_source' };
        if (this.stopping)
            return { outcome: 'stopping' };
        if (this.running.has(connector.source) || this.claiming.has(connector.source))
            return { outcome: 'busy' };
        this.claiming.add(connector.source);
        const runId = (this.deps.newRunId ?? external_node_crypto_.randomUUID)();
        try {
            const lease = await this.deps.locks.acquire(connector.source, runId);
            if (!lease)
                return { outcome: 'busy' };
            const finished = this.execute(connector, runId, reason, scope).finally(async () => {
                this.running.delete(connector.source);
                await lease.release().catch((err) => this.deps.logger.warn({ err, source: connector.source }, 'lock release failed; it expires on its own'));
                // Items a webhook asked for during this run.
                void this.drain(connector.source).catch((err) => this.deps.logger.error({ source: connector.source, err: (0,server_errors/* message */.iU)(err) }, 'queued items could not start'));
            });
            this.running.set(connector.source, finished);
            return { outcome: 'started', runId, finished };
        }
        finally {
            this.claiming.delete(connector.source);
        }
    }
    /** Runs in progress. */
    get inProgress() {
        return this.running.size;
    }
    /**
     * Refuses new runs and waits for the running ones, at most `graceMs`. True when all finished;
     * false when some were still running at the bound (the caller stops anyway).
     */
    async stop(graceMs) {
        this.stopping = true;
        const all = Promise.allSettled([...this.running.values()]).then(() => true);
        let timer;
        const bound = new Promise((resolve) => {
            timer = setTimeout(() => resolve(false), graceMs);
        });
        try {
            return await Promise.race([all, bound]);
        }
        finally {
            clearTimeout(timer);
        }
    }
    async execute(connector, runId, reason, scope) {
        const { metrics, timers } = this.deps;
        const log = this.deps.logger.child({ run_id: runId, source: connector.source });
        const startedAt = timers.now();
        metrics.runStarted(connector.source);
        log.info({ reason, ...(scope ? { items: scope.items } : {}) }, 'run started');
        let result;
        try {
            const report = await this.deps.runSource(connector, log, scope);
            metrics.findingsSent(connector.source, report.totals.findings);
            metrics.findingsChanged(connector.source, report.totals);
            metrics.errorsSeen(report.totals.failed + (report.error ? 1 : 0));
            if (report.totals.synced > 0)
                this.deps.onDefectDojoAnswer?.();
            for (const { level, text } of (0,sync_report/* summaryEntries */.rR)(report))
                log[level]({ totals: report.totals }, text);
            let issues;
            if (this.deps.issuePush) {
                try {
                    issues = await this.deps.issuePush(report, log);
                }
                catch (err) {
                    issues = { opened: 0, failed: 1 };
                    log.error({ err: (0,server_errors/* message */.iU)(err) }, 'issue push stopped');
                }
                metrics.issuesOpened(issues.opened);
                metrics.issuesChanged(issues.closed ?? 0, issues.reopened ?? 0);
                metrics.errorsSeen(issues.failed);
            }
            result = { runId, source: connector.source, ok: report.ok && (issues?.failed ?? 0) === 0, report, ...(issues ? { issues } : {}) };
        }
        catch (err) {
            // A connector reports its failures; reaching here is a bug or a configuration the checks missed.
            metrics.errorsSeen(1);
            log.error({ err: (0,server_errors/* message */.iU)(err) }, 'run failed');
            result = { runId, source: connector.source, ok: false, error: (0,server_errors/* message */.iU)(err) };
        }
        const endedAt = timers.now();
        metrics.runFinished(connector.source, result.ok ? 'success' : 'failure', (endedAt - startedAt) / 1000, new Date(endedAt));
        // A run that did not fully succeed says so at warn: what failed was logged above, at warn or error.
        log[result.ok ? 'info' : 'warn']({ ok: result.ok, duration_ms: endedAt - startedAt, issues: result.issues }, result.ok ? 'run finished' : 'run finished with failures');
        return result;
    }
}

;// CONCATENATED MODULE: ./build/server/sync/service/start.js



















/** Loads and checks everything the enabled sources need; never throws for a configuration problem. */
function checkServiceConfig(load) {
    let loaded;
    try {
        loaded = load();
    }
    catch (err) {
        if (err instanceof sync_config/* SyncConfigError */._t)
            return { problems: err.problems, ...(err.mode ? { mode: err.mode } : {}) };
        throw err;
    }
    const enabled = enabledConnectors(loaded);
    const problems = [
        ...(0,sync_config/* missingDefectDojo */.WE)(loaded),
        ...enabled.flatMap((c) => c.missing(loaded)),
        ...(enabled.length === 0 ? ['no source is enabled (sources.<name>.enabled)'] : []),
    ];
    return problems.length > 0 ? { problems, mode: loaded.config.mode } : { loaded, problems: [], mode: loaded.config.mode };
}
function enabledConnectors({ config }) {
    return connectors/* CONNECTORS */.T.filter((c) => config.sources[c.source].enabled);
}
/**
 * Issue push after a run, for the products it synced; undefined when it is off (no
 * `GITHUB_TARGETS`, or `github.maxIssuesPerRun` 0). The pacers and GitHub clients live as long as
 * the service, so GitHub's budgets (content creation, and each rate-limit resource) span runs and
 * sources; pushes exclude each other per product and repository through the runs' locks.
 */
function issuePushFor(loaded, defectDojo, parts, retry, conditional) {
    const { config, secrets } = loaded;
    const targets = secrets.githubTargets;
    if (targets === undefined || config.github.maxIssuesPerRun === 0)
        return undefined;
    const pacers = new PacerRegistry(parts.pacerClock);
    const clients = new Map();
    const clientFor = (target) => {
        // A spent search budget is not waited for: the push lists the repository's issues instead.
        if (!clients.has(target))
            clients.set(target, (0,rate_limited_client/* rateLimitedClient */.AZ)(target, { timeoutMs: parts.options.timeoutMs, retry, maxRateLimitWaitMsFor: { search: 0 }, conditional, clock: parts.pacerClock }));
        return clients.get(target);
    };
    // The service's own timers, not the real clock: whatever time the service was given.
    const lockClock = { now: () => parts.timers.now(), sleep: (ms) => new Promise((resolve) => void parts.timers.setTimeout(resolve, ms)) };
    return async (report, log) => {
        const products = report.items.filter((i) => i.status === 'synced').map((i) => i.product);
        const outcome = await pushIssues(products, {
            defectDojo,
            defectDojoUrl: config.defectdojo.url,
            targets,
            clientFor,
            pacersFor: (target) => pacers.for(target),
            locks: parts.locks,
            lockWait: { clock: lockClock, ...DEFAULT_PUSH_LOCK_WAIT },
            minSeverity: config.github.minSeverity,
            maxIssuesPerRun: config.github.maxIssuesPerRun,
            retry,
            log,
        });
        log[outcome.failed > 0 ? 'warn' : 'info']({ issues: outcome }, `issue push: ${outcome.opened} opened, ${outcome.relinked} relinked, ${outcome.closed} closed, ${outcome.reopened} reopened, ${outcome.keptClosed} kept closed (closed by hand), ${outcome.failed} failed, ${outcome.deferred} deferred, ${outcome.unresolved} without a repository, ${outcome.outOfScope} out of scope (skipped)`);
        return outcome;
    };
}
/** Builds the service from its parts: clients, issue push, runs, readiness, metrics, scheduler. */
function assemble(parts) {
    const metrics = parts.metrics ?? new SyncMetrics();
    const scheduler = new Scheduler(parts.timers);
    const { loaded } = parts.config;
    if (!loaded) {
        const readiness = new Readiness({ configProblems: parts.config.problems, timers: parts.timers });
        return { readiness, metrics, scheduler, issuePush: false, schedule: () => undefined };
    }
    const { config } = loaded;
    const retry = { ...http_retry/* SYNC_RETRY */.ZV, ...parts.retry, retries: parts.options.retries };
    const defectDojo = (0,run/* defectDojoClientFor */.C6)(loaded, parts.options);
    const readiness = new Readiness({ configProblems: [], probe: () => defectDojo.ping(call_bounds/* READINESS_PROBE */.gS.totalMs), timers: parts.timers });
    // GitHub answers with ETags, for every run and push of the process: an unchanged list costs no rate limit.
    const conditional = new github_conditional/* ConditionalAnswers */.I();
    const issuePush = issuePushFor(loaded, defectDojo, parts, retry, conditional);
    const connectors = enabledConnectors(loaded);
    metrics.sourcesEnabled(connectors.map((c) => c.source), new Date(parts.timers.now()));
    const service = new SyncService({
        connectors,
        locks: parts.locks,
        metrics,
        logger: parts.logger,
        timers: parts.timers,
        onDefectDojoAnswer: () => readiness.defectDojoAnswered(),
        runSource: (connector, log, scope) => (0,run/* runConnector */.Fq)(connector, loaded, parts.options, (0,sync_report/* leveledProgress */.TW)(connector.source, connector.noun, { info: (line) => log.info(line), warn: (line) => log.warn(line) }), retry, { conditional, ...(scope ? { scope: scope.items } : {}) }),
        ...(issuePush ? { issuePush } : {}),
    });
    const schedule = () => {
        for (const source of service.sources) {
            scheduler.add(source, (0,service_schedule/* parseSchedule */.n)(config.schedule[source]), () => {
                service.start(source, 'schedule').then((answer) => {
                    if (answer.outcome === 'busy')
                        parts.logger.warn({ source }, 'scheduled run skipped: the previous run of this source is still in progress');
                }, (err) => {
                    metrics.errorsSeen(1);
                    parts.logger.error({ source, err: err instanceof Error ? err.message : String(err) }, 'scheduled run could not start');
                });
            });
        }
    };
    return { service, readiness, metrics, scheduler, issuePush: issuePush !== undefined, schedule };
}
/** Serves the HTTP surface of an assembled service. */
async function listenSyncApp(assembled, parts, port, host) {
    const app = createSyncApp({
        ...(assembled.service ? { service: assembled.service } : {}),
        readiness: assembled.readiness,
        metrics: assembled.metrics,
        logger: parts.logger,
        version: parts.version,
        ...(parts.triggerToken ? { triggerToken: parts.triggerToken } : {}),
        ...(parts.webhookSecret ? { webhookSecret: parts.webhookSecret } : {}),
    });
    const server = apiServer(app);
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, ...(host ? { host } : {}) }, () => {
            server.off('error', reject);
            resolve();
        });
    });
    return { server, port: server.address().port };
}

;// CONCATENATED MODULE: ./build/server/sync/service/serve.js









const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_CONFIG = 2;
/**
 * The MongoDB driver loads only when MONGODB_URI is set: in the command-line bundle it is a chunk
 * of its own (about 1.6 MB), so the service chunk stays under 2 MB and in-memory mode never parses it.
 * The import names the package itself, so the chunk holds only the driver and keeps the id of its
 * name: importing our own module that imports the driver made webpack split the driver into a
 * second, unnamed chunk whose id changed between builds, and dist/ could not equal a fresh build.
 */
const loadDriver = () => __webpack_require__.e(/* import() | mongodb */ 755).then(__webpack_require__.t.bind(__webpack_require__, 84294, 19));
async function locksFor(mongoUri, onLost) {
    if (!mongoUri)
        return memoryLocks();
    return mongoLocks(mongoUri, { onLost }, await loadDriver());
}
/**
 * `gatehouse-sync serve`. Mode deployment: every enabled source on its schedule, the HTTP
 * surface on PORT, until SIGTERM or SIGINT; an invalid configuration keeps the process up and
 * not ready, so the orchestrator shows why. Mode cronjob: every enabled source once, then the
 * exit status (0 all succeeded, 1 one failed, 2 invalid configuration). An unusable process
 * setting (PORT, HOST, LOG_LEVEL, SYNC_SHUTDOWN_GRACE_SECONDS, MONGODB_URI) exits 2 in either mode.
 */
async function serveCommand(args, env, io, signals = process) {
    const checked = await checkServiceProcess(env, loadDriver);
    const config = checkServiceConfig(() => (0,sync_config/* loadSyncConfig */.mw)({ ...(args.configFile ? { file: args.configFile } : {}), env }));
    const mode = config.mode ?? 'deployment';
    // A process setting stops it in either mode; the sync configuration's problems are listed too, so one look shows them all.
    if (!checked.ok || (config.problems.length > 0 && mode === 'cronjob')) {
        const problems = [...(checked.ok ? [] : checked.problems.map((p) => p.message)), ...config.problems];
        io.err(`gatehouse-sync: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
        return EXIT_CONFIG;
    }
    const { port, host, logLevel, graceMs, mongoUri } = checked.value;
    // Every line scrubbed of the configured secrets, whatever logged it (an upstream may echo one).
    const logger = serviceLogger({ level: logLevel, secrets: serviceSecrets(config.loaded, env) });
    if (config.problems.length > 0) {
        logger.error({ problems: config.problems }, 'invalid configuration: nothing is scheduled and /readyz answers 503 until it is fixed');
    }
    // A key is a source, or an issue push's product or repository (`issue-push:…`).
    const locks = await locksFor(mongoUri, (key) => logger.error({ lock: key }, 'the lock of a running sync or issue push was taken over: another process may be doing the same work'));
    const version = (0,server_version/* packageVersion */.T)();
    const triggerToken = env.SYNC_TRIGGER_TOKEN?.trim() || undefined;
    const webhookSecret = env.SYNC_DEPENDENCY_TRACK_WEBHOOK_SECRET?.trim() || undefined;
    const assembled = assemble({
        config,
        options: args.options,
        locks,
        logger,
        timers: server_clock/* systemClock */.m,
        pacerClock: server_clock/* systemClock */.m,
        version,
        ...(triggerToken ? { triggerToken } : {}),
    });
    const { service } = assembled;
    if (mode === 'cronjob') {
        const started = await Promise.all(service.sources.map((source) => service.start(source, 'once').then((answer) => ({ source, answer }))));
        let ok = true;
        for (const { source, answer } of started) {
            if (answer.outcome === 'started')
                ok = (await answer.finished).ok && ok;
            else {
                ok = false;
                logger.error({ source, outcome: answer.outcome }, 'not run: another run of this source holds its lock');
            }
        }
        await locks.close();
        return ok ? EXIT_OK : EXIT_FAILED;
    }
    if (!triggerToken)
        logger.warn('SYNC_TRIGGER_TOKEN is not set: POST /sync/{source} and /metrics answer anyone who can reach the port');
    let listening;
    try {
        listening = await listenSyncApp(assembled, { logger, version, ...(triggerToken ? { triggerToken } : {}), ...(webhookSecret ? { webhookSecret } : {}) }, port, host);
    }
    catch (err) {
        reportListenFailure(logger, err);
        await locks.close();
        return EXIT_FAILED;
    }
    assembled.schedule();
    const nextRuns = Object.fromEntries(Object.entries(assembled.scheduler.nextRuns()).map(([s, at]) => [s, at?.toISOString() ?? null]));
    logger.info({ address: listening.server.address(), version, mode, locks: locks.kind, sources: service?.sources ?? [], next_runs: nextRuns, issue_push: assembled.issuePush }, 'gatehouse-sync listening');
    const signal = await new Promise((resolve) => {
        signals.once('SIGTERM', () => resolve('SIGTERM'));
        signals.once('SIGINT', () => resolve('SIGINT'));
    });
    logger.info({ signal, running: service?.inProgress ?? 0, grace_ms: graceMs }, 'shutting down: no new runs; running ones may finish');
    assembled.scheduler.stop();
    assembled.readiness.shuttingDown();
    const finished = service ? await service.stop(graceMs) : true;
    if (!finished)
        logger.warn({ running: service?.inProgress }, 'grace period over: stopping with runs unfinished; the next run repeats their work');
    await new Promise((resolve) => {
        listening.server.close(() => resolve());
        listening.server.closeIdleConnections();
        setTimeout(() => listening.server.closeAllConnections(), 5000).unref();
    });
    await locks.close().catch(() => undefined);
    logger.info('stopped');
    return finished ? EXIT_OK : EXIT_FAILED;
}


/***/ })

};
