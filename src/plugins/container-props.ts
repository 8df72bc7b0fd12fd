/*
 * Kept only for the ObjectStore of main (src/presets/object-store.ts, owned by the postgres side),
 * which still imports these two names; the plugin side uses ./internal. Delete this file once
 * no file imports it.
 */
import { ErrorScope } from '../common/errors';
import * as kplus from 'cdk8s-plus-28';
import { checkResources } from './internal';

/** @internal */
export function isEnvName(name: string): boolean {
  return /^[\x20-\x7e]+$/.test(name) && !name.includes('=');
}

/** @internal */
export function validateContainerResources(scope: ErrorScope, prop: string, resources: unknown, _fix: string): kplus.ContainerResources {
  return checkResources(scope, prop, resources);
}
