import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ValidationContext as CliValidationContext } from 'cdk8s-cli/lib/plugins/validation';
import { DoctorValidationPlugin } from '../../src/doctor/cdk8s-validation-plugin';

// the package's exports map only exposes './plugins' at run time; the types live under lib/

const { ValidationContext } = require('cdk8s-cli/plugins') as { ValidationContext: typeof CliValidationContext };

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'doctor');

function context(manifests: string[]) {
  // the real cdk8s-cli context, as `cdk8s synth` builds it for a validation plugin
  return new ValidationContext(manifests, 'cdk8s-cnpg-i', '0.1.0', { backup: { path: 'plugins/backup/Resource' } }, false);
}

describe('DoctorValidationPlugin (cdk8s-cli validations)', () => {
  test('a clean manifest passes', async () => {
    const ctx = context([path.join(FIXTURES, 'good-plugin.yaml')]);
    await new DoctorValidationPlugin().validate(ctx);
    const json = ctx.report.toJson();
    expect(json.summary.status).toBe('success');
    expect(json.summary.metadata).toEqual({
      errors: '0',
      warnings: '0',
      suppressed: '0',
      operatorNamespace: 'cnpg-system',
      cnpgVersion: '1.30.0',
      plugins: 'backup.example.com',
    });
    expect(json.violations).toEqual([]);
  });

  test("construct-metadata.json beside the manifests is not reported as 'not a Kubernetes object'", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-plugin-'));
    try {
      const meta = path.join(dir, 'construct-metadata.json');
      fs.writeFileSync(meta, JSON.stringify({ version: '1.0.0', resources: { 'plugins/backup': { path: 'plugins/backup' } } }));
      const ctx = context([path.join(FIXTURES, 'good-plugin.yaml'), meta]);
      await new DoctorValidationPlugin().validate(ctx);
      expect(ctx.report.toJson().violations).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('errors fail the report, with the construct path of the resource', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-plugin-'));
    try {
      const file = path.join(dir, 'app.k8s.yaml');
      fs.writeFileSync(
        file,
        fs.readFileSync(path.join(FIXTURES, 'good-plugin.yaml'), 'utf8').replace('cnpg.io/pluginPort: "9090"', 'cnpg.io/pluginPort: "9091"'),
      );
      const ctx = context([file]);
      await new DoctorValidationPlugin({ operatorNamespace: 'cnpg-system' }).validate(ctx);
      const json = ctx.report.toJson();
      expect(json.summary.status).toBe('failure');
      expect(json.violations).toEqual([
        {
          ruleName: 'CNPGI014 plugin-port-service (error)',
          recommendation:
            "Service/cnpg-system/backup: `cnpg.io/pluginPort` is 9091 but the Service exposes port(s) 9090; the operator dials the annotation's port and never reads spec.ports",
          fix: 'set `cnpg.io/pluginPort: "9090"`, or expose port 9091',
          violatingConstructs: [
            { resourceName: 'backup', locations: ['metadata.annotations.cnpg.io/pluginPort'], manifestPath: file, constructPath: 'plugins/backup/Resource' },
          ],
        },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });

  test("the example app's output (dist/): its sidecar plugin is known without properties, so a Cluster using it is no warning", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-plugin-'));
    try {
      const dist = path.join(__dirname, '..', '..', 'dist');
      const files = fs.readdirSync(dist).map((f) => path.join(dist, f));
      const cluster = path.join(dir, 'audited.k8s.yaml');
      fs.writeFileSync(
        cluster,
        'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: audited, namespace: databases}\nspec:\n  instances: 1\n  storage: {size: 1Gi}\n  plugins:\n    - name: audit.example.com\n',
      );
      const ctx = context([...files, cluster]);
      await new DoctorValidationPlugin({ operatorNamespace: 'cnpg-system' }).validate(ctx);
      const json = ctx.report.toJson();
      expect(json.violations).toEqual([]);
      expect(json.summary.metadata?.plugins).toBe('barman-cloud.cloudnative-pg.io, cnpg-i-hello-world.cloudnative-pg.io, audit.example.com');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('warnings pass unless failOnWarnings', async () => {
    const file = path.join(FIXTURES, 'cli', 'nested', 'list.json');
    const ctx = context([file]);
    await new DoctorValidationPlugin().validate(ctx);
    expect(ctx.report.toJson().summary.status).toBe('success');
    expect(ctx.report.toJson().violations.map((v) => v.ruleName)).toEqual(['CNPGI001 operator-namespace (warning)']);
    const strict = context([file]);
    await new DoctorValidationPlugin({ failOnWarnings: true }).validate(strict);
    expect(strict.report.toJson().summary.status).toBe('failure');
  });

  test('bad properties throw when cdk8s-cli loads the plugin', () => {
    expect(() => new DoctorValidationPlugin({ cnpgVersion: 'x' })).toThrow(
      "checkManifests: options.cnpgVersion 'x' is not a version; use MAJOR.MINOR.PATCH, e.g. '1.27.1'",
    );
    expect(() => new DoctorValidationPlugin({ failOnWarnings: 'yes' } as any)).toThrow(
      "DoctorValidationPlugin: properties.failOnWarnings 'yes' must be a boolean; write true or false",
    );
  });

  test('the bin script exports the plugin class for cdk8s.yaml', () => {
    const mod = require(path.join(__dirname, '..', '..', 'bin', 'cnpg-i-doctor.js'));
    expect(typeof mod.DoctorValidationPlugin).toBe('function');
    expect(typeof new mod.DoctorValidationPlugin({}).validate).toBe('function');
  });
});
