import type { Connector } from './connector.js';
import { dependencyTrackConnector } from './dependency-track/connector.js';
import { githubConnector } from './github/connector.js';
import { sonarQubeConnector } from './sonarqube/connector.js';

/** Every source the sync knows, in the order the usage text lists them. */
export const CONNECTORS: readonly Connector[] = [dependencyTrackConnector, githubConnector, sonarQubeConnector];

export function connectorForCommand(command: string): Connector | undefined {
  return CONNECTORS.find((c) => c.command === command);
}
