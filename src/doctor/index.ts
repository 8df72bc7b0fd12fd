export * from './finding';
export * from './rules';
export { analyzeManifests, checkManifests } from './check-manifests';
