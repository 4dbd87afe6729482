const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether what is sent to `url` never crosses a network in clear: https, or plain http on loopback only (local harnesses). */
export const secureOrLoopback = (url: URL): boolean => url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
