import { inject } from 'vitest';
import { RIG_PROVIDE_KEY } from './rig-env.js';

// Runs in each integration worker: copies what global setup provided into process.env, so tests
// and the child processes they spawn (bin/isulats, crictl-like tools) see the same rig.
Object.assign(process.env, inject(RIG_PROVIDE_KEY));
