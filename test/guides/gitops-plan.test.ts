/*
 * The GitOps guide's Argo CD and Flux examples apply what `cdk8s synth` writes, as those tools
 * read a folder: the file cdk8s adds for validations is left out, and the large CRDs are applied
 * server-side.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { guideText, guideYaml } from './guide-example';

const guide = guideText('gitops-plan');
const blocks = guideYaml(guide);
const application = blocks.find((b) => b?.kind === 'Application');
const kustomization = blocks.find((b) => b?.kind === 'Kustomization');

/**
 * A glob as Argo CD v3.5.1 matches `directory.exclude` (util/glob Match, gobwas/glob compiled
 * without separators): `*` is any text, `?` one character, `{a,b}` alternatives; the rest literal.
 */
function argoGlob(pattern: string): RegExp {
  let re = '';
  for (const ch of pattern) {
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '{') re += '(?:';
    else if (ch === '}') re += ')';
    else if (ch === ',') re += '|';
    else re += ch.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The files `cdk8s synth` leaves in the output folder, as it runs with validations configured. */
function synthesizedFiles(): string[] {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'gitops-guide-'));
  try {
    // cdk8s-cli sets CDK8S_RECORD_CONSTRUCT_METADATA=true when cdk8s.yaml has validations
    const app = new App({ outdir, recordConstructMetadata: true });
    new Chart(app, 'databases', { namespace: 'apps' });
    new Chart(app, 'cnpg-system');
    app.synth();
    return fs.readdirSync(outdir).sort();
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

describe('the Argo CD Application of the GitOps guide', () => {
  test('reads dist/ and excludes the file cdk8s writes for validations, and only it', () => {
    const files = synthesizedFiles();
    expect(files).toContain('construct-metadata.json');
    expect(application.spec.source.path).toBe('dist');
    const exclude = argoGlob(application.spec.source.directory.exclude);
    // Argo CD reads these names (reposerver/repository/repository.go manifestFile)
    const read = files.filter((f) => /^.*\.(yaml|yml|json|jsonnet)$/.test(f) && !exclude.test(f));
    expect(read).toEqual(files.filter((f) => f.endsWith('.k8s.yaml')));
    expect(read.length).toBeGreaterThan(0);
  });

  test('applies server-side and prunes', () => {
    expect(application.spec.syncPolicy.syncOptions).toContain('ServerSideApply=true');
    expect(application.spec.syncPolicy.automated.prune).toBe(true);
  });
});

describe('the Flux Kustomization of the GitOps guide', () => {
  test('reads dist/, where its generated kustomization takes .yaml and .yml files only', () => {
    expect(kustomization.apiVersion).toBe('kustomize.toolkit.fluxcd.io/v1');
    expect(kustomization.spec.path).toBe('./dist');
    expect(kustomization.spec.prune).toBe(true);
    // fluxcd/pkg kustomize v1.35.4 kustomize_generator.go scanManifests
    const taken = synthesizedFiles().filter((f) => ['.yaml', '.yml'].includes(path.extname(f)));
    expect(taken).not.toContain('construct-metadata.json');
    expect(taken.length).toBeGreaterThan(0);
  });
});

test('the command by hand applies server-side and names the manifests, not the folder', () => {
  // the sizes the guide quotes are checked against the release manifest in test/doctor/rules/input
  expect(guide).toContain('272,526 and 339,202 bytes');
  expect(guide).toContain("kubectl apply --server-side $(printf -- '-f %s ' dist/*.k8s.yaml)");
});
