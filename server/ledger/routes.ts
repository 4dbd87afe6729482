import { Router } from 'express';
import type { CallerIdentity, OidcVerifier } from '../auth/verifier.js';
import { jsonBody } from '../http/json-body.js';
import { route } from '../http/routes.js';
import { validate } from '../http/validation.js';
import { authenticate } from './authenticate.js';
import { deliveryFigures } from './delivery-figures.js';
import { environmentsOf } from './environments.js';
import { listDeployments } from './list-deployments.js';
import { recordDeployment, type RecordDeploymentDeps } from './record-deployment.js';
import { deploymentRequest, environmentsQuery, figuresQuery, historyQuery } from './schema.js';
import type { LedgerSettings } from './settings.js';
import { deploymentView } from './view.js';
import type { DeploymentRecord } from '../store/types.js';

/** Deployment records are small; anything near this is not a deployment record. */
const BODY_LIMIT = '64kb';

export interface LedgerRouteDeps extends RecordDeploymentDeps {
  readonly verifier: OidcVerifier;
  readonly settings: () => LedgerSettings;
  /** The history cursors' key while `LEDGER_CURSOR_KEY` is unset: random, made once per process. */
  readonly processCursorKey: Uint8Array;
  /** Counts each answered delivery (the backend's metrics). */
  readonly deploymentAnswered?: (record: DeploymentRecord, duplicate: boolean) => void;
}

/** The ledger's routes: thin handlers over its use cases. */
export function ledgerRoutes(deps: LedgerRouteDeps): Router {
  const router = Router();
  const auth = authenticate(deps.verifier, deps.settings);

  route(router, '/v1/deployments', {
    post: [
      auth,
      ...jsonBody(BODY_LIMIT),
      async (req, res) => {
        const request = validate(deploymentRequest, req.body);
        const caller = res.locals.caller as CallerIdentity;
        const settings = res.locals.settings as LedgerSettings;
        const { duplicate, record } = await recordDeployment(deps, settings, caller, request);
        req.log.info({ deployment_id: record.deploymentId, duplicate }, duplicate ? 'duplicate delivery' : 'deployment recorded');
        deps.deploymentAnswered?.(record, duplicate);
        res.status(duplicate ? 200 : 201).json({ ...deploymentView(record), duplicate });
      },
    ],
    get: [
      auth,
      async (req, res) => {
        const query = validate(historyQuery, req.query);
        const caller = res.locals.caller as CallerIdentity;
        const settings = res.locals.settings as LedgerSettings;
        const page = await listDeployments(deps, caller, query, settings.cursorKey ?? deps.processCursorKey);
        res.json({ repository: caller.repository, deployments: page.records.map(deploymentView), next: page.next ?? null });
      },
    ],
  });

  route(router, '/v1/deployments/metrics', {
    get: [
      auth,
      async (req, res) => {
        const query = validate(figuresQuery, req.query);
        res.json(await deliveryFigures(deps, res.locals.caller as CallerIdentity, query));
      },
    ],
  });

  route(router, '/v1/environments', {
    get: [
      auth,
      async (req, res) => {
        validate(environmentsQuery, req.query);
        res.json(await environmentsOf(deps, res.locals.caller as CallerIdentity));
      },
    ],
  });
  return router;
}
