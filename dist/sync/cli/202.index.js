export const id = 202;
export const ids = [202];
export const modules = {

/***/ 26741:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   mongoLocks: () => (/* binding */ mongoLocks)
/* harmony export */ });
/* unused harmony export DEFAULT_LEASE_MS */
/* harmony import */ var mongodb__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(84294);
/* harmony import */ var _store_types_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(39509);


const DUPLICATE_KEY = 11000;
/** A lease outlives a crashed holder by at most this long; a live holder renews it every third of it. */
const DEFAULT_LEASE_MS = 60_000;
/**
 * Locks as leases in MongoDB (`sync_locks`, one document per source), for when `MONGODB_URI` is
 * set: they also hold across a rolling update, where an old and a new process briefly overlap.
 * Taking a lease is one atomic upsert that matches only an expired document; a held one makes
 * the upsert collide on `_id`.
 */
function mongoLocks(uri, options = {}) {
    const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    const client = new mongodb__WEBPACK_IMPORTED_MODULE_0__.MongoClient(uri, { serverSelectionTimeoutMS: options.serverSelectionTimeoutMs ?? 5000, appName: 'gatehouse-sync' });
    const locks = client.db(options.dbName).collection('sync_locks');
    const unavailable = (err) => {
        throw err instanceof mongodb__WEBPACK_IMPORTED_MODULE_0__.MongoError ? new _store_types_js__WEBPACK_IMPORTED_MODULE_1__/* .StoreUnavailable */ .u({ cause: err }) : err;
    };
    return {
        kind: 'mongodb',
        async acquire(source, holder) {
            const now = new Date();
            try {
                await locks.updateOne({ _id: source, expiresAt: { $lte: now } }, { $set: { holder, acquiredAt: now, expiresAt: new Date(now.getTime() + leaseMs) } }, { upsert: true });
            }
            catch (err) {
                if (err instanceof mongodb__WEBPACK_IMPORTED_MODULE_0__.MongoError && err.code === DUPLICATE_KEY)
                    return undefined;
                return unavailable(err);
            }
            const renewal = setInterval(() => {
                locks.updateOne({ _id: source, holder }, { $set: { expiresAt: new Date(Date.now() + leaseMs) } }).then((result) => {
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
        close: () => client.close(),
    };
}


/***/ })

};
