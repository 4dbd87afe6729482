import * as core from '@actions/core';
import { runSyncAction } from './run.js';

await runSyncAction({ core, env: process.env });
